"""A ranked search over the entries of a ruleset's lists and the cards of its decks, by name,
for `table lookup` with a name ("what does Tsunami do again?") and its autocomplete.

It reads words as the rules search does (:func:`bot.rules_search.words`: filler dropped, numbers,
stems and synonyms made equal) and scores the same way: an entry whose name is exactly what was
typed comes first, then every entry by the rare words of its name (worth more) and its text.
Pure: no I/O.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.entries import Entry, TableId
from bot.engine.model import Ruleset
from bot.rules_search import LIMIT, PREFIX_CREDIT, TEXT_WEIGHT, TITLE_WEIGHT, Ranked, words


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


def search(places: Sequence[Place], query: str, *, prefix: bool = False) -> Found:
    """The places whose entry is called (or is about) `query`, best first. `prefix` lets a word
    match the start of a longer one (for autocomplete, where the last word is unfinished)."""
    raw = " ".join(query.casefold().split())
    plain = words(query, synonyms=False)
    normal = words(query)
    name_words = [frozenset(w for n in _names(p.entry) for w in words(n)) for p in places]
    text_words = [frozenset(words(_text(p.entry))) for p in places]
    df: dict[str, int] = {}
    for name, text in zip(name_words, text_words, strict=True):
        for word in name | text:
            df[word] = df.get(word, 0) + 1
    idf = {w: math.log(1 + len(places) / d) for w, d in df.items()}

    def exact(place: Place) -> bool:
        return any(
            " ".join(n.casefold().split()) == raw or (plain and words(n, synonyms=False) == plain)
            for n in _names(place.entry)
        )

    def score(i: int) -> float:
        total = 0.0
        fields = ((name_words[i], TITLE_WEIGHT), (text_words[i], TEXT_WEIGHT))
        for word in set(normal):
            weight = max((w for found, w in fields if word in found), default=0.0)
            rarity = idf.get(word, 0.0)
            if weight == 0.0 and (prefix or len(word) >= 4):
                for found, w in fields:
                    hits = [f for f in found if f.startswith(word)]
                    if hits:
                        weight = max(weight, w * PREFIX_CREDIT)
                        rarity = max(rarity, *(idf[f] for f in hits))
            total += weight * rarity
        return total

    scored = sorted(
        ((not exact(p), -score(i), i) for i, p in enumerate(places)),
    )
    exacts = tuple(places[i] for miss, _, i in scored if not miss)
    rest = [(-s, places[i]) for miss, s, i in scored if miss and s < 0]
    top = max([s for s, _ in rest] + [-s for _, s, _ in scored], default=0.0)
    return Found(
        exacts,
        (*exacts, *(p for _, p in rest)),
        (*(top for _ in exacts), *(s for s, _ in rest)),
    )


def complete(places: Sequence[Place], typed: str) -> list[Place]:
    """Autocomplete: the best `LIMIT` entries for what is typed (the last word may be
    unfinished), or those with names close to a mistyped one."""
    if not typed.strip():
        return list(places)[:LIMIT]
    found = list(search(places, typed, prefix=True).ranked) or list(suggest(places, typed))
    return found[:LIMIT]


def suggest(places: Sequence[Place], query: str) -> tuple[Place, ...]:
    """The entries a mistyped `query` was probably meant for: names close to it."""
    by_name: dict[str, list[Place]] = {}
    for place in places:
        for name in _names(place.entry):
            by_name.setdefault(name.casefold(), []).append(place)
    close = difflib.get_close_matches(" ".join(query.casefold().split()), list(by_name), n=3)
    return tuple(p for name in close for p in by_name[name])
