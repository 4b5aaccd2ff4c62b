"""A claim dies with its process: the lease behind it ends when the process stops renewing it.

During a shard hand-over two processes receive every interaction, and the first to claim one
answers it. Claims are tied to a lease each claiming process renews every second
(:mod:`bot.store.pgleases`): while the holder lives, its claims stand; once it is SIGKILLed,
its lease runs out and the interactions it claimed may be claimed by the other. A real child
process holds the claims here, and a real SIGKILL ends it.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from pathlib import Path

import asyncpg

from bot.store import Store
from bot.store.pgleases import LEASE_SECONDS, RENEW_SECONDS
from tests.store.helpers import aio

ROOT = Path(__file__).resolve().parents[2]
TAKEN_WITHIN = LEASE_SECONDS + 15.0  # a bound on hanging on a loaded machine, not a goal
IDS = ["501", "502", "503"]


def holder(url: str) -> subprocess.Popen[str]:
    """A child process that claimed IDS and lives on."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.store.claim_child", url, *IDS],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    line = child.stdout.readline()
    assert line == "claimed\n", child.stderr.read() if child.stderr else line
    return child


async def claims(store: Store) -> list[bool]:
    return [await store.claim(i) for i in IDS]


@aio
async def test_a_live_holder_keeps_its_claims_and_a_killed_one_loses_them(
    postgres_url: str,
) -> None:
    child = holder(postgres_url)
    try:
        async with Store.connect(postgres_url) as other:
            # Longer than a lease: the holder renews it, so its claims stand throughout.
            until = time.monotonic() + LEASE_SECONDS + 2 * RENEW_SECONDS
            while time.monotonic() < until:
                assert await claims(other) == [False] * len(IDS)
                await asyncio.sleep(RENEW_SECONDS / 2)
            child.send_signal(signal.SIGKILL)
            child.wait()
            killed = time.monotonic()
            while not any(await claims(other)):
                assert time.monotonic() - killed < TAKEN_WITHIN, "the dead claims stand"
                await asyncio.sleep(0.1)
            taken = time.monotonic() - killed
            assert await claims(other) == [True] * len(IDS)  # taken, and now its own
            async with Store.connect(postgres_url) as third:
                assert await claims(third) == [False] * len(IDS)  # the new holder lives
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    # Not before the lease the holder renewed last could have run out.
    assert taken >= LEASE_SECONDS - RENEW_SECONDS - 0.5, taken
    print(f"claims of a SIGKILLed holder taken over {taken:.1f} s after the kill")


@aio
async def test_a_holder_that_stops_gives_its_claims_up_at_once(postgres_url: str) -> None:
    async with Store.connect(postgres_url) as one, Store.connect(postgres_url) as two:
        assert await claims(one) == [True] * len(IDS)
        assert await claims(two) == [False] * len(IDS)
        await one.close()
        assert await claims(two) == [True] * len(IDS)


@aio
async def test_claims_made_before_leases_existed_are_never_taken_over(postgres_url: str) -> None:
    """A process of the previous version claims without a lease: during a rolling upgrade
    it is alive and answering, so its claims must stand."""
    con = await asyncpg.connect(postgres_url)
    try:
        await con.execute("INSERT INTO claims (id) VALUES ('600')")
    finally:
        await con.close()
    async with Store.connect(postgres_url) as store:
        assert not await store.claim("600")


def test_only_postgresql_has_leases(tmp_path: Path) -> None:
    async def claim_twice() -> list[bool]:
        async with Store.connect(tmp_path / "db") as one, Store.connect(tmp_path / "db") as two:
            return [await one.claim("1"), await two.claim("1")]

    # One process per SQLite file: nothing to claim from, so every claim is granted.
    assert asyncio.run(claim_twice()) == [True, True]
