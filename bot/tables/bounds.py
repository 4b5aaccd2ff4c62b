"""The worst one resolution of a ruleset can do, worked out from its tables before anyone plays.

A roll can lead to more rolls (links, "roll N times", "once on each"), each entry throws dice
and writes text, and the ruleset's budget caps rolls and depth. A ruleset whose every file is
valid could still ask one turn for millions of dice: three small files once took 71 s and
6.8 GB to play one turn. The engine stops such a resolution at its limits
(:mod:`bot.engine.limits`); this check refuses the ruleset before that can happen, naming the
chain of entries (file:line) that explodes.

For a roll on table *t* made at depth *d*, the worst case is the worst of its entries: what the
entry itself throws and writes, plus the worst case of each roll it asks for at depth *d + 1*.
Rolls deeper than the budget's depth aren't made. That gives an upper bound for each quantity
(rolls, dice, bytes) by dynamic programming over depth, in time linear in entries × depth. The
budget's roll count caps it again: no resolution makes more than ``rolls`` rolls, each at most
the costliest roll it can reach. Under the classic nesting rule an ignored multi-roll is rolled
again, so only that second cap holds there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.engine.dice import Die, Sum, inline_exprs
from bot.engine.limits import MAX_RESOLUTION_BYTES, MAX_RESOLUTION_DICE, entry_dice, roll_size
from bot.engine.model import Entry, Kind, MultiMode, Nesting, RollTable, Ruleset, TableId
from bot.tables.files import LoadedFile
from bot.tables.problems import TableFileError

CAP = 10**15  # worst cases are counted up to here: far past any limit, and cheap to add
SHOWN_STEPS = 6  # steps of the exploding chain a message names


@dataclass(frozen=True, slots=True)
class Cost:
    """What one roll that comes up on one entry costs by itself, and the rolls it asks for."""

    dice: int
    bytes: int
    children: tuple[tuple[TableId, int], ...]  # (list, how many rolls on it)
    one_of: bool = False  # the rolls are on one of the children (picked at random), not all


@dataclass(frozen=True)
class Worst:
    """The worst case of one resolution that starts with a roll on `table`."""

    table: TableId
    rolls: int
    dice: int
    bytes: int


def worst_cases(ruleset: Ruleset) -> dict[TableId, Worst]:
    """The worst case of a resolution starting on each list of the ruleset."""
    costs = _costs(ruleset)
    levels = _levels(ruleset, costs)
    top = levels[0]
    reach = _reachable(costs)
    budget = ruleset.budget.rolls
    rerolls = ruleset.nesting is Nesting.IGNORE_NESTED
    # Each list's own dearest entry and whether it has a multi-roll, once: a list reaches most
    # of the others, and going through their entries again for each was most of this check.
    own_multi = {t: any(sum(n for _, n in c.children) > 1 for c in cs) for t, cs in costs.items()}
    own_dice = _dearest(costs, lambda c: c.dice)
    own_bytes = _dearest(costs, lambda c: c.bytes)
    worst = {}
    for table in ruleset.tables:
        rolls, dice, size = top[table]
        reached = reach[table]
        # An ignored multi-roll is rolled again: only the budget caps it.
        if rerolls and any(own_multi[t] for t in reached):
            rolls = dice = size = CAP
        rolls = min(rolls, budget)
        dearest_dice = max(own_dice[t] for t in reached)
        dearest_bytes = max(own_bytes[t] for t in reached)
        worst[table] = Worst(
            table, rolls, min(dice, rolls * dearest_dice), min(size, rolls * dearest_bytes)
        )
    return worst


def check_bounds(ruleset: Ruleset, sources: Mapping[TableId, LoadedFile]) -> list[TableFileError]:
    """One problem naming the worst chain, when a resolution could pass the engine's limits."""
    worst = worst_cases(ruleset)
    over = [
        w for w in worst.values() if w.dice > MAX_RESOLUTION_DICE or w.bytes > MAX_RESOLUTION_BYTES
    ]
    if not over:
        return []
    dearest = _dearest(_costs(ruleset), lambda c: c.dice)
    # The worst; among equals, the list whose own entries cost the most (where it explodes)
    bad = min(over, key=lambda w: (-w.dice, -w.bytes, -dearest[w.table], w.table))
    if bad.dice > MAX_RESOLUTION_DICE:
        what = f"{_many(bad.dice)} dice (at most {MAX_RESOLUTION_DICE:,} are thrown"
    else:
        what = f"{_many(bad.bytes // 1024)} KB of log (at most {MAX_RESOLUTION_BYTES // 1024} KB"
    steps = _chain(ruleset, bad.table, sources, by_dice=bad.dice > MAX_RESOLUTION_DICE)
    file, line = steps[0][0], steps[0][1]
    chain = " -> ".join(text for _, _, text in steps)
    message = (
        f"one roll on {bad.table} can lead to {_many(bad.rolls)} rolls and {what}; the rest"
        f" would be cut off): {chain}; lower the budget's rolls or depth, or the rolls and dice"
        " these entries ask for"
    )
    return [TableFileError(file, line, "", message)]


