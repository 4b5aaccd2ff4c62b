"""What every store promises, whichever database is under it: SQLite or PostgreSQL.

The service, the guild service and the tools speak to a :class:`Store` only through these
methods, and get back the records of :mod:`bot.store.records`: so they never know (nor care)
which database keeps the games. ``tests/store`` runs one set of contract tests against both.

``Store.open(target)`` picks the backend from `target`: a ``postgresql://`` (or ``postgres://``)
URL opens PostgreSQL, anything else is the path of a SQLite file.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import Any, Self, cast

from bot.engine.events import Event
from bot.store.records import (
    BoardRecord,
    GameRecord,
    GameTable,
    GuildSettings,
    LinkRecord,
    StoredGame,
    StoredTable,
)
from bot.store.rows import Log, actions
from bot.store.rows import dump_event as dump_event  # where callers have always found it
from bot.store.writer import Meanwhile, Writer
from bot.tables.snapshot import Snapshot

URL_SCHEMES = ("postgresql://", "postgres://")

# Every table a database holds besides its migrations, with its columns, in an order where
# each table comes after those it refers to: what `chaos-referee db copy` moves. Both
# backends have the same tables and columns; only their types differ.
TABLES: dict[str, tuple[str, ...]] = {
    "texts": ("hash", "text"),
    "snapshots": ("hash", "ruleset", "created"),
    "snapshot_files": ("snapshot", "position", "name", "table_id", "kind", "revision", "text"),
    "games": (
        "id", "scope", "guild", "ruleset", "snapshot", "version", "created", "updated", "ended",
        "active",
    ),
    "events": ("game_id", "pos", "action", "data"),
    "interactions": ("id", "game_id", "version", "created"),
    "guild_settings": (
        "guild", "referee_role", "default_ruleset", "auto_roll", "secret_rolls", "turn_powers",
        "turn_mentions", "quiet", "updated", "house",
    ),
    "guild_tables": ("guild", "table_id", "revision", "text", "created"),
    "boards": ("scope", "game_id", "channel", "message", "updated"),
    "web_links": ("token_hash", "game_id", "created"),
}  # fmt: skip
# Columns that are true or false: 0 and 1 in SQLite, BOOLEAN in PostgreSQL, bool in a dump.
FLAGS = frozenset({("games", "active"), ("guild_settings", "auto_roll"),
                   ("guild_settings", "turn_powers"),
                   ("guild_settings", "turn_mentions")})  # fmt: skip


def flagged(table: str, rows: Iterable[Sequence[object]]) -> list[tuple[object, ...]]:
    """`rows` of `table` with its :data:`FLAGS` as bool, whatever the database kept them as:
    how :meth:`Store.dump` gives rows, and what PostgreSQL's BOOLEAN columns take back."""
    flags = [i for i, c in enumerate(TABLES[table]) if (table, c) in FLAGS]
    return [tuple(bool(v) if i in flags else v for i, v in enumerate(row)) for row in rows]


def is_url(target: Path | str) -> bool:
    """Whether `target` names a PostgreSQL database (a URL) rather than a SQLite file."""
    return isinstance(target, str) and target.lower().startswith(URL_SCHEMES)


