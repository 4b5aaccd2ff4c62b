"""How often one member may have a file checked: one at a time, and a few in a while.

``/table validate`` and ``/game verify`` are open to every member (checking a file changes
nothing), and each check costs seconds of work: a worker process's for a table file
(:mod:`bot.workers`), a worker thread's replay for a game's log (:mod:`bot.verify.running`).
So a member may have one file checked at a time, and :data:`PER_WINDOW` in any :data:`WINDOW`
seconds, table files and logs counted together; uploads (``/table import``, which also needs
Manage Server) count the same way.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections import deque
from collections.abc import Callable, Iterator

from bot.engine.errors import ChaosError

PER_WINDOW = 10
WINDOW = 600.0  # seconds
MAX_MEMBERS = 10_000  # remembered at once; past this, those with no recent check are forgotten


class TooManyChecksError(ChaosError):
    """The member is already having a file checked, or had many checked lately."""


class UploadLimits:
    """Counts each member's checks; :meth:`hold` is taken around one check."""

    def __init__(
        self,
        *,
        per_window: int = PER_WINDOW,
        window: float = WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_window = per_window
        self.window = window
        self._clock = clock
        self._busy: set[str] = set()
        self._recent: dict[str, deque[float]] = {}

    @contextlib.contextmanager
    def hold(self, member: str) -> Iterator[None]:
        """One check by `member`; raises TooManyChecksError saying when to try again."""
        if member in self._busy:
            raise TooManyChecksError(
                "Your last file is still being checked: wait for its answer, then send the next."
            )
        now = self._clock()
        recent = self._recent.setdefault(member, deque())
        while recent and recent[0] <= now - self.window:
            recent.popleft()
        if len(recent) >= self.per_window:
            wait = math.ceil((recent[0] + self.window - now) / 60)
            raise TooManyChecksError(
                f"You had {len(recent)} files checked in the last {self.window / 60:.0f}"
                f" minutes; try again in {wait} minute{'s' * (wait != 1)}."
            )
        recent.append(now)
        self._forget_idle(now)
        self._busy.add(member)
        try:
            yield
        finally:
            self._busy.discard(member)

    def _forget_idle(self, now: float) -> None:
        if len(self._recent) <= MAX_MEMBERS:
            return
        for member, recent in list(self._recent.items()):
            if not recent or recent[-1] <= now - self.window:
                del self._recent[member]
