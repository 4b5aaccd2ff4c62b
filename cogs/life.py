"""/life: optional life tracking; dropping below 1 starts the spite rule."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import choices
from bot.client.bot import ChaosBot
from bot.engine import actions as a

Interaction = discord.Interaction[ChaosBot]
Name = app_commands.Range[str, 1, 40]
Amount = app_commands.Range[int, 0, 1_000_000]

_PLAYER = "Whose life (yours, if left out)"


class LifeCog(commands.GroupCog, group_name="life"):
    """Life totals, if the game tracks them (start it with a life total)."""

    def __init__(self, bot: ChaosBot) -> None:
        self.bot = bot
        super().__init__()

    async def _life(
        self,
        interaction: Interaction,
        mode: Literal["set", "gain", "lose"],
        amount: int,
        player: str | None,
    ) -> None:
        await self.bot.play.act(
            interaction,
            lambda who, view: a.Life(
                actor=who.id,
                referee=who.referee,
                player=view.maybe_player(player),
                mode=mode,
                amount=amount,
            ),
        )

    @app_commands.command(name="set", description="Set a life total (below 1 starts spite)")
    @app_commands.describe(amount="The new life total", player=_PLAYER)
    @app_commands.autocomplete(player=choices.players)
    async def set(
        self, interaction: Interaction, amount: Amount, player: Name | None = None
    ) -> None:
        await self._life(interaction, "set", amount, player)

    @app_commands.command(name="gain", description="Gain life")
    @app_commands.describe(amount="How much life", player=_PLAYER)
    @app_commands.autocomplete(player=choices.players)
    async def gain(
        self, interaction: Interaction, amount: Amount, player: Name | None = None
    ) -> None:
        await self._life(interaction, "gain", amount, player)

    @app_commands.command(name="lose", description="Lose life (below 1 starts spite)")
    @app_commands.describe(amount="How much life", player=_PLAYER)
    @app_commands.autocomplete(player=choices.players)
    async def lose(
        self, interaction: Interaction, amount: Amount, player: Name | None = None
    ) -> None:
        await self._life(interaction, "lose", amount, player)


async def setup(bot: ChaosBot) -> None:
    await bot.add_cog(LifeCog(bot))