# -- the dynamic programme ----------------------------------------------------------------------


def _costs(ruleset: Ruleset) -> dict[TableId, list[Cost]]:
    """Each list's entries, as costs (an entry that covers several numbers counts once)."""
    chaos = ruleset.lists or ((ruleset.chaos_table,) if ruleset.chaos_table else ())
    return {
        table.id: [_cost(table, entry, chaos) for entry in table.entries]
        for table in ruleset.tables.values()
    }


def _dearest(costs: Mapping[TableId, list[Cost]], of: Callable[[Cost], int]) -> dict[TableId, int]:
    """Each list's dearest entry by itself, in dice or in bytes (`of` reads which)."""
    return {t: max((of(c) for c in entries), default=0) for t, entries in costs.items()}


def _cost(table: RollTable, entry: Entry, chaos: tuple[TableId, ...] = ()) -> Cost:
    dice = _table_dice(table) + entry_dice(entry)
    text = len(entry.text) + 3 * len(inline_exprs(entry.text))  # "{d6}" may read "-10000"
    one_of = entry.multi is not None and entry.multi.mode is MultiMode.RANDOM
    return Cost(dice, roll_size(text, dice), _children(table.id, entry, chaos), one_of)


def _table_dice(table: RollTable) -> int:
    dice = table.dice
    if isinstance(dice, Sum):
        return dice.count
    return 1 if isinstance(dice, Die) else 2  # a die, or a tens die and a d10


def _children(
    table: TableId, entry: Entry, chaos: tuple[TableId, ...] = ()
) -> tuple[tuple[TableId, int], ...]:
    if entry.kind is Kind.LINK and entry.link is not None:
        return ((entry.link, 1),)
    multi = entry.multi
    if entry.kind is not Kind.MULTI or multi is None:
        return ()
    if multi.mode is MultiMode.EACH or multi.mode is MultiMode.RANDOM:
        return tuple((t, 1) for t in multi.tables)
    if multi.mode is MultiMode.CHAOS:  # each roll may be on any chaos list: counted on all
        n = max(multi.times.bounds()[1], 0)
        return tuple((t, 1) for t in multi.tables[:1]) + tuple((t, n) for t in chaos)
    # "keep one" rolls every candidate; only the kept one goes on, but any may be kept
    return ((multi.tables[0] if multi.tables else table, max(multi.times.bounds()[1], 0)),)


Totals = tuple[int, int, int]  # rolls, dice, bytes


def _levels(ruleset: Ruleset, costs: Mapping[TableId, list[Cost]]) -> list[dict[TableId, Totals]]:
    """For each depth from 0 to the budget's, the worst totals of a roll made there on each
    list; rolls deeper than the budget's depth aren't made, so they count nothing."""
    depth = ruleset.budget.depth
    # An entry that rolls on no list costs the same at every depth: each list's worst such
    # entry is found once, and each depth goes through only the entries that roll on, those
    # asking for the same rolls taken as one (see _merged).
    nothing: dict[TableId, Totals] = {}
    merged = {t: _merged(entries) for t, entries in costs.items()}
    leaves = {t: _best([c for c in m if not c.children], nothing) for t, m in merged.items()}
    rolling = {t: [c for c in m if c.children] for t, m in merged.items()}
    below: dict[TableId, Totals] = dict.fromkeys(costs, (0, 0, 0))
    levels: list[dict[TableId, Totals]] = []
    for _ in range(depth + 1):
        here = {table: _best(rolling[table], below, leaves[table]) for table in costs}
        levels.append(here)
        below = here
    levels.reverse()
    return levels


