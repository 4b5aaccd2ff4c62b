"""The store's lock puts writers first, never twice in a row while a reader waits, and one
holder at a time (bot.store.turns); on a real SQLite file, a save isn't held back by a burst
of reads asked for before it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.store import Store
from bot.store.turns import WriterFirst
from tests.store.helpers import aio
from tests.store.test_group_commit import games, join


async def _holds(lock: WriterFirst, log: list[str], name: str, writer: bool, ticks: int) -> None:
    async with lock.hold(writer=writer):
        log.append(f"+{name}")
        for _ in range(ticks):
            await asyncio.sleep(0)
        log.append(f"-{name}")


@aio
async def test_a_writer_goes_before_the_readers_waiting() -> None:
    lock, log = WriterFirst(), list[str]()
    first = asyncio.create_task(_holds(lock, log, "r0", False, 3))
    await asyncio.sleep(0)
    readers = [asyncio.create_task(_holds(lock, log, f"r{n}", False, 1)) for n in (1, 2, 3)]
    await asyncio.sleep(0)
    writers = [asyncio.create_task(_holds(lock, log, f"w{n}", True, 1)) for n in (1, 2)]
    await asyncio.gather(first, *readers, *writers)
    starts = [entry[1:] for entry in log if entry[0] == "+"]
    # w1 first, then a reader (no writer twice in a row while readers wait), then w2.
    assert starts == ["r0", "w1", "r1", "w2", "r2", "r3"]


# Each task: (writer?, ticks it holds the lock, ticks before it asks, cancelled after n ticks)
TASKS = st.lists(
    st.tuples(
        st.booleans(),
        st.integers(0, 3),
        st.integers(0, 4),
        st.one_of(st.none(), st.integers(0, 6)),
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(TASKS)
def test_one_holder_at_a_time_everyone_gets_a_turn_and_the_waits_are_bounded(
    tasks: list[tuple[bool, int, int, int | None]],
) -> None:
    async def run() -> None:
        lock = WriterFirst()
        holder: list[int] = []
        asked: dict[int, int] = {}  # task -> how many turns had begun when it asked
        turns: list[tuple[int, bool]] = []  # (task, writer?) in the order they held the lock

        async def one(n: int, writer: bool, ticks: int, delay: int) -> None:
            for _ in range(delay):
                await asyncio.sleep(0)
            asked[n] = len(turns)
            async with lock.hold(writer=writer):
                assert holder == [], "two holders at once"
                holder.append(n)
                turns.append((n, writer))
                try:
                    for _ in range(ticks):
                        await asyncio.sleep(0)
                finally:
                    holder.remove(n)

        running = []
        for n, (writer, ticks, delay, cancel) in enumerate(tasks):
            task = asyncio.create_task(one(n, writer, ticks, delay))
            running.append((task, cancel))
        for task, cancel in running:
            if cancel is not None:
                asyncio.get_running_loop().call_later(0, _cancel_after, task, cancel)
        await asyncio.gather(*(task for task, _ in running), return_exceptions=True)
        assert not lock.locked  # nobody left holding it, nobody stuck waiting
        assert all(task.done() for task, _ in running)
        held = {n for n, _ in turns}
        for n, (writer, *_rest) in enumerate(tasks):
            task = running[n][0]
            if not task.cancelled():
                assert n in held
            if n not in held:
                continue
            began = next(i for i, (m, _) in enumerate(turns) if m == n)
            others = turns[asked[n] : began]
            readers_between = sum(not w for _, w in others)
            writers_between = sum(w for _, w in others)
            if writer:  # a reader between writers ahead of it, and the holder when it asked
                assert readers_between <= writers_between + 2, (n, turns)
            else:  # writers go first, but never twice in a row while it waits
                assert writers_between <= readers_between + 2, (n, turns)

    asyncio.run(run())


def _cancel_after(task: asyncio.Task[None], ticks: int) -> None:
    if ticks == 0:
        task.cancel()
    else:
        asyncio.get_running_loop().call_soon(_cancel_after, task, ticks - 1)


@aio
async def test_a_save_is_not_held_back_by_reads_asked_for_before_it(tmp_path: Path) -> None:
    """Two hundred reads are asked for, then a save: it commits after at most the read that
    held the lock (with a FIFO lock it waited for all of them)."""
    async with Store.connect(tmp_path / "db") as store:
        ((record, game),) = await games(store, 1)
        finished: list[str] = []

        async def read(n: int) -> None:
            await store.version(record.id)
            finished.append(f"read {n}")

        async def save() -> None:
            await join(store, record, game, "bob")
            finished.append("save")

        await asyncio.gather(*(read(n) for n in range(200)), save())
        assert finished.index("save") <= 2, finished[:5]
        assert len(finished) == 201
