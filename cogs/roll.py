"""/roll: dice that aren't part of the game."""

from __future__ import annotations

import random

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.bot import ChaosBot
from bot.client.interactions import reply
from bot.commands import roll_dice
from bot.errors import SettingsError

Interaction = discord.Interaction[ChaosBot]


class RollCog(commands.GroupCog, group_name="roll"):
    """Dice for anything else: 2d6+1, d20, 3d8."""

    def __init__(self, bot: ChaosBot, dice: random.Random | None = None) -> None:
        self.bot = bot
        self.rng = dice or random.SystemRandom()
        super().__init__()

    @app_commands.command(
        name="dice", description="Roll any dice, like 2d6+1 (not part of the game)"
    )
    @app_commands.describe(
        expr="Dice notation, like 2d6+1 or d20",
        secret="Only you see the result (if the server allows secret rolls)",
    )
    async def dice(
        self, interaction: Interaction, expr: app_commands.Range[str, 1, 100], secret: bool = False
    ) -> None:
        if secret:
            who, settings = await self.bot.play.caller(interaction)
            if settings.secret_rolls == "never" or (
                settings.secret_rolls == "referee" and not who.referee
            ):
                allowed = "nobody" if settings.secret_rolls == "never" else "referees only"
                raise SettingsError(f"Secret rolls on this server: {allowed}.")
        result = roll_dice(expr, self.rng)
        await reply(interaction, f"🎲 {result}", ephemeral=secret)


async def setup(bot: ChaosBot) -> None:
    await bot.add_cog(RollCog(bot))
