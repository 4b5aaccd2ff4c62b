"""The one place where a failed command or button becomes words for the person who used it.

Our errors (:class:`~bot.engine.errors.ChaosError`) carry a sentence meant for players: it is
shown as it is, to them only. Anything else is our bug: it is logged with its traceback, and the
player gets a short apology (the game is safe: an action is saved whole or not at all).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.client.interactions import reply
from bot.client.wording import slashed
from bot.engine.errors import ChaosError
from bot.errors import ConflictError, StoreError

log = logging.getLogger(__name__)

APOLOGY = (
    "Sorry, something went wrong on our side. It has been logged; the game is safe,"
    " and trying again usually works."
)
MAX_MESSAGE = 1900  # Discord allows 2000 characters in a message


def words_for(error: BaseException) -> str | None:
    """What to tell the player about `error`; None when it is our bug."""
    original = error.__cause__ if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(original, StoreError) and not isinstance(original, ConflictError):
        return None  # the database, not the player: for whoever hosts the bot, in the log
    if isinstance(original, ChaosError):
        return _fit(slashed(str(original)))
    if isinstance(error, app_commands.CheckFailure):
        return _fit(str(error) or "You can't use that here.")
    return None


def _fit(text: str) -> str:
    if len(text) <= MAX_MESSAGE:
        return text
    lines = text.splitlines()
    kept: list[str] = []
    for line in lines:
        if sum(len(k) + 1 for k in kept) + len(line) > MAX_MESSAGE - 40:
            break
        kept.append(line)
    if not kept:
        return text[: MAX_MESSAGE - 1] + "…"
    return "\n".join([*kept, f"… and {len(lines) - len(kept)} more lines"])


async def report(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Tell the player what went wrong, privately; log what isn't theirs to fix."""
    message = words_for(error)
    if message is None:
        original = getattr(error, "original", error)
        if isinstance(original, discord.NotFound) and original.code == 10062:
            log.warning("an interaction expired before we answered it (%s)", interaction.id)
            return
        command = interaction.command.qualified_name if interaction.command else "a component"
        log.error("internal error in %s", command, exc_info=original)
        message = APOLOGY
    try:
        await reply(interaction, message, ephemeral=True)
    except discord.HTTPException as failed:
        log.warning("couldn't tell the player about an error: %s", failed)
