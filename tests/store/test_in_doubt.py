"""A commit that fails after the write is answered with the truth, on both backends.

When the connection to PostgreSQL is cut while the server has an action's statement, the
server may have committed it. The player must then read what is true: the result if it was
stored, "not saved" only if it wasn't, and "can't tell yet" (never "not saved") if the
database doesn't answer in time. On SQLite the same holds for every error that can come at
or after the COMMIT: a full disk, an I/O error, a lock.

PostgreSQL is real (the shared server), reached through a relay that cuts a connection at a
chosen moment of the protocol (:mod:`tests.store.cutter`): just after the server answered an
Execute or a COMMIT (the write is kept and the client can't know), or just after it was sent
(the server still has it). Every test reads the database directly afterwards and holds it
against what the service said.

SQLite can't be made to fail at its COMMIT for real without a faulty disk, so there the
stdlib connection the store uses is wrapped (:class:`FailingCommit`) to raise SQLite's own
errors at the COMMIT, after or instead of committing, on a real file.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.engine import Join, Life
from bot.errors import InDoubtError, StoreError
from bot.service import GameService, Outcome
from bot.store import SQLiteStore
from bot.store import doubt as doubt_module
from tests.postgres import fresh_database
from tests.store.cutter import Cutter, binds, commits
from tests.store.helpers import SCOPE, aio, begun, open_service

GAIN = Life(actor="ann", mode="gain", amount=1)
LIFE = binds(b"life")  # the statement that appends a life change (the event names it)


@pytest.fixture
def postgres() -> Iterator[str]:
    with fresh_database() as url:
        yield url


@pytest.fixture
def quick_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """A database that doesn't answer is given up on after half a second, not 30."""
    monkeypatch.setattr(doubt_module, "SETTLE_SECONDS", 0.5)
    monkeypatch.setattr(doubt_module, "SETTLE_POLL", 0.05)


@asynccontextmanager
async def through_cutter(url: str) -> AsyncIterator[tuple[Cutter, GameService]]:
    async with Cutter(url) as cutter, open_service(cutter.url) as service:
        yield cutter, service


async def stored(url: str, interaction: str) -> tuple[int, int] | None:
    """The game and version an interaction is stored with, read straight from PostgreSQL."""
    con = await asyncpg.connect(url)
    try:
        row = await con.fetchrow(
            "SELECT game_id, version FROM interactions WHERE id = $1", interaction
        )
    finally:
        await con.close()
    return None if row is None else (row["game_id"], row["version"])


async def versions(url: str) -> dict[str, int]:
    con = await asyncpg.connect(url)
    try:
        rows = await con.fetch("SELECT scope, version FROM games WHERE active")
    finally:
        await con.close()
    return {row["scope"]: row["version"] for row in rows}


# -- PostgreSQL ----------------------------------------------------------------------------------


@pytest.mark.parametrize("interaction", ["7001", None], ids=["interaction", "console"])
@aio
async def test_a_commit_cut_after_the_server_kept_it_is_answered_with_its_result(
    postgres: str, interaction: str | None
) -> None:
    async with through_cutter(postgres) as (cutter, service):
        start = await begun(service)
        cut = cutter.arm(LIFE, "answer")
        gained = await service.act(SCOPE, GAIN, interaction=interaction)
        assert cut.is_set()  # the answer never reached the store: it looked the save up
        assert gained.version == start.version + 1
        again = await service.act(SCOPE, GAIN)  # the connections came back by themselves
    assert (await versions(postgres))[SCOPE] == again.version == start.version + 2
    if interaction is not None:
        assert await stored(postgres, interaction) == (start.game_id, start.version + 1)


