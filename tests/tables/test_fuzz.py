"""Any input, a valid table or our TableError: random YAML, random text, mutated valid files."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.errors import TableError
from bot.engine.resolve import Resolver
from bot.tables import LoadedFile, load_folder, load_text
from bot.tables.schema import CARD_KEYS, ENTRY_KEYS, FILE_KEYS, ROLL_KEYS, TENS_KEYS
from tests.tables.samples import CHAOS, MINI, write_folder

KEYS = sorted(
    {*ENTRY_KEYS, *CARD_KEYS, *ROLL_KEYS, *TENS_KEYS, *(k for ks in FILE_KEYS.values() for k in ks)}
)
WORDS = ["d20", "2d10", "1-3", "3-1", "{1d6}", "{x}", "counter_roll", "next_turn", "chaos", "table"]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False),
    st.text(max_size=20),
    st.sampled_from(WORDS),
)
keys = st.one_of(st.sampled_from(KEYS), st.text(max_size=8))
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(keys, inner, max_size=6),
    max_leaves=30,
)
headers = st.fixed_dictionaries(
    {"schema": st.sampled_from([1, 1, 1, 2, 0, "1"]), "kind": st.sampled_from(list(FILE_KEYS))},
    optional={"id": st.sampled_from(["t", "T-1", "no way"]), "name": scalars, "revision": scalars},
)
documents = st.one_of(
    values,
    st.builds(lambda h, rest: {**rest, **h}, headers, st.dictionaries(keys, values, max_size=6)),
)
DECK = """\
schema: 1
kind: deck
id: chaos
name: Chaos deck
revision: "1"
cards:
  - {id: fog, name: Fog Bank, text: No combat damage., lasts: end_of_turn, copies: 2}
  - {id: heal, name: Heal, text: "Gain {1d4} life.", gains_life: true, life: 1d4}
  - id: fire-ice
    name: Fire // Ice
    halves:
      - {id: fire, name: Fire, text: "Deal {2} damage.", token: roll_fork}
      - {id: ice, name: Ice, text: Tap a permanent., global: true}
"""
YAMLISH = "abcdt:-[]{}&*!|>'\"\n #0123456789.,?~%@`\t"


def loads_or_refuses(text: str | bytes) -> LoadedFile | None:
    """The contract: a loaded file whose table resolves every number, or a TableError."""
    try:
        loaded = load_text(text, "fuzz.yaml")
    except TableError:
        return None
    if loaded.table is not None:
        for n in loaded.table.dice.outcomes():
            loaded.table.lookup(n)
    return loaded


@given(documents)
@settings(max_examples=300, deadline=None)
def test_random_documents(document: Any) -> None:
    loads_or_refuses(yaml.safe_dump(document, allow_unicode=True))


@given(st.text(alphabet=YAMLISH, max_size=200) | st.text(max_size=100))
@settings(max_examples=300, deadline=None)
def test_random_text(text: str) -> None:
    loads_or_refuses(text)


@given(st.binary(max_size=200))
@settings(max_examples=100, deadline=None)
def test_random_bytes(data: bytes) -> None:
    loads_or_refuses(data)


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a document (not the root)."""
    found = []
    items = (
        node.items()
        if isinstance(node, dict)
        else enumerate(node)
        if isinstance(node, list)
        else []
    )
    for key, child in items:
        found.append((*prefix, key))
        found += paths(child, (*prefix, key))
    return found


def parent_of(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        doc = doc[key]
    return doc


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """A valid file after one to three mutations."""
    doc = yaml.safe_load(text)
    for _ in range(draw(st.integers(1, 3))):
        found = paths(doc)
        path = draw(st.sampled_from(found))
        parent = parent_of(doc, path)
        how = draw(st.sampled_from(["delete", "retype", "duplicate", "swap", "renumber"]))
        if how == "delete":
            del parent[path[-1]]
        elif how == "retype":
            parent[path[-1]] = draw(values)
        elif how == "duplicate" and isinstance(doc.get("entries"), list) and doc["entries"]:
            doc["entries"].append(draw(st.sampled_from(doc["entries"])))
        elif how == "swap" and isinstance(doc.get("entries"), list) and len(doc["entries"]) > 1:
            i, j = draw(st.permutations(range(len(doc["entries"]))))[:2]
            a, b = doc["entries"][i], doc["entries"][j]
            if isinstance(a, dict) and isinstance(b, dict):
                a["at"], b["at"] = b.get("at"), a.get("at")
        else:
            parent[path[-1]] = draw(st.integers(-5, 300) | st.sampled_from(["1-3", "7-2", "d6"]))
    return yaml.safe_dump(doc, allow_unicode=True, sort_keys=False)


@given(st.sampled_from([CHAOS, *MINI.values(), DECK]).flatmap(mutated))
@settings(max_examples=500, deadline=None)
def test_mutated_file(text: str) -> None:
    loads_or_refuses(text)


@given(
    st.sampled_from(sorted(MINI)).flatmap(
        lambda name: st.tuples(st.just(name), mutated(MINI[name]))
    )
)
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_mutated_ruleset_folder(change: tuple[str, str]) -> None:
    """A folder with one mutated file loads and every list resolves, or it is refused."""
    name, text = change
    with tempfile.TemporaryDirectory() as tmp:
        folder = write_folder(Path(tmp), {**MINI, name: text})
        try:
            loaded = load_folder(folder)
        except TableError:
            return
    if loaded.ruleset is None:
        return
    ruleset = loaded.ruleset.ruleset
    for table_id in ruleset.tables:
        for seed in range(5):
            Resolver(ruleset, random.Random(seed), player="p1", turn=1, next_id=1).roll(table_id)
