"""Who is asking and where: what every command handler needs from a Discord interaction.

A game lives in a *scope*, ``"{guild}:{channel}"`` (a thread is a channel of its own). Players
are known to the engine by their Discord user id, and named by their display name. Whether the
caller referees is decided here, from the guild's referee role or the Manage Server permission.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar

import discord

from bot.client.quietly import can_send_first, send_first
from bot.commands import MAX_NAME
from bot.errors import NoGameError
from bot.store import GuildSettings

T = TypeVar("T")

# Discord wants a first answer within 3 s. Work that isn't done by then is deferred ("thinking…")
# and its answer sent as a follow-up.
DEFER_AFTER = 2.0

_NAME_JUNK = re.compile(r"[,:#\s]+")
_THINKING = "chaos-thinking"  # in interaction.extras: a deferred answer not yet completed
_OURS = "chaos-ours"  # in interaction.extras: this process claimed it (see mark_ours)
_TOLD = "chaos-told"  # in interaction.extras: done once it has its first answer (see answered)
ANSWERED_ALREADY = 40060  # Discord's code for a second first answer to one interaction


class NotInGuildError(NoGameError):
    """Games are played in a server's channels, not in direct messages."""


@dataclass(frozen=True)
class Caller:
    """The member behind an interaction, as the game and its permissions see them."""

    id: str
    name: str
    referee: bool
    manager: bool  # may change the server's settings and tables (Manage Server)


def scope_of(interaction: discord.Interaction[Any]) -> str:
    """The scope of the game played where the interaction happened."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise NotInGuildError("Chaos games are played in a server's channels, not here.")
    return f"{interaction.guild_id}:{interaction.channel_id}"


def guild_key(interaction: discord.Interaction[Any]) -> str:
    if interaction.guild_id is None:
        raise NotInGuildError("That belongs to a server: use it in one of its channels.")
    return str(interaction.guild_id)


def player_name(user: discord.abc.User) -> str:
    """A display name the game can use: no commas, colons or #, at most MAX_NAME characters."""
    return _usable_name(user.display_name, user.name, user.id)


# Every action asks for its caller's name, and a table's few members ask again and again: the
# cleaning (a pattern and a look at every character) is done once per name.
@lru_cache(maxsize=4096)
def _usable_name(display_name: str, username: str, user_id: int) -> str:
    name = _NAME_JUNK.sub(" ", display_name).strip() or username
    name = "".join(ch for ch in name if ch.isprintable())[:MAX_NAME].strip()
    return name or f"Player {str(user_id)[-4:]}"


def caller(interaction: discord.Interaction[Any], settings: GuildSettings) -> Caller:
    """Who is asking; a referee holds the guild's referee role or may manage the server."""
    user = interaction.user
    manager = bool(interaction.permissions.manage_guild)
    role = settings.referee_role
    has_role = (
        role is not None
        and isinstance(user, discord.Member)
        and any(r.id == role for r in user.roles)
    )
    return Caller(str(user.id), player_name(user), referee=has_role or manager, manager=manager)


async def within_deadline(
    interaction: discord.Interaction[Any],
    work: Awaitable[T],
    *,
    ephemeral: bool = False,
    after: float = DEFER_AFTER,
) -> T:
    """Await `work`; if it takes longer than `after` seconds, defer the interaction meanwhile
    so Discord doesn't give up on it (the answer then goes out as a follow-up).

    A timer rather than a task racing the work: most actions take a millisecond or two, and
    then this costs next to nothing.
    """
    loop = asyncio.get_running_loop()
    deferring: asyncio.Task[None] | None = None

    def defer() -> None:
        nonlocal deferring
        if not interaction.response.is_done():
            deferring = loop.create_task(_defer(interaction, ephemeral))

    timer = loop.call_later(after, defer)
    try:
        result = await work
    except BaseException:
        timer.cancel()
        if deferring is not None:  # let it finish, so the error's answer comes after it
            with contextlib.suppress(Exception):
                await deferring
        raise
    timer.cancel()
    if deferring is not None:
        await deferring  # the answer must follow the deferral, not race it
    return result