def _merged(entries: list[Cost]) -> list[Cost]:
    """One cost for each set of rolls a list's entries ask for, with the dearest dice and bytes
    of the entries that ask for it. Entries that roll on the same lists differ only in what
    they throw and write themselves, and a roll's totals grow with each, so at every depth
    the worst of them is the one built from their dearest: the same worst case, from fewer
    entries (a list has many "roll twice" or "roll on X" entries alike)."""
    dearest: dict[tuple[tuple[tuple[TableId, int], ...], bool], tuple[int, int]] = {}
    for cost in entries:
        key = (cost.children, cost.one_of)
        dice, size = dearest.get(key, (0, 0))
        dearest[key] = (max(dice, cost.dice), max(size, cost.bytes))
    return [
        Cost(dice, size, children, one_of) for (children, one_of), (dice, size) in dearest.items()
    ]


def _best(
    entries: list[Cost], below: Mapping[TableId, Totals], start: Totals = (0, 0, 0)
) -> Totals:
    """The worst of `start` and each entry's totals, measure by measure."""
    rolls, dice, size = start
    for cost in entries:
        r, d, b = _totals(cost, below)
        rolls, dice, size = max(rolls, r), max(dice, d), max(size, b)
    return rolls, dice, size


def _totals(cost: Cost, below: Mapping[TableId, Totals]) -> Totals:
    rolls, dice, size = 1, cost.dice, cost.bytes
    if cost.one_of:  # one roll on one of them: the worst of them, measure by measure
        worst = [below.get(table, (0, 0, 0)) for table, _ in cost.children]
        return (
            min(rolls + max((w[0] for w in worst), default=0), CAP),
            min(dice + max((w[1] for w in worst), default=0), CAP),
            min(size + max((w[2] for w in worst), default=0), CAP),
        )
    for table, n in cost.children:
        r, d, b = below.get(table, (0, 0, 0))
        rolls, dice, size = rolls + n * r, dice + n * d, size + n * b
    return min(rolls, CAP), min(dice, CAP), min(size, CAP)


def _reachable(costs: Mapping[TableId, list[Cost]]) -> dict[TableId, set[TableId]]:
    """The lists a resolution starting on each list can roll on, itself included."""
    rolls_on = {
        table: {child for cost in entries for child, _ in cost.children if child in costs}
        for table, entries in costs.items()
    }
    found = {}
    for start in costs:
        seen = {start}
        todo = [start]
        while todo:
            for table in rolls_on[todo.pop()] - seen:
                seen.add(table)
                todo.append(table)
        found[start] = seen
    return found


# -- naming the chain ---------------------------------------------------------------------------


def _chain(
    ruleset: Ruleset, start: TableId, sources: Mapping[TableId, LoadedFile], *, by_dice: bool
) -> list[tuple[str, int, str]]:
    """The worst way down from `start`: (file, line, words) for each step, at most a few."""
    costs = _costs(ruleset)
    levels = _levels(ruleset, costs)
    pick = 1 if by_dice else 2
    steps: list[tuple[str, int, str]] = []
    table: TableId | None = start
    seen: set[TableId] = set()
    depth = 0
    while table is not None and len(steps) < SHOWN_STEPS and depth < len(levels):
        below = levels[depth + 1] if depth + 1 < len(levels) else dict.fromkeys(costs, (0, 0, 0))
        entries = costs[table]
        index = max(
            range(len(entries)),
            key=lambda i: (_totals(entries[i], below)[pick], entries[i].dice, entries[i].bytes),
        )
        cost = entries[index]
        file, line = _where(sources, ruleset.tables[table], index)
        steps.append((file, line, f"{_place(file, line)} {_does(cost)}"))
        if table in seen or not cost.children:
            break
        seen.add(table)
        table = max(
            cost.children,
            key=lambda c: (min(c[1] * below.get(c[0], (0, 0, 0))[pick], CAP), c[0] == table),
        )[0]
        depth += 1
    return steps


def _where(sources: Mapping[TableId, LoadedFile], table: RollTable, index: int) -> tuple[str, int]:
    source = sources.get(table.id)
    if source is None:
        return table.id, 1
    return source.name, source.doc.line(("entries", index))


def _place(file: str, line: int) -> str:
    return f"{file.replace(chr(92), '/').rsplit('/', 1)[-1]}:{line}"


def _does(cost: Cost) -> str:
    parts = []
    if cost.children and cost.one_of:
        parts.append("rolls once on one of " + ", ".join(t for t, _ in cost.children))
    elif cost.children:
        parts.append(
            " and ".join(f"rolls {n} time{'s' * (n != 1)} on {t}" for t, n in cost.children)
        )
    parts.append(f"throws {cost.dice} {'die' if cost.dice == 1 else 'dice'}")
    return ", ".join(parts)


def _many(n: int) -> str:
    return "more than a trillion" if n >= CAP else f"{n:,}"
