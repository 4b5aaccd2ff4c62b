"""/help: the commands by group, from the slash commands themselves."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.bot import ChaosBot
from bot.client.embeds import text_embeds
from bot.client.interactions import reply
from bot.commands.reference import GROUP_HELP

Interaction = discord.Interaction[ChaosBot]

INTRO = (
    "Start a game with /game start, everyone else /game join, then /game begin. Each turn the"
    " active player presses Roll chaos (or uses /chaos roll), plays out the result with real"
    " cards, and presses Next turn. The status board in the channel shows the table at a glance."
    " `#17` is an entry on a list. Effects in play are numbered E1, E2, E3 and cards in the"
    " middle M1, M2, M3, in the order they came into the game, as /effects end and /middle play"
    " take them; rolls on the stack R1, R2, R3 the same way."
)


def _lines(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> list[str]:
    if isinstance(command, app_commands.Group):
        return [line for sub in command.commands for line in _lines(sub)]
    options = " ".join(
        f"{p.display_name}" if p.required else f"[{p.display_name}]" for p in command.parameters
    )
    usage = f"/{command.qualified_name} {options}".rstrip()
    return [f"**{usage}** — {command.description}"]


class HelpCog(commands.Cog):
    """Help with the commands."""

    def __init__(self, bot: ChaosBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="How to play here, and every command")
    @app_commands.describe(group="Only this group's commands, like chaos or turn")
    @app_commands.choices(
        group=[app_commands.Choice(name=g, value=g) for g in GROUP_HELP if g != "quit"]
    )
    async def help(self, interaction: Interaction, group: str | None = None) -> None:
        lines: list[str] = []
        if group is None:
            lines += [INTRO, ""]
        for command in self.bot.tree.get_commands():
            if group is not None and command.name != group:
                continue
            if isinstance(command, app_commands.Group):
                lines.append(
                    f"__/{command.name}__ — {GROUP_HELP.get(command.name, command.description)}"
                )
            if isinstance(command, app_commands.Command | app_commands.Group):
                lines += _lines(command)
        await reply(
            interaction, embeds=text_embeds("Chaos Referee", "\n".join(lines)), ephemeral=True
        )


async def setup(bot: ChaosBot) -> None:
    await bot.add_cog(HelpCog(bot))
