"""Upload checks in worker processes: real child processes, limited in time, memory and number."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.tables import FileKind, TableProblems
from bot.uploadlimits import TooManyChecksError, UploadLimits
from bot.workers import MAX_PROBLEMS, BusyError, CheckFailedError, UploadProblems, UploadWorkers

HOUSE = (Path(__file__).parent / "data" / "house.yaml").read_bytes()
HEAD = "schema: 1\nkind: table\nid: flood\nname: Flood\nrevision: '1'\ndice: d6\n"
# 120,000 entries that are each wrong: about a second of work and 150 MB to check.
TOKENS = (HEAD + "entries: [" + ",".join(["1"] * 120_000) + "]\n").encode()


def test_a_valid_file_comes_back_in_plain_words_and_problems_come_back_capped() -> None:
    async def run() -> None:
        workers = UploadWorkers()
        try:
            checked = await workers.check("house.yaml", HOUSE)
            assert (checked.id, checked.kind, checked.title) == (
                "house",
                FileKind.TABLE,
                "House Rules",
            )
            assert checked.what == "a list of 1 entry (d6)"
            with pytest.raises(UploadProblems) as caught:
                await workers.check("flood.yaml", TOKENS)
            assert isinstance(caught.value, TableProblems)
            assert len(caught.value.problems) == MAX_PROBLEMS
            assert caught.value.total == 120_000
            assert str(caught.value).endswith(f"… and {120_000 - MAX_PROBLEMS} more problems")
        finally:
            await workers.close()

    asyncio.run(run())


def test_a_check_over_its_time_is_stopped_and_its_worker_replaced() -> None:
    async def run() -> None:
        workers = UploadWorkers(size=1, time_limit=0.3)
        try:
            with pytest.raises(
                CheckFailedError, match="took more than 0 seconds, so it was stopped"
            ):
                await workers.check("flood.yaml", TOKENS)
            workers.time_limit = 30.0
            assert (await workers.check("house.yaml", HOUSE)).id == "house"
        finally:
            await workers.close()

    asyncio.run(run())


def test_a_check_over_its_memory_fails_with_a_sentence_and_the_next_one_works() -> None:
    async def run() -> None:
        workers = UploadWorkers(size=1, memory_limit=100 * 1024 * 1024)
        try:
            with pytest.raises(CheckFailedError, match="needed more memory than a table file"):
                await workers.check("flood.yaml", TOKENS)
            assert (await workers.check("house.yaml", HOUSE)).id == "house"
        finally:
            await workers.close()

    asyncio.run(run())


def test_a_worker_killed_while_idle_is_replaced() -> None:
    async def run() -> None:
        workers = UploadWorkers(size=1)
        try:
            assert (await workers.check("house.yaml", HOUSE)).id == "house"
            (worker,) = workers._all
            assert worker.process is not None
            worker.process.kill()
            await worker.process.wait()
            assert (await workers.check("house.yaml", HOUSE)).id == "house"
        finally:
            await workers.close()

    asyncio.run(run())


def test_past_the_queue_limit_a_check_is_refused_at_once() -> None:
    async def run() -> None:
        workers = UploadWorkers(size=1, queue_limit=2)
        try:
            first = asyncio.create_task(workers.check("a.yaml", HOUSE))
            second = asyncio.create_task(workers.check("b.yaml", HOUSE))
            await asyncio.sleep(0)
            with pytest.raises(BusyError, match="checking a lot of table files right now"):
                await workers.check("c.yaml", HOUSE)
            assert [c.id for c in await asyncio.gather(first, second)] == ["house", "house"]
            assert (await workers.check("d.yaml", HOUSE)).id == "house"  # room again
        finally:
            await workers.close()

    asyncio.run(run())


def test_one_check_at_a_time_and_ten_in_ten_minutes_per_member() -> None:
    now = [0.0]
    limits = UploadLimits(clock=lambda: now[0])
    with limits.hold("ann"):
        with pytest.raises(TooManyChecksError, match="still being checked"), limits.hold("ann"):
            pass
        with limits.hold("bob"):  # someone else may
            pass
    for _ in range(9):
        now[0] += 30
        with limits.hold("ann"):
            pass
    with (
        pytest.raises(
            TooManyChecksError,
            match="10 files checked in the last 10 minutes; try again in 6 minutes",
        ),
        limits.hold("ann"),
    ):
        pass
    now[0] = 600.0  # the first check is ten minutes old: one more fits
    with limits.hold("ann"):
        pass
    with pytest.raises(TooManyChecksError), limits.hold("ann"):
        pass
