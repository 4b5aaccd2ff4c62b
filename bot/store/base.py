"""The connection every part of the store shares, and its transactions.

One aiosqlite connection runs every statement on one background thread, in order. A connection
has one transaction at a time, so concurrent tasks must not interleave their statements inside
it: every transaction (and every read) takes the store's lock for its whole length. Writers go
first in its line (:mod:`bot.store.turns`), and a read of one query runs whole in one hop to
the thread (:meth:`Database._rows`), so a burst of reads holds a save back as little as it can.

Each awaited statement is a round trip to that thread: a queue, a wake-up, a handover of the
GIL and a callback on the loop. On the hot path (saving an action) those hops cost more than
the fsync, so :meth:`Database._transact` runs a whole transaction, written as a plain function
of the stdlib connection, in one of them.

Group commit (:mod:`bot.store.writer`): saves are queued, and the writer hands everything
queued at that moment to :meth:`Database._commit`, which runs it in one hop, as one transaction
with one fsync; each save inside it runs in a SAVEPOINT of its own, so one that fails (a version
conflict, a duplicate interaction) is rolled back alone and the others still commit. A batch
whose transaction fails as a whole (its COMMIT, or an error after which SQLite rolled it all
back) is not answered with the failure: each save is looked up first, and told the truth
(:mod:`bot.store.doubt`).
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from bot.errors import StoreError
from bot.store.doubt import Found, settle
from bot.store.failures import explain, plainly
from bot.store.turns import WriterFirst
from bot.store.writer import Meanwhile, Results, Writer

T = TypeVar("T")
Work = Callable[[sqlite3.Connection], Any]
# How a save is looked up after its batch failed (see Database._settle), on the connection's
# thread: what it finds (bot.store.doubt.Found).
Check = Callable[[sqlite3.Connection], Found]


@dataclass(frozen=True)
class Save:
    """A write transaction's work, and how to find out whether it was stored (None: a save
    that can't tell, which is told its batch's failure)."""

    work: Work
    stored: Check | None = None


class Database:
    """An open connection, its lock, and the transactions built on them."""

    def __init__(self, db: aiosqlite.Connection, native: sqlite3.Connection, path: Path) -> None:
        """Use ``Store.open`` or ``Store.connect``; this takes a connection already set up:
        `db`, and `native`, the stdlib connection under it (used only on `db`'s thread)."""
        self._db = db
        self._native = native
        self.path = path
        self._lock = WriterFirst()
        self._closed = False
        # Group commit: every write transaction of _transact is saved by this one writer.
        self.writer: Writer[Save] = Writer(
            self._commit, name="sqlite group commit", settle=self._settle
        )

    @property
    def where(self) -> str:
        """The database file, for messages to whoever hosts the bot."""
        return str(self.path)

    async def close(self) -> None:
        """Close the connection, once the statements under way are done (again is fine)."""
        if not self._closed:
            self._closed = True
            await self.writer.wait()  # what was queued before closing is still saved
            async with self._lock.hold(writer=True):
                await self._db.close()

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the database is closed")

    async def _transact(
        self,
        work: Callable[[sqlite3.Connection], T],
        meanwhile: Meanwhile = None,
        stored: Check | None = None,
    ) -> T:
        """A write transaction, saved by the writer: `work` runs on the connection's thread in
        a SAVEPOINT of the writer's transaction, and its result comes back once that
        transaction has committed (with ``synchronous=FULL``, once it is on disk). Whatever
        `work` raises comes back instead, and nothing it did is kept; the other saves of the
        batch are not affected. A failure of the whole transaction (its COMMIT, or an error
        after which SQLite rolled it all back: a full disk, an I/O error) comes back to every
        save in it.

        This is where an action's SQL runs, all of it (version check, events, game row,
        interaction): an action costs its share of one hop to the thread and of one fsync.
        `work` is a plain function of the stdlib connection, written as if it had the
        transaction to itself (it must not BEGIN or COMMIT).

        `stored` finds out whether the work is stored, should its batch fail as a whole: it
        is then answered with what that says (:meth:`_settle`).

        `meanwhile` runs on the loop while the transaction's COMMIT waits for the disk.
        Cancelled, it is dropped if it is still queued, and otherwise waits for its batch to
        end (see :mod:`bot.store.writer`).
        """
        self._check_open()
        return cast(T, await self.writer.save(Save(work, stored), meanwhile))

    async def _commit(self, saves: list[Save], meanwhile: Meanwhile) -> Results:
        """One batch, as one transaction on the connection's thread (see :func:`_in_batch`),
        holding the store's lock; each save's failure as :func:`~bot.store.failures.plainly`
        says it. `meanwhile` is handed to the loop just before the COMMIT: the fsync releases
        the GIL, so the loop works while the disk does. (Sooner, the loop's work would hold
        the GIL that the thread needs between the batch's statements, and delay the COMMIT.)

        aiosqlite has no public way to run a function on its thread; ``Connection._execute``
        is the one every aiosqlite method queues its work through (``execute``, ``commit``,
        ``backup``), and the one its maintainers point to for this. Its signature has been
        the same since aiosqlite 0.11, and the lock pins the version; the contract tests
        check that the work runs on that thread. The alternative, a thread of our own for the
        stdlib connection, would replace aiosqlite in every other method too.
        """
        hop = cast(Callable[[Callable[[], Results]], Awaitable[Results]], self._db._execute)
        signal = None if meanwhile is None else _signal(asyncio.get_running_loop(), meanwhile)
        works = [save.work for save in saves]
        async with self._lock.hold(writer=True):
            results = await hop(partial(_in_batch, self._native, works, signal))
        return [(ok, value if ok else _plain(value, self.path)) for ok, value in results]

    async def _settle(self, saves: list[Save], failed: Exception) -> Results:
        """The answers of a batch whose transaction failed as a whole with `failed`: SQLite
        may report an error at a COMMIT that was kept (an I/O error, a full disk, a lock),
        so each save is looked up (in a read of its own, on the connection's thread) before
        it is told; see :mod:`bot.store.doubt`."""
        hop = cast(Callable[[Callable[[], list[Found]]], Awaitable[list[Found]]], self._db._execute)
        checks = [save.stored for save in saves]

        async def look() -> list[Found]:
            async with self._lock.hold(writer=True):
                return await hop(partial(_look_up, self._native, checks))

        def unanswered(error: BaseException) -> bool:
            return isinstance(error, sqlite3.Error)

        return await settle(look, len(saves), _plain(failed, self.path), unanswered, self.where)

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction: committed when the block ends, rolled back if it raises.

        It starts with BEGIN IMMEDIATE, which takes SQLite's write lock at once, so what the
        block reads first (a version, the next revision number) still holds when it commits.
        Each statement of the block is a hop to the connection's thread: fine for rare writes
        (settings, tables, boards); the hot path uses :meth:`_transact`.
        """
        async with self._lock.hold(writer=True):
            self._check_open()
            db = self._db
            with plainly(self.path):
                try:
                    await db.execute("BEGIN IMMEDIATE")
                    yield db
                    if db.in_transaction:
                        await db.execute("COMMIT")
                except BaseException:
                    await self._rollback()
                    raise

    async def _rollback(self) -> None:
        """Roll back whatever the block left open, even when it was cancelled.

        A cancelled task stops waiting, but the statement it queued still runs on the
        connection's thread, later: ``in_transaction`` can't be trusted at this moment. So the
        ROLLBACK is always queued (after that statement, in order), and its "no transaction is
        active" is ignored: a COMMIT that was already queued has gone through, which is fine.
        """
        try:
            await self._db.execute("ROLLBACK")
        except sqlite3.OperationalError:
            if self._db.in_transaction:
                raise

    async def _query(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """What `work` (a plain function of the stdlib connection, which only reads) returns,
        run whole in one read transaction and one hop to the connection's thread (see
        :meth:`_commit` on that hop)."""
        hop = cast(Callable[[Callable[[], T]], Awaitable[T]], self._db._execute)
        async with self._lock.hold(writer=False):
            self._check_open()
            with plainly(self.path):
                return await hop(partial(_reading, self._native, work))

    async def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """Every row of one query."""
        return await self._query(lambda db: db.execute(sql, args).fetchall())

    async def pragmas(self) -> dict[str, object]:
        """The settings in effect: journal_mode, synchronous (2 is FULL) and foreign_keys."""
        found: dict[str, object] = {}
        for name in ("journal_mode", "synchronous", "foreign_keys"):
            rows = await self._rows(f"PRAGMA {name}")
            found[name] = rows[0][0]
        return found

    async def schema(self) -> dict[str, str]:
        """Every table and index of the database and the SQL that made it, by ``type name``."""
        rows = await self._rows(
            "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name"
        )
        return {f"{kind} {name}": sql for kind, name, sql in rows}

    async def migrations(self) -> list[int]:
        """The numbers of the migrations this database has run."""
        rows = await self._rows("SELECT number FROM migrations ORDER BY number")
        return [int(row[0]) for row in rows]


def _plain(error: BaseException, path: Path) -> BaseException:
    """`error` as :func:`~bot.store.failures.plainly` would raise it."""
    said = explain(error, path) if isinstance(error, sqlite3.Error) else None
    return said or error


def _signal(loop: asyncio.AbstractEventLoop, meanwhile: Callable[[], None]) -> Callable[[], None]:
    """A call, for the database thread, that has `loop` run `meanwhile` (if it still runs)."""

    def signal() -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(meanwhile)

    return signal


def _reading(db: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """`work` in a read transaction of its own, on the connection's thread."""
    db.execute("BEGIN")
    try:
        return work(db)
    finally:
        db.execute("ROLLBACK")  # it only read: nothing to keep


