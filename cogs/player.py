"""/player: stepping away from the table and coming back, and whether one is pinged for one's
turn."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import choices
from bot.client.bot import ChaosBot
from bot.client.interactions import guild_key, reply
from bot.engine import actions as a
from bot.engine.errors import RulesError

Interaction = discord.Interaction[ChaosBot]
Name = app_commands.Range[str, 1, 40]


class PlayerCog(commands.GroupCog, group_name="player"):
    """Step away from the table for a while, and come back."""

    def __init__(self, bot: ChaosBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="away", description="Step away: skipped and out of reach until back")
    @app_commands.describe(
        player="Who steps away (you, if left out)",
        turns="How many of their own turns they miss (until /player back, if left out)",
        until="Back for their next turn, as a result that says so (the same as turns: 0)",
    )
    @app_commands.autocomplete(player=choices.players)
    async def away(
        self,
        interaction: Interaction,
        player: Name | None = None,
        turns: app_commands.Range[int, 0, 1000] | None = None,
        until: Literal["their next turn"] | None = None,
    ) -> None:
        if until is not None and turns not in (None, 0):
            raise RulesError("give either turns or until: their next turn, not both")
        missed = 0 if until is not None else turns
        await self.bot.play.act(
            interaction,
            lambda who, view: a.Away(
                actor=who.id,
                referee=who.referee,
                player=view.maybe_player(player),
                turns=missed,
            ),
        )

    @app_commands.command(name="back", description="Back at the table")
    @app_commands.describe(player="Who is back (you, if left out)")
    @app_commands.autocomplete(player=choices.players)
    async def back(self, interaction: Interaction, player: Name | None = None) -> None:
        await self.bot.play.act(
            interaction,
            lambda who, view: a.Back(
                actor=who.id, referee=who.referee, player=view.maybe_player(player)
            ),
        )

    @app_commands.command(
        name="notify", description="Whether you are pinged when your turn starts (on this server)"
    )
    @app_commands.describe(
        on="True: ping me when my turn starts (if the server turned mentions on); False: don't"
    )
    async def notify(self, interaction: Interaction, on: bool) -> None:
        settings = await self.bot.service.mention(
            guild_key(interaction), str(interaction.user.id), on
        )
        if not on:
            said = "You won't be pinged when your turn starts on this server."
        elif settings.turn_mentions:
            said = "You'll be pinged when your turn starts on this server."
        else:
            said = (
                "You'll be pinged when your turn starts once this server turns turn mentions on"
                " (`/settings turn_mentions:True`, Manage Server); today it is off for everyone."
            )
        await reply(interaction, said, ephemeral=True)


async def setup(bot: ChaosBot) -> None:
    await bot.add_cog(PlayerCog(bot))
