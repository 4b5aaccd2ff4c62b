"""/settings: the server's choices (Manage Server): referee role, default ruleset, auto-roll,
secret rolls, turn powers, turn mentions."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import choices
from bot.client.bot import ChaosBot
from bot.client.interactions import guild_key, reply
from bot.client.permissions import require_manager
from bot.store import GuildSettings

Interaction = discord.Interaction[ChaosBot]

_SECRET = {
    "allowed": "anyone may roll secretly",
    "referee": "only referees may roll secretly",
    "never": "nobody rolls secretly",
}


def describe(settings: GuildSettings) -> str:
    role = f"<@&{settings.referee_role}>" if settings.referee_role else "none (the host referees)"
    return "\n".join(
        [
            f"Referee role: {role}",
            f"Default ruleset: {settings.default_ruleset}",
            f"Auto-roll: {'on' if settings.auto_roll else 'off'}",
            f"Secret rolls: {_SECRET[settings.secret_rolls]}",
            "Turn powers: "
            + (
                "the active player, the host and referees"
                if settings.turn_powers
                else "the host and referees only"
            ),
            "Turn mentions: "
            + (
                "on (each player is pinged when their turn starts; `/player notify` turns it"
                " off for oneself)"
                if settings.turn_mentions
                else "off"
            ),
        ]
    )


class SettingsCog(commands.Cog):
    """The server's settings."""

    def __init__(self, bot: ChaosBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="settings", description="See or change this server's settings (Manage Server)"
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    @app_commands.describe(
        referee_role="Members with this role referee every game here",
        no_referee_role="Remove the referee role (only hosts and server managers referee)",
        default_ruleset="What /game start plays when no ruleset is named",
        auto_roll="Make the chaos roll by itself as soon as a turn starts",
        secret_rolls="Who may roll dice secretly with /roll dice",
        turn_powers="Let the active player change the turn order, roll a Global or a named list",
        turn_mentions="Ping each player when their turn starts (each may opt out: /player notify)",
    )
    @app_commands.autocomplete(default_ruleset=choices.rulesets)
    async def settings(
        self,
        interaction: Interaction,
        referee_role: discord.Role | None = None,
        no_referee_role: bool = False,
        default_ruleset: app_commands.Range[str, 1, 40] | None = None,
        auto_roll: bool | None = None,
        secret_rolls: Literal["allowed", "referee", "never"] | None = None,
        turn_powers: bool | None = None,
        turn_mentions: bool | None = None,
    ) -> None:
        guild = guild_key(interaction)
        changes: dict[str, Any] = {}
        if referee_role is not None:
            changes["referee_role"] = referee_role.id
        if no_referee_role:
            changes["referee_role"] = None
        if default_ruleset is not None:
            changes["default_ruleset"] = default_ruleset
        if auto_roll is not None:
            changes["auto_roll"] = auto_roll
        if secret_rolls is not None:
            changes["secret_rolls"] = secret_rolls
        if turn_powers is not None:
            changes["turn_powers"] = turn_powers
        if turn_mentions is not None:
            changes["turn_mentions"] = turn_mentions
        who, current = await self.bot.play.caller(interaction)
        require_manager(who, "Changing the settings" if changes else "Seeing the settings")
        if changes:
            current = await self.bot.service.update_settings(guild, **changes)
        head = "Saved. This server's settings:" if changes else "This server's settings:"
        embed = discord.Embed(title=head, description=describe(current))
        await reply(interaction, embeds=[embed], ephemeral=True)


async def setup(bot: ChaosBot) -> None:
    await bot.add_cog(SettingsCog(bot))
