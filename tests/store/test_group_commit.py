"""Group commit: saves that arrive together are committed together, each whole or not at all.

The writer (``Database._drain``) takes every save queued at that moment into one transaction
with one fsync, a SAVEPOINT each. These tests queue saves in the same turn of the event loop,
so they land in one batch, and check what each caller is told and what the file keeps.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.engine import Game, Join
from bot.errors import ConflictError, DuplicateActionError
from bot.store import GameRecord, SQLiteStore, Store
from tests.store.helpers import aio
from tests.store.test_store import NOW, create, new_game


async def games(store: Store, count: int) -> list[tuple[GameRecord, Game]]:
    """`count` games in scopes s0, s1, …, each just started."""
    made = []
    for n in range(count):
        game, snapshot = new_game(seed=n)
        made.append((await create(store, f"s{n}", game, snapshot), game))
    return made


async def join(
    store: Store,
    record: GameRecord,
    game: Game,
    who: str,
    interaction: str | None = None,
    meanwhile: Callable[[], None] | None = None,
) -> GameRecord:
    first = len(game.events)
    events = game.act(Join(actor=who, player_name=who.title()))
    return await store.append_events(
        record, events, first=first, now=NOW + 1, interaction=interaction, meanwhile=meanwhile
    )


@aio
async def test_saves_that_arrive_together_are_committed_in_one_batch(database: Path | str) -> None:
    """SQLite: one transaction and one fsync for all; PostgreSQL: one statement, one commit."""
    async with Store.connect(database) as store:
        made = await games(store, 20)
        store.writer.batches = []
        saved = await asyncio.gather(*(join(store, r, g, "bob") for r, g in made))
        assert [r.version for r in saved] == [2] * 20
        assert store.writer.batches == [20]
    async with Store.connect(database) as again:  # all of it is stored
        for record, game in made:
            stored = await again.game(record.id)
            assert stored is not None
            assert stored.record.version == 2
            assert stored.events == game.events


@aio
async def test_without_group_commit_each_save_is_a_commit_of_its_own(database: Path | str) -> None:
    """The benchmarks' baseline: the same saves, one per batch, all kept."""
    async with Store.connect(database) as store:
        made = await games(store, 5)
        store.writer.batches, store.writer.group = [], False
        saved = await asyncio.gather(*(join(store, r, g, "bob") for r, g in made))
        assert [r.version for r in saved] == [2] * 5
        assert store.writer.batches == [1] * 5


@aio
async def test_a_batch_on_sqlite_is_one_commit(tmp_path: Path) -> None:
    async with SQLiteStore.connect(tmp_path / "db") as store:
        assert isinstance(store, SQLiteStore)
        made = await games(store, 20)
        commits: list[str] = []
        await store._db.set_trace_callback(
            lambda sql: commits.append(sql) if sql == "COMMIT" else None
        )
        await asyncio.gather(*(join(store, r, g, "bob") for r, g in made))
        assert commits == ["COMMIT"]


@aio
async def test_one_interaction_twice_in_a_batch_is_applied_once(database: Path | str) -> None:
    """Two games' saves claim the same interaction at once (on PostgreSQL the batch breaks the
    key, and its saves are made again one by one): the first is applied, the second refused."""
    async with Store.connect(database) as store:
        made = await games(store, 3)
        results = await asyncio.gather(
            join(store, *made[0], "bob", interaction="same"),
            join(store, *made[1], "bob", interaction="other"),
            join(store, *made[2], "bob", interaction="same"),
            return_exceptions=True,
        )
        assert isinstance(results[0], GameRecord)
        assert isinstance(results[1], GameRecord)
        assert isinstance(results[2], DuplicateActionError)
        assert [await store.version(r.id) for r, _ in made] == [2, 2, 1]


@aio
async def test_a_save_that_fails_in_a_batch_takes_only_itself_back(database: Path | str) -> None:
    """A version conflict and a duplicate interaction in the middle of a burst: those two are
    refused and leave no trace; every other save of the same moment is kept."""
    async with Store.connect(database) as store:
        made = await games(store, 6)
        stale, _ = made[2]
        moved = await join(store, stale, made[2][1], "bob", interaction="first")
        made[2] = (stale, made[2][1])  # this caller still holds the old record: a conflict
        replay = made[4]  # and this one repeats an interaction already stored
        results = await asyncio.gather(
            *(
                join(store, r, g, "dee", interaction="first" if r is replay[0] else f"i{n}")
                for n, (r, g) in enumerate(made)
            ),
            return_exceptions=True,
        )
        assert isinstance(results[2], ConflictError)
        assert isinstance(results[4], DuplicateActionError)
        for n in (0, 1, 3, 5):
            assert isinstance(results[n], GameRecord), results[n]
            stored = await store.game(made[n][0].id)
            assert stored is not None
            assert stored.record.version == 2
            assert stored.events == made[n][1].events
        assert await store.version(stale.id) == moved.version  # the conflict added nothing
        assert await store.version(replay[0].id) == 1  # nor did the duplicate
        assert await store.applied("i0")
        assert not await store.applied("i2")


