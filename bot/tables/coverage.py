"""Coverage: every number a table's dice can make must lead to exactly one entry.

A sweep over the bands sorted by their first number finds gaps and overlaps in one pass, so a
5,000-entry table costs no more than sorting it. Each message names both sides with their lines.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.dice import Dice
from bot.tables.entries import label, span
from bot.tables.problems import KeyPath
from bot.tables.schema import Checker


@dataclass(frozen=True, slots=True)
class Placed:
    """An entry's band and where it was written."""

    low: int
    high: int
    path: KeyPath  # the entry's `at`
    line: int

    @property
    def label(self) -> str:
        return label(self.low, self.high)


def _numbers(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


def check_coverage(ck: Checker, dice: Dice, bands: list[Placed], entries: KeyPath) -> None:
    """Note every gap, overlap and out-of-range band of a table rolled with `dice`."""
    first, last = span(dice)
    inside: list[Placed] = []
    for band in bands:
        if band.high < first or band.low > last:
            ck.add(
                band.path,
                f"{band.label} can never come up: {dice.notation} rolls {first}-{last}",
            )
        elif band.low < first or band.high > last:
            ck.add(
                band.path,
                f"{band.label} goes outside {first}-{last}, the results {dice.notation} can make",
            )
            inside.append(band)
        else:
            inside.append(band)
    inside.sort(key=lambda band: (band.low, band.high))
    reach = first - 1  # every number up to here has an entry
    owner: Placed | None = None  # the band that reaches furthest so far
    for band in inside:
        if band.low > reach + 1:
            after = f" (after {owner.label} on line {owner.line})" if owner else ""
            ck.add(
                entries,
                f"no entry for {_numbers(reach + 1, band.low - 1)}{after};"
                f" {dice.notation} can roll every number from {first} to {last}",
                line=band.line,
            )
        elif owner is not None and band.low <= reach:
            overlap = _numbers(band.low, min(band.high, reach))
            verb = "is" if "-" not in overlap else "are"
            ck.add(
                band.path,
                f"{overlap} {verb} in both {owner.label} (line {owner.line})"
                f" and {band.label} (line {band.line})",
            )
        if band.high > reach:
            reach, owner = band.high, band
    if reach < last:
        after = f" (after {owner.label} on line {owner.line})" if owner else ""
        line = owner.line if owner else None
        ck.add(
            entries,
            f"no entry for {_numbers(reach + 1, last)}{after};"
            f" {dice.notation} can roll every number from {first} to {last}",
            line=line,
        )
