"""The processor time one call takes on this thread, with a hard stop for one that never ends.

Processor time, not the wall clock: other work on a loaded machine doesn't count against the
call. The hard stop is an alarm on the wall clock, which ``re`` notices while it backtracks
(it checks for signals as it goes), so a guard that catches a runaway pattern fails in
seconds instead of hanging the suite for hours. It needs the main thread, where pytest runs
tests.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from types import FrameType


class Runaway(BaseException):
    """The call was still running at the hard stop. A BaseException, so that no ``except
    Exception`` in the code under test can swallow it."""


def cpu_seconds(work: Callable[[], object], give_up: float = 10.0) -> float:
    """How long `work()` ran on this thread's processor; Runaway past `give_up` wall seconds."""

    def stop(signum: int, frame: FrameType | None) -> None:
        raise Runaway(f"still running after {give_up} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, give_up)
    try:
        start = time.thread_time()
        work()
        return time.thread_time() - start
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
