"""Dice and numbering for the Peter Deal importer (:mod:`bot.tables.dealpete`).

A list in Deal's ``chaos.yaml`` states its dice only in prose (``desc``) and numbers its entries
from ``first_index`` (or by ``index`` bands). This module reads the dice out of the prose,
checks them against what the entries cover, infers dice from the numbers when the prose is
silent or wrong, and settles the quirks real files have: bands that overlap, numbers no entry
covers, and entries the dice can never reach. Every decision comes back as a warning.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.dice import MAX_DICE, MAX_SIDES
from bot.tables.schema import MAX_OUTCOMES

MAX_INDEX = 100_000  # the largest first_index or index number accepted
MAX_SPREAD = 100_000  # numbers all the bands of one list may cover, overlaps counted again

_MENTION = re.compile(
    r"(?<![A-Za-z0-9])([0-9]{0,3})[dD]([0-9]{1,5})(?![A-Za-z0-9])(?:\s*\+\s*([0-9]{1,5}))?"
)
# "(d8 for the tens digit, d10 for the units digit)" explains a "d80 + 9": not dice of their own.
_PART = re.compile(r"\s*(?:for|as)\s+(?:the\s+)?(tens|units|ones)\b", re.IGNORECASE)
_INDEX = re.compile(r"\s*([0-9]{1,7})\s*(?:(?:-|–|—|to)\s*([0-9]{1,7})\s*)?", re.IGNORECASE)


@dataclass(frozen=True)
class Shape:
    """Dice as our YAML writes them (``d20``, ``3d8``, ``{tens: d8}``) and the numbers they make."""

    value: str | dict[str, str]
    low: int
    high: int

    @property
    def notation(self) -> str:
        return self.value if isinstance(self.value, str) else f"d{self.value['tens'][1:]}0 + 9"

    def __str__(self) -> str:
        return f"{self.notation} ({self.low}-{self.high})"


@dataclass(frozen=True)
class Mention:
    """Dice named in prose: ``count`` d ``sides`` (+ ``plus``), as written."""

    count: int
    sides: int
    plus: int | None
    text: str


@dataclass(frozen=True)
class Placed:
    """An entry's numbers: ``low``-``high``, from roll ``pos`` of the list."""

    low: int
    high: int
    pos: int


@dataclass
class Settled:
    """Where each roll ended up: pieces (low, high, pos) in number order, plus the gaps left."""

    pieces: list[Placed]
    gaps: list[tuple[int, int]]
    warnings: list[str]


def ranges(numbers: Sequence[int]) -> str:
    """Sorted numbers as ``1-3, 7``."""
    return ", ".join(label(low, high) for low, high in runs(numbers))


