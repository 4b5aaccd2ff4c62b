"""/middle: the shared zone of the lists and deck rulesets."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import choices
from bot.client.bot import ChaosBot
from bot.client.embeds import text_embeds
from bot.client.interactions import reply, scope_of
from bot.commands import CommandError, ref_number
from bot.engine import actions as a
from bot.render import Names, middle_section
from bot.render.ids import MIDDLE

Interaction = discord.Interaction[ChaosBot]


class MiddleCog(commands.GroupCog, group_name="middle"):
    """The middle: cards anyone may play from, as the ruleset allows."""

    def __init__(self, bot: ChaosBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="add", description="Put a card into the middle, by its name")
    @app_commands.describe(card="The card's name")
    async def add(self, interaction: Interaction, card: app_commands.Range[str, 1, 100]) -> None:
        name = " ".join(card.split())
        await self.bot.play.act(
            interaction, lambda who, _: a.MiddleAdd(actor=who.id, referee=who.referee, card=name)
        )

    @app_commands.command(name="play", description="Play a card from the middle, by its id (M3)")
    @app_commands.describe(id="The card's id, like M3, as /middle list shows it")
    @app_commands.autocomplete(id=choices.middle_cards)
    async def play(self, interaction: Interaction, id: app_commands.Range[str, 1, 20]) -> None:
        card = ref_number(id, MIDDLE, "a card in the middle")
        await self.bot.play.act(
            interaction,
            lambda who, _: a.MiddlePlay(
                actor=who.id, referee=who.referee, card=card, by_number=True
            ),
        )

    @app_commands.command(
        name="list", description="The cards in the middle and when they're playable"
    )
    async def list(self, interaction: Interaction) -> None:
        game = (await self.bot.service.current(scope_of(interaction))).game
        section = middle_section(game.state, game.ruleset, Names.of(game))
        if not section:
            raise CommandError(
                f"{game.ruleset.name} has no middle: no cards are shared between players in it."
            )
        title, *cards = section
        text = "\n".join(line.strip() for line in cards) or f"{title.split(':')[0]} is empty."
        await reply(
            interaction, embeds=text_embeds(title.rstrip(":").split(":")[0], text), ephemeral=True
        )


async def setup(bot: ChaosBot) -> None:
    await bot.add_cog(MiddleCog(bot))
