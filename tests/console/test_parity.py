"""Every slash command has a console command of the same name: the console does what Discord
does. The slash commands are read from the real command tree the bot builds (every extension
it loads), so a new slash command without a console twin fails here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.client.bot import EXTENSIONS, ChaosBot
from bot.commands import SPECS, Kind, parse
from bot.config import Settings
from bot.service import GameService
from bot.store import Store
from tests.fakediscord.plugin import aio

# Slash commands that have no place at one keyboard, and why. Each must still be a slash
# command, so this list can't go stale.
DISCORD_ONLY = {
    "ping": "asks whether the bot is connected; the console is the program itself",
    "sync": "publishes the commands to Discord (`chaos-referee sync` from a shell)",
    "settings": "a server's referee role and policies; the console trusts whoever types",
    "player notify": "whether Discord pings a member for their turn; the console pings nobody",
}


async def slash_commands(folder: Path) -> dict[str, app_commands.Command[Any, ..., Any]]:
    """Every slash command of the bot, by its full name (``table lookup``)."""
    store = await Store.open(folder / "tree.db")
    service = GameService(store)
    try:
        # With a development server, whose own /sync is there too.
        bot = ChaosBot(service, Settings(db_path=folder / "tree.db", dev_guild=1))
        for name in EXTENSIONS:  # what setup_hook loads, without logging in
            await bot.load_extension(name)
        everywhere = bot.tree.walk_commands()
        dev = bot.tree.walk_commands(guild=discord.Object(1))
        found = {
            command.qualified_name: command
            for command in [*everywhere, *dev]
            if isinstance(command, app_commands.Command)
        }
        await bot.uploads.close()  # never logged in: nothing else of it is open
        return found
    finally:
        await service.close()


@aio
async def test_every_slash_command_has_a_console_command(tmp_path: Path) -> None:
    slash = await slash_commands(tmp_path)
    assert {"game start", "table lookup", "table validate", "table export"} <= set(slash)
    missing = sorted(set(slash) - set(SPECS) - set(DISCORD_ONLY))
    assert not missing, f"slash commands the console lacks: {missing}"
    assert set(DISCORD_ONLY) <= set(slash), "DISCORD_ONLY names a command that is gone"
    for name in slash:
        if name in DISCORD_ONLY:
            continue
        # The console reads the command by its slash name (its help and usage say so too).
        assert SPECS[name].help, name
        assert SPECS[name].usage.startswith(name), name


@aio
async def test_the_console_reads_the_new_table_commands(tmp_path: Path) -> None:
    assert parse("table validate house.yaml").args == {"file": "house.yaml"}  # type: ignore[union-attr]
    assert parse("table export house out.yaml").args == {  # type: ignore[union-attr]
        "table": "house",
        "file": "out.yaml",
    }
    assert all(SPECS[n].kind is Kind.QUERY for n in ("table validate", "table export"))
