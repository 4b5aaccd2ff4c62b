"""Reading an exported game log that anyone may hand us: bounded, and every refusal a sentence.

An export is JSON Lines, one event per line (``/game export``), possibly gzip-compressed. A file
from a stranger may be anything: not text, not JSON, a JSON bomb, a gzip bomb, or simply huge.
Reading stops at :data:`MAX_BYTES` of text and :data:`MAX_EVENTS` events.
"""

from __future__ import annotations

import gzip
import io
import json
import zlib
from pathlib import Path
from typing import Any

from bot.verify.errors import UnreadableLogError

MAX_BYTES = 8 * 1024 * 1024  # a long game's export is a few hundred KB
MAX_EVENTS = 100_000
GZIP_MAGIC = b"\x1f\x8b"


def read_log(data: bytes) -> list[dict[str, Any]]:
    """The events of an export, in order; UnreadableLogError saying why if they can't be read."""
    if data.startswith(GZIP_MAGIC):
        data = _gunzip(data)
    if len(data) > MAX_BYTES:
        raise UnreadableLogError(
            f"That file is larger than {MAX_BYTES // (1024 * 1024)} MB; a game's export is far"
            " smaller, so it isn't one."
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableLogError(
            "That file isn't UTF-8 text, so it isn't a game's export (`/game export`)."
        ) from None
    events: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if len(events) >= MAX_EVENTS:
            raise UnreadableLogError(
                f"That log has more than {MAX_EVENTS:,} events; no game this referee plays is"
                " that long."
            )
        events.append(_event(line, number))
    if not events:
        raise UnreadableLogError("That file is empty: there's no game in it.")
    return events


def _event(line: str, number: int) -> dict[str, Any]:
    try:
        event = json.loads(line)
    except (ValueError, RecursionError):  # bad JSON, an int too long, nesting too deep
        raise UnreadableLogError(
            f"Line {number} isn't a JSON object, so the file isn't a game's export"
            " (one JSON object per line)."
        ) from None
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise UnreadableLogError(
            f"Line {number} isn't an event of a game's log (a JSON object with a type)."
        )
    return event


def _gunzip(data: bytes) -> bytes:
    """Decompress at most one byte more than the limit: a small file can't unpack to gigabytes."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as unpacked:
            return unpacked.read(MAX_BYTES + 1)
    except (OSError, EOFError, zlib.error):
        raise UnreadableLogError(
            "That file looks compressed (gzip) but can't be unpacked."
        ) from None


def read_path(path: Path) -> bytes:
    """A regular file's bytes, at most one more than the limit; a sentence for anything else."""
    try:
        if not path.is_file():
            raise UnreadableLogError(f"{path} isn't a file.")
        with path.open("rb") as file:
            return file.read(MAX_BYTES + 1)
    except (OSError, ValueError) as error:  # ValueError: a NUL in the path
        reason = getattr(error, "strerror", None) or "not a path"
        raise UnreadableLogError(f"Can't read {path}: {reason}.") from None
