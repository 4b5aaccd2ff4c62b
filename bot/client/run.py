"""Running the bot for real: ``make run`` with a token, and ``chaos-referee sync``.

Errors a host can fix (a refused token, Discord out of reach) end in one line, not a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

import aiohttp
import discord
import discord.gateway
import discord.http
import yarl
from discord import app_commands

from bot import memory
from bot.client.bot import ChaosBot
from bot.client.identify import IdentifyGate, open_gate
from bot.config import Settings
from bot.errors import ConfigError
from bot.service import GameService
from bot.store import Store

log = logging.getLogger(__name__)


def point_at(settings: Settings) -> None:
    """Send REST and gateway traffic to the configured base URLs (a proxy), if any.

    discord.py reads both from class attributes at use time, so setting them before login is
    enough (the canary test in tests/fakediscord fails if they move).
    """
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


def setup_logging(settings: Settings) -> None:
    discord.utils.setup_logging(level=getattr(logging, settings.log_level), root=True)


async def serve(settings: Settings) -> int | None:
    """Connect to Discord and referee until stopped; returns the signal that stopped it.

    Ctrl-C (SIGINT) and SIGTERM stop the bot cleanly: it finishes the answers it is sending,
    closes its connection, then the database. They are handled here rather than left to
    asyncio.run's cancellation, which Python 3.11 can lose in a race inside discord.py's
    waits (the bot then ran on after a Ctrl-C).
    """
    token = _token(settings)
    point_at(settings)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    received: list[int] = []

    def on_signal(number: int) -> None:
        received.append(number)
        stop.set()

    for number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(number, on_signal, number)
    gate = await open_gate(settings.database_url)
    try:
        await _referee(settings, token, gate, stop)
    finally:
        await gate.close()
        for number in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(number)
    return received[0] if received else None


async def _referee(settings: Settings, token: str, gate: IdentifyGate, stop: asyncio.Event) -> None:
    """The bot over its own store, until it is stopped or its connection ends."""
    store = await Store.open(settings.database)
    service = GameService(store, idle_days=settings.idle_days)
    try:
        async with ChaosBot(service, settings, identify_gate=gate) as bot:
            login = asyncio.create_task(_login(bot, token), name="discord login")
            if not await _before_stop(login, stop):  # stopped while Discord was slow to answer
                return
            if settings.dev_guild is None and settings.runs_shard_zero:
                await _say_if_unpublished(bot)
            connection = asyncio.create_task(bot.connect(), name="discord connection")
            if not await _before_stop(connection, stop, cancel=False):
                await bot.close()  # connect() returns once the connection is closed
                await connection
    finally:
        await service.close()


SYNC_FIX = (
    "run `chaos-referee sync` (Discord may take up to an hour to show them everywhere), or set"
    " CHAOS_DEV_GUILD_ID to your server's id to see them there at once"
)


async def _say_if_unpublished(bot: ChaosBot) -> None:
    """One plain line when Discord offers none of the commands, or not this version's: the bot
    publishes them only to a development server by itself (a global sync at every start would
    spend Discord's daily limit on command changes), so a new owner would see no commands."""
    try:
        published = await bot.tree.fetch_commands()
    except discord.DiscordException as error:
        log.info("couldn't ask Discord which commands are published: %s", error)
        return
    if not published:
        log.warning("No slash commands are published yet, so Discord shows none: %s.", SYNC_FIX)
        return
    have = {path for command in published for path in _paths(command.name, command.options)}
    want = {command.qualified_name for command in bot.tree.walk_commands()}
    if have != want:
        new = sorted({f"/{path.split()[0]}" for path in want - have})
        gone = sorted({f"/{path.split()[0]}" for path in have - want})
        log.warning(
            "The slash commands Discord shows aren't this version's (new or changed: %s;"
            " no longer: %s): %s.",
            ", ".join(new) or "none",
            ", ".join(gone) or "none",
            SYNC_FIX,
        )


def _paths(
    name: str, options: list[app_commands.AppCommandGroup | app_commands.Argument]
) -> list[str]:
    """A published command's name and those of its groups and subcommands, as
    ``walk_commands`` names them (``game``, ``game start``)."""
    paths = [name]
    for option in options:
        if isinstance(option, app_commands.AppCommandGroup):
            paths.extend(_paths(f"{name} {option.name}", option.options))
    return paths


async def sync(settings: Settings, guild: int | None) -> int:
    """Publish the slash commands (globally, or to one server) and stop; returns how many."""
    token = _token(settings)
    point_at(settings)
    store = await Store.open(settings.database)
    service = GameService(store, idle_days=settings.idle_days)
    try:
        bot = ChaosBot(service, Settings(**{**settings.__dict__, "dev_guild": None}))
        async with bot:
            await _login(bot, token)  # loads the cogs (setup_hook) without connecting
            return len(await bot.sync_commands(guild))
    finally:
        await service.close()


async def _before_stop(
    task: asyncio.Task[None], stop: asyncio.Event, *, cancel: bool = True
) -> bool:
    """Wait for `task` or for `stop`, whichever comes first; True if the task finished (its
    error, if any, is raised). When `stop` comes first, the task is cancelled if `cancel`."""
    stopped = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait({task, stopped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopped.cancel()
    if task.done():
        task.result()
        return True
    if cancel:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    return False


def _token(settings: Settings) -> str:
    if settings.token is None:
        raise ConfigError("DISCORD_TOKEN is not set (put it in .env; see .env.example)")
    return settings.token


async def _login(bot: ChaosBot, token: str) -> None:
    try:
        await bot.login(token)
    except discord.LoginFailure:
        raise ConfigError(
            "Discord refused the token in DISCORD_TOKEN: copy it again from the developer"
            " portal (Applications > your app > Bot > Reset Token)"
        ) from None
    except (TimeoutError, aiohttp.ClientConnectionError) as error:
        raise ConfigError(f"Discord can't be reached ({error}); check the network") from None


def run(settings: Settings) -> None:
    """``make run`` with a token: the bot, until Ctrl-C (or SIGTERM)."""
    setup_logging(settings)
    memory.settle()
    if asyncio.run(serve(settings)) == signal.SIGINT:
        raise KeyboardInterrupt  # the command line's exit status for Ctrl-C
