"""The connection's lock, with the group commit first in line.

Every transaction on the store's one connection holds this lock for its whole length (see
:mod:`bot.store.base`). With a plain :class:`asyncio.Lock` it went in order of asking, so a
save waited behind every read asked for before it: a page's sixteen streams opening at once
looked their link up sixteen times, and an action in another channel waited 100-500 ms for its
commit (bench/page_flood.py). Reads can wait a little; a player's action can't.

So a writer (the group commit, or another write transaction) goes before the readers waiting,
but never twice in a row while a reader waits: each side waits for at most one turn of the
other beyond its own kind. Within a side, the order of asking holds.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class WriterFirst:
    """See the module's notes. ``async with lock.hold(writer=True):`` …"""

    def __init__(self) -> None:
        self._held = False
        self._last_writer = False
        self._waiting: dict[bool, deque[asyncio.Future[None]]] = {True: deque(), False: deque()}

    @property
    def locked(self) -> bool:
        return self._held

    @asynccontextmanager
    async def hold(self, *, writer: bool) -> AsyncIterator[None]:
        """Hold the lock for the block, as a writer or a reader."""
        if self._held or self._waiting[True] or self._waiting[False]:
            turn = asyncio.get_running_loop().create_future()
            self._waiting[writer].append(turn)
            try:
                await turn
            except asyncio.CancelledError:
                if turn.done() and not turn.cancelled():
                    self._pass_on()  # it was handed over as the waiter gave up
                elif turn in self._waiting[writer]:  # (a holder leaving may have dropped it)
                    self._waiting[writer].remove(turn)
                raise
        else:
            self._held = True
        self._last_writer = writer
        try:
            yield
        finally:
            self._pass_on()

    def _pass_on(self) -> None:
        """The holder is done: the next in line holds it, or nobody."""
        readers_first = self._last_writer and self._waiting[False]
        for side in (False, True) if readers_first else (True, False):
            queue = self._waiting[side]
            while queue:
                turn = queue.popleft()
                if not turn.done():
                    turn.set_result(None)
                    return  # still held: by that waiter now
        self._held = False
