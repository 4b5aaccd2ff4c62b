"""One member's slash commands and keystrokes are worked on one after another, not all at once.

Every server shares the event loop, which runs ready work first come, first served. A member who
sends a hundred commands at once (a script, a macro) put a hundred pieces of work in front of
everyone else's next command: another channel's ``/roll`` waited for all of them. Queued per
member, the hundred take their turns one by one, and another member's command waits for at most
the one of theirs being worked on.

A member's turn ends when their command is answered (or put off: "thinking…") or finishes, or
after :data:`HOLD` seconds, whichever comes first: a slow command (a game log being verified)
must not make their next one miss Discord's 3-second deadline, and the limits on what a member
may have under way at once (one verify, one table check) still see their next command.

The bot's answers say when they are sent (:func:`bot.client.interactions.answered`), so the
next command starts at once, and a turn waits for nothing else: no look at the clock in
between. (Looking every 5 ms cost a command that waited 0.2 s forty wake-ups of the loop, under
a burst about a tenth of the bot's CPU; every 50 ms, still a few wake-ups a command in a burst,
where commands wait most.) An answer made some other way, which the check in
``tests/client/test_oneatatime.py`` finds in the bot's code, would hold the member's next
command until the work finishes or :data:`HOLD` has passed.

Autocomplete doesn't take these turns: :mod:`bot.client.keystrokes` works on a member's newest
keystroke per option and drops the ones it replaced at once, which a queue here would defeat
(the newest would wait behind all of them).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine

HOLD = 0.5  # seconds a member's command keeps their next one waiting, at most


class OneAtATime:
    """Per-key turns: ``await turns.run(key, work)``."""

    def __init__(self, hold: float = HOLD) -> None:
        self.hold = hold
        self._locks: dict[int, asyncio.Lock] = {}
        self._waiting: dict[int, int] = {}  # per key: works holding or waiting for its lock

    @property
    def keys(self) -> int:
        """Keys with work under way or waiting (for tests: the table doesn't grow)."""
        return len(self._locks)

    async def run(
        self,
        key: int,
        work: Coroutine[object, object, None],
        answered: Callable[[], bool] = lambda: False,
        told: asyncio.Future[None] | None = None,
    ) -> None:
        """Run `work` once `key`'s earlier work is over: `told` is done or `answered()` became
        true, it finished, or it held its turn :attr:`hold` seconds. Return when `work` has
        finished."""
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._waiting[key] = self._waiting.get(key, 0) + 1
        task: asyncio.Task[None] | None = None
        try:
            async with lock:
                task = asyncio.create_task(work)
                if not answered():
                    waits: set[asyncio.Future[None]] = {task} if told is None else {task, told}
                    await asyncio.wait(
                        waits, timeout=self.hold, return_when=asyncio.FIRST_COMPLETED
                    )
            await task
        except asyncio.CancelledError:
            if task is None:
                work.close()  # it never started
            else:
                task.cancel()
            raise
        finally:
            self._waiting[key] -= 1
            if not self._waiting[key]:
                del self._waiting[key], self._locks[key]
