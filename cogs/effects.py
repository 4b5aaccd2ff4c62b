"""/effects: what stays in play, and taking it out."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import choices
from bot.client.board import effects_text
from bot.client.bot import ChaosBot
from bot.client.embeds import text_embeds
from bot.client.interactions import reply, scope_of
from bot.commands import ref_number
from bot.engine import actions as a
from bot.render.ids import EFFECT

Interaction = discord.Interaction[ChaosBot]


class EffectsCog(commands.GroupCog, group_name="effects"):
    """What stays in play, and how long; removing an effect."""

    def __init__(self, bot: ChaosBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="list", description="Every effect in play, with its id (E2)")
    async def list(self, interaction: Interaction) -> None:
        outcome = await self.bot.service.current(scope_of(interaction))
        text = effects_text(outcome.game)
        await reply(
            interaction,
            embeds=text_embeds("In play", text or "Nothing lasting is in play."),
            ephemeral=True,
        )

    @app_commands.command(name="end", description="Take an effect out of play, by its id (E2)")
    @app_commands.describe(id="The effect's id, like E2, as /effects list shows it")
    @app_commands.autocomplete(id=choices.effects)
    async def end(self, interaction: Interaction, id: app_commands.Range[str, 1, 20]) -> None:
        effect = ref_number(id, EFFECT, "an effect")
        await self.bot.play.act(
            interaction,
            lambda who, _: a.EndEffect(
                actor=who.id, referee=who.referee, effect=effect, by_number=True
            ),
        )


async def setup(bot: ChaosBot) -> None:
    await bot.add_cog(EffectsCog(bot))
