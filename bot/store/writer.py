"""Group commit, for both backends: saves are queued, and one writer commits them in batches.

An fsync takes about a millisecond on a plain disk, so one per action would cap the bot near a
thousand actions a second whatever its CPU. So a save is not committed by its caller: it is
queued, and one writer task takes everything queued at that moment and hands it to the
backend's `commit`, which stores the batch with one commit (SQLite: one transaction with a
SAVEPOINT per save; PostgreSQL: one statement) and says how each save fared. There is no timer:
a save alone is committed at once, and saves that arrive while a batch is on its way go in the
next one, so batches grow with the load and shrink with it.

A save may bring a `meanwhile`: work to do on the event loop while its commit is on its way
(drawing the answer the caller will send once it is durable). The backend starts it once the
batch's statements have run and only the commit is left to wait for (SQLite: its fsync, on the
database thread; PostgreSQL: the server's answer), so the loop does it instead of waiting
idle; nothing it does is used unless the save succeeds. It runs at most once, and not at all
for a save whose caller gave up.

Each caller hears its own answer, and only once the batch holding it has committed. A failure
of the whole commit goes to the backend's `settle`, which finds out what became of each save
(a commit can fail after the write: :mod:`bot.store.doubt`) and answers each one with that.
Cancelled while queued, a save is dropped; cancelled once sent, its caller waits for the
batch to end before giving up, so whoever reads the game next (the service reloads it after
a cancellation) reads it with or without the save, never before a commit still on its way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Generic, TypeVar

log = logging.getLogger(__name__)

P = TypeVar("P")
# How each save of a batch fared, in order: (True, what it returned) or (False, what it raised).
Results = list[tuple[bool, Any]]
# Work for the loop while a batch commits (see the module's notes); None if there is none.
Meanwhile = Callable[[], None] | None
# Each save's answer once a batch's commit failed as a whole (with the exception given).
Settle = Callable[[list[P], Exception], Awaitable[Results]]


@dataclass(eq=False)
class _Pending(Generic[P]):
    what: P
    meanwhile: Meanwhile
    done: asyncio.Future[Any] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )
    ended: asyncio.Future[None] | None = None  # its batch's end, once the writer took it


class Writer(Generic[P]):
    """The queue of saves and the one task that drains it (see the module's notes).

    `commit` stores a batch and returns its :data:`Results`, or raises for the whole batch; it
    is also given the batch's :data:`Meanwhile`, to call (on the loop's thread) once only the
    commit is left to wait for.
    `key`, if given, keeps saves with the same key (the same game) in different batches.
    `settle` answers the saves of a batch whose commit raised (see the module's notes); it
    must not raise. Without it, the failure is every save's answer.
    """

    def __init__(
        self,
        commit: Callable[[list[P], Meanwhile], Awaitable[Results]],
        *,
        name: str,
        key: Callable[[P], Hashable] | None = None,
        settle: Settle[P] | None = None,
    ) -> None:
        self._commit = commit
        self._settle = settle
        self._name = name
        self._key = key
        self._queue: list[_Pending[P]] = []
        self._task: asyncio.Task[None] | None = None
        # The size of every batch committed, when someone is counting (benchmarks, tests).
        self.batches: list[int] | None = None
        # Off, one save per commit, as before group commit: only for the benchmarks' baseline.
        self.group = True

    async def save(self, what: P, meanwhile: Meanwhile = None) -> Any:
        """Queue `what` and return its result once its batch has committed (or raise what it,
        or the whole commit, raised). `meanwhile` is called while the batch commits."""
        pending = _Pending(what, meanwhile)
        self._queue.append(pending)
        if self._task is None:
            self._task = asyncio.create_task(self._drain(), name=self._name)
        try:
            # Cancelling this task cancels `done` at once: a save still queued is dropped.
            return await pending.done
        except asyncio.CancelledError:
            if pending.ended is not None:  # sent: settled only once its batch has ended
                with contextlib.suppress(BaseException):
                    await asyncio.shield(pending.ended)
            raise

    async def wait(self) -> None:
        """Until what was queued so far is committed (closing waits for it)."""
        if self._task is not None:
            await asyncio.shield(self._task)

    async def _drain(self) -> None:
        batch: list[_Pending[P]] = []
        try:
            while self._queue:
                batch, self._queue = self._take(self._queue)
                if batch:
                    await self._send(batch)
                batch = []
        finally:
            for pending in [*batch, *self._queue]:  # cancelled: the loop is closing
                pending.done.cancel()
            self._queue = []
            self._task = None

    def _take(self, queued: list[_Pending[P]]) -> tuple[list[_Pending[P]], list[_Pending[P]]]:
        """The next batch, and what waits for the one after: every save whose caller still
        waits, one at a time when grouping is off, one per key."""
        batch: list[_Pending[P]] = []
        later: list[_Pending[P]] = []
        keys: set[Hashable] = set()
        ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        for pending in queued:
            if pending.done.done():
                continue  # its caller gave up while it was queued
            key = None if self._key is None else self._key(pending.what)
            if (batch and not self.group) or (key is not None and key in keys):
                later.append(pending)
                continue
            keys.add(key)
            pending.ended = ended
            batch.append(pending)
        return batch, later

    async def _send(self, batch: list[_Pending[P]]) -> None:
        meanwhile = None
        if any(pending.meanwhile is not None for pending in batch):
            meanwhile = partial(_meanwhile, batch)
        whats = [pending.what for pending in batch]
        try:
            results = await self._commit(whats, meanwhile)
        except Exception as failed:  # the whole commit: what became of each save?
            results = await self._settled(whats, failed)
        else:
            if self.batches is not None:
                self.batches.append(len(batch))
        finally:
            ended = batch[0].ended
            if ended is not None and not ended.done():
                ended.set_result(None)
        for pending, (ok, value) in zip(batch, results, strict=True):
            if pending.done.done():
                continue  # nobody is listening
            if ok:
                pending.done.set_result(value)
            else:
                pending.done.set_exception(value)

    async def _settled(self, whats: list[P], failed: Exception) -> Results:
        if self._settle is not None:
            try:
                return await self._settle(whats, failed)
            except Exception:  # a bug of ours: logged, and the failure is the answer
                log.exception("finding out what became of a failed batch failed")
        return [(False, failed)] * len(whats)


def _meanwhile(batch: list[_Pending[Any]]) -> None:
    """The `meanwhile` of each save in `batch` whose caller still waits. A failure is logged
    and goes no further: the caller does that work again after the commit (and meets it)."""
    for pending in batch:
        if pending.meanwhile is None or pending.done.done():
            continue
        try:
            pending.meanwhile()
        except Exception:
            log.exception("work done while a save committed failed; it is done again after")
        pending.meanwhile = None  # once
