"""The service's side that only looks at games: never under a game's lock.

Every look at a game reads a version the game already published (:mod:`bot.published`): the
live pages, the status board, exports, ``/chaos log``, ``/game status``, autocomplete, and the
look a front end takes before it builds an action (:meth:`GameReading.current`). A game that
isn't in memory (after a restart, an old game's page, a game another process plays) is loaded
from the database without the lock too, once for every reader that asks meanwhile, and kept on
the shelf for the next.

What a reader gets is a committed version: an action being saved right now isn't in it (it
may yet fail), and shows as soon as it is committed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import partial

from bot.engine.events import Event
from bot.engine.fairness import sealed
from bot.errors import NoGameError
from bot.published import Outcome, Published, Shelf
from bot.render.events import latest_actions
from bot.store import Store, StoredGame, dump_event
from bot.tables import LoadedRuleset, Rule

NO_GAME = "There's no game in progress here."
NO_GAME_TO_LOOK_AT = "There's no game in progress here, and no finished one to look back at."
NO_LOG = "There's no game here (a finished game can be looked at until it expires)."
GAME_GONE = "That game is over and gone."

Fetch = Callable[[], Awaitable[StoredGame | None]]


class GameReading:
    """Looks at games (mixed into :class:`~bot.service.GameService`)."""

    store: Store
    _rulesets: Callable[[str], LoadedRuleset]
    _shelf: Shelf
    _reading: dict[tuple[str, str | int], asyncio.Future[Published | None]]

    async def _fold(self, stored: StoredGame) -> Published:
        """A game read from the database, made ready to read (its log folded on a thread) and
        kept on the shelf."""
        raise NotImplementedError

    def published(self, scope: str, game_id: int | None = None) -> Outcome | None:
        """The newest version published here of game `game_id` of `scope` (of its newest game
        if None), from memory alone: None if there is none in memory. What the status board
        draws, and how a live page learns of a change the moment this process commits it."""
        shown = self._shelf.scope(scope) if game_id is None else self._shelf.game(scope, game_id)
        return None if shown is None else shown.outcome

    async def current(self, scope: str) -> Outcome:
        """The game in progress in `scope` (with no events); NoGameError if there is none."""
        shown = await self._active_shown(scope)
        if shown is None:
            raise NoGameError(NO_GAME)
        return shown.outcome

    async def latest(self, scope: str) -> Outcome:
        """The scope's most recent game, in progress or ended (until it expires), with no
        events; an ended game is rebuilt from its log and the snapshot it was played with."""
        shown = await self._latest_shown(scope)
        if shown is None:
            raise NoGameError(NO_GAME_TO_LOOK_AT)
        return shown.outcome

    async def watched(self, scope: str, game_id: int | None = None) -> Outcome:
        """Game `game_id` of `scope` as stored now, in progress or ended (until it expires), or
        the scope's latest game if `game_id` is None: what a live page shows. The version
        published here when it is the stored one (one lookup by key: another process may have
        moved the game; none at all for an ended game asked for by id, which never changes),
        else the stored game. NoGameError once there is no such game."""
        if game_id is None:
            shown = self._shelf.scope(scope)
            if shown is not None and shown.ended:
                shown = None  # the scope may have had a game since: the store says
        else:
            shown = self._shelf.game(scope, game_id)
        if shown is not None and (
            (shown.ended and game_id is not None)
            or await self.store.version(shown.game_id) == shown.version
        ):
            return shown.outcome
        if game_id is None:
            found = await self._read(("latest", scope), partial(self.store.latest_game, scope))
        else:
            found = await self._read(("game", game_id), partial(self.store.game, game_id))
        if found is None or found.scope != scope:
            raise NoGameError(GAME_GONE)
        return found.outcome

    async def rules(self, scope_or_ruleset: str) -> tuple[Rule, ...]:
        """The rules text of the game in progress in a scope, or else of a ruleset by id."""
        shown = await self._active_shown(scope_or_ruleset)
        if shown is not None:
            return shown.rules
        return self._rulesets(scope_or_ruleset).rules

    async def export(self, scope: str) -> str:
        """The log of the scope's most recent game (in progress or ended) as JSON Lines.

        While a game goes on its log is sealed (:func:`~bot.engine.fairness.sealed`): the seed
        every roll follows from and the cards nobody has seen are left out, for the host as for
        anyone, so nobody at the table can work out what comes next. Once it's over, the whole
        log, seed and salt included, is anyone's to verify.

        The log is the newest version published: whatever is played meanwhile isn't in it. The
        text is built on a thread: a long game's log takes a moment, and every other server's
        commands wait for the event loop.
        """
        shown = await self._latest_shown(scope)
        if shown is None:
            raise NoGameError(NO_GAME_TO_LOOK_AT)
        return await asyncio.to_thread(_export_text, shown.outcome.game.events, shown.ended)

    async def log(self, scope: str, count: int = 20) -> list[Event]:
        """The events of the last `count` actions of the scope's most recent game, oldest
        first (:func:`~bot.render.events.latest_actions`)."""
        shown = await self._latest_shown(scope)
        if shown is None:
            raise NoGameError(NO_LOG)
        return list(latest_actions(shown.outcome.game.events, count))

    # -- finding a version ---------------------------------------------------------------------

    async def _active_shown(self, scope: str) -> Published | None:
        """The newest version of the game in progress in `scope`, or None. Only when none is
        published here is the database asked (a scope with no game costs one lookup)."""
        shown = self._shelf.scope(scope)
        if shown is not None and not shown.ended:
            return shown
        return await self._read(("active", scope), partial(self.store.active_game, scope))

    async def _latest_shown(self, scope: str) -> Published | None:
        """The scope's newest game, in progress or ended."""
        shown = await self._active_shown(scope)
        if shown is None:
            shown = self._shelf.scope(scope)
        if shown is None:
            shown = await self._read(("latest", scope), partial(self.store.latest_game, scope))
        return shown

    async def _read(self, key: tuple[str, str | int], fetch: Fetch) -> Published | None:
        """A game read from the database and kept on the shelf: once for all the readers that
        ask for the same thing meanwhile (a hundred reloads of a page read its log once). A
        reader that goes away (its page closed) doesn't stop the read for the others."""
        pending = self._reading.get(key)
        if pending is None:
            pending = asyncio.ensure_future(self._fetch(fetch))
            self._reading[key] = pending
            pending.add_done_callback(partial(self._read_done, key))
        return await asyncio.shield(pending)

    async def _fetch(self, fetch: Fetch) -> Published | None:
        stored = await fetch()
        if stored is None:
            return None
        record = stored.record
        known = self._shelf.game(record.scope, record.id)
        if known is not None and known.version >= record.version:
            return known  # this very version is on the shelf already (or a newer one): no fold
        return await self._fold(stored)

    def _read_done(
        self, key: tuple[str, str | int], done: asyncio.Future[Published | None]
    ) -> None:
        if self._reading.get(key) is done:
            del self._reading[key]
        if not done.cancelled():
            done.exception()  # retrieved: every reader that waited has it already


def _export_text(events: list[Event], ended: bool) -> str:
    """A log as JSON Lines: whole once the game is over, sealed while it goes on."""
    shown = events if ended else sealed(events)
    return "".join(dump_event(event) + "\n" for event in shown)
