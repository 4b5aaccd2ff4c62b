"""Reading a ruleset file: its policies, the ids of its tables and decks, and its rules text.

The result is a :class:`RulesetSpec`; the engine's :class:`Ruleset` is built from it once the
tables it names have been loaded (see :mod:`bot.tables.folders`).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from bot.engine.errors import TableError
from bot.engine.model import (
    Budget,
    ChaosSource,
    Nesting,
    SpitePolicy,
    StartRoll,
    TableId,
    ZonePolicy,
)
from bot.tables.problems import KeyPath
from bot.tables.schema import MAX_ANSWER, MAX_NAME, RULE_KEYS, Checker, Reference, Wants, describe

_CHAOS_FROM = {
    "table": ChaosSource.TABLE,
    "lists": ChaosSource.PROGRESSION,
    "deck": ChaosSource.DECK,
}


@dataclass(frozen=True, slots=True)
class Rule:
    """One section of a ruleset's rules text, for ``/rules`` lookups.

    A topic reads at the table in three parts: `answer`, one line that settles the usual
    question; `text`, the detail; and `see`, the ids of related topics in the same ruleset.
    A ruleset author may leave out the answer and the see-also (then the text alone is shown).
    """

    id: str
    title: str
    keywords: tuple[str, ...]
    text: str
    answer: str = ""
    see: tuple[str, ...] = ()


@dataclass
class RulesetSpec:
    """A ruleset file as written; `budget` is None when the file declares none."""

    chaos: ChaosSource = ChaosSource.TABLE
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
    budget: Budget | None = None
    life: int | None = None
    tables: tuple[TableId, ...] = ()
    rules: tuple[Rule, ...] = ()
    refs: list[Reference] = field(default_factory=list)


def parse_ruleset(ck: Checker, data: dict[str, object]) -> RulesetSpec:
    """Every policy of a ruleset file; references are collected, not yet checked."""
    spec = RulesetSpec()
    if "chaos" in data:
        _chaos(ck, data["chaos"], spec)
    if "start" in data:
        _start(ck, data["start"], spec)
    if "nesting" in data:
        spec.nesting = ck.choice(data["nesting"], ("nesting",), Nesting) or spec.nesting
    if "spite" in data:
        _spite(ck, data["spite"], spec)
    if "zone" in data:
        _zone(ck, data["zone"], spec)
    if "tokens" in data:
        spec.tokens = bool(ck.flag(data["tokens"], ("tokens",)))
    if "budget" in data:
        spec.budget = _budget(ck, data["budget"])
    if "life" in data:
        spec.life = ck.integer(data["life"], ("life",), 1, 1000)
    if "tables" in data:
        listed = ck.ids(data["tables"], ("tables",), "tables")
        seen: dict[str, KeyPath] = {}
        for table_id, path in listed:
            if table_id in seen:
                ck.add(
                    path, f"{table_id!r} is listed twice (also on line {ck.line(seen[table_id])})"
                )
            seen[table_id] = path
            spec.refs.append(ck.reference(table_id, Wants.ANY, path))
        spec.tables = tuple(seen)
    if "rules" in data:
        spec.rules = _rules(ck, data["rules"])
    if spec.spite is SpitePolicy.DECK_LOOK and spec.chaos is not ChaosSource.DECK:
        message = "deck_look looks at the Chaos deck: it needs chaos: {from: deck}"
        ck.add(("spite", "policy"), message)
    return spec


def _policy(ck: Checker, value: object, path: KeyPath, key: str) -> dict[str, object] | None:
    """A policy mapping like ``{policy: none}``; a bare word is short for ``{KEY: word}``."""
    if isinstance(value, str):
        return {key: value}
    return ck.mapping(value, path, f"a mapping like {{{key}: ...}}")


def _chaos(ck: Checker, value: object, spec: RulesetSpec) -> None:
    raw = ck.mapping(value, ("chaos",), "where chaos comes from, like {from: table, table: chaos}")
    if raw is None:
        return
    source = raw.get("from")
    if not isinstance(source, str) or source not in _CHAOS_FROM:
        ck.add(("chaos", "from"), f"expected table, lists or deck, got {describe(source)}")
        return
    spec.chaos = _CHAOS_FROM[source]
    ck.keys(raw, ("chaos",), ("from", source), ("from", source), f"chaos from {source}")
    path = ("chaos", source)
    if source == "lists":
        lists = ck.ids(raw.get("lists"), path, "lists") if "lists" in raw else []
        if "lists" in raw and not lists and raw["lists"] == []:
            ck.add(path, "name the lists chaos moves between, like [A, B, C, D, E, F]")
        spec.lists = tuple(t for t, _ in lists)
        spec.refs.extend(ck.reference(t, Wants.LIST, p) for t, p in lists)
    elif source in raw and (target := ck.ident(raw[source], path, f"the id of a {source}")):
        spec.chaos_table = target
        spec.refs.append(ck.reference(target, Wants.DECK if source == "deck" else Wants.LIST, path))


def _start(ck: Checker, value: object, spec: RulesetSpec) -> None:
    raw = _policy(ck, value, ("start",), "roll")
    if raw is None:
        return
    start = ck.choice(raw.get("roll"), ("start", "roll"), StartRoll) if "roll" in raw else None
    if "roll" not in raw:
        ck.add(("start",), "the start needs roll: none, world, global or global_deck")
    if start is None:
        return
    spec.start = start
    if start is StartRoll.NONE:
        ck.keys(raw, ("start",), ("roll",), (), "a start with no roll")
        return
    # A Global deck is named with `deck:`; `table:` is accepted too, as the docs once showed.
    key = "deck" if start is StartRoll.GLOBAL_DECK and "table" not in raw else "table"
    ck.keys(raw, ("start",), ("roll", key), ("roll", key), f"a {start.value} start")
    if key in raw and (target := ck.ident(raw[key], ("start", key), f"the id of a {key}")):
        spec.start_table = target
        wants = Wants.DECK if start is StartRoll.GLOBAL_DECK else Wants.LIST
        spec.refs.append(ck.reference(target, wants, ("start", key)))


def _spite(ck: Checker, value: object, spec: RulesetSpec) -> None:
    raw = _policy(ck, value, ("spite",), "policy")
    if raw is None:
        return
    if "policy" not in raw:
        ck.add(("spite",), "spite needs policy: none, life_gain_roll, spite_table or deck_look")
        return
    policy = ck.choice(raw["policy"], ("spite", "policy"), SpitePolicy)
    if policy is None:
        return
    spec.spite = policy
    if policy is SpitePolicy.DECK_LOOK:
        ck.keys(raw, ("spite",), ("policy", "look"), ("policy",), "a deck_look spite")
        if "look" in raw:
            spec.spite_look = ck.integer(raw["look"], ("spite", "look"), 1, 30) or 7
    elif policy is SpitePolicy.NONE:
        ck.keys(raw, ("spite",), ("policy",), ("policy",), "spite: none")
    else:
        ck.keys(raw, ("spite",), ("policy", "table"), ("policy", "table"), f"a {policy} spite")
        if "table" in raw and (target := ck.ident(raw["table"], ("spite", "table"), "a list id")):
            spec.spite_table = target
            spec.refs.append(ck.reference(target, Wants.LIST, ("spite", "table")))


def _zone(ck: Checker, value: object, spec: RulesetSpec) -> None:
    raw = _policy(ck, value, ("zone",), "policy")
    if raw is None:
        return
    if "policy" not in raw:
        ck.add(("zone",), "the zone needs policy: none, middle_world or middle")
        return
    policy = ck.choice(raw["policy"], ("zone", "policy"), ZonePolicy)
    if policy is None:
        return
    spec.zone = policy
    allowed = ("policy", "plays") if policy is ZonePolicy.MIDDLE_WORLD else ("policy",)
    ck.keys(raw, ("zone",), allowed, ("policy",), f"a {policy.value} zone")
    if "plays" in raw and policy is ZonePolicy.MIDDLE_WORLD:
        spec.zone_plays = ck.integer(raw["plays"], ("zone", "plays"), 1, 10) or 1


def _budget(ck: Checker, value: object) -> Budget | None:
    raw = ck.mapping(value, ("budget",), "a roll budget like {rolls: 60, depth: 10}")
    if raw is None:
        return None
    ck.keys(raw, ("budget",), ("rolls", "depth"), ("rolls", "depth"), "a budget")
    rolls = ck.integer(raw["rolls"], ("budget", "rolls"), 1, 10_000) if "rolls" in raw else None
    depth = ck.integer(raw["depth"], ("budget", "depth"), 1, 100) if "depth" in raw else None
    if rolls is None or depth is None:
        return None
    try:
        return Budget(rolls, depth)
    except TableError as error:  # pragma: no cover - the ranges above are the engine's
        ck.add(("budget",), str(error))
        return None


def _rules(ck: Checker, value: object) -> tuple[Rule, ...]:
    rules: list[Rule] = []
    seen: dict[str, int] = {}
    pointers: list[tuple[str, KeyPath, str | None]] = []  # see-also: checked once all are read
    for i, item in enumerate(ck.items(value, ("rules",), "rules sections") or ()):
        path: KeyPath = ("rules", i)
        raw = ck.mapping(item, path, "a rules section with id, title and text")
        if raw is None:
            continue
        ck.keys(raw, path, RULE_KEYS, ("id", "title", "text"), "a rules section")
        rule_id = ck.ident(raw["id"], (*path, "id"), "a section id") if "id" in raw else None
        title = ck.text(raw, "title", path, required=True, limit=MAX_NAME)
        text = ck.text(raw, "text", path, required=True, limit=8000)
        answer = _answer(ck, raw, path)
        see = ck.ids(raw["see"], (*path, "see"), "topics") if "see" in raw else []
        pointers.extend((topic, at, rule_id) for topic, at in see)
        keywords: list[str] = []
        if "keywords" in raw:
            for j, word in enumerate(ck.items(raw["keywords"], (*path, "keywords"), "words") or ()):
                if isinstance(word, str) and word.strip():
                    keywords.append(word.strip())
                else:
                    ck.add((*path, "keywords", j), f"expected a word, got {describe(word)}")
        if rule_id is not None and rule_id in seen:
            ck.add(
                (*path, "id"),
                f"the section id {rule_id!r} is used twice (also line {seen[rule_id]})",
            )
        if rule_id is not None:
            seen[rule_id] = ck.line((*path, "id"))
        if rule_id and title and text:
            rules.append(
                Rule(rule_id, title, tuple(keywords), text, answer or "", tuple(t for t, _ in see))
            )
    for topic, at, source in pointers:
        if topic == source:
            ck.add(at, f"a section can't point to itself ({topic!r})")
        elif topic not in seen:
            close = difflib.get_close_matches(topic, list(seen), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            ck.add(at, f"there's no rules section {topic!r} in this ruleset{hint}")
    return tuple(rules)


def _answer(ck: Checker, raw: dict[str, object], path: KeyPath) -> str | None:
    """A section's one-line answer: a sentence or two that settle the usual question, shown
    first, so it may not run over several paragraphs."""
    answer = ck.text(raw, "answer", path, limit=MAX_ANSWER)
    if answer is not None and "\n\n" in answer:
        ck.add((*path, "answer"), "is one short paragraph; put the detail under text")
        return None
    return " ".join(answer.split()) if answer else answer
