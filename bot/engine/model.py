"""What a ruleset is made of: roll tables, decks, entries, durations and policies.

Everything here is frozen data. The YAML loader builds these objects; the engine only reads them.
A table author can read this module as the list of things an entry may do.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeAlias

from bot.engine.dice import Dice, DiceExpr
from bot.engine.errors import TableError, UnknownTableError
from bot.engine.lifegain import LifeGain

TableId: TypeAlias = str
EntryId: TypeAlias = str
PlayerId: TypeAlias = str


class Kind(StrEnum):
    """What an entry does when it comes up."""

    EFFECT = "effect"  # players do what the text says
    CARD = "card"  # the effect of a real Magic card, named in `card`
    LINK = "link"  # roll once on another list
    MULTI = "multi"  # several rolls (see MultiRoll)
    TOKEN = "token"  # the roller gets tokens (CounterRoll, RollFork)
    WORLD = "world"  # stays in play as a world enchantment, alongside any others
    GLOBAL = "global"  # becomes the one Global, replacing the current one


class Token(StrEnum):
    """Tokens a player can hold and spend on the most recent roll."""

    COUNTER = "counter_roll"
    FORK = "roll_fork"

    @property
    def label(self) -> str:
        """The name players use."""
        return "CounterRoll" if self is Token.COUNTER else "RollFork"


class TurnChange(StrEnum):
    """A change to the turn order that an entry makes for its roller."""

    REVERSE = "reverse"  # play continues in the other direction
    EXTRA = "extra"  # the roller takes another turn after this one
    SKIP = "skip"  # the roller skips their next turn
    AWAY = "away"  # the roller leaves the game until their next turn


class Lasts(StrEnum):
    """How long an effect stays."""

    END_OF_TURN = "end_of_turn"
    NEXT_TURN = "next_turn"  # until the start of its owner's next turn, extra turns included
    TURNS = "turns"  # for a number of turns, counting the one it started in
    PERMANENT = "permanent"
    UNTIL_REMOVED = "until_removed"


@dataclass(frozen=True, slots=True)
class Duration:
    """How long an effect lasts; `turns` is used only with ``Lasts.TURNS``."""

    lasts: Lasts
    turns: int = 0

    def __post_init__(self) -> None:
        if self.lasts is Lasts.TURNS and self.turns < 1:
            raise TableError(
                f"an effect lasting a number of turns needs at least 1, got {self.turns}"
            )

    def describe(self) -> str:
        """The duration in words, as the status board shows it."""
        match self.lasts:
            case Lasts.END_OF_TURN:
                return "until end of turn"
            case Lasts.NEXT_TURN:
                return "until its owner's next turn"
            case Lasts.TURNS:
                return f"for {self.turns} turn{'s' if self.turns != 1 else ''}"
            case Lasts.PERMANENT:
                return "for the rest of the game"
            case Lasts.UNTIL_REMOVED:
                return "until removed"


class MultiMode(StrEnum):
    """The shapes a multi-roll comes in."""

    TIMES = "times"  # roll N times on one list
    KEEP = "keep"  # roll N times, the roller keeps one and the others are discarded
    EACH = "each"  # roll once on each of several lists, in order


@dataclass(frozen=True, slots=True)
class MultiRoll:
    """Several rolls demanded by one entry.

    `tables` names the list(s) to roll on; for TIMES and KEEP an empty tuple means the list the
    entry itself is on. `times` may be dice ("1d3 times").
    """

    mode: MultiMode
    times: DiceExpr
    tables: tuple[TableId, ...] = ()

    def demands_several(self) -> bool:
        """True when this can ask for more than one roll: the classic nesting rule applies."""
        if self.mode is MultiMode.EACH:
            return len(self.tables) > 1
        return self.times.bounds()[1] > 1


@dataclass(frozen=True, slots=True)
class Offer:
    """A roll a result offers its roller, who may take it once this turn, or let it lapse.

    One list, or several for "one of": taking one withdraws the others.
    """

    tables: tuple[TableId, ...]

    @property
    def one_of(self) -> bool:
        return len(self.tables) > 1


@dataclass(frozen=True, slots=True)
class Entry:
    """One result on a table, or one chaos card.

    `text` may hold inline dice such as ``{1d6+1}``; they are rolled when the entry comes up.
    """

    id: EntryId
    name: str
    text: str = ""
    kind: Kind = Kind.EFFECT
    card: str | None = None
    x: DiceExpr | None = None
    link: TableId | None = None
    multi: MultiRoll | None = None
    token: Token | None = None
    count: int = 1
    duration: Duration | None = None
    gains_life: bool = False
    life: LifeGain | None = None  # how much; gaining life with none is asked about in a spite
    removes: tuple[str, ...] = ()  # what it takes out of play: worlds, globals, effects or names
    next_list: TableId | None = None
    turn: TurnChange | None = None
    offers: tuple[Offer, ...] = ()
    halves: tuple[Entry, ...] = ()

    def __post_init__(self) -> None:
        needs = {
            Kind.CARD: self.card,
            Kind.LINK: self.link,
            Kind.MULTI: self.multi,
            Kind.TOKEN: self.token,
        }
        if self.kind in needs and needs[self.kind] is None:
            raise TableError(f"entry {self.id!r} is a {self.kind} entry but doesn't say which")
        if self.life is not None and not self.gains_life:
            raise TableError(f"entry {self.id!r} gives life, so it must be marked as gaining life")
        if self.life is not None and self.life.x and self.x is None:
            raise TableError(f"entry {self.id!r} gains X life but has no X")
        if self.halves and len(self.halves) != 2:
            raise TableError(f"split card {self.id!r} must have exactly two halves")

    @property
    def demands_several(self) -> bool:
        """True for an entry that asks for more than one roll (the classic nesting rule)."""
        return self.multi is not None and self.multi.demands_several()

    @property
    def life_gain(self) -> LifeGain | None:
        """The life it gives, if it gains life; an amount the table doesn't give is asked."""
        return (self.life or LifeGain()) if self.gains_life else None

    @property
    def is_meta(self) -> bool:
        """True for an entry about the rolls themselves: links, multi-rolls, tokens, list moves."""
        return self.kind in _META_KINDS or self.next_list is not None


