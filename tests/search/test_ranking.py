"""The indexed searches rank exactly as the searches they replaced (tests/search/reference.py):
any ruleset, any query, the same exact matches, the same order and the same scores, to the bit.

Rulesets are drawn from the bundled entries and topics and from made-up ones whose words overlap
on purpose (stems, synonyms, numbers, filler, one word the start of another), and queries from
the same words, typed whole, cut short, or as an entry's or topic's name.
"""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.entries import Entry
from bot.entry_search import EntryIndex, Place, places
from bot.rules_search import MAX_TYPED_WORDS, _raw_words, complete, search
from bot.tables import load_bundled
from bot.tables.rulesets import Rule
from tests.search import reference

BUNDLED = list(load_bundled().values())
PLACES = [p for loaded in BUNDLED for p in places(loaded.ruleset)]
RULES = [r for loaded in BUNDLED for r in loaded.rules]
WORDS = sorted(
    {w for p in PLACES for w in f"{p.entry.name} {p.entry.text}".split()}
    | {w for r in RULES for w in f"{r.title} {' '.join(r.keywords)}".split()}
)
AWKWARD = [
    "die", "dies", "dying", "death", "dead", "lose", "two", "2", "twice", "the", "a", "you",
    "fog", "fogs", "foggy", "chaos", "cha", "c", "roll", "rolls", "re-roll", "don't", "Straße",
    "ΣΊΣΥΦΟΣ", "١٢", "x", "xx", "xxx", "e\u0301", "what", "when",
]  # fmt: skip
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

word = st.one_of(
    st.sampled_from(AWKWARD),
    st.sampled_from(WORDS),
    st.text(alphabet="abcdeé'-", min_size=1, max_size=5),
)
phrase = st.lists(word, min_size=0, max_size=6).map(" ".join)


def _cut(text: str) -> st.SearchStrategy[str]:
    """`text`, or the start of it (a word still being typed), or it shouted."""
    return st.one_of(
        st.just(text),
        st.integers(0, len(text)).map(lambda n: text[:n]),
        st.just(f"  {text.upper()}?"),
    )


@st.composite
def entry_places(draw: st.DrawFn) -> list[Place]:
    found = draw(st.lists(st.sampled_from(PLACES), max_size=30))
    for n in range(draw(st.integers(0, 12))):
        base = draw(st.sampled_from(PLACES))
        entry = Entry(f"made{n}", draw(phrase), draw(phrase))
        if draw(st.booleans()):
            halves = (Entry(f"half{n}a", draw(phrase), draw(phrase)), entry)
            entry = dataclasses.replace(base.entry, name=draw(phrase), halves=halves)
        found.append(dataclasses.replace(base, label=str(n), entry=entry))
    return draw(st.permutations(found))


@st.composite
def queries(draw: st.DrawFn, names: list[str]) -> str:
    """A query of at most a few words more than autocomplete scores."""
    named: bool = draw(st.booleans())
    if names and named:
        return draw(_cut(draw(st.sampled_from(names))))
    typed = draw(st.lists(word, max_size=MAX_TYPED_WORDS + 3))
    return draw(_cut(draw(st.sampled_from([" ", "  ", " - ", ", "])).join(typed)))


@st.composite
def entry_cases(draw: st.DrawFn) -> tuple[list[Place], str]:
    found = draw(entry_places())
    names = [n for p in found for n in (p.entry.name, *(h.name for h in p.entry.halves))]
    return found, draw(queries(names))


@st.composite
def rule_sets(draw: st.DrawFn) -> list[Rule]:
    rules = draw(st.lists(st.sampled_from(RULES), max_size=20, unique_by=lambda r: r.id))
    for n in range(draw(st.integers(0, 8))):
        rule_id = draw(st.sampled_from([f"made-{n}", f"m{n}", "fog", "chaos", "die"]))
        keywords = tuple(draw(st.lists(phrase, max_size=4)))
        rules.append(Rule(rule_id, draw(phrase), keywords, draw(phrase), draw(phrase)))
    return draw(st.permutations(rules))


@st.composite
def rule_cases(draw: st.DrawFn) -> tuple[list[Rule], str]:
    rules = draw(rule_sets())
    names = [n for r in rules for n in (r.id, r.title, *r.keywords)]
    return rules, draw(queries(names))


@SETTINGS
@given(entry_cases(), st.booleans())
def test_the_entry_index_ranks_as_scoring_every_entry_did(
    case: tuple[list[Place], str], prefix: bool
) -> None:
    found, query = case
    index = EntryIndex(found)
    assert index.search(query, prefix=prefix) == reference.entry_search(found, query, prefix=prefix)
    capped = index.search(query, prefix=True, max_words=MAX_TYPED_WORDS)
    assert capped == reference.entry_search(found, query, prefix=True, max_words=MAX_TYPED_WORDS)
    assert index.complete(query) == reference.entry_complete(found, query, MAX_TYPED_WORDS)


@SETTINGS
@given(rule_cases(), st.booleans())
def test_the_rules_index_ranks_as_scoring_every_topic_did(
    case: tuple[list[Rule], str], prefix: bool
) -> None:
    rules, query = case
    assert search(rules, query, prefix=prefix) == reference.rules_search(
        rules, query, prefix=prefix
    )
    capped = search(rules, query, prefix=True, max_words=MAX_TYPED_WORDS)
    expected = reference.rules_search(rules, query, prefix=True, max_words=MAX_TYPED_WORDS)
    assert capped == expected
    assert complete(rules, query) == reference.rules_complete(rules, query, MAX_TYPED_WORDS)


@SETTINGS
@given(entry_cases())
def test_a_query_of_a_few_words_ranks_exactly_as_before_the_cap(
    case: tuple[list[Place], str],
) -> None:
    """The cap changes nothing for what people type: up to MAX_TYPED_WORDS words, the
    autocomplete's ranking is the uncapped search's."""
    found, query = case
    if len(_raw_words(query)) <= MAX_TYPED_WORDS:
        assert EntryIndex(found).search(query, prefix=True, max_words=MAX_TYPED_WORDS) == (
            reference.entry_search(found, query, prefix=True)
        )


def test_bundled_rulesets_rank_every_entry_name_and_topic_as_before() -> None:
    """Every name and topic of the bundled rulesets, typed whole and half typed."""
    for loaded in BUNDLED:
        found = places(loaded.ruleset)
        index = EntryIndex(found)
        for place in found[::29]:
            for query in (place.entry.name, place.entry.name[:4], place.entry.text[:30]):
                assert index.search(query, prefix=True) == reference.entry_search(
                    found, query, prefix=True
                )
        for rule in loaded.rules:
            for query in (rule.title, rule.id[:3], *rule.keywords):
                assert search(loaded.rules, query, prefix=True) == reference.rules_search(
                    loaded.rules, query, prefix=True
                )
