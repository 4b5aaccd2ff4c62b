"""The one place where a game changes: what the Discord bot and the offline console share.

Every action goes the same way: take the game's lock, load the game (from the cache, or the
database), run the engine, save its events, and return them. Front ends only translate input
into :mod:`bot.engine.actions` and render the :class:`Outcome`.

* Games are found by *scope*, an opaque string: Discord uses ``"{guild}:{channel}"``, the
  console ``"console:{name}"``. A scope has at most one game in progress; once that game ends
  the scope is free, and its log can still be exported until it expires.
* An action may carry the version (number of actions) the player saw; if the game has moved on
  since, it is refused with :class:`~bot.errors.StaleActionError` saying what changed.
* A refused action changes nothing, in the database or in memory. An action is acknowledged
  (this returns) only once its events are committed.
* Each game plays with the snapshot of the ruleset it started with (see
  :mod:`bot.tables.snapshot`): editing a table never changes a game in flight.
* Several processes may share one database (PostgreSQL). A game cached here may have moved on
  in another: the store's version check refuses the save (ConflictError), or the engine refuses
  the action on the old copy (checked against the stored version), and the action is tried
  again on the game as reloaded, up to :data:`TRIES` times in all; a conflict on the last try
  tells the player to try again (and nothing was applied).
  An action carries the id of the interaction that asked for it. During a shard hand-over
  Discord delivers each interaction to both processes holding the shard: the first to
  :meth:`~GameService.claim` it carries it out (applied or refused) and answers; the other
  gets ClaimedError and does nothing, so it neither applies it again nor tells the player
  something else (such as "try again" while the first is still saving it). Behind that, the
  interaction's key in the store applies it at most once: DuplicateActionError, also when it
  would otherwise refuse because of the first (the roll is made already).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from bot.changes import what_changed
from bot.engine.actions import Action
from bot.engine.errors import ChaosError
from bot.engine.game import Game
from bot.engine.house import HouseRules, leaves_nothing
from bot.engine.model import Deck, RollTable, Ruleset
from bot.errors import (
    ClaimedError,
    ConflictError,
    DuplicateActionError,
    GameExistsError,
    NoGameError,
    SettingsError,
    StaleActionError,
    StoreError,
)
from bot.guildservice import GuildService
from bot.locks import KeyedLocks
from bot.published import Outcome, Published, Shelf
from bot.reading import GameReading
from bot.store import (
    BoardRecord,
    GameRecord,
    GuildSettings,
    Store,
    StoredGame,
)
from bot.tables import LoadedRuleset, find_ruleset, load_bundled
from bot.tables.snapshot import Snapshot, SnapshotFile, freeze, load_snapshot, read_texts
from bot.tables.uploads import with_uploads

__all__ = [
    "ClaimedError",
    "ConflictError",
    "DuplicateActionError",
    "GameExistsError",
    "GameService",
    "GuildSettings",
    "NoGameError",
    "Outcome",
    "StaleActionError",
]

log = logging.getLogger(__name__)

DAY = 86_400.0
SNAPSHOT_CACHE = 16  # rulesets by snapshot: a handful of revisions are in play at any time
# Tries of an action another process keeps moving the game under: during a shard hand-over
# each of two processes applies half of a burst to the same game, and one may save between
# the other's reload and save, again and again (a try costs one reload). Before claims, both
# processes tried each interaction twice; the one that claims it now tries as often alone.
TRIES = 4
CLAIMS_REMEMBERED = 1024  # interactions claimed here: far more than are ever in flight at once

# Told of every change committed through this service: (scope, game id, version).
Listener = Callable[[str, int, int], None]


def random_seed() -> int:
    """A fresh seed for a game's dice, from the system's randomness.

    128 bits: every roll follows from the seed, so it must be out of reach of a player who
    tries every seed against the dice they have seen (2**32 tries would be an afternoon's
    work). It stays a plain integer in the log.
    """
    return secrets.randbits(128)


def random_salt() -> str:
    """A fresh salt for the commitment to a game's seed (:mod:`bot.engine.fairness`): 128 bits
    in hex. A host may name a seed from a small range; the salt keeps the commitment from
    giving it away to whoever tries every number."""
    return secrets.token_hex(16)


@dataclass(frozen=True)
class _Ask:
    """An action asked for in a scope, with what :meth:`GameService.act` was given to check it
    against (the version and game the player saw, the interaction that asked): one value for
    each of its tries to carry out, the same both times."""

    scope: str
    action: Action
    version: int | None
    game_id: int | None
    interaction: str | None
    meanwhile: Callable[[Outcome], None] | None = None


@dataclass
class _Loaded:
    """A game in memory: its row as last saved, the engine's game, and its ruleset."""

    record: GameRecord
    game: Game
    ruleset: LoadedRuleset


