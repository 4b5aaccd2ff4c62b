"""The table format as data: which keys each kind of object may have, and a checker that reads
values out of a document, noting every problem (with its line and key path) and carrying on.

The keys below are the whole format; `docs/tables.md` explains each one to table authors.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from bot.engine.dice import DiceExpr, parse_expr
from bot.engine.errors import DiceError
from bot.engine.tags import TAGS, tag_words
from bot.tables.problems import KeyPath, TableFileError
from bot.tables.yamlnodes import Document

SCHEMA = 1  # the newest format version this bot reads

MAX_NAME = 200
MAX_ANSWER = 300  # a rules section's one-line answer: two sentences at most, as a rule
MAX_TEXT = 2000
MAX_TIMES = 100  # rolls one multi-roll may ask for
MAX_COPIES = 100
MAX_OUTCOMES = 10_000  # numbers a table's dice may make (and so results it needs)

HEADER = ("schema", "kind", "id", "name", "revision")
DOES = ("card", "link", "roll", "token", "world", "global")
MODIFIERS = ("lasts", "gains_life", "life", "removes", "next_list", "turn")
ENTRY_KEYS = ("at", "name", "text", *DOES, "x", "count", *MODIFIERS, "offers", "tags")
MAX_OFFERS = 10  # offers on one entry, and lists in one `one_of`
_CARD_OWN = ("id", "name", "text", "copies", "halves", "card", "x", "token", "count")
CARD_KEYS = (*_CARD_OWN, "world", "global", *MODIFIERS, "tags")
SPLIT_KEYS = ("id", "name", "copies", "halves", "tags")
HALF_KEYS = tuple(k for k in CARD_KEYS if k not in ("copies", "halves", "tags"))
ROLL_KEYS = ("times", "list", "keep", "each", "random", "chaos", "starting")
LIFE_KEYS = ("gain", "per", "each", "if")
TENS_KEYS = ("tens", "max_tens_is_zero", "zero_units_is_ten")
FILE_KEYS = {
    "table": (*HEADER, "dice", "directions", "entries"),
    "deck": (*HEADER, "cards"),
    "ruleset": (
        *HEADER,
        *("chaos", "start", "nesting", "spite", "zone", "tokens", "budget", "life"),
        *("tables", "rules"),
    ),
}
RULE_KEYS = ("id", "title", "keywords", "answer", "text", "see")

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")

E = TypeVar("E", bound=StrEnum)


class Wants(StrEnum):
    """What a reference must lead to."""

    LIST = "list"
    DECK = "deck"
    CHAOS_LIST = "chaos list"
    ANY = "list or deck"


@dataclass(frozen=True, slots=True)
class Reference:
    """A place in a file that names another list or deck, checked once every file is loaded.

    `source` is set for links and multi-rolls: the list they lead away from, for the cycle check.
    """

    target: str
    wants: Wants
    file: str
    line: int
    path: KeyPath
    source: str | None = None


def describe(value: object) -> str:
    """A value as a message shows it: ``'three'``, ``3``, ``true``, ``a list``."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a mapping of keys"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return repr(value[:60] + "..." if len(value) > 60 else value)
    return str(value)


