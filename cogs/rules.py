"""/rules: the ruleset's rules, in our words, by topic."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import choices
from bot.client.bot import ChaosBot
from bot.client.embeds import text_embeds
from bot.client.interactions import reply
from bot.client.wording import slashed
from bot.commands import CommandError, rules_text

Interaction = discord.Interaction[ChaosBot]


def _slash(text: str) -> str:
    """A rules answer as Discord shows it: the console's command hints in the rules texts
    (`` `chaos roll` ``, `` `turn next override` ``) become slash commands."""
    return slashed(text.replace("`rules TOPIC`", "/rules topic").replace("`rules`", "/rules"))


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
        ruleset, loaded = await choices.game_ruleset(interaction)
        if loaded is not None:
            rules = loaded.rules
        else:
            rules = await self.bot.service.rules(f"{interaction.guild_id}:{interaction.channel_id}")
        try:
            text = rules_text(rules, topic, ruleset.name)
        except CommandError as error:  # its words are the console's: say the slash command
            raise CommandError(_slash(str(error))) from None
        text = _slash(text)
        title, _, body = text.partition("\n")
        await reply(interaction, embeds=text_embeds(title, body or title), ephemeral=True)


async def setup(bot: ChaosBot) -> None:
    await bot.add_cog(RulesCog(bot))
