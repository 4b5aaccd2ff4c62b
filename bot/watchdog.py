"""A watchdog on the event loop: it says when one step held the loop, for how long, and where.

Every server a process holds shares one event loop, so work that holds the loop holds them all.
With ``CHAOS_STALL_WARN_MS`` set, the bot runs a :class:`LoopWatchdog` from its first ready on,
and logs one line (logger ``bot.watchdog``) each time one step held its loop longer than that.
The tests set it to 100 ms for every bot they run and fail on any such line
(``tests/watchdog.py``).

What counts as a step: one callback the loop runs (a task going from one ``await`` to the next,
discord.py parsing a message), or one wait of the loop's thread for the interpreter's lock (the
GIL) that another thread holds, or for a system call to return. A small thread looks at the
loop's thread every few milliseconds and times each step it sees. Many short steps one after
another are not a stall: that is load, which the latency benchmarks and probes measure.

Time the operating system kept the loop's thread waiting for a CPU (another process had it) is
not the bot's doing, and on a loaded machine it can be most of a step's length: on Linux the
kernel counts it for each thread (``run_delay`` in ``/proc/.../schedstat``), and the watchdog
subtracts it (elsewhere nothing is subtracted). The garbage collector's time is counted and
said, since it holds the loop like any other work.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import selectors
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

log = logging.getLogger(__name__)

EVERY = 0.01  # seconds between two looks at the loop's thread
TICK = 0.02  # the loop wakes at least this often, so a long wait in its selector means trouble
FRAMES = 6  # innermost frames kept of where the loop was
# The code of one step of the loop: a callback (asyncio.Handle._run) or a wait for I/O.
STEPS = (asyncio.Handle._run.__code__, selectors.DefaultSelector.select.__code__)


def run_delay(thread: int) -> float:
    """Seconds the thread (its native id) has spent runnable but waiting for a CPU (Linux; 0
    where the kernel doesn't say)."""
    try:
        return int(Path(f"/proc/self/task/{thread}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


@dataclass(frozen=True)
class Stall:
    """One step that held the loop `blocked` seconds; `queued` more seconds its thread waited
    for a CPU (not counted); `collecting` of the blocked time the garbage collector ran; `where`
    the loop was, innermost frame last."""

    blocked: float
    queued: float
    where: str
    collecting: float = 0.0

    def __str__(self) -> str:
        return (
            f"the event loop was blocked for {self.blocked * 1000:.0f} ms"
            f" ({self.collecting * 1000:.0f} ms of it collecting garbage; and it waited"
            f" {self.queued * 1000:.0f} ms for a CPU, not counted); it was in:"
            f" {self.where or 'no frame seen'}"
        )


@dataclass
class _Step:
    frame: FrameType | None  # the step's own frame (kept, so its identity can't be reused)
    began: float
    queued: float
    collecting: float
    seen: float = 0.0
    where: str = ""
    reported: bool = False


class LoopWatchdog:
    """Reports every step that holds the running loop longer than `threshold` seconds: to
    `on_stall` if given (called on the loop), else as a warning in the log. ``start()`` on the
    loop to watch, ``await stop()`` when done."""

    def __init__(
        self,
        threshold: float,
        *,
        every: float = EVERY,
        on_stall: Callable[[Stall], None] | None = None,
        queued: Callable[[int], float] = run_delay,
    ) -> None:
        self.threshold = threshold
        self.every = every
        self.on_stall = on_stall or self._log
        self._queued = queued
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._thread = 0  # the loop's thread: its ident, and its native id for the kernel
        self._native = 0
        self._stopping = threading.Event()
        self._looker: threading.Thread | None = None
        self._collecting = 0.0  # seconds the collector has run since the watchdog started
        self._collection_began = 0.0

    def start(self) -> None:
        if self._ticker is not None:
            return
        self._loop = asyncio.get_running_loop()
        self._thread, self._native = threading.get_ident(), threading.get_native_id()
        self._ticker = self._loop.create_task(self._tick(), name="loop watchdog")
        self._looker = threading.Thread(target=self._look, name="loop watchdog", daemon=True)
        self._looker.start()
        gc.callbacks.append(self._collection)

    async def stop(self) -> None:
        self._stopping.set()
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._collection)
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        if self._looker is not None:
            await asyncio.to_thread(self._looker.join)

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(TICK)

    def _look(self) -> None:
        """In a thread of its own: time each step of the loop's thread."""
        step: _Step | None = None
        mine = threading.get_native_id()
        while True:
            asked, queued_self = time.perf_counter(), self._queued(mine)
            collected = self._collected()
            if self._stopping.wait(self.every):
                if step is not None:  # a step that ended just before the stop counts too
                    self._finish(step)
                return
            now = time.perf_counter()
            frame = sys._current_frames().get(self._thread)
            current = _step_of(frame)
            if step is not None and current is not step.frame:
                self._finish(step)
                step = None
            # This thread woke late: someone held the interpreter (the GIL) all along, so
            # nothing could run on the loop either, whatever step it was in.
            held = now - asked - self.every - (self._queued(mine) - queued_self)
            if held > self.threshold:
                collecting = min(held, self._collected() - collected)
                self._report(Stall(held, 0.0, _where(frame), collecting))
                if step is not None:
                    step.reported = True
            if current is None:
                continue
            if step is None:
                step = _Step(current, now, self._queued(self._native), self._collected())
            step.seen = now
            if not step.where and now - step.began > self.threshold / 2:
                step.where = _where(frame)

    def _finish(self, step: _Step) -> None:
        queued = self._queued(self._native) - step.queued
        blocked = step.seen - step.began - queued
        if blocked > self.threshold and not step.reported:
            collected = self._collected() - step.collecting
            self._report(Stall(blocked, queued, step.where, min(collected, blocked)))

    def _report(self, stall: Stall) -> None:
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                self._loop.call_soon_threadsafe(self.on_stall, stall)

    def _collected(self) -> float:
        """Seconds the collector has run since the watchdog started, one running now included."""
        began = self._collection_began
        return self._collecting + (time.perf_counter() - began if began else 0.0)

    def _collection(self, phase: str, info: dict[str, int]) -> None:
        """gc's callback, on whichever thread collects: the time collections take."""
        if phase == "start":
            self._collection_began = time.perf_counter()
        elif self._collection_began:
            self._collecting += time.perf_counter() - self._collection_began
            self._collection_began = 0.0

    @staticmethod
    def _log(stall: Stall) -> None:
        log.warning("%s", stall)


def _step_of(frame: FrameType | None) -> FrameType | None:
    """The frame of the step the loop's thread is in (a callback, or a wait for I/O), if any."""
    while frame is not None:
        if frame.f_code in STEPS:
            return frame
        frame = frame.f_back
    return None


def _where(frame: FrameType | None) -> str:
    """``file:line function`` for the innermost :data:`FRAMES` frames outside asyncio's own,
    outermost first, each file named by its last two path parts (its package and module)."""
    if frame is None:
        return ""
    stack = traceback.extract_stack(frame)
    frames = [f for f in stack if Path(f.filename).parent.name != "asyncio"][-FRAMES:]
    return " > ".join(
        f"{'/'.join(Path(f.filename).parts[-2:])}:{f.lineno} {f.name}" for f in frames
    )
