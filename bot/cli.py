"""The `chaos-referee` command: one entry point for every front end and tool.

Errors are mapped here and only here: a ChaosError is the user's mistake and exits 1 with its
message; anything else is our bug and exits 3 with a short note (the traceback goes to stderr
only with --debug).
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Callable, Sequence

from dotenv import find_dotenv, load_dotenv

from bot import __version__
from bot.arguments import whole
from bot.config import Settings
from bot.console import add_play_parser, run_play
from bot.engine.errors import ChaosError
from bot.errors import ConfigError
from bot.store.cli import add_db_parser
from bot.tables.cli import add_tables_parser
from bot.verify.cli import add_verify_parser

EXIT_OK = 0
EXIT_USER = 1
EXIT_BUG = 3
EXIT_INTERRUPTED = 130  # the shell's convention for Ctrl-C


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="chaos-referee",
        description="Referee for Chaos Magic games: the Discord bot and its offline tools.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_play_parser(commands)
    add_tables_parser(commands)
    add_verify_parser(commands)
    add_db_parser(commands)
    sync = commands.add_parser(
        "sync",
        help="publish the slash commands to Discord (the bot's owner, once per update)",
        description="Publish the slash commands everywhere (Discord may take up to an hour to"
        " show them), or to one server at once with --guild. Needs DISCORD_TOKEN.",
    )
    sync.add_argument("--guild", type=whole(1), metavar="ID", help="only this server, at once")
    sync.set_defaults(func=run_sync)
    invite = commands.add_parser(
        "invite",
        help="print the link that adds the bot to a server",
        description="Print the invite link: the application's id (read from DISCORD_TOKEN, or"
        " given with --client-id), the scopes bot and applications.commands, and the"
        " permissions the bot uses. Open it, pick the server and authorise.",
    )
    invite.add_argument(
        "--client-id",
        type=whole(1),
        metavar="ID",
        help="the application's id (developer portal, General Information), instead of the token's",
    )
    invite.set_defaults(func=run_invite)
    return parser


def run_invite(args: argparse.Namespace) -> int:
    from bot.client.invite import client_id_from_token, invite_url, permission_names

    client_id: int | None = args.client_id
    if client_id is None:
        token = Settings.from_env().token
        if token is None:
            raise ConfigError(
                "DISCORD_TOKEN is not set: put it in .env (see .env.example), or give the"
                " application's id with --client-id"
            )
        client_id = client_id_from_token(token)
    print(
        "Open this link, pick your server and press Authorize (the bot asks for: "
        + ", ".join(permission_names())
        + "):"
    )
    print(invite_url(client_id))
    return EXIT_OK


def run_sync(args: argparse.Namespace) -> int:
    import asyncio

    from bot.client.run import sync

    count = asyncio.run(sync(Settings.from_env(), args.guild))
    where = f"server {args.guild}" if args.guild else "every server (may take up to an hour)"
    print(f"Published {count} commands to {where}.")
    return EXIT_OK


DISCORD_HINT = (
    "No DISCORD_TOKEN, so here is the offline console. To connect to Discord instead,"
    " put DISCORD_TOKEN in .env (see .env.example)."
)


def run(args: argparse.Namespace) -> int:
    """Run the chosen command; without one, the Discord bot if there's a token, else the
    offline console."""
    command: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if command is not None:
        return command(args)
    settings = Settings.from_env()
    if settings.token is not None:
        from bot.client.run import run as run_bot

        run_bot(settings)
        return EXIT_OK
    print(DISCORD_HINT, flush=True)
    return run_play(args)


def main(argv: Sequence[str] | None = None) -> int:
    # Settings come from the environment; .env (found from the working directory up) fills in
    # what the environment doesn't set. Only the entry point reads it.
    env_file = find_dotenv(usecwd=True)
    if env_file:
        load_dotenv(env_file, override=False)
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return run(args)
    except ChaosError as error:
        print(f"chaos-referee: {error}", file=sys.stderr)
        return EXIT_USER
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`... | head`): not an error of ours. Point stdout at devnull so
        # the interpreter's final flush doesn't complain again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception:
        if args.debug:
            traceback.print_exc()
        print(
            "chaos-referee: an internal error occurred (run again with --debug to see it)",
            file=sys.stderr,
        )
        return EXIT_BUG


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
