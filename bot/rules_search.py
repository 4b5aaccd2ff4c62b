"""One ranked search over a ruleset's rules topics, for console `rules`, `/rules` and its
autocomplete.

Exact matches come first: the words typed are a topic's id, title or one of its keywords. Then
every topic is scored over its title, keywords and text, on normalised words: filler dropped,
number words and digits made equal (`3` = `three`), light stemming (`dies`, `dying` → `die`) and
a few synonym groups shared by every ruleset (`death`, `dead`, `lose` are one word). Rare words
count more than common ones, and a word in the title or keywords more than one in the text.
Pure: no I/O.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Generic, TypeVar

from bot.search_index import Fields
from bot.tables.rulesets import Rule

T = TypeVar("T")

LIMIT = 25
TITLE_WEIGHT = 3.0
KEYWORD_WEIGHT = 3.0
TEXT_WEIGHT = 1.0
PHRASE_BONUS = 2.0
# A topic whose id is one word is named by it, like a list ("… rolling a 2 on WackyLand?"):
# that word counts extra, wherever it stands in a sentence. (A longer id is just its title's
# words, which the other weights cover.)
NAME_BONUS = 2.0
FILLER_KEYWORD = 1.0  # a filler word ("you", "when") counts only as a rule's whole keyword
CLEAR_LEAD = 1.25  # the best topic is the answer when it scores this much more than the next
# Autocomplete scores the first words typed only: however long the text, a keystroke costs a
# few words' lookups. (A name typed whole still comes first; a command's question counts whole.)
MAX_TYPED_WORDS = 8

_FILLER_WORDS = """
    a about after again all am an and any are as at be been before being but by can could
    do does doing done for from get gets got had has have how i if in into is it its it's just
    me my myself of on or our so some someone than that the their them then there these they
    this those to too up us was we were what whats what's when where whether which while who
    whom why will with would you your yours happen happens happened mean means should shall
    may might must does need say says said tell tells"""
FILLER = frozenset(_FILLER_WORDS.split())

NUMBERS = {
    "one": "1",
    "once": "1",
    "two": "2",
    "twice": "2",
    "three": "3",
    "thrice": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "eleven": "11",
    "twelve": "12",
    "twenty": "20",
}

# Forms the suffix rules below can't reach.
IRREGULAR = {
    "dying": "die",
    "died": "die",
    "dead": "die",
    "death": "die",
    "left": "leave",
    "lost": "lose",
    "losing": "lose",
    "forgot": "forget",
    "forgotten": "forget",
    "chose": "choose",
    "chosen": "choose",
    "drew": "draw",
    "drawn": "draw",
    "colour": "color",
    "colours": "color",
    "coloured": "color",
}

# Words players use for the same thing; every ruleset shares them. The first word of a group
# stands for all of it.
SYNONYMS = (
    ("die", "lose", "kill", "killed", "defeat", "eliminate", "knock"),
    ("leave", "away", "absent", "gone", "temporarily"),
    ("last", "duration", "long", "expire", "wear", "until"),
    ("loop", "infinite", "forever", "endless", "runaway", "chain"),
    ("reveal", "flip", "uncover"),
    ("empty", "exhaust", "exhausted", "runs"),
    ("shuffle", "mix"),
    ("start", "begin", "beginning", "setup", "opening"),
    ("target", "targeting", "untargetable"),
    ("damage", "hurt"),
)

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")


def _stem(word: str) -> str:
    word = IRREGULAR.get(word, word)
    if word in IRREGULAR.values():
        return word
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 5 and word.endswith("ing"):
        word = _undouble(word[:-3])
    elif len(word) > 4 and word.endswith("ed"):
        word = _undouble(word[:-2])
    elif len(word) > 4 and word.endswith("es") and word[-3] in "sxzh":
        word = word[:-2]
    elif _plural(word):
        word = word[:-1]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    if len(word) > 3 and word.endswith("y"):
        word = word[:-1] + "i"
    return word


def _plural(word: str) -> bool:
    """Ends in a plural s: not "class" or "status", nor a short word in -is ("this", "axis");
    a longer one is ("tsunamis")."""
    if len(word) <= 3 or not word.endswith("s") or word.endswith(("ss", "us")):
        return False
    return not word.endswith("is") or len(word) > 5


def _undouble(stem: str) -> str:
    if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
        return stem[:-1]
    return stem


@lru_cache(maxsize=1)
def _synonyms() -> dict[str, str]:
    table: dict[str, str] = {}
    for group in SYNONYMS:
        head = _stem(group[0])
        for word in group:
            table[_stem(word)] = head
    return table


@lru_cache(maxsize=4096)
def _normal(word: str, synonyms: bool) -> str:
    stem = _stem(NUMBERS.get(word, word))
    return _synonyms().get(stem, stem) if synonyms else stem


def words(text: str, *, synonyms: bool = True) -> tuple[str, ...]:
    """`text` as normalised words: casefolded, filler dropped, numbers and stems (and, unless
    told otherwise, synonyms) made equal."""
    return tuple(_normal(w, synonyms) for w in _raw_words(text) if w not in FILLER)


def first_words(text: str, count: int, *, synonyms: bool = True) -> tuple[str, ...]:
    """:func:`words` of the text's first `count` words (filler among them)."""
    return tuple(_normal(w, synonyms) for w in _raw_words(text)[:count] if w not in FILLER)


