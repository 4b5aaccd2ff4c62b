"""/roll: dice that aren't part of the game."""

from __future__ import annotations

import asyncio
import random

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.bot import ChaosBot
from bot.client.interactions import reply
from bot.commands import roll_dice
from bot.errors import SettingsError

Interaction = discord.Interaction[ChaosBot]

PREFIX = "🎲 "
MESSAGE_LIMIT = 2000  # a message's content; a longer roll is summed up, not refused by Discord


class RollCog(commands.GroupCog, group_name="roll"):
    """Dice for anything else, in the notation of Discord's dice bots: 4d6kh3, 1d20 adv, 1d6!."""

    def __init__(self, bot: ChaosBot, dice: random.Random | None = None) -> None:
        self.bot = bot
        self.rng = dice or random.SystemRandom()
        super().__init__()

    @app_commands.command(
        name="dice", description="Roll any dice, like 2d6+1 (not part of the game)"
    )
    @app_commands.describe(
        expr="Dice notation, like 2d6+1, 4d6kh3, 1d20 adv, 2d6ro1, 1d6! or (1d4+1)*3",
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
        result = roll_dice(expr, self.rng, markdown=True, limit=MESSAGE_LIMIT - len(PREFIX))
        await reply(interaction, f"{PREFIX}{result}", ephemeral=secret)


async def setup(bot: ChaosBot) -> None:
    # The dice notation's parser is built when d20 is first imported (0.2 to 0.5 s): build it
    # on a thread during start-up. Left to finish on its own, it held the import lock when the
    # first /roll came: that roll waited for it on the event loop (the loop watchdog saw it).
    await asyncio.to_thread(roll_dice, "1d6", random.Random(0))
    await bot.add_cog(RollCog(bot))
