"""What readers see of a game: the versions the service published, read without its lock.

A game changes only under its lock (:mod:`bot.service`), and an action holds that lock until
its save commits: a few milliseconds, or seconds while the database is slow. Readers (the live
pages, the status board, exports, ``/chaos log``, ``/game status``, autocomplete) must not
queue behind it, nor make an action queue behind them: a thousand page streams holding the
lock in turn once froze a game for seconds. So after each committed change the service
*publishes* the game as it then stands, a copy nobody changes (:class:`Published`), and readers
take the newest one published, with no lock at all.

The :class:`Shelf` keeps them:

* the newest version of each game the service keeps in memory to play (at most its cache's
  size): these are "live", kept as long as the service keeps the game;
* and a few others, "kept": games that ended, games the service's cache let go, and games a
  reader loaded from the database (an old game's page, a game another process plays). At most
  :data:`KEPT` of them, holding at most :data:`KEPT_EVENTS` events in all, each dropped once
  nobody has read it for :data:`KEPT_SECONDS`; the least recently read go first. An ended
  game's page is read most in the minutes after its end, by the few who watched it.

Memory: a version is a copy of the game made in constant time (:meth:`Game.copy
<bot.engine.game.Game.copy>`): it shares the state and the log's list with the game the service
plays, seeing only the events logged when it was made, and takes a list of its own (of
pointers: an event never changes once logged) only when a reader first reads its events. A
kept version may hold its events alone: about 600 bytes an event, so the budget is about 40 MB
at worst.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bot.engine.events import Event
from bot.engine.game import Game
from bot.engine.state import Phase
from bot.store import GameRecord
from bot.tables import LoadedRuleset, Rule

KEPT = 32  # games besides the live ones: every page of the games that just ended, and more
# Events held by the kept versions in all: a game as long as a game may be (50,000 events,
# bot.engine.limits) fits, and so do a dozen long evenings (1,500 actions, about 6,000 events).
KEPT_EVENTS = 60_000
KEPT_SECONDS = 3600.0  # a kept version nobody read for this long is let go


@dataclass(frozen=True)
class Outcome:
    """What an action (or a look at the game) gives back to a front end.

    `events` are the events the action caused (empty for a look at the game); `game` is the
    game after it (read it, don't change it); `version` is the number of actions in its log,
    to put on buttons so a press on an old message can be recognised.
    """

    game_id: int
    scope: str
    events: list[Event]
    game: Game
    version: int


@dataclass(frozen=True)
class Published:
    """A committed version of a game as readers see it: its row as committed, the game (a copy
    made for the readers, :meth:`~bot.engine.game.Game.copy`, that nothing changes
    afterwards: read it, don't act on it) and the ruleset it plays."""

    record: GameRecord
    game: Game
    ruleset: LoadedRuleset

    @property
    def outcome(self) -> Outcome:
        return Outcome(self.record.id, self.record.scope, [], self.game, self.record.version)

    @property
    def game_id(self) -> int:
        return self.record.id

    @property
    def scope(self) -> str:
        return self.record.scope

    @property
    def version(self) -> int:
        return self.record.version

    @property
    def rules(self) -> tuple[Rule, ...]:
        return self.ruleset.rules

    @property
    def ended(self) -> bool:
        """Over: this is its last version (an ended game never changes again)."""
        return self.game.state.phase is Phase.ENDED

    @property
    def events(self) -> int:
        return self.game.event_count

    def newer_than(self, other: Published | None) -> bool:
        """Whether this is a later version than `other` (of the same game, or of a later
        game: ids grow)."""
        return other is None or (self.game_id, self.version) > (other.game_id, other.version)


@dataclass
class _Kept:
    shown: Published
    read: float


class Shelf:
    """The published versions (see the module's notes). Synchronous and quick: every method
    is a few dictionary operations, so readers never wait on anything here."""

    def __init__(
        self,
        *,
        kept: int = KEPT,
        kept_events: int = KEPT_EVENTS,
        kept_seconds: float = KEPT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.kept_limit = kept
        self.kept_events = kept_events
        self.kept_seconds = kept_seconds
        self._clock = clock
        self._live: dict[str, Published] = {}  # by scope: the game the service keeps there
        self._kept: OrderedDict[int, _Kept] = OrderedDict()  # by game id, least read first
        self._newest: dict[str, int] = {}  # scope -> the newest game id kept for it
        self._events = 0  # held by the kept versions

    # -- publishing ----------------------------------------------------------------------------

    def live(self, shown: Published) -> None:
        """The service committed (or loaded) the game it keeps in memory for `shown.scope`:
        this is the newest version of it. Replaces the scope's live version, whatever it was
        (the service's own game is the truth in this process)."""
        self._live[shown.scope] = shown
        self._unkeep(shown.game_id)

    def keep(self, shown: Published) -> Published:
        """A version the service doesn't keep playing (ended, let go, or loaded by a reader):
        kept unless a newer version of that game is known. Returns the newest known."""
        live = self._live.get(shown.scope)
        if live is not None and live.game_id == shown.game_id and not shown.newer_than(live):
            return live
        known = self._kept.get(shown.game_id)
        if known is not None and not shown.newer_than(known.shown):
            known.read = self._clock()
            self._kept.move_to_end(shown.game_id)
            return known.shown
        if live is not None and live.game_id == shown.game_id:
            del self._live[shown.scope]  # the live copy is older: the service moved on elsewhere
        self._unkeep(shown.game_id)
        self._kept[shown.game_id] = _Kept(shown, self._clock())
        self._events += shown.events
        if shown.game_id >= self._newest.get(shown.scope, -1):
            self._newest[shown.scope] = shown.game_id
        self._trim()
        return shown

    def retire(self, scope: str) -> None:
        """The service stopped keeping its game of `scope` (it ended, was let go from the
        cache, or failed to save): its last version moves to the kept ones."""
        shown = self._live.pop(scope, None)
        if shown is not None:
            self.keep(shown)

    def unpublish(self, scope: str) -> None:
        """The service's game of `scope` may not be what the database holds (a save failed,
        or another process moved it): its live version is taken back, and readers ask the
        database."""
        self._live.pop(scope, None)

    # -- reading -------------------------------------------------------------------------------

    def scope(self, scope: str) -> Published | None:
        """The newest version of the newest game published for `scope`: the service's live
        game there, else the newest kept."""
        live = self._live.get(scope)
        if live is not None:
            return live
        game_id = self._newest.get(scope)
        return None if game_id is None else self.game(scope, game_id)

    def game(self, scope: str, game_id: int) -> Published | None:
        """The newest version of game `game_id` of `scope`."""
        live = self._live.get(scope)
        if live is not None and live.game_id == game_id:
            return live
        kept = self._kept.get(game_id)
        if kept is None or kept.shown.scope != scope:
            return None
        now = self._clock()
        if now - kept.read > self.kept_seconds:
            self._unkeep(game_id)
            return None
        kept.read = now
        self._kept.move_to_end(game_id)
        return kept.shown

    # -- forgetting ----------------------------------------------------------------------------

    def drop(self, game_ids: Iterable[int]) -> None:
        """Forget these games (they expired)."""
        gone = set(game_ids)
        for scope in [s for s, shown in self._live.items() if shown.game_id in gone]:
            del self._live[scope]
        for game_id in gone:
            self._unkeep(game_id)

    def drop_scopes(self, prefix: str) -> None:
        """Forget every game of the scopes starting with `prefix` (a guild this process no
        longer holds: another may change them)."""
        for scope in [s for s in self._live if s.startswith(prefix)]:
            del self._live[scope]
        self.drop([g for g, kept in self._kept.items() if kept.shown.scope.startswith(prefix)])

    def clear(self) -> None:
        self._live.clear()
        self._kept.clear()
        self._newest.clear()
        self._events = 0

    @property
    def counts(self) -> tuple[int, int, int]:
        """(live versions, kept versions, events the kept ones hold): for tests and health."""
        return len(self._live), len(self._kept), self._events

    def _unkeep(self, game_id: int) -> None:
        kept = self._kept.pop(game_id, None)
        if kept is None:
            return
        self._events -= kept.shown.events
        scope = kept.shown.scope
        if self._newest.get(scope) == game_id:
            del self._newest[scope]
            left = [g for g, k in self._kept.items() if k.shown.scope == scope]
            if left:
                self._newest[scope] = max(left)

    def _trim(self) -> None:
        """Let the least recently read go while past a bound (the newest always stays)."""
        now = self._clock()
        while len(self._kept) > 1 and (
            len(self._kept) > self.kept_limit
            or self._events > self.kept_events
            or now - next(iter(self._kept.values())).read > self.kept_seconds
        ):
            self._unkeep(next(iter(self._kept)))
