"""The work behind autocomplete that grows with a ruleset, done on a thread of its own.

Ranking the entries of a ruleset for what is typed (:mod:`bot.entry_search`), its rules topics
(:mod:`bot.rules_search`) and a long list's results by number is CPU work that grows with the
tables, and an uploaded table can be as large as the upload limits allow. On the event loop it
held up every server. Here it runs on one thread:

* each ruleset's search index is built once, on that thread, and kept (the last
  :data:`KEPT_INDEXES` rulesets searched, :data:`KEPT_PLACES` entries at most: the largest
  upload's index takes about 7 MB); the game's ruleset object is shared by every game playing
  the same tables, so it is the key;
* a request waits at most :data:`ANSWER_WITHIN` for its answer (an index being built for a
  large upload may take longer: that request gets no suggestions, and the next one uses the
  index); the work goes on and its index is kept;
* at most :data:`QUEUE_LIMIT` requests wait for the thread; past that, a request gets no
  suggestions at once.

The event loop only hands the work over and takes the answer back.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from bot import rules_search
from bot.engine.model import Ruleset
from bot.entry_search import EntryIndex, Place, places
from bot.tables.rulesets import Rule

T = TypeVar("T")
log = logging.getLogger(__name__)

KEPT_INDEXES = 16  # as many rulesets as the service keeps built (bot.service.SNAPSHOT_CACHE)
KEPT_PLACES = 60_000  # entries in the kept indexes together: about 60 MB; the newest always stays
QUEUE_LIMIT = 16  # requests waiting for or running on the thread, every server together
ANSWER_WITHIN = 2.0  # seconds; Discord drops an autocomplete answer after 3


class Searches:
    """The autocomplete's searches, on one thread; :meth:`close` stops it."""

    def __init__(
        self, *, queue_limit: int = QUEUE_LIMIT, answer_within: float = ANSWER_WITHIN
    ) -> None:
        self.queue_limit = queue_limit
        self.answer_within = answer_within
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="autocomplete")
        self._indexes: OrderedDict[int, tuple[weakref.ref[Ruleset], EntryIndex]] = OrderedDict()
        self._queued = 0
        self.builds = 0  # indexes built (for tests and the bench)

    async def entries(self, ruleset: Ruleset, typed: str) -> list[Place]:
        """The best entries of the ruleset's lists and decks for what is typed."""
        return await self.run(lambda: self._entry_index(ruleset).complete(typed), [])

    async def topics(self, rules: tuple[Rule, ...], typed: str) -> list[Rule]:
        """The best rules topics for what is typed."""
        return await self.run(lambda: rules_search.complete(rules, typed), [])

    async def run(self, work: Callable[[], T], empty: T) -> T:
        """`work()`'s answer, worked out on the thread; `empty` when the thread is too busy or
        the answer takes too long (the work still finishes, and what it builds is kept)."""
        if self._queued >= self.queue_limit:
            return empty
        try:
            future = asyncio.get_running_loop().run_in_executor(self._thread, work)
        except RuntimeError:  # closed: the bot is shutting down
            return empty
        self._queued += 1
        future.add_done_callback(self._done)
        try:
            return await asyncio.wait_for(asyncio.shield(future), self.answer_within)
        except TimeoutError:
            return empty

    def _done(self, future: asyncio.Future[Any]) -> None:
        self._queued -= 1
        if not future.cancelled() and future.exception() is not None:
            log.error("an autocomplete search failed", exc_info=future.exception())

    def _entry_index(self, ruleset: Ruleset) -> EntryIndex:
        """The ruleset's index, built now if it isn't kept (on the thread only)."""
        kept = self._indexes.get(id(ruleset))
        if kept is not None and kept[0]() is ruleset:
            self._indexes.move_to_end(id(ruleset))
            return kept[1]
        index = EntryIndex(places(ruleset))
        self.builds += 1
        self._indexes[id(ruleset)] = (weakref.ref(ruleset), index)
        while len(self._indexes) > 1 and (
            len(self._indexes) > KEPT_INDEXES
            or sum(len(kept.places) for _, kept in self._indexes.values()) > KEPT_PLACES
        ):
            self._indexes.popitem(last=False)
        return index

    def close(self) -> None:
        """Stop the thread (what it is doing finishes; nothing new starts)."""
        self._thread.shutdown(wait=False, cancel_futures=True)