def _look_up(db: sqlite3.Connection, checks: list[Check | None]) -> list[Found]:
    """What each of `checks` finds, in one read transaction (a save without one: not found)."""
    if db.in_transaction:  # whatever a failed COMMIT left open
        db.execute("ROLLBACK")
    return _reading(db, lambda read: [None if check is None else check(read) for check in checks])


def _in_batch(
    db: sqlite3.Connection, works: list[Work], before_commit: Callable[[], None] | None = None
) -> Results:
    """Run `works` on `db`, on the thread that owns it (see :meth:`Database._commit`), as one
    write transaction with a SAVEPOINT each; returns each one's ``(True, result)`` or
    ``(False, exception)``. `before_commit` is called just before the COMMIT.

    BEGIN IMMEDIATE takes the write lock at once, so what a work reads first still holds at
    the COMMIT, which with ``synchronous=FULL`` returns once the log is on disk. A work that
    raises is rolled back to its savepoint and the next one goes on, unless SQLite ended the
    whole transaction (it may, on a full disk, an I/O error or running out of memory): then
    what the works before it did is gone too, and the error is the batch's (raised). So is a
    failed COMMIT.
    """
    db.execute("BEGIN IMMEDIATE")
    results: Results = []
    try:
        for work in works:
            db.execute("SAVEPOINT save")
            try:
                results.append((True, work(db)))
            except Exception as error:
                if not db.in_transaction:  # SQLite rolled it all back
                    raise
                db.execute("ROLLBACK TO save")
                results.append((False, error))
            db.execute("RELEASE save")
        if before_commit is not None:
            before_commit()
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:  # a failed COMMIT may have ended it already
            db.execute("ROLLBACK")
        raise
    return results
