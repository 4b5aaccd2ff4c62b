"""Builders for the JSON objects the fake Discord sends: users, guilds, messages, interactions.

Each builder returns the smallest shape that discord.py 2.7's parsers accept without a KeyError.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from typing import Any

JSON = dict[str, Any]

# Snowflakes: increasing integers above a fixed base, rendered as strings as Discord does.
_snowflakes = itertools.count(1_300_000_000_000_000_000)
# A snowflake's top bits are its timestamp; Discord routes a guild to a shard by them.
TIMESTAMP_SHIFT = 22

ALL_PERMISSIONS = str((1 << 53) - 1)
EVERYONE_PERMISSIONS = "2248473465835073"  # Discord's default @everyone set: no manage_guild
ADMINISTRATOR = 1 << 3
ATTACHMENT_SIZE_LIMIT = 8 * 1024 * 1024


def snowflake() -> str:
    return str(next(_snowflakes))


def shard_of(guild_id: str | int, num_shards: int) -> int:
    """The shard Discord sends a guild's events to: ``(guild_id >> 22) % num_shards``."""
    return (int(guild_id) >> TIMESTAMP_SHIFT) % num_shards


def snowflake_on_shard(shard_id: int, num_shards: int) -> str:
    """A fresh snowflake whose guild would live on ``shard_id`` of ``num_shards``.

    Consecutive snowflakes share their timestamp bits, so they all land on one shard; this one
    moves the timestamp forward until the sharding formula gives ``shard_id``, and every later
    snowflake stays above it, so ids remain unique and increasing.
    """
    global _snowflakes
    if not 0 <= shard_id < num_shards:
        raise ValueError(f"shard {shard_id} is not one of {num_shards} shards")
    stamp = (next(_snowflakes) >> TIMESTAMP_SHIFT) + 1
    stamp += (shard_id - stamp) % num_shards
    chosen = stamp << TIMESTAMP_SHIFT
    _snowflakes = itertools.count(chosen + 1)
    return str(chosen)


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


def user(user_id: str, name: str, *, bot: bool = False) -> JSON:
    return {
        "id": user_id,
        "username": name,
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
        "public_flags": 0,
    }


def member(user_obj: JSON, *, roles: list[str] | None = None, permissions: str = "") -> JSON:
    data: JSON = {
        "user": user_obj,
        "roles": roles or [],
        "joined_at": now_iso(),
        "deaf": False,
        "mute": False,
        "flags": 0,  # Member reads it with data["flags"]
        "nick": None,
        "avatar": None,
        "pending": False,
    }
    if permissions:
        data["permissions"] = permissions
    return data


def text_channel(channel_id: str, guild_id: str, name: str, position: int = 0) -> JSON:
    return {
        "id": channel_id,
        "type": 0,
        "guild_id": guild_id,
        "name": name,
        "position": position,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
    }


def thread(thread_id: str, guild_id: str, parent_id: str, owner_id: str, name: str) -> JSON:
    """A public thread (type 11)."""
    return {
        "id": thread_id,
        "type": 11,
        "guild_id": guild_id,
        "parent_id": parent_id,
        "owner_id": owner_id,
        "name": name,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "flags": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": 1440,
            "archive_timestamp": now_iso(),
            "locked": False,
        },
    }


def role(role_id: str, name: str, permissions: str, position: int) -> JSON:
    return {
        "id": role_id,
        "name": name,
        "permissions": permissions,
        "position": position,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def attachment(
    attachment_id: str, filename: str, size: int, url: str, content_type: str | None
) -> JSON:
    data: JSON = {
        "id": attachment_id,
        "filename": filename,
        "size": size,
        "url": url,
        "proxy_url": url,
    }
    if content_type:
        data["content_type"] = content_type
    return data


def guild(
    guild_id: str,
    name: str,
    owner_id: str,
    *,
    roles: list[JSON],
    channels: list[JSON],
    threads: list[JSON],
    members: list[JSON],
) -> JSON:
    """GUILD_CREATE's guild; ``roles`` must hold @everyone, whose id is the guild's."""
    return {
        "id": guild_id,
        "name": name,
        "icon": None,
        "owner_id": owner_id,
        "unavailable": False,
        "roles": roles,
        "channels": channels,
        "members": members,
        "member_count": len(members),  # equal to len(members), so no chunking is requested
        "large": False,
        "features": [],
        "emojis": [],
        "stickers": [],
        "threads": threads,
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "preferred_locale": "en-US",
        "joined_at": now_iso(),
        "system_channel_id": None,
        "afk_channel_id": None,
        "afk_timeout": 300,
    }


def message(
    message_id: str,
    channel_id: str,
    author: JSON,
    body: JSON,
    *,
    guild_id: str | None = None,
    flags: int = 0,
) -> JSON:
    """A message object built from the JSON body a client sent to create it."""
    data: JSON = {
        "id": message_id,
        "channel_id": channel_id,
        "author": author,
        "content": body.get("content") or "",
        "timestamp": now_iso(),
        "edited_timestamp": None,
        "tts": bool(body.get("tts", False)),
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": body.get("embeds") or [],
        "components": body.get("components") or [],
        "pinned": False,
        "type": 0,
        "flags": (body.get("flags") or 0) | flags,
    }
    if guild_id is not None:
        data["guild_id"] = guild_id
    return data


def interaction(
    *,
    kind: int,
    application_id: str,
    guild_id: str,
    channel: JSON,
    member_obj: JSON,
    data: JSON,
    message_obj: JSON | None = None,
) -> JSON:
    """An INTERACTION_CREATE payload in a guild; ``kind`` 2 command, 3 component, 4 autocomplete."""
    payload: JSON = {
        "id": snowflake(),
        "application_id": application_id,
        "type": kind,
        "token": f"itoken-{snowflake()}",
        "version": 1,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,  # read with data[...] by Interaction
        "locale": "en-US",
        "guild_locale": "en-US",
        "app_permissions": ALL_PERMISSIONS,
        "entitlements": [],
        "authorizing_integration_owners": {"0": guild_id},
        "context": 0,
        "guild_id": guild_id,
        "guild": {"id": guild_id, "locale": "en-US", "features": []},
        "channel_id": channel["id"],
        "channel": channel,
        "member": member_obj,
        "data": data,
    }
    if message_obj is not None:
        payload["message"] = message_obj
    return payload