async def _defer(interaction: discord.Interaction[Any], ephemeral: bool) -> None:
    await interaction.response.defer(thinking=True, ephemeral=ephemeral)
    answered(interaction)
    interaction.extras[_THINKING] = "ephemeral" if ephemeral else "public"


def told(interaction: discord.Interaction[Any]) -> asyncio.Future[None]:
    """A future done once the interaction has its first answer: the member's next command
    waits for it (:mod:`bot.client.oneatatime`). Every first answer calls :func:`answered`."""
    future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    interaction.extras[_TOLD] = future
    return future


def answered(interaction: discord.Interaction[Any]) -> None:
    """The interaction has its first answer (or "thinking…"): say so to :func:`told`'s
    future. Call it right after each ``interaction.response`` call that answers."""
    future = interaction.extras.get(_TOLD)
    if isinstance(future, asyncio.Future) and not future.done():
        future.set_result(None)


def mark_ours(interaction: discord.Interaction[Any]) -> None:
    """Note that this process claimed the interaction (:meth:`bot.service.GameService.claim`):
    any other process that received it stays silent, so this one's answer is the one the
    player must get, even when something else answered first (see :func:`reply`)."""
    interaction.extras[_OURS] = True


async def reply(
    interaction: discord.Interaction[Any],
    content: str | None = None,
    *,
    embeds: list[discord.Embed] | None = None,
    view: discord.ui.View | None = None,
    file: discord.File | None = None,
    ephemeral: bool = False,
    mention: int | None = None,
) -> None:
    """Answer the interaction, as its first response or (once deferred) as a follow-up.

    Nobody is pinged by what the answer says, but the member `mention` names (by id) when
    given: a turn's player, mentioned in `content`.

    If Discord refuses the first response because the interaction was answered already
    (40060), and this process claimed it (:func:`mark_ours`), the answer goes out as a
    follow-up instead: another process that received it too during a shard hand-over answered
    first (it could only have deferred, or failed before its claim), and this answer is the
    real one. Any process may send a follow-up, for 15 minutes, with the interaction's token.
    An ephemeral answer stays ephemeral, unless the first answer was a public "thinking…",
    which Discord's first follow-up completes as it is. Without a claim the refusal stands:
    an unclaimed command answered by two processes must not be shown twice.
    """
    extra: dict[str, Any] = {}
    if embeds:
        extra["embeds"] = embeds
    if view is not None:
        extra["view"] = view
    if file is not None:
        extra["file"] = file
    mentions = discord.AllowedMentions.none()
    if mention is not None:
        mentions.users = [discord.Object(id=mention)]
    if interaction.response.is_done():
        thinking = interaction.extras.pop(_THINKING, None)
        if thinking == "public" and ephemeral:
            # The first follow-up would complete the public "thinking…" message, and stay
            # public whatever it asks: remove that message, so this one can be private.
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        await interaction.followup.send(
            content or discord.utils.MISSING,
            ephemeral=ephemeral,
            allowed_mentions=mentions,
            **extra,
        )
    else:
        try:
            if can_send_first(view):  # nothing needs the message back (bot.client.quietly)
                await send_first(
                    interaction, content, ephemeral=ephemeral, allowed_mentions=mentions, **extra
                )
            else:
                await interaction.response.send_message(
                    content, ephemeral=ephemeral, allowed_mentions=mentions, **extra
                )
        except discord.HTTPException as refused:
            if refused.code != ANSWERED_ALREADY or not interaction.extras.get(_OURS):
                raise
            await interaction.followup.send(
                content or discord.utils.MISSING,
                ephemeral=ephemeral,
                allowed_mentions=mentions,
                **extra,
            )
    answered(interaction)


async def refuse(interaction: discord.Interaction[Any], message: str) -> None:
    """Say why not, to the caller only."""
    await reply(interaction, message, ephemeral=True)