class GameService(GuildService, GameReading):
    """Games, their rules and the guilds' settings, over a :class:`~bot.store.Store`.

    `rulesets` finds a ruleset by id (the bundled ones by default), `seeds` gives new games their
    seed and `salts` the salt of their commitment to it, `clock` tells the time (Unix seconds);
    tests replace them. At most `cache_size` games stay in memory (the least recently used go
    first and are reloaded from the database when needed). Games untouched for `idle_days` are
    deleted by :meth:`expire_idle`.

    Looking at a game never waits for its lock: after each committed change the game is
    published, and readers take the newest version published (:mod:`bot.reading`).
    """

    def __init__(
        self,
        store: Store,
        *,
        rulesets: Callable[[str], LoadedRuleset] = find_ruleset,
        every_ruleset: Callable[[], Mapping[str, LoadedRuleset]] = load_bundled,
        seeds: Callable[[], int] = random_seed,
        salts: Callable[[], str] = random_salt,
        clock: Callable[[], float] = time.time,
        cache_size: int = 256,
        idle_days: int = 30,
    ) -> None:
        self.store = store
        self._rulesets = rulesets
        self._every_ruleset = every_ruleset
        self._seeds = seeds
        self._salts = salts
        self._clock = clock
        self.cache_size = cache_size
        self.idle_days = idle_days
        self._cache: OrderedDict[str, _Loaded] = OrderedDict()
        self._frozen: OrderedDict[str, tuple[Snapshot, LoadedRuleset]] = OrderedDict()
        self._locks = KeyedLocks()
        self._settings: dict[str, GuildSettings] = {}
        self._boards: dict[str, BoardRecord | None] = {}
        self._claimed: OrderedDict[str, None] = OrderedDict()
        self._listeners: list[Listener] = []
        self._shelf = Shelf()
        self._reading: dict[tuple[str, str | int], asyncio.Future[Published | None]] = {}

    # -- listeners ---------------------------------------------------------------------------

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Have `listener(scope, game_id, version)` called after each change this service
        commits (a game started, an action saved), once that version is published; returns
        what stops it. The live pages listen, so a page shows an action as soon as it is
        saved. A listener must be quick and not raise: it runs before the action's answer
        goes out."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _changed(self, loaded: _Loaded) -> None:
        """A change to `loaded` was committed: publish the game as it now stands for the
        readers, then tell the listeners."""
        self._publish(loaded)
        scope, game_id, version = loaded.record.scope, loaded.record.id, loaded.record.version
        for listener in list(self._listeners):
            try:
                listener(scope, game_id, version)
            except Exception:  # a page's trouble is no reason to fail the player's action
                log.exception("a listener failed on %s version %d", scope, version)

    # -- interactions ------------------------------------------------------------------------

    async def claim(self, interaction: str | int) -> None:
        """Claim an interaction for this process, or raise ClaimedError if another process
        claimed it first: that one carries it out and answers, and this one must do nothing,
        not even refuse (see the module's notes). The front end claims before it looks at the
        game; :meth:`start` and :meth:`act` claim again, which costs nothing once claimed
        here. Only PostgreSQL stores claims (a SQLite file has one process)."""
        said = str(interaction)
        if said in self._claimed:
            self._claimed.move_to_end(said)
            return
        if not await self.store.claim(said):
            raise ClaimedError(ClaimedError.SAID)
        self._claimed[said] = None
        while len(self._claimed) > CLAIMS_REMEMBERED:
            self._claimed.popitem(last=False)

    # -- games -----------------------------------------------------------------------------

    async def start(
        self,
        scope: str,
        ruleset: str,
        *,
        host: str,
        host_name: str,
        seed: int | None = None,
        salt: str | None = None,
        life: int | None = None,
        guild: str | None = None,
        tables: Sequence[str] = (),
        interaction: str | int | None = None,
        house: HouseRules | None = None,
    ) -> Outcome:
        """Open a new game's lobby in `scope`, hosted (and joined) by `host`.

        `seed` and `salt` are drawn afresh unless given (a given salt is for a console whose
        whole game repeats from its seed). `tables` names tables the guild uploaded, played in
        place of the ruleset's tables with the same ids (or beside them). The game keeps
        `house`, the house rules (by default the guild's, as its settings have them now).
        `interaction` is the id of the Discord interaction that asked (see the module's notes).
        Raises GameExistsError if a game is in progress there, NoTableError for an upload the guild
        doesn't have, and the tables' errors if the ruleset is unknown or its files (uploads
        included) don't load together. ClaimedError if another process has the interaction.
        """
        said = None if interaction is None else str(interaction)
        if said is not None:
            await self.claim(said)
        async with self._locks.hold(scope):
            existing = await self._active(scope)
            if existing is not None:
                host_player = existing.game.state.players.get(existing.game.state.host)
                by = f", hosted by {host_player.name}" if host_player else ""
                exists = GameExistsError(
                    f"There's already a {existing.record.ruleset} game in progress here{by};"
                    " it has to end before a new one can start."
                )
                if await self._applied_elsewhere(said, exists):  # this very start, elsewhere
                    raise DuplicateActionError(DuplicateActionError.SAID)
                raise exists
            if house is None:
                house = (await self.settings(guild)).house if guild else HouseRules()
            uploads = await self._uploads(guild, tables)
            snapshot, loaded = await self._freeze(self._rulesets(ruleset), uploads)
            _check_house(house, loaded.ruleset, uploads)
            game = Game.start(
                loaded.ruleset,
                seed=self._seeds() if seed is None else seed,
                host=host,
                name=host_name,
                life=life,
                salt=self._salts() if salt is None else salt,
                tables=snapshot.hash,
                house=house,
            )
            record = await self.store.create_game(
                scope=scope,
                guild=guild,
                snapshot=snapshot,
                events=game.events,
                now=self._clock(),
                interaction=said,
            )
            started = _Loaded(record, game, loaded)
            self._remember(started)
            self._changed(started)
            log.info("game %d started in %s (%s)", record.id, scope, snapshot.hash[:12])
            return Outcome(record.id, scope, list(game.events), game, record.version)

    async def act(
        self,
        scope: str,
        action: Action,
        *,
        version: int | None = None,
        game_id: int | None = None,
        interaction: str | int | None = None,
        meanwhile: Callable[[Outcome], None] | None = None,
    ) -> Outcome:
        """Carry out `action` in the game in progress in `scope`; returns once it is saved.

        Raises NoGameError if there is none, StaleActionError if `version` (or `game_id`) is
        given and the game has moved on since (or is another game: a button left over from an
        earlier game in the same channel), and the engine's ChaosError if the action isn't
        allowed. In every one of these cases nothing changes. `interaction` is the id of the
        Discord interaction that asked: ClaimedError if another process has it,
        DuplicateActionError if it was applied already. ConflictError if another process
        changed the game while this one saved, on each of :data:`TRIES` tries (then the action
        was not applied, and no other process has it to apply).

        `meanwhile` is given the outcome while its save commits, to draw the answer meanwhile
        (see :mod:`bot.store.writer`). It may be called once for each try, or not at all; the
        outcome returned is the one given to its last call if its ``events`` are that very
        list, and the game isn't changed between the two.
        """
        said = None if interaction is None else str(interaction)
        if said is not None:
            await self.claim(said)
        ask = _Ask(scope, action, version, game_id, said, meanwhile)
        async with self._locks.hold(scope):
            try:
                return await self._act_tries(ask)
            except (ChaosError, ConflictError) as refused:
                if await self._applied_elsewhere(said, refused):
                    raise DuplicateActionError(DuplicateActionError.SAID) from None
                raise

    async def _act_tries(self, ask: _Ask) -> Outcome:
        """:meth:`_act`, and again on the game as stored while another process moved it (at
        most :data:`TRIES` tries): the save found it moved (a conflict), or the engine refused
        the action on the copy kept here, which another process has since moved (during a
        shard hand-over both processes apply actions to the same games, so the copy of each
        can fall behind)."""
        for _ in range(TRIES - 1):
            try:
                return await self._act(ask)
            except ConflictError:
                log.info("%s changed in another process; reloaded to try again", ask.scope)
            except ChaosError as refused:
                if isinstance(refused, DuplicateActionError) or not await self._fell_behind(
                    ask.scope
                ):
                    raise
                log.info("%s: refused on a copy another process had moved; reloaded", ask.scope)
        try:
            return await self._act(ask)
        except ConflictError:
            raise ConflictError(ConflictError.RETRY) from None

    async def _fell_behind(self, scope: str) -> bool:
        """Whether the copy of the game kept here is behind the stored one (then it is
        forgotten, to be loaded again). One lookup, made only on a refusal."""
        kept = self._cache.get(scope)
        if kept is None:
            return False  # loaded from the database for this very try
        try:
            stored = await self.store.version(kept.record.id)
        except StoreError:
            return False
        if stored == kept.record.version:
            return False
        self._forget(scope)
        return True

    async def _applied_elsewhere(self, interaction: str | None, refused: Exception) -> bool:
        """Whether an action refused here (by the engine, or by a last conflict) was in fact
        applied by another process that received the same interaction, as both do during a
        shard hand-over. There the other process's change is exactly why this one refuses
        ("already rolled", "the game changed, try again"), and whichever answer reaches
        Discord first is the one the player reads: it must not tell them to try again what
        was done (a second try would be applied). One lookup, made only on a refusal.

        Not for the database's own failures: a save that failed after it was sent was looked
        up by the store already (:mod:`bot.store.doubt`), and what it says ("not saved", or
        "can't tell yet") is this process's own action's fate, which must be told, never left
        to a silence meant for another process's answer."""
        if interaction is None or isinstance(refused, DuplicateActionError):
            return False
        if isinstance(refused, StoreError) and not isinstance(refused, ConflictError):
            return False
        try:
            return await self.store.applied(interaction)
        except StoreError:
            return False  # the refusal stands: true as far as this process can tell

    async def _act(self, ask: _Ask) -> Outcome:
        """One try of :meth:`act` (under the scope's lock). Whatever fails to save leaves
        the cache without this game, so the next try loads it from the database afresh."""
        scope = ask.scope
        loaded = await self._active(scope)
        if loaded is None:
            raise NoGameError("There's no game in progress here.")
        game = loaded.game
        if ask.game_id is not None and ask.game_id != loaded.record.id:
            raise StaleActionError("That belongs to an earlier game; this is a new one.")
        if ask.version is not None and ask.version != game.seq:
            raise StaleActionError(what_changed(game, ask.version))
        first = len(game.events)
        try:
            events = game.act(ask.action)
        except ChaosError:
            if len(game.events) != first:  # pragma: no cover - the engine promises this
                self._forget(scope)
            raise
        except BaseException:
            self._forget(scope)
            raise
        meanwhile = None
        if ask.meanwhile is not None:
            # Under the scope's lock until the save is answered: nothing changes the game.
            meanwhile = partial(
                ask.meanwhile, Outcome(loaded.record.id, scope, events, game, game.seq)
            )
        try:
            record = await self.store.append_events(
                loaded.record,
                events,
                first=first,
                now=self._clock(),
                interaction=ask.interaction,
                meanwhile=meanwhile,
            )
        except BaseException:
            # The game in memory is ahead of the database (or behind another process's
            # save): load it again next time.
            self._forget(scope)
            raise
        loaded.record = record
        if record.active:
            self._remember(loaded)
        else:
            self._forget(scope)
        self._changed(loaded)
        log.debug("%s: %s -> version %d", scope, ask.action.name, record.version)
        return Outcome(record.id, scope, events, game, record.version)

    def ruleset(self, name: str) -> LoadedRuleset:
        """The ruleset a game started here with `name` would play (before any uploads)."""
        return self._rulesets(name)

    async def expire_idle(self) -> int:
        """Delete the games nobody has touched for `idle_days` days; returns how many."""
        gone = await self.store.expire(self._clock() - self.idle_days * DAY)
        for record in gone:
            cached = self._cache.get(record.scope)
            if cached is not None and cached.record.id == record.id:
                self._forget(record.scope)
        self._shelf.drop(record.id for record in gone)
        if gone:
            log.info("expired %d idle games", len(gone))
        return len(gone)

    @property
    def cached_games(self) -> int:
        """How many games are in memory (the health line reports it)."""
        return len(self._cache)

    def forget_guild(self, guild: str) -> int:
        """Drop everything cached about one guild's games, boards and settings: the process no
        longer holds the guild (the bot left it, or its shard went to another process), and
        whichever process holds it now may change them. Returns how many games were dropped."""
        prefix = f"{guild}:"
        games = [scope for scope in self._cache if scope.startswith(prefix)]
        for scope in games:
            self._forget(scope)
        self._shelf.drop_scopes(prefix)
        for scope in [s for s in self._boards if s.startswith(prefix)]:
            del self._boards[scope]
        self._settings.pop(guild, None)
        return len(games)

    async def close(self) -> None:
        """Forget every cached game and close the store."""
        self._cache.clear()
        self._frozen.clear()
        self._shelf.clear()
        await self.store.close()

    # -- loading and caching ---------------------------------------------------------------

    async def _active(self, scope: str) -> _Loaded | None:
        """The game in progress in `scope`, from the cache or the database (call under its lock)."""
        cached = self._cache.get(scope)
        if cached is not None:
            self._cache.move_to_end(scope)
            return cached
        stored = await self.store.active_game(scope)
        if stored is None:
            return None
        loaded = await self._load(stored)
        self._remember(loaded)
        self._publish(loaded)
        return loaded

    async def _load(self, stored: StoredGame) -> _Loaded:
        record = stored.record
        frozen = self._frozen.get(record.snapshot)
        if frozen is None:
            snapshot = await self.store.snapshot(record.snapshot)
            # Parsing and checking a ruleset's files takes tens of milliseconds: on a thread.
            frozen = (snapshot, await asyncio.to_thread(load_snapshot, snapshot))
            self._keep_frozen(frozen)
        else:
            self._frozen.move_to_end(record.snapshot)
        # Folding a long log takes a moment: on a thread, as the game is nobody else's yet.
        game = await asyncio.to_thread(Game, frozen[1].ruleset, stored.events)
        if game.seq != record.version:
            raise StoreError(
                f"game {record.id} is damaged: its log has {game.seq} actions, not {record.version}"
            )
        return _Loaded(record, game, frozen[1])

    async def _freeze(
        self, loaded: LoadedRuleset, uploads: Mapping[str, str] | None = None
    ) -> tuple[Snapshot, LoadedRuleset]:
        """The snapshot of a ruleset's files as they are now (with a guild's uploads in place),
        and the ruleset built from it. Reading the files, and parsing and checking them (tens
        of milliseconds, more with large uploads) happen on a thread, off the event loop."""
        texts = await asyncio.to_thread(
            lambda: with_uploads(loaded, uploads) if uploads else read_texts(loaded)
        )
        probe = Snapshot(loaded.id, tuple(SnapshotFile(n, t) for n, t in texts.items()))
        frozen = self._frozen.get(probe.hash)
        if frozen is None:
            frozen = await asyncio.to_thread(freeze, texts, loaded.folder)
            self._keep_frozen(frozen)
        return frozen

    def _keep_frozen(self, frozen: tuple[Snapshot, LoadedRuleset]) -> None:
        self._frozen[frozen[0].hash] = frozen
        self._frozen.move_to_end(frozen[0].hash)
        while len(self._frozen) > SNAPSHOT_CACHE:
            self._frozen.popitem(last=False)

    def _remember(self, loaded: _Loaded) -> None:
        scope = loaded.record.scope
        if self.cache_size <= 0:
            return
        self._cache[scope] = loaded
        self._cache.move_to_end(scope)
        while len(self._cache) > self.cache_size:
            self._shelf.retire(self._cache.popitem(last=False)[0])

    def _forget(self, scope: str) -> None:
        """Drop the scope's game from memory: it may be behind the database, or ahead of it
        (a save that failed may yet have committed), so its published version goes too and
        readers ask the database. (A game that ended is published again at once.)"""
        self._cache.pop(scope, None)
        self._shelf.unpublish(scope)

    # -- publishing (see bot.reading) ----------------------------------------------------------

    def _publish(self, loaded: _Loaded) -> None:
        """Publish the game as `loaded` holds it (committed): live while this service keeps
        it to play, else kept among the others."""
        shown = Published(loaded.record, loaded.game.copy(), loaded.ruleset)
        if self._cache.get(loaded.record.scope) is loaded:
            self._shelf.live(shown)
        else:
            self._shelf.keep(shown)

    async def _fold(self, stored: StoredGame) -> Published:
        """A game a reader read from the database, folded and kept on the shelf. A game in
        progress that nobody here plays right now (not cached, its lock free) is taken into
        the cache as well, as the game to play: the look a front end takes before an action
        loads it once for both."""
        loaded = await self._load(stored)
        record = loaded.record
        scope = record.scope
        shown = Published(record, loaded.game, loaded.ruleset)
        if (
            record.active
            and scope not in self._cache
            and not self._locks.busy(scope)
            and shown.newer_than(self._shelf.scope(scope))
        ):
            self._remember(loaded)
            if self._cache.get(scope) is loaded:
                shown = Published(record, loaded.game.copy(), loaded.ruleset)
                self._shelf.live(shown)
                return shown
        return self._shelf.keep(shown)


def _check_house(house: HouseRules, ruleset: Ruleset, uploads: Mapping[str, str]) -> None:
    """Refuse to start a game whose house rules leave one of its lists nothing to roll or a
    deck no card: the house commands refuse such a rule, but a table uploaded after it was set,
    or a ruleset other than the one it was checked against, could still meet it."""
    tables: list[RollTable | Deck] = [*ruleset.tables.values(), *ruleset.decks.values()]
    for table in house.emptied(tables):
        left = leaves_nothing(table, uploaded=table.id in uploads)
        raise SettingsError(
            f"The house rules would leave {left}. Start the game without it, or change the"
            " house rules (`house include`, `house allow`)."
        )