@aio
async def test_a_batch_cut_after_the_server_kept_it_is_answered_with_each_result(
    postgres: str,
) -> None:
    scopes = [f"{SCOPE}:{n}" for n in range(5)]
    async with through_cutter(postgres) as (cutter, service):
        starts = [await begun(service, scope) for scope in scopes]
        for n in range(len(scopes)):  # claimed already: the saves are queued at once
            await service.claim(f"b{n}")
        service.store.writer.batches = []
        cutter.arm(LIFE, "answer")
        gained = await asyncio.gather(
            *(service.act(s, GAIN, interaction=f"b{n}") for n, s in enumerate(scopes))
        )
        assert service.store.writer.batches == []  # the batch's commit never answered
    assert [g.version for g in gained] == [s.version + 1 for s in starts]
    for n, start in enumerate(starts):
        assert await stored(postgres, f"b{n}") == (start.game_id, start.version + 1)


@aio
async def test_a_game_started_by_a_commit_cut_after_it_was_kept_is_answered_as_started(
    postgres: str,
) -> None:
    async with through_cutter(postgres) as (cutter, service):
        await begun(service, "warm")  # the statements are prepared: the cut comes at COMMIT
        cutter.arm(commits, "answer")
        started = await service.start(SCOPE, "classic", host="ann", host_name="Ann")
        joined = await service.act(SCOPE, Join(actor="bob", player_name="Bob"))
    assert joined.game_id == started.game_id
    assert (await versions(postgres))[SCOPE] == started.version + 1


@aio
async def test_a_statement_the_server_still_runs_is_looked_up_once_it_is_over(
    postgres: str,
) -> None:
    """The server still has the statement (it waits for a row lock held here) when the
    connection is cut, and would commit it once the lock is free: the look-up must not
    answer before it is over. Whatever happens then, the player reads the result, and the
    action is stored once."""
    async with through_cutter(postgres) as (cutter, service):
        start = await begun(service)
        holder = await asyncpg.connect(postgres)
        locked = holder.transaction()
        await locked.start()
        await holder.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", start.game_id)
        cut = cutter.arm(LIFE, "sent")
        trying = asyncio.create_task(service.act(SCOPE, GAIN, interaction="7101"))
        await cut.wait()
        await asyncio.sleep(0.5)  # the look-up meets the lock too, and waits for it
        await locked.rollback()
        await holder.close()
        gained = await trying
    assert gained.version == start.version + 1
    assert (await versions(postgres))[SCOPE] == start.version + 1
    assert await stored(postgres, "7101") == (start.game_id, start.version + 1)


@aio
async def test_a_statement_the_server_never_had_is_said_not_saved(postgres: str) -> None:
    """Cut before it reached the server, and again when it is sent once more: the look-ups
    find it not stored, and only then is the player told "not saved"."""
    async with through_cutter(postgres) as (cutter, service):
        start = await begun(service)
        first = cutter.arm(LIFE, "unsent")
        trying = asyncio.create_task(service.act(SCOPE, GAIN, interaction="7151"))
        await first.wait()
        cutter.arm(LIFE, "unsent")  # the store sends it once more, and it is cut again
        with pytest.raises(StoreError) as caught:
            await trying
        assert not isinstance(caught.value, InDoubtError)
        assert "wasn't saved" in caught.value.players
        assert await stored(postgres, "7151") is None
        again = await service.act(SCOPE, GAIN, interaction="7151")  # the player's retry
    assert again.version == start.version + 1
    assert await stored(postgres, "7151") == (start.game_id, start.version + 1)


@aio
async def test_a_statement_cut_on_a_connection_the_server_had_cut_is_sent_again(
    postgres: str,
) -> None:
    """A pooled connection cut while idle (a restart) fails at its first use, before the
    server has the statement: found not stored, it is sent once more, and saved."""
    async with through_cutter(postgres) as (cutter, service):
        start = await begun(service)
        cutter.arm(LIFE, "unsent")
        gained = await service.act(SCOPE, GAIN, interaction="7161")
    assert gained.version == start.version + 1
    assert await stored(postgres, "7161") == (start.game_id, start.version + 1)


@pytest.mark.usefixtures("quick_bound")
@aio
async def test_a_commit_kept_while_the_server_stays_away_is_never_said_not_saved(
    postgres: str,
) -> None:
    async with through_cutter(postgres) as (cutter, service):
        start = await begun(service)
        cutter.arm(LIFE, "answer", down=True)
        with pytest.raises(InDoubtError) as caught:
            await service.act(SCOPE, GAIN, interaction="7201")
        assert "can't tell yet" in caught.value.players
        assert "wasn't saved" not in caught.value.players
        cutter.refuse(False)  # the server is back
        assert await stored(postgres, "7201") == (start.game_id, start.version + 1)
        after = await service.act(SCOPE, GAIN)  # reloaded: the stored action is in it
    assert after.version == start.version + 2


