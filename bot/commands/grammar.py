"""Reading a command line: which command it is, and its arguments as typed.

Every front end that takes text (the offline console today) reads commands with :func:`parse`.
A command's usage line and docstring are its help text, so both are written for players. The
names and options are those of the slash commands (PRODUCT §2), so a group can move between
the console and Discord without learning anything new.

Parsing never looks at a game: player names stay as typed here, and :mod:`bot.commands.build`
resolves them against the game's players when it builds the engine's action.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeAlias

from bot.engine.errors import ChaosError
from bot.render.ids import read_ref

MAX_LINE = 500
MAX_NAME = 32
MAX_LOG = 200

Args: TypeAlias = dict[str, Any]
Reader: TypeAlias = Callable[[str], Args]


class CommandError(ChaosError):
    """A line that isn't a command we know, or arguments that don't fit it; safe to show."""


class Kind(StrEnum):
    """What a front end does with a command."""

    ACTION = "action"  # build an engine action and hand it to the service
    START = "start"  # open a new game (the service's start, not an action)
    QUERY = "query"  # read-only: status, log, rules, help, tables, dice
    QUIT = "quit"  # leave the console


@dataclass(frozen=True)
class Spec:
    """One command: its name (``chaos roll``), usage line, kind, and argument reader."""

    name: str
    usage: str
    kind: Kind
    read: Reader = field(repr=False)

    @property
    def help(self) -> str:
        """What the command does, in players' words (the reader's docstring)."""
        return " ".join((self.read.__doc__ or "").split())

    @property
    def group(self) -> str:
        return self.name.split()[0]


@dataclass(frozen=True)
class Command:
    """A parsed line: the command, its arguments as typed, and who speaks (``as NAME:``)."""

    name: str
    args: Mapping[str, Any] = field(default_factory=dict)
    speaker: str | None = None

    @property
    def spec(self) -> Spec:
        return SPECS[self.name]

    @property
    def kind(self) -> Kind:
        return self.spec.kind


SPECS: dict[str, Spec] = {}
ALIASES = {"exit": "quit", "?": "help"}
# A group whose verb may be left out when what follows can't be a verb: `roll 4d6` is
# `roll dice 4d6`, as players type it to Discord's dice bots.
BARE = {"roll": "dice"}
_BARE_START = re.compile(r"[0-9(+\-.d]", re.IGNORECASE)

_NAME_WORD = re.compile(r"[a-z][a-z_]*")


def command(usage: str, kind: Kind = Kind.ACTION) -> Callable[[Reader], Reader]:
    """Register a reader under the command named by the lowercase words that open `usage`."""

    def register(read: Reader) -> Reader:
        words: list[str] = []
        for word in usage.split():
            if not _NAME_WORD.fullmatch(word):
                break
            words.append(word)
        name = " ".join(words)
        assert name, f"a command's usage starts with its name: {usage!r}"
        assert name not in SPECS, f"two commands are called {name!r}"
        SPECS[name] = Spec(name, usage, kind, read)
        return read

    return register


def groups() -> dict[str, list[Spec]]:
    """The commands by group (the first word), in the order they were registered."""
    found: dict[str, list[Spec]] = {}
    for spec in SPECS.values():
        found.setdefault(spec.group, []).append(spec)
    return found


def _speaker(text: str) -> tuple[str, str] | None:
    """``as NAME: COMMAND`` read as (NAME, COMMAND), or None when `text` doesn't start so.

    By hand rather than with a pattern: whitespace on both sides of a name that can itself
    hold whitespace let ``as`` and a long run of spaces be split n^3 ways before failing.
    """
    head, colon, command = text.partition(":")
    head = head.lstrip()
    name = head[2:]
    if not colon or head[:2].casefold() != "as" or not name[:1].isspace():
        return None
    if not name.isspace():
        return name.strip(), command.lstrip()
    # Nothing but spaces before the colon: the last of them is the name (check_name refuses it).
    return (name[-1], command.lstrip()) if len(name) > 1 else None


def parse(line: str) -> Command | None:
    """Read one line; None for a blank line or a comment (``# ...``).

    Raises CommandError with a one-line message and a hint for anything it can't read.
    """
    if len(line) > MAX_LINE:
        raise CommandError(f"that line is {len(line)} characters long; {MAX_LINE} at most")
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    speaker = None
    if said := _speaker(text):
        speaker, text = said[0], said[1].strip()
        check_name(speaker)
        if not text:
            raise CommandError(
                f"say what {speaker} does after the colon, e.g. `as {speaker}: chaos roll`"
            )
    elif text.lower().startswith("as "):
        raise CommandError("write `as NAME: COMMAND`, with a colon after the name")
    spec, rest = _find(text)
    return Command(spec.name, spec.read(rest), speaker)


def _find(text: str) -> tuple[Spec, str]:
    """The command a line starts with, and the rest of the line."""
    words = text.split(maxsplit=2)
    first = ALIASES.get(words[0].lower(), words[0].lower())
    if len(words) >= 2 and (spec := SPECS.get(f"{first} {words[1].lower()}")):
        return spec, words[2] if len(words) > 2 else ""
    if spec := SPECS.get(first):
        return spec, text[len(words[0]) :].strip()
    known = groups()
    if first in known:
        verbs = [s.name.split()[1] for s in known[first]]
        if len(words) == 1 and first in BARE:
            raise CommandError(f"say which dice, like `{first} 2d6+1` (try `help {first}`)")
        if len(words) == 1:
            raise CommandError(f"`{first}` needs one of: {', '.join(verbs)} (try `help {first}`)")
        close = difflib.get_close_matches(words[1].lower(), verbs, n=1)
        dicelike = _BARE_START.match(words[1]) or words[1][0].isnumeric()  # '٣d6': told why
        if first in BARE and not close and dicelike:
            return SPECS[f"{first} {BARE[first]}"], text[len(words[0]) :].strip()
        if first == "roll" and words[1].lower() == "chaos":
            raise CommandError("the turn's chaos roll is `chaos roll`; `roll` is for dice")
        hint = f"did you mean `{first} {close[0]}`? " if close else ""
        raise CommandError(f"`{first}` has no {words[1]!r}: {hint}({first}: {', '.join(verbs)})")
    typed = " ".join(words[:2]).lower()
    close = difflib.get_close_matches(typed, list(SPECS), n=1) or difflib.get_close_matches(
        first, list(known), n=1
    )
    hint = f": did you mean `{close[0]}`?" if close else ""
    raise CommandError(f"unknown command {words[0]!r}{hint} (`help` lists the commands)")


# -- argument readers ------------------------------------------------------------------------


def usage_of(name: str) -> str:
    return f"usage: {SPECS[name].usage}"


def nothing(name: str, rest: str) -> Args:
    if rest:
        raise CommandError(f"`{name}` takes nothing after it, got {rest!r}")
    return {}


def whole_number(rest: str, what: str, name: str, *, low: int = 0, high: int = 1_000_000) -> int:
    text = rest.strip().lstrip("#")
    if not re.fullmatch(r"[+-]?[0-9]{1,9}", text):
        raise CommandError(f"{what} must be a whole number, got {rest!r} ({usage_of(name)})")
    value = int(text)
    if not low <= value <= high:
        raise CommandError(f"{what} must be from {low} to {high}, got {value}")
    return value


def ref_number(text: str, prefix: str, what: str) -> int:
    """The number of an effect (`prefix` ``E``) or a middle card (``M``) as typed: ``E2``,
    ``e2``, and the older ``#2`` and ``2`` (see :mod:`bot.render.ids`). Both front ends read
    the ids with this, so they accept the same forms."""
    number = read_ref(text, prefix)
    if number is None or number < 1:
        shown = f"got {text.strip()!r}" if text.strip() else "got nothing"
        raise CommandError(f"{what} is written like {prefix}2 (or just 2); {shown}")
    return number


_ASCII_INT = re.compile(r"[+-]?[0-9]+")


def read_int(text: str, what: str) -> int | None:
    """The whole number `text` spells with the digits 0 to 9 (a sign and spaces around allowed).

    None when `text` isn't written as a number at all, so the caller can read it another way (an
    option's name, say). A number in other digits (``①``, ``²``, ``٣``) is refused with a
    CommandError: ``str.isdigit()`` says yes to some of them and ``int()`` then fails, and
    ``int()`` reads others that players would never mean as a number in a command.
    """
    text = text.strip()
    if _ASCII_INT.fullmatch(text) and len(text) <= 20:
        return int(text)
    body = text.lstrip("+-#")
    if body and all(c.isnumeric() or unicodedata.category(c) == "No" for c in body):
        raise CommandError(f"{what} must be written with the digits 0 to 9, like 3; got {text!r}")
    return None


def check_text(text: str, what: str) -> str:
    """`text` as it is, or CommandError if it has a control character (a NUL, say) or what is
    left of bytes that weren't valid text (U+FFFD from decoding with replacement, a lone
    surrogate from decoding with escapes)."""
    for char in text:
        kind = unicodedata.category(char)
        if kind == "Cs" or char == "\ufffd":
            raise CommandError(f"{what} can't contain bytes that aren't valid text")
        if kind == "Cc":
            raise CommandError(f"{what} can't contain a control character (U+{ord(char):04X})")
    return text


def check_name(name: str) -> str:
    """A player's name, tidied; CommandError if it's empty, too long or has , : or #."""
    name = " ".join(name.split())
    if not name:
        raise CommandError("a player needs a name")
    if len(name) > MAX_NAME:
        raise CommandError(f"a player's name has {MAX_NAME} characters at most")
    if any(c in name for c in ",:#") or not name.isprintable():
        raise CommandError(f"a player's name can't contain a comma, colon or #: {name!r}")
    return name


def player_name(rest: str) -> str | None:
    """An optional player name (the rest of the line, spaces allowed)."""
    return check_name(rest) if rest.strip() else None


def name_list(rest: str, name: str) -> tuple[str, ...]:
    """``A,B,C`` (spaces around the commas are fine)."""
    names = tuple(check_name(part) for part in rest.split(","))
    if len(names) > 50:
        raise CommandError(f"too many names ({usage_of(name)})")
    return names


def split_last_number(rest: str) -> tuple[str, str | None]:
    """``"Bob Smith 3"`` → ``("Bob Smith", "3")``; None for the number when the last word
    isn't one."""
    head, _, last = rest.rpartition(" ")
    if re.fullmatch(r"[+-]?[0-9]+", last or ""):
        return head.strip(), last
    return rest, None
