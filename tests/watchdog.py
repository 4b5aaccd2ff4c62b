"""The loop watchdog over every test that runs the bot (a pytest plugin, loaded by
``tests/conftest.py``): a test fails when a bot's event loop was blocked longer than
:data:`LIMIT_MS` once the bot was ready.

How it reaches every bot without a test asking for it:

* A bot in the test's own process (``Table.open``, ``running(bot, fake)``, or a ChaosBot made
  by hand) gets a :class:`~bot.watchdog.LoopWatchdog` at its first ``on_ready``: the plugin
  wraps ``ChaosBot.on_ready`` for the length of each test. The stalls it sees are kept here.
* A bot process (``python -m bot``: ``tests/cluster.py``, ``tests/e2e/test_bot_cli.py``) inherits
  ``CHAOS_STALL_WARN_MS``, which the plugin sets for every test, and logs a line for each stall.
  After the test the plugin reads every file under the test's ``tmp_path`` (where those
  processes write their logs) for such a line; helpers that read a process's output through a
  pipe instead check it with :func:`assert_no_stall_in`.

What is exempt, and why: everything before the bot's first ready, and nothing after it.
Before ready come importing the bot and discord.py; opening (and migrating) the store; loading
and checking the bundled rulesets and building the dice notation's parser (both on threads, in
``setup_hook``, so a first game or first ``/roll`` doesn't do it on the loop later); loading the
cogs and syncing the commands; logging in, then connecting and identifying each shard and taking
in its servers; and the one full garbage collection that freezes what start-up made
(:func:`bot.memory.freeze`). Each happens once per process, before the bot answers anyone, so
no member waits behind it and no member can make it happen again. From ready on, everything is
watched until the bot closes (a shutdown gives its answers a few seconds, and those are watched
too).

Why 100 ms holds on a loaded 2-core machine: the watchdog times single steps of the loop (one
callback, or one wait of the loop's thread for the GIL), not the loop's latency under load, and
it doesn't count time the operating system kept the loop's thread waiting for a CPU (see
:mod:`bot.watchdog`), so other processes' load doesn't make it flake. What a flood does to
another channel's latency is the probes' and ``bench/hostile.py``'s to measure. The test process
also runs the fake Discord and the test itself on an in-process bot's loop: their steps are
watched too, so a test does its own heavy set-up on a thread (``asyncio.to_thread``), or says
why not with ``with loop_watchdog.excused("why"):``.

Garbage collection: an in-process bot's stall fails its test when it is over the limit without
the collector's time. The collector walks the whole process's heap, and a test process's heap
is mostly the test's: the fake Discord's record of every call, the exports and games a test
builds, the modules of every test collected. A bot process's heap is its own, so a bot process's
line counts whole, collections included (``tests/shards``, ``tests/e2e/test_bot_cli.py``).
"""

from __future__ import annotations

import contextlib
import gc
import re
import sys
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import memory
from bot.client.bot import ChaosBot
from bot.watchdog import LoopWatchdog, Stall

LIMIT_MS = 100
# What bot.watchdog's Stall says, in a process's log.
STALL_LINE = re.compile(r"the event loop was blocked for \d+ ms.*")
MAX_LOG_BYTES = 32 * 2**20  # larger files under tmp_path are databases and uploads, not logs


class Watch:
    """What the watchdogs of one test saw."""

    def __init__(self) -> None:
        self.stalls: list[Stall] = []
        self.collections: list[Stall] = []  # over the limit only with garbage collection
        self._excused: list[str] = []

    def record(self, stall: Stall) -> None:
        if self._excused:
            return
        if stall.blocked - stall.collecting > LIMIT_MS / 1000:
            self.stalls.append(stall)
        else:
            self.collections.append(stall)

    @contextlib.contextmanager
    def excused(self, why: str) -> Iterator[None]:
        """Stalls meanwhile don't count: for a test's own heavy set-up on the bot's loop
        (`why` says what, for whoever reads the test)."""
        self._excused.append(why)
        try:
            yield
        finally:
            self._excused.pop()

    def forgive(self) -> list[Stall]:
        """The stalls seen so far, forgotten (for the watchdog's own tests)."""
        seen, self.stalls = self.stalls, []
        return seen


@pytest.fixture(autouse=True)
def loop_watchdog(monkeypatch: pytest.MonkeyPatch) -> Iterator[Watch]:
    """Every bot this test runs, watched (see the module's notes). The garbage collector is
    set as the bot's process sets it, and so are the threads' turns at the interpreter
    (:func:`bot.memory.settle`): both decide how long the loop can be held."""
    watch = Watch()
    thresholds, switch = gc.get_threshold(), sys.getswitchinterval()
    memory.settle()
    monkeypatch.setenv("CHAOS_STALL_WARN_MS", str(LIMIT_MS))
    ready = ChaosBot.on_ready

    async def on_ready(bot: ChaosBot) -> None:
        if bot.watchdog is None:
            bot.watchdog = LoopWatchdog(LIMIT_MS / 1000, on_stall=watch.record)
        await ready(bot)

    monkeypatch.setattr(ChaosBot, "on_ready", on_ready)
    yield watch
    gc.set_threshold(*thresholds)
    sys.setswitchinterval(switch)


def stall_lines(text: str) -> list[str]:
    return [m.group(0) for m in STALL_LINE.finditer(text)]


def assert_no_stall_in(output: str) -> None:
    """A bot process's output (its log) has no watchdog line."""
    lines = stall_lines(output)
    assert not lines, f"a bot process's event loop was blocked over {LIMIT_MS} ms:\n" + "\n".join(
        lines
    )


def logged_stalls(folder: Path) -> list[str]:
    """The watchdog lines in every file under `folder` (bot processes' logs)."""
    found: list[str] = []
    for path in sorted(folder.rglob("*")):
        with contextlib.suppress(OSError):
            if not path.is_file() or path.stat().st_size > MAX_LOG_BYTES:
                continue
            text = path.read_bytes().decode("utf-8", "replace")
            found += [f"{path.relative_to(folder)}: {line}" for line in stall_lines(text)]
    return found


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, Any, Any]:
    """After the test's body: fail it if any bot's loop was blocked."""
    result = yield
    funcargs: dict[str, Any] = getattr(item, "funcargs", {})
    watch: Watch | None = funcargs.get("loop_watchdog")
    problems = [str(s) for s in watch.stalls] if watch is not None else []
    tmp_path = funcargs.get("tmp_path")
    if isinstance(tmp_path, Path):
        problems += logged_stalls(tmp_path)
    if problems:
        raise AssertionError(
            f"a bot's event loop was blocked for more than {LIMIT_MS} ms after start-up"
            " (tests/watchdog.py says what is exempt):\n" + "\n".join(problems)
        )
    return result