def _raw_words(text: str) -> list[str]:
    return [w.replace("'", "") for w in _WORD.findall(text.casefold().replace("-", " "))]


@dataclass(frozen=True)
class _Index:
    rules: tuple[Rule, ...]
    phrases: tuple[tuple[tuple[str, ...], ...], ...]
    raw: tuple[frozenset[str], ...]
    names: tuple[tuple[str, ...], ...]
    idf: dict[str, float] = field(hash=False, compare=False)
    fields: Fields = field(hash=False, compare=False)
    # what a query's words, whole or read as words, may name: (tier, rule) for each
    exact_raw: dict[str, list[tuple[int, int]]] = field(hash=False, compare=False)
    exact_plain: dict[tuple[str, ...], list[tuple[int, int]]] = field(hash=False, compare=False)
    by_raw: dict[str, tuple[int, ...]] = field(hash=False, compare=False)  # a whole keyword
    by_name: dict[str, tuple[int, ...]] = field(hash=False, compare=False)  # a one-word id


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
    fields = Fields(((title, TITLE_WEIGHT), (keywords, KEYWORD_WEIGHT), (text, TEXT_WEIGHT)), idf)
    exact_raw: dict[str, list[tuple[int, int]]] = {}
    exact_plain: dict[tuple[str, ...], list[tuple[int, int]]] = {}
    by_raw: dict[str, list[int]] = {}
    by_name: dict[str, list[int]] = {}
    for i, rule in enumerate(rules):
        for tier, named in enumerate(((rule.id,), (rule.title,), rule.keywords)):
            for name in named:
                exact_raw.setdefault(" ".join(name.casefold().split()), []).append((tier, i))
                exact_plain.setdefault(words(name, synonyms=False), []).append((tier, i))
        for keyword in raw[i]:
            by_raw.setdefault(keyword, []).append(i)
        if len(names[i]) == 1:
            by_name.setdefault(names[i][0], []).append(i)
    return _Index(
        rules,
        phrases,
        raw,
        names,
        idf,
        fields,
        exact_raw,
        exact_plain,
        {k: tuple(v) for k, v in by_raw.items()},
        {k: tuple(v) for k, v in by_name.items()},
    )


@dataclass(frozen=True)
class Ranked(Generic[T]):
    """What a ranked lookup found: `exact` matches first, then everything `ranked` best first
    with its score. Rules topics and table entries are both searched this way."""

    exact: tuple[T, ...]
    ranked: tuple[T, ...]
    scores: tuple[float, ...]

    def leader(self) -> T | None:
        """The best of `ranked` when it stands alone or leads the next by CLEAR_LEAD."""
        if len(self.ranked) == 1 or (self.ranked and self.scores[0] >= CLEAR_LEAD * self.scores[1]):
            return self.ranked[0]
        return None

    def candidates(self) -> tuple[T, ...]:
        """What is worth offering when there's no single answer: the exact matches, else those
        scoring at least half the best."""
        if self.exact:
            return self.exact
        best = self.scores[0] if self.scores else 0.0
        return tuple(r for r, s in zip(self.ranked, self.scores, strict=True) if s >= best / 2)


class Search(Ranked[Rule]):
    """What a lookup found: `exact` topics (the words were an id, title or keyword), then the
    rest `ranked` best first (exact ones included, at the front)."""

    @property
    def answer(self) -> Rule | None:
        """The one topic to show, when there's no doubt which."""
        if len(self.exact) == 1:
            return self.exact[0]
        if self.exact:
            return None
        return self.leader()


