"""Where entries sit: roll tables, whose bands cover every number their dice can make, and decks
of cards drawn without replacement.

Everything here is frozen data, built by the YAML loader and only read by the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.engine.dice import Dice
from bot.engine.entries import Entry, EntryId, TableId
from bot.engine.errors import TableError


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
