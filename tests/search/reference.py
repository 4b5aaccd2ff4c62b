"""The searches as they were before their indexes (issue 22), kept only as the reference the
property tests compare the indexed searches with: each scored every entry or topic, word by
word, on every call."""

# ruff: noqa

from __future__ import annotations

import difflib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from bot.entry_search import Found, Place, _names, _text
from bot.rules_search import (
    FILLER,
    LIMIT,
    FILLER_KEYWORD,
    KEYWORD_WEIGHT,
    NAME_BONUS,
    PHRASE_BONUS,
    TEXT_WEIGHT,
    TITLE_WEIGHT,
    Search,
    _raw_words,
    suggest,
    words,
)
from bot.search_index import PREFIX_CREDIT
from bot.tables.rulesets import Rule


@dataclass(frozen=True)
class _Index:
    rules: tuple[Rule, ...]
    title: tuple[frozenset[str], ...]
    keywords: tuple[frozenset[str], ...]
    phrases: tuple[tuple[tuple[str, ...], ...], ...]
    text: tuple[frozenset[str], ...]
    raw: tuple[frozenset[str], ...]
    names: tuple[tuple[str, ...], ...]
    idf: dict[str, float] = field(hash=False, compare=False)


@lru_cache(maxsize=16)
def _index(rules: tuple[Rule, ...]) -> _Index:
    title = tuple(frozenset(words(f"{r.id} {r.title}")) for r in rules)
    phrases = tuple(tuple(p for k in r.keywords if (p := words(k))) for r in rules)
    keywords = tuple(frozenset(w for p in ps for w in p) for ps in phrases)
    text = tuple(frozenset(words(f"{r.answer} {r.text}")) for r in rules)
    raw = tuple(frozenset(k.casefold() for k in r.keywords) for r in rules)
    df: dict[str, int] = {}
    for parts in zip(title, keywords, text, raw, strict=True):
        for word in frozenset().union(*parts):
            df[word] = df.get(word, 0) + 1
    n = len(rules)
    idf = {w: math.log(1 + n / d) for w, d in df.items()}
    names = tuple(words(r.id, synonyms=False) for r in rules)  # one word: a name
    return _Index(rules, title, keywords, phrases, text, raw, names, idf)


def entry_search(
    places: Sequence[Place], query: str, *, prefix: bool = False, max_words: int | None = None
) -> Found:
    """The places whose entry is called (or is about) `query`, best first. `prefix` lets a word
    match the start of a longer one (for autocomplete, where the last word is unfinished)."""
    raw = " ".join(query.casefold().split())
    plain = words(query, synonyms=False)
    normal = words(query if max_words is None else " ".join(_raw_words(query)[:max_words]))
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


def _score(
    index: _Index,
    i: int,
    query: tuple[str, ...],
    plain: tuple[str, ...],
    prefix: bool,
    fillers: tuple[str, ...],
) -> float:
    score = sum(FILLER_KEYWORD * index.idf.get(w, 0.0) for w in fillers if w in index.raw[i])
    fields = (
        (index.title[i], TITLE_WEIGHT),
        (index.keywords[i], KEYWORD_WEIGHT),
        (index.text[i], TEXT_WEIGHT),
    )
    for word in set(query):
        weight = max((w for found, w in fields if word in found), default=0.0)
        idf = index.idf.get(word, 0.0)
        if weight == 0.0 and (prefix or len(word) >= 4):
            for found, w in fields:
                hits = [f for f in found if f.startswith(word) and f != word]
                if hits:
                    weight = max(weight, w * PREFIX_CREDIT)
                    idf = max(idf, *(index.idf[f] for f in hits))
        score += weight * idf
    for phrase in index.phrases[i]:
        if len(phrase) > 1 and _contains(query, phrase):
            score += PHRASE_BONUS * sum(index.idf.get(w, 0.0) for w in phrase)
    name = index.names[i]
    if len(name) == 1 and name[0] in plain:
        score += NAME_BONUS * index.idf.get(name[0], 0.0)
    return score


def _contains(query: tuple[str, ...], phrase: tuple[str, ...]) -> bool:
    n = len(phrase)
    return any(query[j : j + n] == phrase for j in range(len(query) - n + 1))


def _exactness(rule: Rule, raw: str, normal: tuple[str, ...]) -> int:
    """0 when the words typed are the rule's id, 1 its title, 2 a keyword; 3 when none. Words
    are compared stemmed and with numbers made equal, but not through synonyms."""
    tiers = ((rule.id,), (rule.title,), rule.keywords)
    for tier, names in enumerate(tiers):
        for name in names:
            if " ".join(name.casefold().split()) == raw:
                return tier
            if normal and words(name, synonyms=False) == normal:
                return tier
    return len(tiers)


def rules_search(
    rules: Sequence[Rule], query: str, *, prefix: bool = False, max_words: int | None = None
) -> Search:
    """The topics about `query`, best first. `prefix` lets a word match the start of a longer
    one (for autocomplete, where the last word is still being typed)."""
    index = _index(tuple(rules))
    raw = " ".join(query.casefold().split())
    tiers = [_exactness(r, raw, words(query, synonyms=False)) for r in index.rules]
    if max_words is not None:  # only the first words score (added for the autocomplete's bound)
        query = " ".join(_raw_words(query)[:max_words])
    normal = words(query)
    plain = words(query, synonyms=False)
    fillers = tuple(w for w in _raw_words(query) if w in FILLER)
    scored = sorted(
        ((_score(index, i, normal, plain, prefix, fillers), i) for i in range(len(index.rules))),
        key=lambda pair: (tiers[pair[1]], -pair[0], pair[1]),
    )
    exact = tuple(index.rules[i] for _, i in scored if tiers[i] == min(tiers) < 3)
    exact_ids = {r.id for r in exact}
    rest = [(s, index.rules[i]) for s, i in scored if s > 0 and index.rules[i].id not in exact_ids]
    top = max((s for s, _ in scored), default=0.0)
    ranked = (*exact, *(r for _, r in rest))
    scores = (*(top for _ in exact), *(s for s, _ in rest))
    return Search(exact, ranked, scores)


def entry_complete(places: Sequence[Place], typed: str, max_words: int) -> list[Place]:
    if not typed.strip():
        return list(places)[:LIMIT]
    found = list(entry_search(places, typed, prefix=True, max_words=max_words).ranked)
    return (found or list(_entry_suggest(places, typed)))[:LIMIT]


def _entry_suggest(places: Sequence[Place], query: str) -> tuple[Place, ...]:
    by_name: dict[str, list[Place]] = {}
    for place in places:
        for name in _names(place.entry):
            by_name.setdefault(name.casefold(), []).append(place)
    close = difflib.get_close_matches(" ".join(query.casefold().split()), list(by_name), n=3)
    return tuple(p for name in close for p in by_name[name])


def rules_complete(rules: Sequence[Rule], typed: str, max_words: int) -> list[Rule]:
    if not typed.strip():
        return list(rules)[:LIMIT]
    found = list(rules_search(rules, typed, prefix=True, max_words=max_words).ranked)
    return (found or list(suggest(rules, typed)))[:LIMIT]