_META_KINDS = frozenset({Kind.LINK, Kind.MULTI, Kind.TOKEN})


@dataclass(frozen=True, slots=True)
class Band:
    """The results `low`..`high` (inclusive) all give `entry`."""

    low: int
    high: int
    entry: Entry

    @property
    def label(self) -> str:
        """How the band is printed: "17" or "2-3"."""
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


@dataclass(frozen=True)
class RollTable:
    """A list rolled with dice; every number the dice can make maps to exactly one entry."""

    id: TableId
    name: str
    dice: Dice
    bands: tuple[Band, ...]
    directions: str = ""
    revision: str = ""
    _lookup: dict[int, Entry] = field(init=False, repr=False, compare=False)
    _bands: dict[int, Band] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        lookup: dict[int, Entry] = {}
        owner: dict[int, Band] = {}
        for band in self.bands:
            if band.low > band.high:
                raise TableError(f"table {self.id!r}: band {band.label} runs backwards")
            for n in range(band.low, band.high + 1):
                if n in owner:
                    raise TableError(
                        f"table {self.id!r}: {n} is in both {owner[n].label} and {band.label}"
                    )
                owner[n] = band
                lookup[n] = band.entry
        possible = set(self.dice.outcomes())
        missing = sorted(possible - lookup.keys())
        if missing:
            raise TableError(
                f"table {self.id!r}: {self.dice.notation} can roll {_ranges(missing)}"
                " but no entry covers it"
            )
        extra = sorted(lookup.keys() - possible)
        if extra:
            raise TableError(
                f"table {self.id!r}: entries for {_ranges(extra)} can never come up on"
                f" {self.dice.notation}"
            )
        object.__setattr__(self, "_lookup", lookup)
        object.__setattr__(self, "_bands", owner)

    def lookup(self, result: int) -> Entry:
        """The entry for a result the table's dice produced."""
        return self._lookup[result]

    def band(self, result: int) -> Band | None:
        """The band a result falls in (None for a number the table doesn't have)."""
        return self._bands.get(result)

    @property
    def entries(self) -> tuple[Entry, ...]:
        """Every entry, in band order."""
        return tuple(band.entry for band in self.bands)


@dataclass(frozen=True, slots=True)
class DeckCard:
    """A chaos or global card and how many copies the deck holds."""

    entry: Entry
    copies: int = 1


@dataclass(frozen=True)
class Deck:
    """A deck of cards drawn without replacement."""

    id: TableId
    name: str
    cards: tuple[DeckCard, ...]
    revision: str = ""
    _by_id: dict[EntryId, Entry] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_id: dict[EntryId, Entry] = {}
        for card in self.cards:
            if card.entry.id in by_id:
                raise TableError(f"deck {self.id!r}: card {card.entry.id!r} is listed twice")
            if card.copies < 1:
                raise TableError(f"deck {self.id!r}: card {card.entry.id!r} needs a copy or more")
            by_id[card.entry.id] = card.entry
        if not by_id:
            raise TableError(f"deck {self.id!r} has no cards")
        object.__setattr__(self, "_by_id", by_id)

    def card(self, card_id: EntryId) -> Entry:
        """The card with this id."""
        return self._by_id[card_id]

    def fresh_order(self) -> list[EntryId]:
        """Every copy of every card, in listed order (shuffle it before use)."""
        return [card.entry.id for card in self.cards for _ in range(card.copies)]


class ChaosSource(StrEnum):
    """Where a turn's chaos comes from."""

    TABLE = "table"  # one fixed list (classic)
    PROGRESSION = "progression"  # the current list of a series, A to F (lists)
    DECK = "deck"  # the top card of the Chaos deck (deck)


