"""/house: the server's house rules (issue 26). Anyone may see them; the server's managers
change them, as they change /settings. A game keeps the rules it started with."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import choices
from bot.client.bot import ChaosBot
from bot.client.embeds import text_embeds
from bot.client.interactions import guild_key, reply, scope_of
from bot.client.permissions import require_manager
from bot.client.wording import plain
from bot.commands import house
from bot.commands.house import ROUNDS, chaos_from, house_saved, house_show
from bot.engine.house import HouseRules
from bot.engine.model import Ruleset
from bot.errors import NoGameError

Interaction = discord.Interaction[ChaosBot]

NEXT_GAME = "A game is running here: say the change applies from the next game"


class HouseCog(commands.GroupCog, group_name="house"):
    """House rules: this server's own bends of the game, refereed like the rules."""

    def __init__(self, bot: ChaosBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="show", description="The house rules games started here keep")
    @app_commands.guild_only()
    async def show(self, interaction: Interaction) -> None:
        settings = await self.bot.service.settings(guild_key(interaction))
        shown = house_show(settings.house, await self._ruleset(interaction))
        await reply(interaction, embeds=text_embeds("House rules", plain(shown)))

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
        await self._change(interaction, lambda h: chaos_from(h, round), next_game)

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
        await self._change(interaction, lambda h: house.repeats(h, repeats), next_game)

    @app_commands.command(
        name="deny", description="Deny an entry of a list: it is rolled again (Manage Server)"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        list="The list (its id or name)",
        entry="The entry: its number or its name",
        next_game=NEXT_GAME,
    )
    @app_commands.autocomplete(list=choices.lists, entry=choices.entries)
    async def deny(
        self,
        interaction: Interaction,
        list: app_commands.Range[str, 1, 100],
        entry: app_commands.Range[str, 1, 100],
        next_game: bool = False,
    ) -> None:
        ruleset = await self._ruleset(interaction)
        await self._change(
            interaction, lambda h: house.deny(h, ruleset, list, entry), next_game, ruleset
        )

    @app_commands.command(name="allow", description="Take an entry off the deny-list")
    @app_commands.guild_only()
    @app_commands.describe(
        list="The list (its id or name)",
        entry="The entry: its number or its name",
        next_game=NEXT_GAME,
    )
    @app_commands.autocomplete(list=choices.lists, entry=choices.entries)
    async def allow(
        self,
        interaction: Interaction,
        list: app_commands.Range[str, 1, 100],
        entry: app_commands.Range[str, 1, 100],
        next_game: bool = False,
    ) -> None:
        ruleset = await self._ruleset(interaction)
        await self._change(
            interaction, lambda h: house.allow(h, ruleset, list, entry), next_game, ruleset
        )

    async def _ruleset(self, interaction: Interaction) -> Ruleset:
        """The ruleset whose lists a deny names: the game's here, else the server's default."""
        try:
            return (await self.bot.service.current(scope_of(interaction))).game.ruleset
        except NoGameError:
            settings = await self.bot.service.settings(guild_key(interaction))
            return self.bot.service.ruleset(settings.default_ruleset).ruleset

    async def _change(
        self,
        interaction: Interaction,
        change: Callable[[HouseRules], HouseRules],
        next_game: bool,
        ruleset: Ruleset | None = None,
    ) -> None:
        who, _ = await self.bot.play.caller(interaction)
        require_manager(who, "Changing the house rules")
        house, running = await self.bot.service.change_house(
            guild_key(interaction),
            change,
            scope=scope_of(interaction),
            next_game=next_game,
        )
        text = house_saved(house, running=running, ruleset=ruleset)
        await reply(interaction, embeds=text_embeds("House rules", plain(text)), ephemeral=True)


async def setup(bot: ChaosBot) -> None:
    await bot.add_cog(HouseCog(bot))
