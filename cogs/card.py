"""/card: a card's picture and a link to it on Scryfall (built here; the bot never calls
Scryfall: Discord fetches the picture)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.bot import ChaosBot
from bot.client.embeds import with_pictures
from bot.client.interactions import reply
from bot.render.cards import card_page_url

Interaction = discord.Interaction[ChaosBot]


class CardCog(commands.Cog):
    """Card links."""

    def __init__(self, bot: ChaosBot) -> None:
        self.bot = bot

    @app_commands.command(name="card", description="A link to a card on Scryfall")
    @app_commands.describe(name="The card's exact name")
    async def card(self, interaction: Interaction, name: app_commands.Range[str, 1, 100]) -> None:
        name = " ".join(name.split())
        embed = discord.Embed(
            title=name, url=card_page_url(name), description="Open it on Scryfall."
        )
        await reply(interaction, embeds=with_pictures([embed], [name]))


async def setup(bot: ChaosBot) -> None:
    await bot.add_cog(CardCog(bot))
