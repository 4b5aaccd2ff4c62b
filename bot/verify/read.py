"""Reading an exported game log that anyone may hand us: bounded, and every refusal a sentence.

An export is JSON Lines, one event per line (``/game export``), possibly gzip-compressed. A file
from a stranger may be anything: not text, not JSON, a JSON bomb, a gzip bomb, or simply huge.
Reading stops at :data:`MAX_BYTES` of text and :data:`MAX_EVENTS` events.

The reader is strict, because two readers must never see two games in one file: a key twice in
one object (Python keeps the last, another reader the first), NaN or Infinity, a number with a
fraction or an exponent (every number the referee writes is whole), an empty line between events
or a field no event of its type has is refused, naming its line. So event N is always line N.
"""

from __future__ import annotations

import gzip
import io
import json
import zlib
from pathlib import Path
from typing import Any

from bot.engine.events import FIELDS
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
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()  # a file may end with empty lines; between events, none belongs
    for number, line in enumerate(lines, 1):
        if not line.strip():
            raise UnreadableLogError(
                f"Line {number} is empty: an export has one event on every line, so it was edited."
            )
        if len(events) >= MAX_EVENTS:
            raise UnreadableLogError(
                f"That log has more than {MAX_EVENTS:,} events; no game this referee plays is"
                " that long."
            )
        events.append(_event(line, number))
    if not events:
        raise UnreadableLogError("That file is empty: there's no game in it.")
    return events


class _Refused(ValueError):
    """What the strict JSON hooks found wrong, as the end of a sentence about a line."""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    made: dict[str, Any] = {}
    for key, value in pairs:
        if key in made:
            raise _Refused(f"has the key {_shown(key)} twice in one object")
        made[key] = value
    return made


def _constant(name: str) -> Any:
    raise _Refused(f"has {name}, which is no number a game's log holds")


def _fraction(text: str) -> Any:
    raise _Refused(f"has the number {_shown(text)}, where every number in a game's log is whole")


def _shown(text: str) -> str:
    return json.dumps(text if len(text) <= 40 else text[:37] + "…")


def _event(line: str, number: int) -> dict[str, Any]:
    try:
        event = json.loads(
            line, object_pairs_hook=_object, parse_constant=_constant, parse_float=_fraction
        )
    except _Refused as refused:
        raise UnreadableLogError(f"Line {number} {refused}: it was edited by hand.") from None
    except (ValueError, RecursionError):  # bad JSON, an int too long, nesting too deep
        raise UnreadableLogError(
            f"Line {number} isn't a JSON object, so the file isn't a game's export"
            " (one JSON object per line)."
        ) from None
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise UnreadableLogError(
            f"Line {number} isn't an event of a game's log (a JSON object with a type)."
        )
    fields = FIELDS.get(event["type"])
    if fields is None:
        raise UnreadableLogError(
            f"Line {number} has an event of type {_shown(event['type'])}, which no game's log"
            " holds."
        )
    unknown = sorted(set(event) - fields)
    if unknown:
        raise UnreadableLogError(
            f"Line {number} ({event['type']}) has the field {_shown(unknown[0])}, which no"
            f" {event['type']} event has: it was edited by hand."
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