class Store(ABC):
    """Games and their events, ruleset snapshots, guild settings, tables and boards.

    Every write is committed before its method returns, so whatever a caller acknowledges is
    kept. Open with ``store = await Store.open(target)`` and ``await store.close()``, or
    ``async with Store.connect(target) as store:``; opening brings the schema up to date.
    """

    # The migrations this store ran when it was opened (none if the schema was up to date).
    migrated: tuple[int, ...] = ()
    # Saves go through this writer, committed together in batches (group commit): its
    # `batches` counts them when set to a list, its `group` turns it off for a baseline.
    writer: Writer[Any]

    # -- opening and closing ---------------------------------------------------------------

    @classmethod
    async def open(cls, target: Path | str) -> Self:
        """Open the database `target` names (a SQLite path or a PostgreSQL URL), migrated.

        Each backend overrides this with its own opening; here, on the contract, it picks one.
        """
        if is_url(target):
            from bot.store.postgres import PostgresStore

            return cast(Self, await PostgresStore.open(str(target)))
        from bot.store.sqlite import SQLiteStore

        return cast(Self, await SQLiteStore.open(target))

    @classmethod
    @asynccontextmanager
    async def connect(cls, target: Path | str) -> AsyncIterator[Self]:
        """``async with Store.connect(target) as store:`` opens, and closes on the way out."""
        store = await cls.open(target)
        try:
            yield store
        finally:
            await store.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.close()

    @abstractmethod
    async def close(self) -> None:
        """Close the database once the statements under way are done (again is fine)."""

    @abstractmethod
    async def migrations(self) -> list[int]:
        """The numbers of the migrations this database has run."""

    async def ping(self) -> float:
        """Seconds one trivial query takes there and back: the database latency a health line
        reports (a SQLite file's is its lock and thread hop; PostgreSQL's adds the network)."""
        started = time.perf_counter()
        await self.migrations()
        return time.perf_counter() - started

    @property
    @abstractmethod
    def where(self) -> str:
        """The database in words for whoever hosts the bot: a path, or a URL without password."""

    # -- games -----------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        scope: str,
        guild: str | None,
        snapshot: Snapshot,
        events: Sequence[Event],
        now: float,
        interaction: str | None = None,
    ) -> GameRecord:
        """Store a new game in progress with its first events and its ruleset's snapshot.

        Raises GameExistsError if `scope` already has a game in progress, and
        DuplicateActionError if `interaction` (the id of what asked for it) was stored before.
        """
        version = actions(events)
        game = GameRecord(
            0, scope, guild, snapshot.ruleset, snapshot.hash, version, now, now, None, True
        )
        game_id = await self._insert_game(game, snapshot, Log.of(events), interaction)
        return replace(game, id=game_id)

    @abstractmethod
    async def _insert_game(
        self, game: GameRecord, snapshot: Snapshot, log: Log, interaction: str | None
    ) -> int:
        """Store `game` (its id is 0: the database numbers it) and `log` as :meth:`create_game`
        says, in one transaction; returns its id."""

    async def append_events(
        self,
        game: GameRecord,
        events: Sequence[Event],
        *,
        first: int,
        now: float,
        interaction: str | None = None,
        meanwhile: Meanwhile = None,
    ) -> GameRecord:
        """Add one action's events to a game's log, at positions `first` onwards.

        The stored version must still be ``game.version`` (checked in the same transaction), so
        two writers can't both extend the same log; otherwise ConflictError, and nothing is
        written. An `interaction` id already stored raises DuplicateActionError instead, so the
        same interaction delivered twice (two processes during a hand-over) is applied once. A
        ``game_ended`` event frees the scope for a new game. Returns the new record.
        `meanwhile` is called on the loop while the save commits (:mod:`bot.store.writer`).
        """
        ended = now if any(e["type"] == "game_ended" for e in events) else game.ended
        version = game.version + actions(events)
        moved = replace(game, version=version, updated=now, ended=ended, active=ended is None)
        log = Log.of(events, first=first, action=game.version - 1)
        await self._append(game, moved, log, interaction, meanwhile)
        return moved

    @abstractmethod
    async def _append(
        self,
        game: GameRecord,
        moved: GameRecord,
        log: Log,
        interaction: str | None,
        meanwhile: Meanwhile = None,
    ) -> None:
        """Store `moved` in place of `game` if its version still is ``game.version``, and
        `log`, as :meth:`append_events` says, atomically."""

    @abstractmethod
    async def version(self, game_id: int) -> int | None:
        """A game's stored version (its number of actions), None if it is gone: one lookup by
        key, to tell whether a copy kept in memory is still current."""

    @abstractmethod
    async def applied(self, interaction: str) -> bool:
        """Whether the action an interaction asked for is stored (it was applied, here or in
        another process)."""

    async def claim(self, interaction: str) -> bool:
        """Claim an interaction for this process: True if this process has it now (no other
        claimed it, this one did before, or the one that did has died), False if another
        live process has it (it carries the interaction out and answers it; see
        :meth:`bot.service.GameService.claim`). Made before anything else is done for it.

        A SQLite file has a single bot process, so there is nothing to claim: always True
        (the interactions' key still applies an action at most once). PostgreSQL, shared by
        processes that may all receive one interaction during a shard hand-over, stores the
        claim.
        """
        return True

    @abstractmethod
    async def active_game(self, scope: str) -> StoredGame | None:
        """The game in progress in `scope`, with its log; None if there is none."""

    @abstractmethod
    async def latest_game(self, scope: str) -> StoredGame | None:
        """The most recent game of `scope`, in progress or ended (until it expires)."""

    @abstractmethod
    async def game(self, game_id: int) -> StoredGame | None:
        """A game by its id."""

    @abstractmethod
    async def game_ids(self) -> list[int]:
        """The id of every stored game, in order (for tools that go through them all)."""

    @abstractmethod
    async def recent_events(self, game_id: int, count: int) -> list[Event]:
        """The last `count` events of a game's log, oldest first."""

    @abstractmethod
    async def game_tables(self, game_id: int) -> list[GameTable]:
        """Every file of the ruleset a game plays with: id, kind and declared revision."""

    @abstractmethod
    async def expire(self, before: float) -> list[GameRecord]:
        """Delete every game not touched since `before` (ended or not), with its events, and
        the snapshots and texts no game uses any more. Returns the games deleted.
        """

    @abstractmethod
    async def snapshot(self, snapshot_hash: str) -> Snapshot:
        """The snapshot stored under `snapshot_hash`; StoreError if it's missing."""

    # -- guilds ----------------------------------------------------------------------------

    @abstractmethod
    async def guild_settings(self, guild: str) -> GuildSettings | None:
        """The settings a guild saved; None if it never changed any."""

    @abstractmethod
    async def put_guild_settings(
        self, guild: str, settings: GuildSettings, *, now: float | None = None
    ) -> None:
        """Save all of a guild's settings at once (`now`: the time to record, now by default)."""

    @abstractmethod
    async def put_table(
        self, guild: str, table_id: str, text: str, *, now: float | None = None
    ) -> int:
        """Store a new revision of a guild's table (its YAML text); returns its number (1, 2...)."""

    @abstractmethod
    async def get_table(
        self, guild: str, table_id: str, revision: int | None = None
    ) -> StoredTable | None:
        """A revision of a guild's table (the newest by default); None if there's no such one."""

    @abstractmethod
    async def list_tables(self, guild: str) -> list[StoredTable]:
        """The newest revision of each of a guild's tables, by id."""

    @abstractmethod
    async def table_revisions(self, guild: str) -> list[tuple[str, int]]:
        """The id and newest revision of each of a guild's tables, by id, without their texts
        (an autocomplete asks on every keystroke: a guild's texts may be megabytes)."""

    # -- boards ----------------------------------------------------------------------------

    @abstractmethod
    async def board(self, scope: str) -> BoardRecord | None:
        """The board posted for the scope's game, if one was; None otherwise."""

    @abstractmethod
    async def put_board(self, board: BoardRecord, *, now: float | None = None) -> None:
        """Remember the scope's board message (replacing the one it had)."""

    # -- links to live pages ----------------------------------------------------------------

    @abstractmethod
    async def put_link(self, token_hash: str, game_id: int, *, now: float | None = None) -> int:
        """Keep a new link to a game's live page, by the hash of its token; returns how many
        links the game has now. The game must exist (StoreError otherwise)."""

    @abstractmethod
    async def link(self, token_hash: str) -> LinkRecord | None:
        """The link with this token hash, if it still works: not revoked, its game not
        expired. None otherwise."""

    @abstractmethod
    async def links(self, game_id: int) -> int:
        """How many links to a game's live page work."""

    @abstractmethod
    async def revoke_links(self, game_id: int) -> int:
        """Make every link to a game's live page stop working; returns how many there were."""

    # -- whole tables, for `chaos-referee db copy` -----------------------------------------

    @abstractmethod
    async def dump(self, table: str) -> list[tuple[object, ...]]:
        """Every row of one of :data:`TABLES`, in its columns' order (flags as bool)."""

    @abstractmethod
    async def load(self, rows: dict[str, list[tuple[object, ...]]]) -> None:
        """Insert rows as :meth:`dump` gives them, table by table, in one transaction."""