class StartRoll(StrEnum):
    """What happens once seats are locked."""

    NONE = "none"
    WORLD = "world"  # the first player rolls a world enchantment
    GLOBAL = "global"  # the first player rolls the Global
    GLOBAL_DECK = "global_deck"  # the Global deck's top card comes into play


class Nesting(StrEnum):
    """How a multi-roll that comes up inside another multi-roll is treated."""

    IGNORE_NESTED = "ignore_nested"  # ignored and re-rolled unless on the last pending roll
    SEQUENTIAL = "sequential"  # every roll is resolved in turn, no ignore rule


class SpitePolicy(StrEnum):
    """What happens when a player would lose."""

    NONE = "none"
    LIFE_GAIN_ROLL = "life_gain_roll"  # life set to 0, one roll where only life gain counts
    SPITE_TABLE = "spite_table"  # the loser rolls on a Spite list if two or more opponents remain
    DECK_LOOK = "deck_look"  # once a game: look at the top chaos cards and play one


class ZonePolicy(StrEnum):
    """The shared zone a ruleset has, if any."""

    NONE = "none"
    MIDDLE_WORLD = "middle_world"  # a limited number of plays from it per player per turn
    MIDDLE = "middle"  # cards may be played once they've been there since the turn began


@dataclass(frozen=True, slots=True)
class Budget:
    """Limits on one resolution: total rolls and nesting depth."""

    rolls: int = 60
    depth: int = 10

    def __post_init__(self) -> None:
        if not 1 <= self.rolls <= 10_000 or not 1 <= self.depth <= 100:
            raise TableError("a roll budget needs 1-10000 rolls and a depth of 1-100")


@dataclass(frozen=True)
class Ruleset:
    """A way to play: which lists and decks, and which policy for each rule that differs."""

    id: str
    name: str
    chaos: ChaosSource
    chaos_table: TableId | None = None
    lists: tuple[TableId, ...] = ()
    start: StartRoll = StartRoll.NONE
    start_table: TableId | None = None
    nesting: Nesting = Nesting.SEQUENTIAL
    spite: SpitePolicy = SpitePolicy.NONE
    spite_table: TableId | None = None
    spite_look: int = 7
    zone: ZonePolicy = ZonePolicy.NONE
    zone_plays: int = 1
    tokens: bool = False
    budget: Budget = Budget()
    life: int | None = None
    tables: Mapping[TableId, RollTable] = field(default_factory=dict)
    decks: Mapping[TableId, Deck] = field(default_factory=dict)
    revision: str = ""

    def __post_init__(self) -> None:
        if self.chaos is ChaosSource.PROGRESSION and not self.lists:
            raise TableError(f"ruleset {self.id!r} moves between lists but names none")
        if self.chaos is ChaosSource.DECK:
            self.deck(self.chaos_table)
        elif self.chaos is ChaosSource.TABLE:
            self.table(self.chaos_table)
        for table_id in self.lists:
            self.table(table_id)
        if self.start is StartRoll.GLOBAL_DECK:
            self.deck(self.start_table)
        elif self.start is not StartRoll.NONE:
            self.table(self.start_table)
        if self.spite in (SpitePolicy.SPITE_TABLE, SpitePolicy.LIFE_GAIN_ROLL):
            self.table(self.spite_table)
        if self.spite is SpitePolicy.DECK_LOOK and self.chaos is not ChaosSource.DECK:
            raise TableError(f"ruleset {self.id!r}: a spite look needs a chaos deck")

    def table(self, table_id: TableId | None) -> RollTable:
        """The list with this id; raises UnknownTableError naming the lists there are."""
        if table_id is not None and table_id in self.tables:
            return self.tables[table_id]
        known = ", ".join(sorted(self.tables)) or "none"
        raise UnknownTableError(f"there is no list {table_id!r} (lists: {known})")

    def deck(self, deck_id: TableId | None) -> Deck:
        """The deck with this id; raises UnknownTableError naming the decks there are."""
        if deck_id is not None and deck_id in self.decks:
            return self.decks[deck_id]
        known = ", ".join(sorted(self.decks)) or "none"
        raise UnknownTableError(f"there is no deck {deck_id!r} (decks: {known})")

    def is_chaos_list(self, table_id: TableId) -> bool:
        """True for the list(s) whose roll is the turn's mandatory chaos roll."""
        if self.chaos is ChaosSource.PROGRESSION:
            return table_id in self.lists
        return table_id == self.chaos_table


def _ranges(numbers: list[int]) -> str:
    """Sorted numbers as "1-3, 7" for messages."""
    parts: list[str] = []
    start = prev = numbers[0]
    for n in numbers[1:]:
        if n != prev + 1:
            parts.append(str(start) if start == prev else f"{start}-{prev}")
            start = n
        prev = n
    parts.append(str(start) if start == prev else f"{start}-{prev}")
    return ", ".join(parts)
