"""The bot's invite link: ``chaos-referee invite``.

The permissions are those the bot's own messages need, each named with what uses it. Answers to
slash commands and buttons go through the interaction, which needs no channel permission; only
the status board is a message of the bot's own in the channel (``bot/client/keeper.py``), and the
files and pictures some answers carry are checked against the bot's permissions all the same.
The bot edits and deletes only its own messages, which needs nothing more, and reads none.
"""

from __future__ import annotations

import base64
import binascii

import discord

from bot.errors import ConfigError

SCOPES = ("bot", "applications.commands")  # a bot user, and its slash commands

# discord.py's name for each permission, and the developer portal's.
USES: tuple[tuple[str, str], ...] = (
    # See the channel a game is in, to post its status board there.
    ("view_channel", "View Channels"),
    # Post the status board: a channel message of the bot's own (keeper.py), not an answer.
    ("send_messages", "Send Messages"),
    # The same when the game lives in a thread.
    ("send_messages_in_threads", "Send Messages in Threads"),
    # The board and the results are embeds, with Scryfall's card pictures in them.
    ("embed_links", "Embed Links"),
    # /game export and /table export answer with a file.
    ("attach_files", "Attach Files"),
)
PERMISSIONS = discord.Permissions(**dict.fromkeys((flag for flag, _ in USES), True))


def client_id_from_token(token: str) -> int:
    """The application's id, which a bot token begins with (base64 of the bot user's id, which
    is its application's)."""
    head = token.strip().partition(".")[0]
    try:
        text = base64.b64decode(head + "=" * (-len(head) % 4), altchars=b"-_", validate=True)
        client_id = int(text.decode("ascii"))
    except (binascii.Error, UnicodeDecodeError, ValueError):
        client_id = 0
    if client_id <= 0:
        raise ConfigError(
            "DISCORD_TOKEN doesn't look like a bot token (its first part should name the"
            " application): copy it again from the developer portal, or give the application"
            " id with --client-id (General Information > Application ID)"
        )
    return client_id


def invite_url(client_id: int) -> str:
    """The link that adds the bot to a server the person opening it manages."""
    return discord.utils.oauth_url(client_id, permissions=PERMISSIONS, scopes=SCOPES)


def permission_names() -> list[str]:
    """The permissions as the developer portal and server settings name them."""
    return [name for _, name in USES]
