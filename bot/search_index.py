"""Which items hold which words, so that a ranked search costs what the words typed reach, not
what the whole ruleset holds.

The rules search and the entry search (:mod:`bot.rules_search`, :mod:`bot.entry_search`) score
an item by the words of a query: a word found whole in one of the item's fields is worth the
field's weight times the word's rarity; a word that only begins words of the item (a word still
being typed) is worth :data:`PREFIX_CREDIT` of the best such field's weight, times the rarity of
the rarest word it begins. Scored item by item and word by word, every keystroke read every word
of every entry. :class:`Fields` reads them once, when a ruleset is first searched: then a query
word looks up the items holding it, and the words it begins (a range of the sorted vocabulary).
Pure: no I/O.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence

PREFIX_CREDIT = 0.6
CACHED_WORDS = 512  # query words whose scores are kept; past this, the kept ones are dropped


class Fields:
    """The words of each item's fields, each field with its weight; `idf` is every word's rarity."""

    def __init__(
        self, fields: Sequence[tuple[Sequence[frozenset[str]], float]], idf: dict[str, float]
    ) -> None:
        self.weights = tuple(weight for _, weight in fields)
        self.holders: tuple[dict[str, tuple[int, ...]], ...] = tuple(
            _holders(items) for items, _ in fields
        )
        self.vocabulary = sorted({word for holders in self.holders for word in holders})
        self.idf = idf
        self._kept: dict[tuple[str, bool], dict[int, float]] = {}

    def scores(self, word: str, prefix: bool) -> dict[int, float]:
        """What `word` adds to the score of each item it adds to (the others get nothing).
        With `prefix`, an item without the word whole gets credit for words it begins."""
        key = (word, prefix)
        kept = self._kept.get(key)
        if kept is None:
            kept = self._score(word, prefix)
            if len(self._kept) >= CACHED_WORDS:
                self._kept.clear()
            self._kept[key] = kept
        return kept

    def _score(self, word: str, prefix: bool) -> dict[int, float]:
        rarity = self.idf.get(word, 0.0)
        whole: dict[int, float] = {}
        for holders, weight in zip(self.holders, self.weights, strict=True):
            for item in holders.get(word, ()):
                if whole.get(item, 0.0) < weight:
                    whole[item] = weight
        found = {item: weight * rarity for item, weight in whole.items()}
        if not prefix:
            return found
        credit: dict[int, float] = {}
        rarest: dict[int, float] = {}
        for longer in self.begun(word):
            longer_rarity = self.idf[longer]
            for holders, weight in zip(self.holders, self.weights, strict=True):
                partial = weight * PREFIX_CREDIT
                for item in holders.get(longer, ()):
                    if item in whole:
                        continue
                    if credit.get(item, 0.0) < partial:
                        credit[item] = partial
                    if rarest.get(item, rarity) < longer_rarity:
                        rarest[item] = longer_rarity
        for item, partial in credit.items():
            found[item] = partial * rarest.get(item, rarity)
        return found

    def begun(self, word: str) -> Iterable[str]:
        """The words of the vocabulary that begin with `word` and are longer."""
        vocabulary = self.vocabulary
        at = bisect_left(vocabulary, word)
        while at < len(vocabulary) and vocabulary[at].startswith(word):
            if vocabulary[at] != word:
                yield vocabulary[at]
            at += 1

    def totals(self, parts: Sequence[dict[int, float]]) -> dict[int, float]:
        """Each item's sum over `parts` (one per query word), added in the order given: the
        same floating-point sum as adding the words up item by item."""
        totals: dict[int, float] = {}
        for item in set().union(*parts):
            total = 0.0
            for part in parts:
                total += part.get(item, 0.0)
            totals[item] = total
        return totals


def _holders(items: Sequence[frozenset[str]]) -> dict[str, tuple[int, ...]]:
    found: dict[str, list[int]] = {}
    for item, words in enumerate(items):
        for word in words:
            found.setdefault(word, []).append(item)
    return {word: tuple(holders) for word, holders in found.items()}
