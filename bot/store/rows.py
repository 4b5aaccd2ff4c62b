"""Rows into records and records into rows: what both backends do alike with what they read.

A row here is whatever a driver hands back and indexes by position: sqlite3's ``Row`` or a
tuple, asyncpg's ``Record``. Only the SQL that fetches or stores these rows differs between
SQLite and PostgreSQL (and stays in :mod:`bot.store.sqlite`, :mod:`bot.store.postgres` and
their helpers), so what a row means is said once, here.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

from bot.engine.events import Event
from bot.engine.house import HouseRules
from bot.errors import StoreError
from bot.store.records import BoardRecord, GameRecord, GuildSettings, SecretRolls
from bot.tables.snapshot import Snapshot, SnapshotFile


class Row(Protocol):
    """A row as either driver gives it: its values by position, and in order."""

    def __getitem__(self, index: int, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


# One encoder (json.dumps makes one per call), without the check for circular references:
# an event is a tree of plain values the engine built (one that weren't would still fail, with
# RecursionError instead), and the check's bookkeeping was a quarter of the time an event took.
_ENCODER = json.JSONEncoder(separators=(",", ":"), check_circular=False)

# A game's row as both backends select it (its flag is 0/1 in SQLite, a bool in PostgreSQL).
GAME_COLUMNS = "id, scope, guild, ruleset, snapshot, version, created, updated, ended, active"


def stamp(now: float | None) -> float:
    """The time to record: `now` if the caller gave one, the clock's otherwise."""
    return time.time() if now is None else now


def actions(events: Iterable[Event]) -> int:
    """How many actions `events` hold: how far they move a game's version."""
    return sum(1 for e in events if e["type"] == "action")


def dump_event(event: Event) -> str:
    """An event as the store keeps it: compact JSON, the same bytes as a line of the export."""
    return _ENCODER.encode(event)


@dataclass(frozen=True)
class Log:
    """Events about to be stored, as the columns of ``events`` hold them (but the game's id).

    An event belongs to the action before it, so each carries that action's number: a new
    game starts before any (-1), an appended action after the last one stored.
    """

    positions: list[int]
    actions: list[int]
    data: list[str]

    @classmethod
    def of(cls, events: Sequence[Event], *, first: int = 0, action: int = -1) -> Log:
        """`events` to be stored at positions `first` on, after the action numbered `action`."""
        positions, numbers = [], []
        for pos, event in enumerate(events, start=first):
            if event["type"] == "action":
                action = event["seq"]
            positions.append(pos)
            numbers.append(action)
        return cls(positions, numbers, [dump_event(e) for e in events])

    def rows(self, game_id: int) -> list[tuple[int, int, int, str]]:
        """The rows of ``events`` (game_id, pos, action, data) for the game `game_id`."""
        return [
            (game_id, pos, action, data)
            for pos, action, data in zip(self.positions, self.actions, self.data, strict=True)
        ]


def decode(data: Iterable[str] | None) -> list[Event]:
    """Events from the JSON texts the store keeps them as (none for None)."""
    return [cast(Event, json.loads(text)) for text in data or ()]


def game_record(row: Row) -> GameRecord:
    """A game's record from a row of :data:`GAME_COLUMNS`."""
    return GameRecord(
        id=row[0],
        scope=row[1],
        guild=row[2],
        ruleset=row[3],
        snapshot=row[4],
        version=row[5],
        created=row[6],
        updated=row[7],
        ended=row[8],
        active=bool(row[9]),
    )


def snapshot_from(snapshot_hash: str, rows: Sequence[Row]) -> Snapshot:
    """The snapshot whose files `rows` hold (ruleset, name, text, table_id, kind, revision,
    in order), checked against the hash it was stored under; StoreError if it is missing or
    its files no longer add up to that hash."""
    if not rows:
        raise StoreError(f"the tables of this game (snapshot {snapshot_hash[:12]}) are missing")
    files = tuple(SnapshotFile(r[1], r[2], r[3], r[4], r[5]) for r in rows)
    found = Snapshot(rows[0][0], files)
    if found.hash != snapshot_hash:
        raise StoreError(f"the tables of this game (snapshot {snapshot_hash[:12]}) are damaged")
    return found


def snapshot_files(snapshot: Snapshot) -> list[tuple[str, int, str, str, str, str, str]]:
    """The rows of ``snapshot_files`` that list `snapshot`'s files, in its columns' order."""
    return [
        (snapshot.hash, i, f.name, f.id, f.kind, f.revision, f.hash)
        for i, f in enumerate(snapshot.files)
    ]


def settings_from(row: Row) -> GuildSettings:
    """A guild's settings from its row (referee_role, default_ruleset, auto_roll,
    secret_rolls, turn_powers, turn_mentions, quiet, house)."""
    role, ruleset, auto_roll, secret, powers, mentions, quiet, house = row
    secret_rolls: SecretRolls = secret
    members = tuple(str(quiet).split())
    try:
        rules = HouseRules.from_json(json.loads(house))
    except (ValueError, TypeError) as error:  # a JSON or house rule error: someone edited it
        raise StoreError(f"a guild's house rules in the database are damaged: {error}") from None
    return GuildSettings(
        role, ruleset, bool(auto_roll), secret_rolls, bool(powers), bool(mentions), members, rules
    )


def settings_row(
    guild: str, settings: GuildSettings, now: float | None
) -> tuple[str, int | None, str, bool, str, bool, bool, str, float, str]:
    """The ``guild_settings`` row that saves `settings`, in its columns' order. The flags
    are bools: PostgreSQL's BOOLEAN wants them, and SQLite stores them as the 0 and 1 its
    column allows."""
    return (
        guild,
        settings.referee_role,
        settings.default_ruleset,
        settings.auto_roll,
        settings.secret_rolls,
        settings.turn_powers,
        settings.turn_mentions,
        " ".join(settings.quiet),  # Discord ids, which hold no space
        stamp(now),
        json.dumps(settings.house.to_json(), sort_keys=True, separators=(",", ":")),
    )


def board_from(row: Row) -> BoardRecord:
    """A board from its row (scope, game_id, channel, message)."""
    return BoardRecord(row[0], int(row[1]), row[2], row[3])


def board_row(board: BoardRecord, now: float | None) -> tuple[str, int, str, str, float]:
    """The ``boards`` row that remembers `board`, in its columns' order."""
    return (board.scope, board.game_id, board.channel, board.message, stamp(now))
