"""/house: the server's house rules (issue 26). Anyone may see them; the server's managers
change them, as they change /settings. A game keeps the rules it started with."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import choices
from bot.client.bot import ChaosBot
from bot.client.house import change_house, exclude_tag, show_house
from bot.commands import house
from bot.commands.house import ROUNDS, TAG_CHOICES

Interaction = discord.Interaction[ChaosBot]

NEXT_GAME = "A game is running here: say the change applies from the next game"
LIST = "The list (its id or name)"
ENTRY = "The entry: its number or its name"
TAGS = [app_commands.Choice(name=shown, value=tag) for tag, shown in TAG_CHOICES]


class HouseCog(commands.GroupCog, group_name="house"):
    """House rules: this server's own bends of the game, refereed like the rules."""

    def __init__(self, bot: ChaosBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="show", description="The house rules games started here keep")
    @app_commands.guild_only()
    async def show(self, interaction: Interaction) -> None:
        await show_house(self.bot, interaction)

    @app_commands.command(
        name="chaos_from", description="No chaos roll or card before this round (Manage Server)"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        round="The round chaos starts in (a round is one turn of each seated player; 1: at once)",
        next_game=NEXT_GAME,
    )
    async def chaos_from(
        self,
        interaction: Interaction,
        round: app_commands.Range[int, ROUNDS[0], ROUNDS[1]],
        next_game: bool = False,
    ) -> None:
        await change_house(
            self.bot, interaction, lambda _: lambda h: house.chaos_from(h, round), next_game
        )

    @app_commands.command(
        name="veto", description="Whether the table may vote a result away (Manage Server)"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        veto="on: a strict majority of the table vetoes a result, rolled again; off: none",
        next_game=NEXT_GAME,
    )
    async def veto(
        self,
        interaction: Interaction,
        veto: Literal["on", "off"],
        next_game: bool = False,
    ) -> None:
        await change_house(
            self.bot, interaction, lambda _: lambda h: house.veto(h, veto == "on"), next_game
        )

    @app_commands.command(
        name="repeats", description="Whether a list may give an entry twice (Manage Server)"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        repeats="never: no entry twice until the list came up whole; allowed: every roll afresh",
        next_game=NEXT_GAME,
    )
    async def repeats(
        self,
        interaction: Interaction,
        repeats: Literal["never", "allowed"],
        next_game: bool = False,
    ) -> None:
        await change_house(
            self.bot, interaction, lambda _: lambda h: house.repeats(h, repeats), next_game
        )

    @app_commands.command(
        name="deny", description="Deny an entry of a list: it is rolled again (Manage Server)"
    )
    @app_commands.guild_only()
    @app_commands.describe(list=LIST, entry=ENTRY, next_game=NEXT_GAME)
    @app_commands.autocomplete(list=choices.lists, entry=choices.entries)
    async def deny(
        self,
        interaction: Interaction,
        list: app_commands.Range[str, 1, 100],
        entry: app_commands.Range[str, 1, 100],
        next_game: bool = False,
    ) -> None:
        await change_house(
            self.bot,
            interaction,
            lambda ruleset: lambda h: house.deny(h, ruleset, list, entry),
            next_game,
        )

    @app_commands.command(name="allow", description="Take an entry off the deny-list")
    @app_commands.guild_only()
    @app_commands.describe(list=LIST, entry=ENTRY, next_game=NEXT_GAME)
    @app_commands.autocomplete(list=choices.lists, entry=choices.entries)
    async def allow(
        self,
        interaction: Interaction,
        list: app_commands.Range[str, 1, 100],
        entry: app_commands.Range[str, 1, 100],
        next_game: bool = False,
    ) -> None:
        await change_house(
            self.bot,
            interaction,
            lambda ruleset: lambda h: house.allow(h, ruleset, list, entry),
            next_game,
        )

    @app_commands.command(
        name="exclude", description="Leave out every entry with a tag (Manage Server)"
    )
    @app_commands.guild_only()
    @app_commands.describe(tag="What the entries left out are like", next_game=NEXT_GAME)
    @app_commands.choices(tag=TAGS)
    async def exclude(self, interaction: Interaction, tag: str, next_game: bool = False) -> None:
        await exclude_tag(self.bot, interaction, tag, next_game)

    @app_commands.command(name="include", description="Play the entries with a tag again")
    @app_commands.guild_only()
    @app_commands.describe(tag="The tag excluded", next_game=NEXT_GAME)
    @app_commands.choices(tag=TAGS)
    async def include(self, interaction: Interaction, tag: str, next_game: bool = False) -> None:
        await change_house(
            self.bot, interaction, lambda _: lambda h: house.include(h, tag), next_game
        )


async def setup(bot: ChaosBot) -> None:
    await bot.add_cog(HouseCog(bot))
