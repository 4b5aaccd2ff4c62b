"""The loop watchdog catches what it is for: a callback that holds the event loop, whether it
computes or waits, in a bare loop and in the real bot answering a real command; and it doesn't
count the time the machine kept the loop's thread waiting for a CPU."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import bot.notation
from bot.config import Settings
from bot.errors import ConfigError
from bot.watchdog import LoopWatchdog, Stall, run_delay
from tests.e2e.table import Table, text_of
from tests.fakediscord.plugin import aio
from tests.fakediscord.server import FakeDiscord
from tests.watchdog import LIMIT_MS, Watch, assert_no_stall_in, logged_stalls

BLOCK = 0.3  # seconds a deliberate stall lasts: three times the limit


def sleeps_on_the_loop() -> None:
    time.sleep(BLOCK)


def computes_on_the_loop() -> None:
    ends = time.thread_time() + BLOCK  # CPU time: however loaded the machine, BLOCK of work
    while time.thread_time() < ends:
        sum(range(1000))


async def watched(blocker: object, **options: object) -> list[Stall]:
    stalls: list[Stall] = []
    dog = LoopWatchdog(LIMIT_MS / 1000, on_stall=stalls.append, **options)  # type: ignore[arg-type]
    dog.start()
    await asyncio.sleep(0.1)
    asyncio.get_running_loop().call_soon(blocker)  # type: ignore[arg-type]
    await asyncio.sleep(0.2)
    await dog.stop()
    return stalls


@pytest.mark.parametrize("blocker", [sleeps_on_the_loop, computes_on_the_loop])
def test_a_blocking_callback_is_caught_and_named(blocker: object) -> None:
    (stall,) = asyncio.run(watched(blocker))
    # Its own time, whether it computed or slept; what it spent waiting for a CPU aside.
    assert BLOCK * 0.8 < stall.blocked < BLOCK * 2
    assert blocker.__name__ in stall.where  # type: ignore[attr-defined]
    assert "the event loop was blocked for" in str(stall)


def test_a_quiet_loop_reports_nothing() -> None:
    assert asyncio.run(watched(lambda: None)) == []


def test_time_spent_waiting_for_a_cpu_is_not_counted() -> None:
    """A thread the kernel kept off the CPU isn't blocked by us: with the run queue's clock
    saying the whole wait was spent there, the same late heartbeat is no stall."""
    clock = [0.0]

    def queued(thread: int) -> float:
        return clock[0]

    def starved() -> None:
        time.sleep(BLOCK)
        clock[0] += BLOCK  # as if the kernel had kept the thread off the CPU all along

    assert asyncio.run(watched(starved, queued=queued)) == []


def test_the_kernel_tells_this_thread_its_run_queue_wait() -> None:
    """On Linux the correction above is real: the run queue's clock is there, and moves.

    Never skipped: without it a loaded machine's waits would count as the bot's, and the
    watchdog over the whole suite would flake; the project runs and is tested on Linux."""
    thread = threading.get_native_id()
    where = Path(f"/proc/self/task/{thread}/schedstat")
    assert where.exists(), f"{where} is missing: the watchdog can't leave out waits for a CPU"
    assert run_delay(thread) > 0


@aio
async def test_the_real_bot_blocked_by_a_command_fails_the_test(
    fake_discord: FakeDiscord, tmp_path: Path, loop_watchdog: Watch, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Any test running the bot is watched without asking: a /roll made to hold the loop is
    seen, and named, by the watchdog the plugin gave the bot at its first ready."""
    roll = bot.notation.roll

    def slow_roll(*args: Any, **kwargs: Any) -> Any:
        sleeps_on_the_loop()
        return roll(*args, **kwargs)

    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        assert t.bot.watchdog is not None
        assert "1d6" in text_of(await t.slash("roll dice", {"expr": "1d6"}))
        assert loop_watchdog.stalls == []
        monkeypatch.setattr(bot.notation, "roll", slow_roll)
        assert "1d6" in text_of(await t.slash("roll dice", {"expr": "1d6"}))
    (stall,) = loop_watchdog.forgive()  # forgiven, or this test would fail as it should
    assert "sleeps_on_the_loop" in stall.where


def test_a_bot_process_logs_its_stalls_and_the_plugin_reads_them(tmp_path: Path) -> None:
    """A bot process's watchdog logs through ``bot.watchdog``; the plugin finds those lines in
    any log under the test's folder."""
    stall = Stall(0.25, 0.01, "cogs/roll.py:10 dice")
    (tmp_path / "bot1").mkdir()
    (tmp_path / "bot1" / "log.1").write_text(f"[WARNING] bot.watchdog: {stall}\n")
    (found,) = logged_stalls(tmp_path)
    assert found.startswith("bot1/log.1: the event loop was blocked for 250 ms")
    with pytest.raises(AssertionError, match="blocked over 100 ms"):
        assert_no_stall_in(f"ready\n{stall}\n")
    (tmp_path / "bot1" / "log.1").unlink()  # or this test would fail as it should


def test_the_watchdog_logs_a_warning_by_default(caplog: pytest.LogCaptureFixture) -> None:
    asyncio.run(watched_logging())
    (record,) = [r for r in caplog.records if r.name == "bot.watchdog"]
    assert record.levelno == logging.WARNING
    assert "sleeps_on_the_loop" in record.getMessage()


async def watched_logging() -> None:
    dog = LoopWatchdog(LIMIT_MS / 1000)
    dog.start()
    await asyncio.sleep(0.1)
    asyncio.get_running_loop().call_soon(sleeps_on_the_loop)
    await asyncio.sleep(0.2)
    await dog.stop()


def test_the_setting_is_a_number_of_milliseconds() -> None:
    assert Settings.from_env({"CHAOS_STALL_WARN_MS": "100"}).stall_warn_ms == 100
    assert Settings.from_env({}).stall_warn_ms is None
    with pytest.raises(ConfigError, match="CHAOS_STALL_WARN_MS must be a number of milliseconds"):
        Settings.from_env({"CHAOS_STALL_WARN_MS": "fast"})
