"""/rules: the ruleset's rules, in our words, by topic."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import choices
from bot.client.bot import ChaosBot
from bot.client.rulesmenu import answer_rules

Interaction = discord.Interaction[ChaosBot]


class RulesCog(commands.Cog):
    """The rules of the ruleset in play here (or the server's default one)."""

    def __init__(self, bot: ChaosBot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="The rules on a topic, or every topic")
    @app_commands.describe(topic="A rule's title, id or keyword (every topic, if left out)")
    @app_commands.autocomplete(topic=choices.topics)
    async def rules(
        self, interaction: Interaction, topic: app_commands.Range[str, 1, 100] | None = None
    ) -> None:
        await answer_rules(interaction, topic)


async def setup(bot: ChaosBot) -> None:
    await bot.add_cog(RulesCog(bot))
