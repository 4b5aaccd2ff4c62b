"""A simulation report as text: the figures first, then every table's entries with how often
each came up against how often its dice say it should.
"""

from __future__ import annotations

from collections import Counter

from bot.engine.model import Ruleset
from bot.tables.simulate import SimulationReport


def _share(part: float, whole: float) -> str:
    return f"{part / whole:6.1%}" if whole else "     -"


def _expected(ruleset: Ruleset, table_id: str) -> list[tuple[str, str, float]]:
    """(entry id, entry name, expected share) in the order players read them."""
    if table_id in ruleset.tables:
        table = ruleset.tables[table_id]
        weights = table.dice.weights()
        total = sum(weights.values())
        return [
            (
                band.entry.id,
                band.entry.name,
                sum(weights.get(n, 0) for n in range(band.low, band.high + 1)) / total,
            )
            for band in table.bands
        ]
    if table_id in ruleset.decks:
        cards = ruleset.decks[table_id].cards
        total = sum(card.copies for card in cards)
        rows = []
        for card in cards:
            halves = card.entry.halves
            for part in halves or (card.entry,):
                rows.append((part.id, part.name, card.copies / total / (len(halves) or 1)))
        return rows
    return []


def render_report(report: SimulationReport, ruleset: Ruleset) -> str:
    lines = [
        f"{ruleset.name} ({report.ruleset}): {report.turns} turns with {report.players}"
        f" players, seed {report.seed}",
        f"rolls: {report.rolls} in all, {report.mean_rolls:.2f} a turn on average,"
        f" at most {report.max_rolls} in one turn",
        f"meta results: {report.meta} ({report.meta_share:.1%});"
        f" ignored and rolled again: {report.ignored}",
        f"deepest nesting: {report.max_depth}; roll budget used up: {report.exhausted} times",
    ]
    if report.list_turns:
        spent = ", ".join(
            f"{name} {count} ({count / report.turns:.0%})"
            for name, count in sorted(report.list_turns.items())
        )
        lines.append(f"turns on each list: {spent}")
    if report.reshuffles or ruleset.decks:
        shuffles = ", ".join(f"{deck} {report.reshuffles.get(deck, 0)}" for deck in ruleset.decks)
        lines.append(f"deck reshuffles: {shuffles}")
    for message, count in report.refused.items():
        lines.append(f"chaos roll refused {count} times: {message}")
    for table_id in [*ruleset.tables, *ruleset.decks]:
        counts = report.entries.get(table_id, Counter())
        rolled = sum(counts.values())
        rows = _expected(ruleset, table_id)
        name = (ruleset.tables.get(table_id) or ruleset.decks[table_id]).name
        lines += ["", f"{name} ({table_id}): {rolled} rolls"]
        if not rolled:
            continue
        width = max(len("result"), *(len(entry_id) for entry_id, _, _ in rows))
        lines.append(f"  {'result':<{width}}  {'came up':>14}  {'expected':>8}  entry")
        for entry_id, entry_name, expected in rows:
            count = counts.get(entry_id, 0)
            lines.append(
                f"  {entry_id:<{width}}  {count:>7} {_share(count, rolled)}"
                f"  {expected:>8.1%}  {entry_name}"
            )
    return "\n".join(lines)
