"""``chaos-referee play``: a whole game of Chaos Magic in the terminal, no Discord needed.

The console reads the commands of the slash commands as text (``chaos roll``, ``turn next``,
``as Bob: chaos counter``), hands the actions to the game service, and prints what happened.
A table's game is kept in the database, so ``--game NAME`` picks it up again later. With
``--json`` it reads commands from stdin and writes one JSON object per line, for scripts.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import io
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from bot.arguments import whole
from bot.config import DEFAULT_DB, Settings
from bot.console.output import JsonOutput, Output, TextOutput
from bot.console.session import Console, Options, parse_players
from bot.console.tables import FolderError, own_ruleset, rulesets_with
from bot.console.terminal import piped_lines, prompted_lines
from bot.errors import StoreError
from bot.service import GameService
from bot.store import Store, is_url
from bot.tables import LoadedRuleset, TableProblems

if TYPE_CHECKING:
    from bot.arguments import SubParsers
    from bot.web.console import ConsolePages

__all__ = ["Console", "Options", "add_play_parser", "options_from", "run_play"]

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2  # argparse's code for a usage mistake
EXIT_BUG = 3


def add_play_parser(commands: SubParsers) -> None:
    """Add ``play`` to the top-level command's subparsers."""
    parser = commands.add_parser(
        "play",
        help="play a game in the terminal (the offline console)",
        description="Play Chaos Magic in the terminal with the same commands as the Discord"
        " bot's slash commands, typed as text (`chaos roll`, `as Bob: chaos counter`, `help`)."
        " The game is saved as you go; the same --game resumes it.",
    )
    parser.add_argument(
        "--ruleset",
        metavar="R",
        help="classic, lists or deck (default: classic, or the ruleset of --tables)",
    )
    parser.add_argument(
        "--tables",
        type=Path,
        metavar="DIR",
        help="play with the ruleset in this folder of your own tables (like tables/classic)",
    )
    parser.add_argument("--seed", type=whole(), metavar="S", help="make every roll repeatable")
    parser.add_argument(
        "--players", metavar="A,B,C", help="start a game for these players (the first hosts)"
    )
    parser.add_argument(
        "--game", default="default", metavar="NAME", help="the table to play at (default: default)"
    )
    parser.add_argument(
        "--db",
        metavar="PATH_OR_URL",
        help="the SQLite file, or a postgresql:// URL (CHAOS_DATABASE_URL, else CHAOS_DB_PATH)",
    )
    parser.add_argument(
        "--json", action="store_true", help="read stdin, write one JSON object per line"
    )
    parser.add_argument(
        "--web",
        type=whole(1, 65535),
        metavar="PORT",
        help="serve the table's live page on this port of 127.0.0.1 (the link is printed)",
    )
    parser.set_defaults(func=run_play)


def options_from(args: argparse.Namespace) -> Options:
    """The console's options from parsed arguments (missing ones take their defaults)."""
    typed: str | None = getattr(args, "db", None)
    db = typed or Settings.from_env().database  # CHAOS_DATABASE_URL, else CHAOS_DB_PATH
    players = getattr(args, "players", None)
    tables = getattr(args, "tables", None)
    return Options(
        ruleset=getattr(args, "ruleset", None) or "",
        tables=tables,
        seed=getattr(args, "seed", None),
        players=parse_players(players) if players else (),
        game=getattr(args, "game", None) or "default",
        db=db if is_url(db) else Path(db),
        json=bool(getattr(args, "json", False)),
        debug=bool(getattr(args, "debug", False)),
        web=getattr(args, "web", None),
    )


def run_play(args: argparse.Namespace) -> int:
    """The ``play`` command: run a console session until quit or end of input.

    A ``--tables`` folder that isn't a ruleset folder is a usage mistake, answered like
    argparse answers one (exit code 2); one whose files have problems lists each with its
    file, line and key (exit code 1, as ``chaos-referee tables check`` does).
    """
    forgiving(sys.stdin, sys.stdout)
    options = options_from(args)
    try:
        own = None if options.tables is None else own_ruleset(options.tables)
    except FolderError as error:
        print(f"chaos-referee play: error: argument --tables: {error}", file=sys.stderr)
        return EXIT_USAGE
    except TableProblems as error:
        count = len(error.problems)
        print(
            f"chaos-referee play: the tables in {options.tables} don't load"
            f" ({count} problem{'s' * (count != 1)}):\n{error}",
            file=sys.stderr,
        )
        return EXIT_PROBLEMS
    if own is not None:
        # The folder's ruleset is the one played. Options fills a missing --ruleset with
        # classic, so what was typed is read from the arguments themselves.
        typed = getattr(args, "ruleset", None)
        if typed and typed != own.id:
            print(
                f"chaos-referee play: error: argument --ruleset: the tables in {options.tables}"
                f" are the ruleset {own.id!r}, not {typed!r}; leave --ruleset out to play them",
                file=sys.stderr,
            )
            return EXIT_USAGE
        options = replace(options, ruleset=own.id)
    return play(options, sys.stdin, sys.stdout, own=own)


