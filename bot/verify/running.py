"""Verifying logs for a running bot or console: off the event loop, a few at a time.

The bot reads and replays a log in a worker process (``processes=True``); the console, which
serves nobody else, in a worker thread. A thread was not enough for the bot: replaying a long
log allocates a million objects, whose garbage collections, like the parse of one huge line
of JSON, hold the interpreter's lock (the GIL) for a tenth of a second or more, and the event
loop waited for it with every server on it (the loop watchdog, :mod:`bot.watchdog`, found
it). At most :data:`AT_ONCE` run together (more would only queue for the
same cores); anyone past that is told to try again. The tables come from the bot's own
store when it played the game (a server's uploads included), else from the bundled ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import traceback
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

from bot.engine.errors import ChaosError
from bot.engine.model import Ruleset
from bot.errors import StoreError
from bot.store import Store
from bot.tables.folders import LoadedRuleset
from bot.tables.registry import find_ruleset
from bot.tables.snapshot import Snapshot, load_snapshot, take_snapshot
from bot.verify.errors import UnreadableLogError
from bot.verify.read import MAX_BYTES, read_log, read_path
from bot.verify.replay import Verdict, tables_of, verify_events
from bot.verify.tables import matching

T = TypeVar("T")

AT_ONCE = 2
KEEP_TABLES = 4  # rulesets kept loaded between checks


class BusyError(ChaosError):
    """Too many logs are being checked at once."""


class Verifier:
    """Checks exported logs against the tables in `store` (and the bundled ones)."""

    def __init__(self, store: Store, *, at_once: int = AT_ONCE, processes: bool = False) -> None:
        self.store = store
        self.at_once = at_once
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None  # started at the first check
        self._running = 0
        self._tables: OrderedDict[str, tuple[Snapshot, LoadedRuleset]] = OrderedDict()

    async def close(self) -> None:
        """Stop the worker processes, if any started."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, cancel_futures=True)

    def check_free(self) -> None:
        """BusyError if a check now would have to wait: a front end asks before it downloads
        an upload, so twenty uploads at once aren't twenty downloads held in memory."""
        if self._running >= self.at_once:
            raise BusyError("Other logs are being checked right now; try again in a moment.")

    async def verify(self, data: bytes, *, expected: str | None = None) -> Verdict:
        """The verdict on an export given as bytes; MismatchError, UnreadableLogError or
        BusyError (each a sentence) otherwise."""
        async with self.slot():
            return await self.verify_in_slot(data, expected=expected)

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """One of the :data:`AT_ONCE` places, or BusyError. Take it before downloading a file:
        twenty members' 8 MB uploads must not all be in memory at once only to hear "busy"."""
        self.check_free()
        self._running += 1
        try:
            yield
        finally:
            self._running -= 1

    async def verify_in_slot(self, data: bytes, *, expected: str | None = None) -> Verdict:
        """:meth:`verify`, for a caller that holds a :meth:`slot`."""
        if len(data) > MAX_BYTES and not data.startswith(b"\x1f\x8b"):
            raise UnreadableLogError(f"That file is larger than {MAX_BYTES // 2**20} MB.")
        if self.processes:
            return await self._in_process(data, expected)
        # The log's events (a million objects for a long game) live and die on the worker
        # thread: freeing them on the event loop held every server for a tenth of a second or
        # more. The loop only ever holds them in `box`, which a thread empties.
        box: list[list[dict[str, Any]]] = []
        try:
            tables = await asyncio.to_thread(_in_thread, _read_into, box, data)
            ruleset = await self._ruleset(*tables)
            return await asyncio.to_thread(_in_thread, _verify_box, box, ruleset, expected)
        finally:
            if box:
                await asyncio.to_thread(box.clear)

    async def _in_process(self, data: bytes, expected: str | None) -> Verdict:
        """Read the log in a worker for the tables it names, then replay it there against
        them: the event loop sees only the bytes, the tables' texts and the verdict."""
        named = await self._work(_tables_in, data)
        frozen = await self._frozen(*named)
        matching(frozen, *named, "this bot's")
        return await self._work(_verify_in_worker, data, frozen[0], expected)

    async def _work(self, function: Callable[..., T], *args: Any) -> T:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")  # not a fork of a threaded process
            self._pool = ProcessPoolExecutor(self.at_once, mp_context=context)
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, function, *args)
        except BrokenProcessPool:
            self._pool = None  # a worker died (out of memory, killed): fresh ones next time
            raise UnreadableLogError(
                "Checking that log took more memory than the bot can give it."
            ) from None

    async def verify_file(self, path: Path, *, expected: str | None = None) -> Verdict:
        """The same for a file (the console): a regular file, read up to the limit."""
        return await self.verify(await asyncio.to_thread(read_path, path), expected=expected)

    async def _ruleset(self, ruleset: str, tables: str | None) -> Ruleset:
        return matching(await self._frozen(ruleset, tables), ruleset, tables, "this bot's")

    async def _frozen(self, ruleset: str, tables: str | None) -> tuple[Snapshot, LoadedRuleset]:
        frozen = self._tables.get(tables or "")
        if frozen is None and tables is not None:
            try:
                snapshot = await self.store.snapshot(tables)
            except StoreError:
                pass  # not a game this bot played, or long expired: try the bundled tables
            else:
                frozen = (snapshot, await asyncio.to_thread(load_snapshot, snapshot))
        if frozen is None:
            frozen = await asyncio.to_thread(lambda: take_snapshot(find_ruleset(ruleset)))
        self._keep(frozen)
        return frozen

    def _keep(self, frozen: tuple[Snapshot, LoadedRuleset]) -> None:
        self._tables[frozen[0].hash] = frozen
        self._tables.move_to_end(frozen[0].hash)
        while len(self._tables) > KEEP_TABLES:
            self._tables.popitem(last=False)


def _in_thread(work: Callable[..., T], *args: Any) -> T:
    """`work(*args)` on a worker thread. An error it raises is passed on without the locals of
    its frames, which are freed here: a traceback can hold a whole parsed log."""
    try:
        return work(*args)
    except BaseException as error:
        traceback.clear_frames(error.__traceback__)
        raise


def _read_into(box: list[list[dict[str, Any]]], data: bytes) -> tuple[str, str | None]:
    """Read the log into `box`; the ruleset and tables it names."""
    box.append(read_log(data))
    return tables_of(box[0])


def _verify_box(box: list[list[dict[str, Any]]], ruleset: Ruleset, expected: str | None) -> Verdict:
    events = box.pop()
    return verify_events(events, lambda *_: ruleset, expected=expected)


# -- in a worker process --------------------------------------------------------------------


def _tables_in(data: bytes) -> tuple[str, str | None]:
    """The ruleset and tables a log names."""
    return tables_of(read_log(data))


def _verify_in_worker(data: bytes, snapshot: Snapshot, expected: str | None) -> Verdict:
    loaded = _loaded(snapshot)
    return verify_events(read_log(data), lambda *_: loaded.ruleset, expected=expected)


_WORKER_TABLES: OrderedDict[str, LoadedRuleset] = OrderedDict()


def _loaded(snapshot: Snapshot) -> LoadedRuleset:
    """The snapshot's ruleset, kept between checks in this worker."""
    loaded = _WORKER_TABLES.get(snapshot.hash)
    if loaded is None:
        loaded = _WORKER_TABLES[snapshot.hash] = load_snapshot(snapshot)
    _WORKER_TABLES.move_to_end(snapshot.hash)
    while len(_WORKER_TABLES) > KEEP_TABLES:
        _WORKER_TABLES.popitem(last=False)
    return loaded
