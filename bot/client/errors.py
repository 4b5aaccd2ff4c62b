"""The one place where a failed command or button becomes words for the person who used it.

Our errors (:class:`~bot.engine.errors.ChaosError`) carry a sentence meant for players: it is
shown as it is, to them only. A database that can't be used (locked, read-only, a full disk) is
the host's to fix: the log gets the store's sentence for the host (no traceback: it isn't a
bug), the player the store's sentence for players. Anything else is our bug: it is logged with
its traceback, and the player gets a short apology (the game is safe: an action is saved whole
or not at all).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.client.interactions import ANSWERED_ALREADY, reply
from bot.client.wording import slashed
from bot.engine.errors import ChaosError
from bot.errors import ConflictError, DuplicateActionError, StoreError

log = logging.getLogger(__name__)

APOLOGY = (
    "Sorry, something went wrong on our side. It has been logged; the game is safe,"
    " and trying again usually works."
)
MAX_MESSAGE = 1900  # Discord allows 2000 characters in a message


def words_for(error: BaseException) -> str | None:
    """What to tell the player about `error`; None when it is our bug."""
    original = _original(error)
    if isinstance(original, StoreError):
        return _fit(original.players)  # the host's sentence is for the log (see report)
    if isinstance(original, ChaosError):
        return _fit(slashed(str(original)))
    if isinstance(error, app_commands.CheckFailure):
        return _fit(str(error) or "You can't use that here.")
    return None


def _original(error: BaseException) -> BaseException:
    if isinstance(error, app_commands.CommandInvokeError) and error.__cause__ is not None:
        return error.__cause__
    return error


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
    """Tell the player what went wrong, privately; log what isn't theirs to fix.

    An interaction another process claimed or applied (two processes received it during a
    shard hand-over) gets no answer at all from this one: the other answers it, and an answer
    from here would be either a second message or, sent first, one that hides the real one.
    """
    original = _original(error)
    if isinstance(original, DuplicateActionError):
        log.info("interaction %s is another process's to answer: %s", interaction.id, original)
        return
    message = words_for(error)
    if isinstance(original, StoreError) and not isinstance(original, ConflictError):
        log.error("the database failed in %s: %s", _where(interaction), original)
    if message is None:
        original = getattr(error, "original", error)
        if isinstance(original, discord.NotFound) and original.code == 10062:
            log.warning("an interaction expired before we answered it (%s)", interaction.id)
            return
        if isinstance(original, discord.HTTPException) and original.code == ANSWERED_ALREADY:
            # During a shard hand-over two processes receive the interaction and both answer;
            # Discord keeps the first. Not a bug of ours: no traceback, and no second try.
            log.warning("interaction %s was answered already (by another process?)", interaction.id)
            return
        log.error("internal error in %s", _where(interaction), exc_info=original)
        message = APOLOGY
    try:
        await reply(interaction, message, ephemeral=True)
    except discord.HTTPException as failed:
        log.warning("couldn't tell the player about an error: %s", failed)


def _where(interaction: discord.Interaction[Any]) -> str:
    return interaction.command.qualified_name if interaction.command else "a component"
