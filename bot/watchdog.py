"""A watchdog on the event loop: it says when the loop was blocked, for how long, and where.

Every server a process holds shares one event loop, so work that holds the loop holds them all.
With ``CHAOS_STALL_WARN_MS`` set, the bot runs a :class:`LoopWatchdog` from its first ready on,
and logs one line (logger ``bot.watchdog``) each time its loop was blocked longer than that. The
tests set it to 100 ms for every bot they run and fail on any such line (``tests/watchdog.py``).

How "blocked" is measured: a heartbeat task sleeps :data:`EVERY` and looks how late it woke. A
late heartbeat has two causes. Either the loop's thread was busy (a callback computing, a
blocking call, the garbage collector, another thread of ours holding the GIL): that is a stall
every server feels. Or the thread was ready to run and the operating system gave its CPU to
another process (a loaded machine): nothing the bot can fix, and not a stall of its making. On
Linux the kernel counts the second for each thread (``run_delay`` in
``/proc/thread-self/schedstat``, the time spent runnable but waiting for a CPU), so the
watchdog subtracts it, and reports both. Elsewhere nothing is subtracted.

While the heartbeat is overdue, a small thread looks at the loop's thread once and keeps its
innermost frames, so the line says where the loop was when it was blocked.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

EVERY = 0.02  # seconds between heartbeats
FRAMES = 6  # innermost frames kept of where the loop was
SCHEDSTAT = Path("/proc/thread-self/schedstat")


def run_delay() -> float:
    """Seconds the calling thread has spent runnable but waiting for a CPU (Linux; 0 where
    the kernel doesn't say)."""
    try:
        return int(SCHEDSTAT.read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


@dataclass(frozen=True)
class Stall:
    """One late heartbeat: the loop was `blocked` seconds; `queued` more seconds its thread
    waited for a CPU (not counted); `where` it was meanwhile, innermost frame last."""

    blocked: float
    queued: float
    where: str

    def __str__(self) -> str:
        return (
            f"the event loop was blocked for {self.blocked * 1000:.0f} ms"
            f" (and waited {self.queued * 1000:.0f} ms for a CPU, not counted); it was in:"
            f" {self.where or 'no frame seen'}"
        )


class LoopWatchdog:
    """Reports every time the running loop is blocked longer than `threshold` seconds: to
    `on_stall` if given, else as a warning in the log. ``start()`` on the loop to watch,
    ``await stop()`` when done."""

    def __init__(
        self,
        threshold: float,
        *,
        every: float = EVERY,
        on_stall: Callable[[Stall], None] | None = None,
        queued: Callable[[], float] = run_delay,
    ) -> None:
        self.threshold = threshold
        self.every = every
        self.on_stall = on_stall or self._log
        self._queued = queued
        self._task: asyncio.Task[None] | None = None
        self._due = 0.0  # when the current heartbeat is due (perf_counter), 0 between beats
        self._where = ""
        self._loop_thread = 0
        self._stopping = threading.Event()
        self._looker: threading.Thread | None = None

    def start(self) -> None:
        if self._task is not None:
            return
        self._loop_thread = threading.get_ident()
        self._task = asyncio.get_running_loop().create_task(self._beat(), name="loop watchdog")
        self._looker = threading.Thread(target=self._look, name="loop watchdog", daemon=True)
        self._looker.start()

    async def stop(self) -> None:
        self._stopping.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._looker is not None:
            self._looker.join()

    async def _beat(self) -> None:
        while True:
            queued = self._queued()
            self._where = ""
            self._due = time.perf_counter() + self.every
            await asyncio.sleep(self.every)
            late = time.perf_counter() - self._due
            self._due = 0.0
            if late <= self.threshold:
                continue
            waited = max(0.0, self._queued() - queued)
            if late - waited > self.threshold:
                self.on_stall(Stall(late - waited, waited, self._where))

    def _look(self) -> None:
        """In a thread of its own: once per overdue heartbeat, where the loop's thread is."""
        seen = 0.0
        while not self._stopping.wait(self.every):
            due = self._due
            if due and due != seen and time.perf_counter() - due > self.threshold / 2:
                seen = due
                frame = sys._current_frames().get(self._loop_thread)
                if frame is not None:
                    self._where = where(frame)

    @staticmethod
    def _log(stall: Stall) -> None:
        log.warning("%s", stall)


def where(frame: object) -> str:
    """``file:line function`` for the innermost :data:`FRAMES` frames outside asyncio's own,
    outermost first, each file named by its last two path parts (its package and module)."""
    stack = traceback.extract_stack(frame)  # type: ignore[arg-type]
    frames = [f for f in stack if Path(f.filename).parent.name != "asyncio"][-FRAMES:]
    return " > ".join(
        f"{'/'.join(Path(f.filename).parts[-2:])}:{f.lineno} {f.name}" for f in frames
    )
