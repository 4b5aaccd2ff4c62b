"""One file at a time: the header every file shares, then a table, a deck or a ruleset.

:func:`load_file` and :func:`load_text` check everything a file can say about itself (its keys,
dice, entries and coverage) and raise :class:`TableProblems` listing every problem. What a file
says about *other* files (links, the ruleset's tables) is kept as references, checked by
:mod:`bot.tables.folders` once every file of a folder has loaded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from bot.engine.dice import Dice
from bot.engine.errors import DiceError, TableError
from bot.engine.model import Band, Deck, DeckCard, Entry, RollTable
from bot.tables import entries
from bot.tables.coverage import Placed, check_coverage
from bot.tables.problems import KeyPath, TableFileError, TableProblems
from bot.tables.rulesets import RulesetSpec, parse_ruleset
from bot.tables.schema import (
    CARD_KEYS,
    ENTRY_KEYS,
    FILE_KEYS,
    HALF_KEYS,
    MAX_COPIES,
    MAX_NAME,
    SCHEMA,
    SPLIT_KEYS,
    Checker,
    Reference,
    describe,
)
from bot.tables.yamlnodes import Document, parse_document, read_document


class FileKind(StrEnum):
    TABLE = "table"
    DECK = "deck"
    RULESET = "ruleset"


@dataclass(frozen=True)
class LoadedFile:
    """One valid file: its table, deck or ruleset spec, and the references it makes."""

    name: str
    doc: Document
    kind: FileKind
    id: str
    title: str
    revision: str
    table: RollTable | None = None
    deck: Deck | None = None
    ruleset: RulesetSpec | None = None
    refs: tuple[Reference, ...] = field(default=())
    warnings: tuple[TableFileError, ...] = field(default=())  # see Checker.warn


@dataclass(frozen=True)
class FileResult:
    """What became of one file: loaded, or its problems, the id it declares and its references
    (checked even when the file has other problems, so one run reports everything).
    """

    name: str
    loaded: LoadedFile | None
    problems: tuple[TableFileError, ...]
    declared_id: str | None
    refs: tuple[Reference, ...]


def load_file(path: Path, name: str | None = None) -> LoadedFile:
    """Read and check one file; raises TableProblems naming every problem in it."""
    return _loaded(inspect_file(path, name))


def load_text(source: str | bytes, name: str) -> LoadedFile:
    """Check one file's content (an upload, say); `name` is how messages call it."""
    try:
        doc = parse_document(source, name)
    except TableFileError as error:
        raise TableProblems([error]) from None
    return _loaded(inspect_document(doc))


def inspect_file(path: Path, name: str | None = None) -> FileResult:
    """Read and check one file, returning its problems rather than raising them."""
    try:
        doc = read_document(path, name)
    except TableFileError as error:
        return FileResult(error.file, None, (error,), None, ())
    return inspect_document(doc)


def inspect_document(doc: Document) -> FileResult:
    """Check a parsed document and build what it describes."""
    ck = Checker(doc)
    refs: list[Reference] = []
    loaded = _check(ck, doc, refs)
    if loaded is None or ck.problems:
        assert ck.problems  # every way of failing notes why
        data = doc.data
        declared = data.get("id") if isinstance(data, dict) else None
        ident = declared if isinstance(declared, str) else None
        return FileResult(doc.file, None, tuple(ck.problems), ident, tuple(refs))
    return FileResult(doc.file, loaded, (), loaded.id, loaded.refs)


def _loaded(result: FileResult) -> LoadedFile:
    if result.loaded is None:
        raise TableProblems(result.problems)
    return result.loaded


def _check(ck: Checker, doc: Document, refs: list[Reference]) -> LoadedFile | None:
    data = doc.data
    if data is None:
        ck.add((), "the file is empty; a table file starts with schema: 1")
        return None
    if not isinstance(data, dict):
        ck.add((), f"expected a mapping of keys like schema: 1, got {describe(data)}")
        return None
    if "schema" not in data:
        ck.add((), f"the file needs schema: {SCHEMA} (the version of this format)")
        return None
    schema = data["schema"]
    if isinstance(schema, int) and not isinstance(schema, bool) and schema > SCHEMA:
        ck.add(
            ("schema",),
            f"this file uses format version {schema}, but this bot reads versions up to"
            f" {SCHEMA}: update the bot to load it",
        )
        return None
    ck.integer(schema, ("schema",), 1, SCHEMA)
    kind = ck.choice(data["kind"], ("kind",), FileKind) if "kind" in data else None
    if "kind" not in data:
        ck.add((), "the file needs kind: table, deck or ruleset")
    if kind is None:
        return None
    required = {"table": ("dice", "entries"), "deck": ("cards",), "ruleset": ("chaos", "tables")}
    ck.keys(data, (), FILE_KEYS[kind], ("id", "name", "revision", *required[kind]), f"a {kind}")
    file_id = ck.ident(data["id"], ("id",)) if "id" in data else None
    title = ck.text(data, "name", (), required=True, limit=MAX_NAME)
    revision = ck.text(data, "revision", (), required=True, limit=40)
    table = deck = spec = None
    if kind is FileKind.TABLE:
        table = _table(ck, data, file_id or "?", title or "", revision or "", refs)
    elif kind is FileKind.DECK:
        deck = _deck(ck, data, file_id or "?", title or "", revision or "")
    else:
        spec = parse_ruleset(ck, data)
        refs.extend(spec.refs)
    if file_id is None or title is None or revision is None:
        return None
    return LoadedFile(
        doc.file,
        doc,
        kind,
        file_id,
        title,
        revision,
        table,
        deck,
        spec,
        tuple(refs),
        tuple(ck.warnings),
    )


