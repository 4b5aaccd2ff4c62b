"""Rolls of a Peter Deal list as our table entries: cards, custom effects and links.

Part of the importer (:mod:`bot.tables.dealpete`). Every function raises TableError naming the
list and the roll for input it can't read; what it guesses or repairs goes into `warnings`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from bot.engine.dice import parse_expr
from bot.engine.errors import DiceError, TableError
from bot.tables.schema import MAX_NAME, MAX_TEXT, MAX_TIMES, describe

CREATURE = ("mana_cost", "type", "power", "toughness")
# What the engine rolls as inline dice (bot.engine.dice's own pattern, read one way).
_DICE_BRACES = re.compile(r"\{([^{}dD]*[dD][^{}]*)\}")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


@dataclass(frozen=True)
class Target:
    """A list a link may lead to: our id for it and its title."""

    id: str
    title: str


@dataclass
class Where:
    """The roll being converted: `at` for errors, `short` and `pos` for warnings, `number` (its
    number on Deal's list) for the importer's report."""

    at: str
    short: str
    pos: int
    warnings: list[str]
    number: str = ""

    def fit(self, text: str, limit: int, what: str) -> str:
        """`text` cut to `limit` characters (with a warning when it is)."""
        return fit(text, limit, self.short, f"rolls[{self.pos}] {what}", self.warnings)


def entry(
    roll: dict[object, object], where: Where, targets: Mapping[str, Target], *, is_global: bool
) -> dict[str, object]:
    """One roll as our entry (without its `at`): a card, a custom effect or a link."""
    at = where.at
    does = [key for key in ("card", "list") if key in roll]
    if len(does) > 1:
        raise TableError(f"{at}: a roll is a card or a link, not both")
    if not does and "name" not in roll and "text" not in roll:
        keys = ", ".join(describe(k) for k in roll) or "none"
        raise TableError(
            f"{at}: a roll of unknown shape (keys: {keys}); expected {{card: NAME}},"
            " {name: ..., text: ...} or {list: SHORT_NAME}"
        )
    name = text_of(roll.get("name"), at, "name")
    text = text_of(roll.get("text"), at, "text")
    times = _times(roll["times"], at) if "times" in roll else 1
    if does == ["list"]:
        return _link(roll["list"], name, text, times, where, targets)
    parts = [text] if text else []
    card = text_of(roll.get("card"), at, "card") if "card" in roll else ""
    if "card" in roll and not card:
        raise TableError(f"{at}: card needs the name of a card")
    x = _xdice(roll["Xdice"], at) if "Xdice" in roll else None
    if any(key in roll for key in CREATURE):
        parts.append(_creature(roll, card or name, at))
    if card and is_global:
        parts.insert(0, f"{card} works from the command zone for everyone, as the card does.")
    if x is not None and (is_global or not card):
        parts.append(f"X is {{{x}}}." if "d" in x else f"X is {x}.")
    if times > 1:
        parts.append(f"{'Cast it' if card else 'Do it'} {times} times.")
    fallback = name or card or derive(text) or f"Entry {where.pos + 1}"
    out: dict[str, object] = {"name": where.fit(fallback, MAX_NAME, "name")}
    if is_global:
        out["global"] = True
    elif card:
        out["card"] = where.fit(card, MAX_NAME, "card")
        if x is not None:
            out["x"] = int(x) if x.isdigit() else x
    if parts:
        out["text"] = where.fit(sentences(parts), MAX_TEXT, "text")
    return out


def _link(
    target: object,
    name: str,
    text: str,
    times: int,
    where: Where,
    targets: Mapping[str, Target],
) -> dict[str, object]:
    if not isinstance(target, str) or not target.strip():
        raise TableError(
            f"{where.at}: list should be the short_name of a list, got {describe(target)}"
        )
    target = target.strip()
    found = targets.get(target) or next(
        (t for short, t in targets.items() if short.casefold() == target.casefold()), None
    )
    several = f"{times} times " if times > 1 else ""
    if found is None:
        where.warnings.append(
            f"{where.short}: rolls[{where.pos}] links to {target!r}, which is not in this"
            " file; it became an effect saying so"
        )
        note = f"Roll {several}on {target} (not in this file)."
        return {
            "name": where.fit(name or f"Roll on {target}", MAX_NAME, "name"),
            "text": where.fit(f"{text} {note}".strip(), MAX_TEXT, "text"),
        }
    out: dict[str, object] = {
        "name": where.fit(name or f"Roll {several}on {found.title}", MAX_NAME, "name")
    }
    if text:
        out["text"] = where.fit(text, MAX_TEXT, "text")
    if times == 1:
        out["link"] = found.id
    elif times <= MAX_TIMES:
        out["roll"] = {"times": times, "list": found.id}
    else:
        raise TableError(f"{where.at}: times {times}: a link may roll at most {MAX_TIMES} times")
    return out


def _times(value: object, at: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1000:
        raise TableError(
            f"{at}: times should be a whole number from 1 to 1000, got {describe(value)}"
        )
    return value


def _xdice(value: object, at: str) -> str:
    """``[count, sides, bonus]`` as dice notation; 0 or 1 sides make a fixed count + bonus."""
    numbers = value if isinstance(value, list) else []
    if len(numbers) == 2:
        numbers = [*numbers, 0]
    if len(numbers) != 3 or not all(
        isinstance(n, int) and not isinstance(n, bool) for n in numbers
    ):
        shown = describe(value)
        if isinstance(value, list) and all(not isinstance(n, dict | list) for n in value[:5]):
            shown = (
                "["
                + ", ".join(describe(n) for n in value[:5])
                + ("...]" if len(value) > 5 else "]")
            )
        raise TableError(
            f"{at}: Xdice should be [count, sides, bonus] (whole numbers), got {shown}"
        )
    count, sides, bonus = numbers
    if count < 0 or sides < 0:
        raise TableError(f"{at}: Xdice {numbers}: count and sides can't be negative")
    if sides <= 1 or count == 0:
        fixed = count * max(sides, 1) + bonus if sides <= 1 else bonus
        notation = str(fixed)
    else:
        notation = f"{count}d{sides}" + (f"+{bonus}" if bonus > 0 else f"{bonus}" if bonus else "")
    try:
        low, _ = parse_expr(notation).bounds()
    except DiceError as error:
        raise TableError(f"{at}: Xdice {numbers}: {error}") from None
    if low < 0:
        raise TableError(f"{at}: Xdice {numbers} can make X negative")
    return notation


def _creature(roll: dict[object, object], name: str, at: str) -> str:
    cost = re.sub(r"[{}]", "", text_of(roll.get("mana_cost"), at, "mana_cost"))
    kind = text_of(roll.get("type"), at, "type")
    power = text_of(roll.get("power"), at, "power")
    toughness = text_of(roll.get("toughness"), at, "toughness")
    line = f"Create a token copy of {name}" + (f" ({cost})" if cost else "")
    line += f" — {kind}" if kind else ""
    if power or toughness:
        line += f"{',' if kind else ' —'} {power or '?'}/{toughness or '?'}"
    return line + "."


def sentences(parts: list[str]) -> str:
    """Parts of a text joined as sentences (a full stop added where one is missing)."""
    done = [p if p[-1] in ".!?)" else f"{p}." for p in parts[:-1]]
    return " ".join([*done, parts[-1]])


def derive(text: str) -> str:
    """A short name from an effect's text: its first clause, cut at a word near 48 characters."""
    plain = re.sub(r"[{}]", "", text.strip())
    first = re.split(r"[.!?:;\n]", plain, maxsplit=1)[0].strip(" ,")
    if len(first) <= 48:
        return first
    return first[:48].rsplit(" ", 1)[0].rstrip(" ,") + "…"


def text_of(value: object, at: str, key: str) -> str:
    """A scalar as clean text; braces the engine would roll but can't are made parentheses."""
    if value is None:
        return ""
    if isinstance(value, bool):
        value = "Yes" if value else "No"
    if not isinstance(value, str | int | float):
        raise TableError(f"{at}: {key} should be text, got {describe(value)}")
    text = _CONTROL.sub("", str(value)).encode("utf-8", "replace").decode("utf-8").strip()
    return _DICE_BRACES.sub(_brace, text)


def _brace(match: re.Match[str]) -> str:
    try:
        parse_expr(match[1])
    except DiceError:
        return f"({match[1]})"
    return match[0]


def fit(text: str, limit: int, short: str, what: str, warnings: list[str]) -> str:
    if len(text) <= limit:
        return text
    warnings.append(f"{short}: {what} of {len(text):,} characters was cut to {limit:,}")
    return text[: limit - 1].rstrip() + "…"