def forgiving(*streams: TextIO) -> None:
    """Bytes that aren't valid in the locale's encoding become U+FFFD instead of an error.

    Under a strict UTF-8 locale (``en_US.UTF-8``) Python decodes stdin strictly, so one stray
    byte would end the session and lose every line queued after it; under ``C.UTF-8`` it keeps
    such bytes as lone surrogates, which break whatever encodes them later. Replacing them
    means each line is read, and then refused with a sentence if it can't be used.
    """
    for stream in streams:
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")


def play(
    options: Options, stdin: TextIO, stdout: TextIO, *, own: LoadedRuleset | None = None
) -> int:
    """One session on `stdin`/`stdout`; 0, or 3 if one of our bugs showed up on the way.

    Lines are read between runs of the event loop, never inside it: Ctrl-C at the prompt then
    only drops the line being typed, and during an action it abandons that action (which the
    service saves whole or not at all).
    """
    interactive = stdin.isatty() and not options.json
    out: Output = JsonOutput(stdout) if options.json else TextOutput(stdout, echo=not interactive)
    with asyncio.Runner() as runner:
        console = runner.run(_open(options, out, own))
        pages: ConsolePages | None = None
        try:
            pages = _serve_pages(options, console, out)
            prompt = _Prompt()
            if interactive:
                prompt.text = runner.run(console.prompt())
            lines = _lines(console, stdin, prompt if interactive else None)
            for number, line in enumerate(lines, 1):
                try:
                    out.begin(number)
                    going_on = runner.run(console.handle(line, number))
                    out.end()
                    if not going_on:
                        break
                    if interactive:
                        prompt.text = runner.run(console.prompt())
                except KeyboardInterrupt:
                    if not interactive:
                        raise
                    out.info("Interrupted.")
            if not options.json:
                runner.run(console.close())
        finally:
            if pages is not None:
                pages.close()
            runner.run(console.service.close())
    return EXIT_BUG if console.internal_errors else EXIT_OK


def _serve_pages(options: Options, console: Console, out: Output) -> ConsolePages | None:
    """With ``--web PORT``: the table's live page, its link printed (None without)."""
    if options.web is None:
        return None
    # Imported here: the web server (aiohttp) was a third of every console's start-up, and
    # most sessions serve no page.
    from bot.web.console import ConsolePages

    pages = ConsolePages(options.db, port=options.web)
    pages.start()
    console.service.listen(pages.changed)
    console.page_link = pages.link(options.scope)
    out.info(
        f"The live page of table {options.game!r}: {console.page_link}"
        " (it shows whatever game this table plays; add ?layout=overlay for a stream's corner)."
    )
    return pages


async def _open(options: Options, out: Output, own: LoadedRuleset | None) -> Console:
    """Open the database and the service, and resume or start the table's game."""
    if isinstance(options.db, Path):
        folder = options.db.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:  # a file in the way, no permission: the path is the user's
            why = (
                "a file of that name is in the way"
                if error.errno == errno.EEXIST
                else error.strerror
            )
            raise StoreError(
                f"can't make the folder {folder} for the database ({why}): give --db or"
                " CHAOS_DB_PATH a path in a folder the bot may write to."
            ) from None
    store = await Store.open(options.db)
    # A game keeps a snapshot of the tables it started with (bot.tables.snapshot): resumed
    # with or without --tables, it plays those, whatever the folder holds since.
    find, every = rulesets_with(own)
    console = Console(GameService(store, rulesets=find, every_ruleset=every), options, out)
    try:
        await console.open()
    except BaseException:
        await console.service.close()
        raise
    return console


def _lines(console: Console, stdin: TextIO, prompt: _Prompt | None) -> Iterator[str]:
    if prompt is None:
        return piped_lines(stdin)
    # Line editing history lives next to the database file, like the games themselves; on
    # PostgreSQL, in the working directory, where the default file would be.
    db = console.options.db if isinstance(console.options.db, Path) else DEFAULT_DB
    history = db.with_name(db.name + ".history")
    return prompted_lines(prompt, history)


class _Prompt:
    """The prompt shows whose turn it is; the session updates it after each line."""

    def __init__(self) -> None:
        self.text = "chaos> "

    def __call__(self) -> str:
        return self.text