# -- SQLite --------------------------------------------------------------------------------------

# SQLite's errors at a COMMIT: (primary code, its message).
ERRORS = {
    "full": (sqlite3.SQLITE_FULL, "database or disk is full"),
    "io": (sqlite3.SQLITE_IOERR, "disk I/O error"),
    "locked": (sqlite3.SQLITE_BUSY, "database is locked"),
}


def sqlite_error(name: str) -> sqlite3.OperationalError:
    code, message = ERRORS[name]
    error = sqlite3.OperationalError(message)
    error.sqlite_errorcode = code
    return error


class FailingCommit:
    """The store's stdlib connection, whose next COMMIT raises SQLite's error `name` after
    committing (`kept`) or instead; with `reads_fail`, every later statement raises it too
    (a disk that stays broken)."""

    def __init__(self, real: sqlite3.Connection, name: str, *, kept: bool, reads_fail: bool):
        self.real = real
        self.name = name
        self.kept = kept
        self.reads_fail = reads_fail
        self.failed = False

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if self.failed and self.reads_fail:
            raise sqlite_error(self.name)
        if sql == "COMMIT" and not self.failed:
            self.failed = True
            if self.kept:
                self.real.execute(sql)
            raise sqlite_error(self.name)
        return self.real.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


@asynccontextmanager
async def failing(
    path: Path, name: str, *, kept: bool, reads_fail: bool = False
) -> AsyncIterator[tuple[GameService, list[Outcome]]]:
    """A service on the SQLite file `path` with games begun in five scopes, whose next
    COMMIT fails (see FailingCommit)."""
    async with open_service(path) as service:
        scopes = [f"{SCOPE}:{n}" for n in range(5)]
        starts = [await begun(service, scope) for scope in scopes]
        store = service.store
        assert isinstance(store, SQLiteStore)
        real = store._native
        store._native = FailingCommit(real, name, kept=kept, reads_fail=reads_fail)  # type: ignore[assignment]
        try:
            yield service, starts
        finally:
            store._native = real


def stored_sqlite(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT id, version FROM interactions").fetchall()
    db.close()
    return dict(rows)


@pytest.mark.parametrize("name", sorted(ERRORS))
@pytest.mark.parametrize("kept", [True, False], ids=["kept", "rolled-back"])
@aio
async def test_sqlite_answers_a_failed_commit_with_what_the_file_kept(
    tmp_path: Path, name: str, kept: bool
) -> None:
    path = tmp_path / "games.db"
    async with failing(path, name, kept=kept) as (service, starts):
        told = await asyncio.gather(
            *(
                service.act(start.scope, GAIN, interaction=f"s{n}")
                for n, start in enumerate(starts)
            ),
            return_exceptions=True,
        )
        after = await service.act(starts[0].scope, GAIN)  # the store works on
    stored = stored_sqlite(path)
    for n, (start, answer) in enumerate(zip(starts, told, strict=True)):
        if kept:
            assert isinstance(answer, Outcome), answer
            assert answer.version == start.version + 1
            assert stored[f"s{n}"] == start.version + 1
        else:
            assert isinstance(answer, StoreError), answer
            assert not isinstance(answer, InDoubtError)
            assert "wasn't saved" in answer.players
            assert f"s{n}" not in stored
    assert after.version == starts[0].version + 1 + kept


@pytest.mark.usefixtures("quick_bound")
@aio
async def test_sqlite_says_it_cant_tell_while_the_file_cant_be_read(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    async with failing(path, "io", kept=True, reads_fail=True) as (service, starts):
        with pytest.raises(InDoubtError):
            await service.act(starts[0].scope, GAIN, interaction="s0")
    assert stored_sqlite(path)["s0"] == starts[0].version + 1