class Checker:
    """Reads one document, collecting every problem instead of stopping at the first."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.problems: list[TableFileError] = []
        self.warnings: list[TableFileError] = []  # loads anyway, but the author should look

    def warn(self, path: KeyPath, message: str) -> None:
        """Note something the file may not mean, at `path`; the file still loads."""
        self.warnings.append(self.doc.error(path, message))

    def add(self, path: KeyPath, message: str, line: int | None = None) -> None:
        """Note a problem at `path` (on `line`, when the path's own line isn't the best one)."""
        problem = self.doc.error(path, message)
        if line is not None:
            problem = TableFileError(problem.file, line, problem.path, message)
        self.problems.append(problem)

    def line(self, path: KeyPath) -> int:
        return self.doc.line(path)

    def reference(
        self, target: str, wants: Wants, path: KeyPath, source: str | None = None
    ) -> Reference:
        return Reference(target, wants, self.doc.file, self.line(path), path, source)

    # -- shapes -----------------------------------------------------------------------------

    def mapping(self, value: object, path: KeyPath, what: str) -> dict[str, object] | None:
        if isinstance(value, dict):
            return value
        self.add(path, f"expected {what} (a mapping of keys), got {describe(value)}")
        return None

    def items(self, value: object, path: KeyPath, what: str) -> list[object] | None:
        if isinstance(value, list):
            return value
        self.add(path, f"expected a list of {what}, got {describe(value)}")
        return None

    def keys(
        self,
        mapping: dict[str, object],
        path: KeyPath,
        allowed: tuple[str, ...],
        required: Iterable[str],
        what: str,
    ) -> None:
        """Unknown keys (naming the allowed ones) and missing required keys are problems."""
        for key in mapping:
            if key not in allowed:
                close = difflib.get_close_matches(key, allowed, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                self.add(
                    (*path, key),
                    f"unknown key {key!r}{hint}; {what} may have: {', '.join(allowed)}",
                )
        for key in required:
            if key not in mapping:
                self.add(path, f"{what} needs {key!r}")

    # -- scalars ----------------------------------------------------------------------------

    def text(
        self,
        mapping: dict[str, object],
        key: str,
        path: KeyPath,
        *,
        required: bool = False,
        limit: int = MAX_TEXT,
    ) -> str | None:
        """Text under `key` (a number or yes/no is read as the words typed)."""
        if key not in mapping:
            return None
        at = (*path, key)
        value = mapping[key]
        if isinstance(value, str):
            text = value.strip()
        elif isinstance(value, bool | int | float):
            text = self.doc.raw.get(at, str(value))
        elif value is None:
            text = ""
        else:
            self.add(at, f"expected text, got {describe(value)}")
            return None
        if not text and required:
            self.add(at, "is empty; write some text")
            return None
        if len(text) > limit:
            self.add(at, f"is {len(text):,} characters long; at most {limit:,} are allowed")
            return None
        return text

    def integer(self, value: object, path: KeyPath, low: int, high: int) -> int | None:
        if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            return value
        hint = " (without quotes)" if isinstance(value, str) and value.strip().isdigit() else ""
        self.add(path, f"expected a whole number from {low} to {high}, got {describe(value)}{hint}")
        return None

    def flag(self, value: object, path: KeyPath) -> bool | None:
        if isinstance(value, bool):
            return value
        self.add(path, f"expected true or false, got {describe(value)}")
        return None

    def choice(self, value: object, path: KeyPath, options: type[E]) -> E | None:
        words = [member.value for member in options]
        if isinstance(value, str) and value in words:
            return options(value)
        shown = self.doc.raw.get(path, value)  # yes/no/on/off as typed, not as booleans
        close = difflib.get_close_matches(str(shown), words, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        self.add(path, f"expected one of {', '.join(words)}, got {describe(shown)}{hint}")
        return None

    def ident(self, value: object, path: KeyPath, what: str = "an id") -> str | None:
        """An id: letters, digits, - and _, up to 40 characters, starting with a letter or digit."""
        if isinstance(value, bool | int | float) and path in self.doc.raw:
            value = self.doc.raw[path]
        if isinstance(value, str) and _ID.fullmatch(value):
            return value
        suggestion = ""
        if isinstance(value, str) and (slug := _slug(value)):
            suggestion = f" (like {slug!r})"
        self.add(
            path,
            f"{describe(value)} is not {what}: use letters, digits, - and _,"
            f" at most 40 characters{suggestion}",
        )
        return None

    def expr(self, value: object, path: KeyPath, what: str) -> DiceExpr | None:
        """A number or dice notation like ``1d6+1``."""
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str):
            self.add(path, f"expected {what}, got {describe(value)}")
            return None
        try:
            return parse_expr(value)
        except DiceError as error:
            self.add(path, f"expected {what}: {error}")
            return None

    def ids(self, value: object, path: KeyPath, what: str) -> list[tuple[str, KeyPath]]:
        """A list of ids, each with its own path; problems for anything that isn't one."""
        found: list[tuple[str, KeyPath]] = []
        items = self.items(value, path, what)
        for i, item in enumerate(items or ()):
            ident = self.ident(item, (*path, i), f"the id of a {what.removesuffix('s')}")
            if ident is not None:
                found.append((ident, (*path, i)))
        return found

    def tags(self, value: object, path: KeyPath) -> tuple[str, ...]:
        """``[slow, choice]``: tags of the vocabulary (:mod:`bot.engine.tags`), each once."""
        items = self.items(value, path, f"tags like [slow, choice] ({tag_words()})")
        found: list[str] = []
        for i, item in enumerate(items or ()):
            at: KeyPath = (*path, i)
            word = item.strip().lower() if isinstance(item, str) else ""
            if word not in TAGS:
                shown = self.doc.raw.get(at, item)
                said = shown.lower() if isinstance(shown, str) else ""
                close = difflib.get_close_matches(said, list(TAGS), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                self.add(at, f"unknown tag {describe(shown)}{hint}; the tags are {tag_words()}")
            elif word in found:
                self.add(at, f"the tag {word!r} is here twice")
            else:
                found.append(str(word))
        return tuple(sorted(found))


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9_-]+", "-", text.strip().lower()).strip("-_")[:40]