def _table(
    ck: Checker,
    data: dict[str, object],
    table_id: str,
    title: str,
    revision: str,
    refs: list[Reference],
) -> RollTable | None:
    before = len(ck.problems)
    dice: Dice | None = entries.table_dice(ck, data["dice"], ("dice",)) if "dice" in data else None
    directions = ck.text(data, "directions", ()) or ""
    bands: list[Band] = []
    placed: list[Placed] = []
    items = ck.items(data.get("entries"), ("entries",), "entries") if "entries" in data else None
    for i, item in enumerate(items or ()):
        path: KeyPath = ("entries", i)
        raw = ck.mapping(item, path, "an entry with at and name")
        if raw is None:
            continue
        at = entries.band(ck, raw["at"], (*path, "at")) if "at" in raw else None
        entry = entries.entry(
            ck,
            raw,
            path,
            entry_id=entries.label(*at) if at else str(i),
            table_id=table_id,
            allowed=ENTRY_KEYS,
            required=("at", "name"),
            what="an entry",
            refs=refs,
        )
        if at is not None:
            placed.append(Placed(at[0], at[1], (*path, "at"), ck.line((*path, "at"))))
            if entry is not None:
                bands.append(Band(at[0], at[1], entry))
    if items == []:
        ck.add(("entries",), "a table needs at least one entry")
    if dice is not None and placed:
        check_coverage(ck, dice, placed, ("entries",))
    if dice is None or len(ck.problems) > before:
        return None
    try:
        return RollTable(table_id, title, dice, tuple(bands), directions, revision)
    except (TableError, DiceError) as error:  # the engine's own checks, should ours miss one
        ck.add(("entries",), str(error))
        return None


def _deck(
    ck: Checker, data: dict[str, object], deck_id: str, title: str, revision: str
) -> Deck | None:
    before = len(ck.problems)
    cards: list[DeckCard] = []
    seen: dict[str, int] = {}
    items = ck.items(data.get("cards"), ("cards",), "cards") if "cards" in data else None
    for i, item in enumerate(items or ()):
        path: KeyPath = ("cards", i)
        raw = ck.mapping(item, path, "a card with id and name")
        if raw is None:
            continue
        card = _card(ck, raw, path, deck_id)
        copies = (
            ck.integer(raw["copies"], (*path, "copies"), 1, MAX_COPIES) if "copies" in raw else 1
        )
        card_id = raw.get("id")
        if isinstance(card_id, str) and card_id in seen:
            ck.add(
                (*path, "id"), f"the card id {card_id!r} is used twice (also line {seen[card_id]})"
            )
        elif isinstance(card_id, str):
            seen[card_id] = ck.line((*path, "id"))
        if card is not None and copies is not None:
            cards.append(DeckCard(card, copies))
    if items == []:
        ck.add(("cards",), "a deck needs at least one card")
    if len(ck.problems) > before:
        return None
    try:
        return Deck(deck_id, title, tuple(cards), revision)
    except TableError as error:  # the engine's own checks, should ours miss one
        ck.add(("cards",), str(error))
        return None


def _card(ck: Checker, raw: dict[str, object], path: KeyPath, deck_id: str) -> Entry | None:
    """A card; a split card has two halves and nothing else of its own."""
    card_id = ck.ident(raw["id"], (*path, "id"), "a card id") if "id" in raw else None
    if "halves" not in raw:
        return entries.entry(
            ck,
            raw,
            path,
            entry_id=card_id or "?",
            table_id=deck_id,
            allowed=CARD_KEYS,
            required=("id", "name"),
            what="a card",
            refs=[],
        )
    ck.keys(raw, path, SPLIT_KEYS, ("id", "name"), "a split card (its effects go on its halves)")
    name = ck.text(raw, "name", path, required=True, limit=MAX_NAME)
    halves: list[Entry] = []
    items = ck.items(raw["halves"], (*path, "halves"), "two halves") or []
    if len(items) != 2:
        ck.add((*path, "halves"), f"a split card has exactly two halves, not {len(items)}")
    for j, item in enumerate(items):
        at: KeyPath = (*path, "halves", j)
        half = ck.mapping(item, at, "a half with id, name and text")
        if half is None:
            continue
        half_id = ck.ident(half["id"], (*at, "id"), "a half id") if "id" in half else None
        entry = entries.entry(
            ck,
            half,
            at,
            entry_id=half_id or "?",
            table_id=deck_id,
            allowed=HALF_KEYS,
            required=("id", "name"),
            what="half of a split card",
            refs=[],
        )
        if entry is not None:
            halves.append(entry)
    if len(halves) == 2 and halves[0].id == halves[1].id:
        ck.add((*path, "halves", 1, "id"), f"both halves have the id {halves[0].id!r}")
    tags = ck.tags(raw["tags"], (*path, "tags")) if "tags" in raw else ()
    if card_id is None or name is None or len(halves) != 2:
        return None
    try:
        return Entry(id=card_id, name=name, halves=tuple(halves), tags=tags)
    except TableError as error:  # pragma: no cover - two halves checked above
        ck.add(path, str(error))
        return None
