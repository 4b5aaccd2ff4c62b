"""A ranked search over the entries of a ruleset's lists and the cards of its decks, by name,
for `table lookup` with a name ("what does Tsunami do again?") and its autocomplete.

It reads words as the rules search does (:func:`bot.rules_search.words`: filler dropped, numbers,
stems and synonyms made equal) and scores the same way: an entry whose name is exactly what was
typed comes first, then every entry by the rare words of its name (worth more) and its text.
Pure: no I/O.
"""

from __future__ import annotations

import difflib
import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.entries import Entry, TableId
from bot.engine.model import Ruleset
from bot.rules_search import (
    LIMIT,
    MAX_TYPED_WORDS,
    TEXT_WEIGHT,
    TITLE_WEIGHT,
    Ranked,
    first_words,
    words,
)
from bot.search_index import Fields


@dataclass(frozen=True)
class Place:
    """Where an entry sits: its list (and result band) or its deck (and copies)."""

    table: TableId
    table_name: str
    label: str  # "17", "2-3" for a list; "2x" for a deck
    value: str  # what `table lookup` takes to find exactly this one: "chaos 158"
    entry: Entry

    @property
    def title(self) -> str:
        return f"{self.table_name} {self.label}: {self.entry.name}"


def places(ruleset: Ruleset, only: TableId | None = None) -> tuple[Place, ...]:
    """Every entry of every list and card of every deck (or of the one `only`)."""
    found: list[Place] = []
    for table in ruleset.tables.values():
        if only in (None, table.id):
            found += [
                Place(table.id, table.name, b.label, f"{table.id} {b.low}", b.entry)
                for b in table.bands
            ]
    for deck in ruleset.decks.values():
        if only in (None, deck.id):
            found += [
                Place(deck.id, deck.name, f"{c.copies}x", f"{deck.id} {c.entry.name}", c.entry)
                for c in deck.cards
            ]
    return tuple(found)


def _names(entry: Entry) -> tuple[str, ...]:
    return (entry.name, *(h.name for h in entry.halves))


def _text(entry: Entry) -> str:
    return " ".join([entry.text, *(f"{h.name} {h.text}" for h in entry.halves)])


class Found(Ranked[Place]):
    """What a name search found: `exact` places (the name was typed whole), then every place
    `ranked` best first with its score."""

    @property
    def answer(self) -> Place | None:
        """The one entry to show, when there's no doubt which."""
        if self.exact:
            return self.exact[0] if len({_key(p) for p in self.exact}) == 1 else None
        return self.leader()


def _key(place: Place) -> tuple[str, str, str]:
    """The same card twice in a list (two bands) is still one answer."""
    entry = place.entry
    return (place.table, entry.name, entry.text)


class EntryIndex:
    """The words of every entry's names and text, read once: what a search needs to cost what
    the words typed reach rather than every entry of the ruleset (:mod:`bot.search_index`)."""

    def __init__(self, places: Sequence[Place]) -> None:
        self.places = tuple(places)
        names = [frozenset(w for n in _names(p.entry) for w in words(n)) for p in self.places]
        texts = [frozenset(words(_text(p.entry))) for p in self.places]
        df: dict[str, int] = {}
        for in_name, in_text in zip(names, texts, strict=True):
            for word in in_name | in_text:
                df[word] = df.get(word, 0) + 1
        idf = {w: math.log(1 + len(self.places) / d) for w, d in df.items()}
        self.fields = Fields(((names, TITLE_WEIGHT), (texts, TEXT_WEIGHT)), idf)
        self._raw: dict[str, list[int]] = {}
        self._plain: dict[tuple[str, ...], list[int]] = {}
        self._by_name: dict[str, list[Place]] = {}
        for i, place in enumerate(self.places):
            for name in _names(place.entry):
                self._raw.setdefault(" ".join(name.casefold().split()), []).append(i)
                self._plain.setdefault(words(name, synonyms=False), []).append(i)
                self._by_name.setdefault(name.casefold(), []).append(place)

    def search(self, query: str, *, prefix: bool = False, max_words: int | None = None) -> Found:
        """The places whose entry is called (or is about) `query`, best first. `prefix` lets a
        word match the start of a longer one (for autocomplete, where the last word is
        unfinished). With `max_words`, only the query's first words count for the score (a
        name typed whole still comes first)."""
        return self._search(query, prefix, max_words, None)

    def _search(self, query: str, prefix: bool, max_words: int | None, limit: int | None) -> Found:
        raw = " ".join(query.casefold().split())
        plain = words(query, synonyms=False)
        exact = set(self._raw.get(raw, ()))
        if plain:
            exact.update(self._plain.get(plain, ()))
        normal = words(query) if max_words is None else first_words(query, max_words)
        parts = [self.fields.scores(w, prefix or len(w) >= 4) for w in set(normal)]
        totals = self.fields.totals(parts)
        exacts = sorted(exact, key=lambda i: (-totals.get(i, 0.0), i))
        others = ((-s, i) for i, s in totals.items() if i not in exact)
        rest = sorted(others) if limit is None else heapq.nsmallest(limit, others)
        top = max(totals.values(), default=0.0)
        found = tuple(self.places[i] for i in exacts)
        return Found(
            found,
            (*found, *(self.places[i] for _, i in rest)),
            (*(top for _ in found), *(-s for s, _ in rest)),
        )

    def complete(self, typed: str) -> list[Place]:
        """Autocomplete: the best `LIMIT` entries for what is typed (the last word may be
        unfinished; only the first :data:`MAX_TYPED_WORDS` words count), or those with names
        close to a mistyped one."""
        if not typed.strip():
            return list(self.places[:LIMIT])
        found = self._search(typed, True, MAX_TYPED_WORDS, LIMIT).ranked
        return list(found[:LIMIT] or self.suggest(typed)[:LIMIT])

    def suggest(self, query: str) -> tuple[Place, ...]:
        """The entries a mistyped `query` was probably meant for: names close to it."""
        by_name = self._by_name
        close = difflib.get_close_matches(" ".join(query.casefold().split()), list(by_name), n=3)
        return tuple(p for name in close for p in by_name[name])


def search(places: Sequence[Place], query: str, *, prefix: bool = False) -> Found:
    """The places whose entry is called (or is about) `query`, best first (see
    :meth:`EntryIndex.search`; a ruleset searched often keeps its index instead)."""
    return EntryIndex(places).search(query, prefix=prefix)


def complete(places: Sequence[Place], typed: str) -> list[Place]:
    """Autocomplete over `places` (see :meth:`EntryIndex.complete`)."""
    return EntryIndex(places).complete(typed)


def suggest(places: Sequence[Place], query: str) -> tuple[Place, ...]:
    """The entries a mistyped `query` was probably meant for: names close to it."""
    return EntryIndex(places).suggest(query)