def runs(numbers: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted numbers as runs of consecutive numbers."""
    out: list[tuple[int, int]] = []
    for n in numbers:
        if out and out[-1][1] == n - 1:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return out


def label(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


def mentions(desc: str) -> list[Mention]:
    """Every distinct dice expression in `desc`, in order, leaving out tens/units explanations."""
    found: dict[str, Mention] = {}
    tens: list[Mention] = []
    for match in _MENTION.finditer(desc):
        if part := _PART.match(desc, match.end(2)):
            if not tens and part[1].lower() == "tens" and not match[1] and not match[3]:
                # "a d8 for the tens digit and a d10 for the units": d80 + 9 in other words.
                sides = int(match[2])
                tens.append(Mention(1, sides * 10, 9, f"d{sides} for the tens"))
            continue
        count = int(match[1]) if match[1] else 1
        plus = int(match[3]) if match[3] else None
        text = f"{match[1]}d{int(match[2])}" + (f" + {plus}" if plus is not None else "")
        found.setdefault(text, Mention(count, int(match[2]), plus, text))
    return list(found.values()) or tens


def shape_of(mention: Mention) -> Shape | None:
    """Our dice for a mention; None for what they can't express (``d20 + 4``, ``2d6 + 1``...)."""
    count, sides, plus = mention.count, mention.sides, mention.plus
    if not 1 <= count <= MAX_DICE or not 2 <= sides <= MAX_SIDES:
        return None
    if count > 1:
        return Shape(f"{count}d{sides}", count, count * sides) if not plus else None
    if not plus:
        return Shape(f"d{sides}", 1, sides)
    if plus == 9 and sides % 10 == 0 and sides >= 20:
        # d80 + 9 is 10-89, every number equally likely: a d8 for the tens and a d10 for units.
        return Shape({"tens": f"d{sides // 10}"}, 10, sides + 9)
    return None


def infer(low: int, high: int) -> tuple[Shape, int] | None:
    """Dice for entries numbered `low`..`high`, and the shift to add to every number.

    1-N is dN; 10-N9 is a tens die; 2-4 up to a multiple is a sum (3-24 is 3d8); anything else
    is renumbered from 1 (shift 1 - low). A single number becomes d2, its 2 left uncovered.
    None when the numbers span more than a die can have sides.
    """
    if low == 1 and 2 <= high <= MAX_SIDES:
        return Shape(f"d{high}", 1, high), 0
    if low == 10 and high >= 29 and (high - 9) % 10 == 0 and (high - 9) // 10 <= MAX_SIDES:
        return Shape({"tens": f"d{(high - 9) // 10}"}, 10, high), 0
    if 2 <= low <= 4 and high % low == 0 and 2 <= high // low <= MAX_SIDES:
        return Shape(f"{low}d{high // low}", low, high), 0
    size = max(high - low + 1, 2)
    return (Shape(f"d{size}", 1, size), 1 - low) if size <= MAX_SIDES else None


@dataclass(frozen=True)
class Choice:
    """The dice a list is imported with, the shift applied to its numbers, and why."""

    shape: Shape
    shift: int
    warnings: list[str]


def choose(name: str, desc: str, placed: Sequence[Placed], first_index: int) -> Choice | str:
    """The list's dice: the desc's when they fit its entries, else inferred from the numbers.

    A desc naming three or more dice, or two when the first doesn't fit, is a building
    procedure: the list is imported as a plain table over its parts. Returns an error message
    when no dice can be found.
    """
    said = mentions(desc)
    stated = shape_of(said[0]) if said else None
    low, high = min(b.low for b in placed), max(b.high for b in placed)
    where = f"its {len(placed)} entries (from first_index {first_index}) cover {label(low, high)}"
    if stated is not None and too_many(stated):
        stated = None
    fine = stated is not None and fits(stated, placed)
    if stated is not None and fine and len(said) < 3:
        return Choice(stated, 0, [])
    guess = infer(low, high)
    if guess is None:
        return f"{where}: more numbers than one die has sides ({MAX_SIDES}); give it index bands"
    shape, shift = guess
    if len(said) >= 3 or (len(said) == 2 and not fine):
        why = (
            f"its desc is a building procedure (it names {', '.join(m.text for m in said)});"
            f" imported as a plain {shape} table over its {len(placed)} parts, with the"
            " procedure in the directions"
        )
    elif not said:
        why = f"its desc names no dice; {where}, so it is rolled with {shape}"
    elif stated is None:
        why = f"its desc says {said[0].text}, which can't be expressed; {where}: using {shape}"
    else:
        why = f"its desc says {stated}, but {where}: using {shape} instead"
    warnings = [f"{name}: {why}"]
    if shift:
        warnings.append(
            f"{name}: entries renumbered {label(low, high)} -> {label(low + shift, high + shift)}"
            f" to fit {shape}"
        )
    return Choice(shape, shift, warnings)


def parse_index(value: object) -> tuple[int, int] | str:
    """An entry's ``index`` (``7``, ``"2 - 3"``) as a band, or what is wrong with it."""
    if isinstance(value, int) and not isinstance(value, bool):
        low = high = value
    elif isinstance(value, str) and (match := _INDEX.fullmatch(value)):
        low = int(match[1])
        high = int(match[2]) if match[2] else low
    else:
        return "expected a number or a band like '2 - 3'"
    if low > high:
        return f"the band {low} - {high} runs backwards"
    if not 0 <= low <= high <= MAX_INDEX:
        return f"numbers must be from 0 to {MAX_INDEX:,}"
    return low, high


def misfit(shape: Shape, placed: Sequence[Placed]) -> int:
    """How many numbers disagree: results no entry covers, plus numbers outside the dice."""
    inside = outside = 0
    reach = None
    for band in sorted(placed, key=lambda b: (b.low, b.high)):
        low = band.low if reach is None else max(band.low, reach + 1)
        if low > band.high:
            continue
        reach = band.high
        within = max(0, min(band.high, shape.high) - max(low, shape.low) + 1)
        inside += within
        outside += band.high - low + 1 - within
    return shape.high - shape.low + 1 - inside + outside


def fits(shape: Shape, placed: Sequence[Placed]) -> bool:
    """Close enough to keep the stated dice: a tenth of the results (at least 1) may disagree."""
    return misfit(shape, placed) <= max(1, (shape.high - shape.low + 1) // 10)


def settle(
    name: str, shape: Shape, placed: Sequence[Placed], names: Sequence[str]
) -> Settled | str:
    """Clip strays, split overlaps (the earlier roll keeps shared numbers) and find the gaps.

    `names[pos]` is how warnings call roll `pos`. Returns an error message for lists whose
    bands overlap too much to sort out.
    """
    warnings: list[str] = []
    dropped: list[str] = []
    clipped: list[Placed] = []
    for band in placed:
        low, high = max(band.low, shape.low), min(band.high, shape.high)
        if low > high:
            dropped.append(f"{label(band.low, band.high)} ({names[band.pos]})")
        else:
            if (low, high) != (band.low, band.high):
                dropped.append(f"{ranges(_outside(band, shape))} of {names[band.pos]}")
            clipped.append(Placed(low, high, band.pos))
    if dropped:
        warnings.append(
            f"{name}: {shape} can never roll {'; '.join(dropped)}: dropped"
            " (entries beyond the dice's range are left out)"
        )
    if sum(b.high - b.low + 1 for b in clipped) > MAX_SPREAD:
        return f"its bands cover more than {MAX_SPREAD:,} numbers in all; they overlap too much"
    owner: dict[int, Placed] = {}
    pieces: list[Placed] = []
    for band in clipped:
        numbers = range(band.low, band.high + 1)
        free = [n for n in numbers if n not in owner]
        shared = [n for n in numbers if n in owner]
        if shared:
            earlier = list(dict.fromkeys(owner[n].pos for n in shared))
            verb = "stays" if len(shared) == 1 else "stay"
            what = f"becomes {ranges(free)}" if free else "is dropped (nothing is left of it)"
            warnings.append(
                f"{name}: {names[band.pos]} ({label(band.low, band.high)}) overlaps"
                f" {', '.join(names[p] for p in earlier)} on {ranges(shared)}; {ranges(shared)}"
                f" {verb} with the earlier {'entry' if len(earlier) == 1 else 'entries'} and the"
                f" later one {what}"
            )
        for low, high in runs(free):
            piece = Placed(low, high, band.pos)
            pieces.append(piece)
            for n in range(low, high + 1):
                owner[n] = piece
    gaps = runs([n for n in range(shape.low, shape.high + 1) if n not in owner])
    pieces.sort(key=lambda b: b.low)
    return Settled(pieces, gaps, warnings)


def _outside(band: Placed, shape: Shape) -> list[int]:
    below = range(band.low, min(band.high, shape.low - 1) + 1)
    above = range(max(band.low, shape.high + 1), band.high + 1)
    return [*below, *above]


def too_many(shape: Shape) -> bool:
    return shape.high - shape.low + 1 > MAX_OUTCOMES
