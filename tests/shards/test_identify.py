"""IDENTIFY turns: one per bucket every 5 s, within a process and across real processes.

The cross-process gate is a PostgreSQL advisory lock, so these run real processes against the
real server: several processes asking for one bucket at the same moment get it at least 5 s
apart, while other buckets (and other bots) don't wait, and a process that dies holding a turn
gives it up with its connection.
"""

from __future__ import annotations

import asyncio
import secrets
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.client.identify import IDENTIFY_WINDOW, SPACING, LocalGate, lock_key, open_gate
from bot.errors import StoreError
from tests.fakediscord.plugin import aio

ROOT = Path(__file__).resolve().parents[2]
LEAD = 3.0  # seconds for every process to start and connect before they all ask at once


def ask_at_once(url: str, *asks: tuple[int, int, bool]) -> list[tuple[float, float]]:
    """Start one process per (application id, bucket, die); each asks at the same moment.
    Returns, per process, when it got its turn (seconds after that moment) and how long it
    waited (a process that started late asks late, so the wait is what says it queued)."""
    start = time.time() + LEAD
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.shards.take_turn", url, str(app), str(bucket)]
            + [f"{start:.3f}"]
            + (["die"] if die else []),
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for app, bucket, die in asks
    ]
    turns: list[tuple[float, float]] = []
    for process in processes:
        out, err = process.communicate(timeout=60)
        assert process.returncode == 0, err
        asked, got = map(float, out.split())
        turns.append((got - start, got - asked))
    return turns


def test_processes_take_turns_per_bucket_and_only_per_bucket(postgres_url: str) -> None:
    app, other_app = secrets.randbelow(1 << 60), secrets.randbelow(1 << 60)
    turns = ask_at_once(
        postgres_url,
        (app, 0, False),
        (app, 0, False),
        (app, 0, False),
        (app, 1, False),  # another bucket of the same bot
        (other_app, 0, False),  # the same bucket of another bot sharing the database
    )
    same = sorted(got for got, _ in turns[:3])
    assert same[1] - same[0] >= IDENTIFY_WINDOW
    assert same[2] - same[1] >= IDENTIFY_WINDOW
    assert min(waited for _, waited in turns[:3]) < 1.0  # the first one didn't queue
    assert turns[3][1] < 1.0
    assert turns[4][1] < 1.0


def test_a_process_that_dies_holding_a_turn_gives_it_up(postgres_url: str) -> None:
    app = secrets.randbelow(1 << 60)
    (first, _), (second, _) = ask_at_once(postgres_url, (app, 0, True), (app, 0, False))
    # The dying process may be either one to get the bucket first; the other follows at once
    # if the first died, or after the full spacing if the first one was the living one.
    if first <= second:
        assert second - first < IDENTIFY_WINDOW
    else:
        assert first - second >= IDENTIFY_WINDOW


@aio
async def test_one_process_spaces_a_bucket_and_not_the_others() -> None:
    gate = LocalGate(spacing=0.3)
    started = time.monotonic()
    got: dict[str, float] = {}

    async def take(name: str, bucket: int) -> None:
        await gate.turn(1, bucket)
        got[name] = time.monotonic() - started

    await asyncio.gather(take("a", 0), take("b", 0), take("c", 1), take("d", 0))
    await gate.close()
    assert got["c"] < 0.1
    first, second, third = sorted((got["a"], got["b"], got["d"]))
    assert first < 0.1
    assert second - first >= 0.3
    assert third - second >= 0.3


def test_the_lock_key_names_the_bot_and_the_bucket() -> None:
    classid, bucket = lock_key(123456789012345678, 3)
    assert bucket == 3
    assert -(1 << 31) <= classid < 1 << 31
    assert lock_key(123456789012345678, 0)[0] == classid
    assert lock_key(987654321098765432, 3)[0] != classid
    assert SPACING >= IDENTIFY_WINDOW


def test_only_a_postgresql_url_asks_for_the_shared_gate() -> None:
    gate = asyncio.run(open_gate(None))
    assert isinstance(gate, LocalGate)
    # An unreachable server is a sentence from the store's wording, without the password.
    with pytest.raises(StoreError) as caught:
        asyncio.run(open_gate("postgresql://bot:hunter2@127.0.0.1:9/chaos"))
    assert "hunter2" not in str(caught.value)
    assert "\n" not in str(caught.value)