@aio
async def test_nobody_hears_saved_before_the_batch_commits(tmp_path: Path) -> None:
    """When the batch's COMMIT fails, every save in it is told so, even those whose own
    statements went through: an answer is only given for what is on disk.

    A deferred foreign key, checked only at COMMIT, makes this batch's COMMIT fail."""
    async with SQLiteStore.connect(tmp_path / "db") as store:
        assert isinstance(store, SQLiteStore)
        made = await games(store, 3)

        def orphan(db: sqlite3.Connection) -> None:
            db.execute("PRAGMA defer_foreign_keys = ON")
            db.execute("INSERT INTO events (game_id, pos, action, data) VALUES (999, 0, 0, '{}')")

        store.writer.batches = []
        results = await asyncio.gather(
            join(store, *made[0], "bob"),
            store._transact(orphan),
            join(store, *made[1], "bob"),
            return_exceptions=True,
        )
        assert store.writer.batches == []  # nothing was committed
        assert all(isinstance(r, sqlite3.IntegrityError) for r in results), results
        assert [await store.version(r.id) for r, _ in made] == [1, 1, 1]
        # The connection is whole again: the next save goes through.
        game, snapshot = new_game(seed=9)
        record = await create(store, "after", game, snapshot)
        assert (await join(store, record, game, "bob")).version == 2


@aio
async def test_a_save_cancelled_in_the_queue_is_never_run(tmp_path: Path) -> None:
    async with SQLiteStore.connect(tmp_path / "db") as store:
        assert isinstance(store, SQLiteStore)
        made = await games(store, 2)
        first = asyncio.create_task(join(store, *made[0], "bob"))
        second = asyncio.create_task(join(store, *made[1], "bob"))
        await asyncio.sleep(0)  # both queued; the writer hasn't taken them yet
        second.cancel()
        assert (await first).version == 2
        with pytest.raises(asyncio.CancelledError):
            await second
        assert await store.version(made[1][0].id) == 1


@aio
async def test_what_was_queued_before_closing_is_saved(tmp_path: Path) -> None:
    store = await SQLiteStore.open(tmp_path / "db")
    made = await games(store, 5)
    saves = [asyncio.create_task(join(store, r, g, "bob")) for r, g in made]
    await asyncio.sleep(0)
    await store.close()
    assert [(await s).version for s in saves] == [2] * 5
    async with Store.connect(tmp_path / "db") as again:
        assert [await again.version(r.id) for r, _ in made] == [2] * 5


# -- work done while a batch commits -------------------------------------------------------------


@aio
async def test_work_given_to_a_save_runs_once_on_the_loop_before_the_save_is_answered(
    database: Path | str,
) -> None:
    """The `meanwhile` of each save (drawing its answer, in the bot) runs while the batch
    commits: on the loop's thread, once, and before anyone is told the save is durable."""
    async with Store.connect(database) as store:
        made = await games(store, 6)
        answered: set[int] = set()
        ran: list[tuple[int, bool, bool]] = []  # (which, answered by then, on the loop's thread)

        def meanwhile(n: int) -> Callable[[], None]:
            return lambda: ran.append((n, n in answered, threading.current_thread() is loop))

        async def save(n: int) -> None:
            record, game = made[n]
            await join(store, record, game, "bob", meanwhile=meanwhile(n))
            answered.add(n)

        loop = threading.current_thread()
        store.writer.batches = []
        await asyncio.gather(*(save(n) for n in range(6)))
        assert store.writer.batches == [6]
        assert sorted(ran) == [(n, False, True) for n in range(6)]


@aio
async def test_work_done_meanwhile_starts_once_only_the_commit_is_left(tmp_path: Path) -> None:
    """SQLite: the loop is handed the work once the batch's statements have all run, so it
    doesn't hold the GIL the database thread needs between them; only the COMMIT's wait for
    the disk is left, and the loop's work fills it."""
    async with SQLiteStore.connect(tmp_path / "db") as store:
        assert isinstance(store, SQLiteStore)
        made = await games(store, 3)
        statements: list[str] = []
        await store._db.set_trace_callback(statements.append)
        seen: list[list[str]] = []
        await asyncio.gather(
            *(
                join(store, r, g, "bob", meanwhile=lambda: seen.append(list(statements)))
                for r, g in made
            )
        )
        assert len(seen) == 3
        for statements_then in seen:  # every save's statements had run, RELEASE included
            assert statements_then[:1] == ["BEGIN IMMEDIATE"]
            assert statements_then.count("RELEASE save") == 3
        assert statements[-1] == "COMMIT"


@aio
async def test_work_that_fails_meanwhile_costs_its_save_nothing(
    database: Path | str, caplog: pytest.LogCaptureFixture
) -> None:
    async with Store.connect(database) as store:
        made = await games(store, 2)

        def broken() -> None:
            raise ValueError("drawn badly")

        with caplog.at_level(logging.ERROR, logger="bot.store.writer"):
            saved = await asyncio.gather(
                join(store, *made[0], "bob", meanwhile=broken),
                join(store, *made[1], "bob"),
            )
        assert [r.version for r in saved] == [2, 2]
        assert "drawn badly" in caplog.text


@aio
async def test_a_save_dropped_from_the_queue_does_no_work_meanwhile(database: Path | str) -> None:
    async with Store.connect(database) as store:
        made = await games(store, 2)
        ran: list[str] = []
        first = asyncio.create_task(join(store, *made[0], "bob", meanwhile=lambda: ran.append("a")))
        second = asyncio.create_task(
            join(store, *made[1], "bob", meanwhile=lambda: ran.append("b"))
        )
        await asyncio.sleep(0)  # both queued; the writer hasn't taken them yet
        second.cancel()
        assert (await first).version == 2
        with pytest.raises(asyncio.CancelledError):
            await second
        assert ran == ["a"]