def _score(
    index: _Index,
    i: int,
    parts: list[dict[int, float]],
    query: tuple[str, ...],
    plain: tuple[str, ...],
    fillers: tuple[str, ...],
) -> float:
    """Rule `i`'s score, added up in a fixed order: filler keywords, then each query word's
    part (:meth:`~bot.search_index.Fields.scores`), phrases, its name."""
    score = sum(FILLER_KEYWORD * index.idf.get(w, 0.0) for w in fillers if w in index.raw[i])
    for part in parts:
        score += part.get(i, 0.0)
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


def _tiers(index: _Index, raw: str, plain: tuple[str, ...]) -> dict[int, int]:
    """The rules the words typed name: 0 by the rule's id, 1 its title, 2 a keyword (the
    lowest that applies). Words are compared stemmed and with numbers made equal, but not
    through synonyms."""
    found = list(index.exact_raw.get(raw, ()))
    if plain:
        found += index.exact_plain.get(plain, ())
    tiers: dict[int, int] = {}
    for tier, i in found:
        tiers[i] = min(tier, tiers.get(i, tier))
    return tiers


def search(
    rules: Sequence[Rule], query: str, *, prefix: bool = False, max_words: int | None = None
) -> Search:
    """The topics about `query`, best first. `prefix` lets a word match the start of a longer
    one (for autocomplete, where the last word is still being typed). With `max_words`, only
    the query's first words count for the score (a topic named whole still comes first)."""
    index = _index(tuple(rules))
    raw = " ".join(query.casefold().split())
    tiers = _tiers(index, raw, words(query, synonyms=False))
    if max_words is not None:
        query = " ".join(_raw_words(query)[:max_words])
    normal = words(query)
    plain = words(query, synonyms=False)
    fillers = tuple(w for w in _raw_words(query) if w in FILLER)
    parts = [index.fields.scores(w, prefix or len(w) >= 4) for w in set(normal)]
    reached = set().union(*parts)
    reached.update(i for w in fillers for i in index.by_raw.get(w, ()))
    reached.update(i for w in plain for i in index.by_name.get(w, ()))
    scores = {i: _score(index, i, parts, normal, plain, fillers) for i in reached}
    best = min(tiers.values(), default=3)
    order = sorted(
        (i for i in reached | tiers.keys()),
        key=lambda i: (tiers.get(i, 3), -scores.get(i, 0.0), i),
    )
    exact = tuple(index.rules[i] for i in order if tiers.get(i) == best)
    exact_ids = {r.id for r in exact}
    rest = [
        (scores[i], index.rules[i])
        for i in order
        if scores.get(i, 0.0) > 0 and index.rules[i].id not in exact_ids
    ]
    top = max(scores.values(), default=0.0)
    ranked = (*exact, *(r for _, r in rest))
    return Search(exact, ranked, (*(top for _ in exact), *(s for s, _ in rest)))


def complete(rules: Sequence[Rule], typed: str) -> list[Rule]:
    """Autocomplete: every topic when nothing is typed, else the best `LIMIT` matches in
    ranked order (keywords and text included; the last word may be unfinished); a typo falls
    back to the topics it was probably meant for."""
    if not typed.strip():
        return list(rules)[:LIMIT]
    found = list(search(rules, typed, prefix=True, max_words=MAX_TYPED_WORDS).ranked[:LIMIT])
    if not found:
        found = list(suggest(rules, typed))
    return found[:LIMIT]


def suggest(rules: Sequence[Rule], query: str) -> tuple[Rule, ...]:
    """The topics a mistyped `query` was probably meant for: close to a title, a keyword or an
    id, whole or word by word."""
    names: dict[str, list[Rule]] = {}
    for rule in rules:
        for name in (rule.id, rule.title, *rule.keywords):
            for key in {name.casefold(), *name.casefold().replace("-", " ").split()}:
                listed = names.setdefault(key, [])
                if rule not in listed:
                    listed.append(rule)
    raw = " ".join(query.casefold().split())
    tried = [raw, *(w for w in raw.split() if w not in FILLER)]
    found: list[Rule] = []
    for word in tried:
        for close in difflib.get_close_matches(word, list(names), n=3, cutoff=0.6):
            found += [r for r in names[close] if r not in found]
    return tuple(found)
