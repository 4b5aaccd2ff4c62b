"""What a ruleset is made of: roll tables, decks, entries, durations and policies.

Everything here is frozen data. The YAML loader builds these objects; the engine only reads them.
Entries and what they may do are in :mod:`bot.engine.entries`, roll tables and decks in
:mod:`bot.engine.tables`; this module holds the ruleset and its policies, and re-exports the rest.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeAlias

from bot.engine.entries import (
    Duration,
    Entry,
    EntryId,
    Kind,
    Lasts,
    MultiMode,
    MultiRoll,
    Offer,
    OfferTo,
    TableId,
    Token,
    TurnChange,
)
from bot.engine.errors import TableError, UnknownTableError
from bot.engine.tables import Band, Deck, DeckCard, RollTable

__all__ = [
    "Band",
    "Budget",
    "ChaosSource",
    "Deck",
    "DeckCard",
    "Duration",
    "Entry",
    "EntryId",
    "Kind",
    "Lasts",
    "MultiMode",
    "MultiRoll",
    "Nesting",
    "Offer",
    "OfferTo",
    "PlayerId",
    "RollTable",
    "Ruleset",
    "SpitePolicy",
    "StartRoll",
    "TableId",
    "Token",
    "TurnChange",
    "ZonePolicy",
]

PlayerId: TypeAlias = str


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
