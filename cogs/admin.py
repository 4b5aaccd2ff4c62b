"""/ping (is the bot there?) and /sync (the bot's owner publishes the commands).

/sync is published only to the owner's development server (``CHAOS_DEV_GUILD_ID``), never with
the other commands: every server's admins would see it, and only the owner may use it. Without a
development server, the owner publishes from the shell: ``chaos-referee sync``.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.bot import ChaosBot
from bot.client.interactions import answered, reply
from bot.client.permissions import NotAllowedError

Interaction = discord.Interaction[ChaosBot]


class AdminCog(commands.Cog):
    """Checking the bot."""

    def __init__(self, bot: ChaosBot) -> None:
        self.bot = bot

    @app_commands.command(name="ping", description="Is the referee there? Answers at once")
    async def ping(self, interaction: Interaction) -> None:
        await interaction.response.send_message("pong", ephemeral=True)
        answered(interaction)


class SyncCog(commands.Cog):
    """Publishing the commands, from the owner's development server."""

    def __init__(self, bot: ChaosBot) -> None:
        self.bot = bot

    @app_commands.command(name="sync", description="Publish the bot's commands (the bot's owner)")
    @app_commands.describe(where="This server only (at once), or every server (up to an hour)")
    @app_commands.default_permissions(administrator=True)
    async def sync(
        self, interaction: Interaction, where: Literal["here", "everywhere"] = "here"
    ) -> None:
        if not await self.bot.is_owner(interaction.user):
            raise NotAllowedError("Only the bot's owner can publish its commands.")
        if where == "here" and interaction.guild_id is None:
            raise NotAllowedError("Here is not a server: say `everywhere`, or use it in one.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        answered(interaction)
        guild = interaction.guild_id if where == "here" else None
        synced = await self.bot.sync_commands(guild)
        place = "this server" if guild else "every server (Discord may take up to an hour)"
        await reply(interaction, f"Published {len(synced)} commands to {place}.", ephemeral=True)


async def setup(bot: ChaosBot) -> None:
    await bot.add_cog(AdminCog(bot))
    if bot.settings.dev_guild is not None:  # a command of that server's alone
        await bot.add_cog(SyncCog(bot), guild=discord.Object(bot.settings.dev_guild))
