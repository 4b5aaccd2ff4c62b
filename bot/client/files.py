"""Files the bot sends, made to fit Discord's upload limit.

Discord refuses an attachment over the limit of the server (8 to 100 MB, by boost level; the
interaction says which). A game's log grows with every turn, so an export over the limit is sent
gzip-compressed (JSON Lines compress about tenfold), and one still over it is refused with a
sentence instead of failing at Discord.
"""

from __future__ import annotations

import asyncio
import gzip
import io

import discord

from bot.engine.errors import ChaosError


class FileTooLargeError(ChaosError):
    """Even compressed, the file is over the upload limit."""


async def fitting_file(data: bytes, filename: str, limit: int) -> tuple[discord.File, bool]:
    """`data` as a file of at most `limit` bytes, and whether it had to be compressed (then its
    name ends in .gz). Compressing runs in a thread: a big log takes a moment."""
    if len(data) <= limit:
        return discord.File(io.BytesIO(data), filename=filename), False
    packed = await asyncio.to_thread(gzip.compress, data, 9, mtime=0)
    if len(packed) > limit:
        raise FileTooLargeError(
            f"{filename} is {_mb(len(data))}, and {_mb(len(packed))} compressed: over the"
            f" {_mb(limit)} this server may upload, so it can't be sent here."
        )
    return discord.File(io.BytesIO(packed), filename=f"{filename}.gz"), True


def _mb(size: int) -> str:
    return f"{size / 1024 / 1024:.1f} MB" if size >= 100 * 1024 else f"{size / 1024:.0f} KB"
