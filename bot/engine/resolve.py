"""Resolving rolls: dice, entries, links, multi-rolls, the nesting rule and the roll budget.

A resolution walks an explicit work list of pending rolls instead of recursing, so no table,
however cyclic, can hang it or overflow Python's stack: the ruleset's budget caps the number of
rolls and the depth, and running out ends the resolution with a logged message.

The resolver only rolls and records. What an honoured entry does to the game (effects, tokens,
the Global) is applied by the caller, in the order of :attr:`Resolution.steps`.

A resolution stops in two places and goes on later from what it left (its pending rolls): a
"roll N, keep one" waits for the roller's pick (:attr:`Resolution.keep`), and a result that
offers a roll, with later rolls still pending, waits for that offer to be taken or declined
(:attr:`Resolution.paused`, see :mod:`bot.engine.pauses`): each roll is resolved completely,
its offered rolls included, before the next is made.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from bot.engine.dice import InlineRoll, parse_expr, render_inline
from bot.engine.events import BudgetExhausted, InlineDice, Json, Roll
from bot.engine.events_rolls import DeniedResult
from bot.engine.limits import MAX_RESOLUTION_BYTES, MAX_RESOLUTION_DICE, roll_size
from bot.engine.model import (
    CHAOS_ROLL,
    Entry,
    EntryId,
    Kind,
    MultiMode,
    Nesting,
    PlayerId,
    RollTable,
    Ruleset,
    TableId,
)


class Task(NamedTuple):
    """A roll still to be made.

    `last` is true when this roll is the last pending roll of every multi-roll around it: under
    the classic rule only such a roll may start another multi-roll. (A named tuple: resolutions
    make one per roll, and a tuple is the cheapest immutable record to build.)
    """

    table: TableId
    parent: int | None
    depth: int
    last: bool = True
    slot: str | None = None

    def to_json(self) -> Json:
        return {
            "table": self.table,
            "parent": self.parent,
            "depth": self.depth,
            "last": self.last,
            "slot": self.slot,
        }

    @classmethod
    def from_json(cls, data: Json) -> Task:
        return cls(data["table"], data["parent"], data["depth"], data["last"], data["slot"])


@dataclass(slots=True)
class Step:
    """One roll as recorded, and the entry to apply when it was honoured."""

    roll: Roll
    entry: Entry
    honoured: bool


@dataclass(slots=True)
class Resolution:
    """Everything one resolution rolled, in order."""

    steps: list[Step] = field(default_factory=list)
    exhausted: BudgetExhausted | None = None
    keep: Json | None = None
    paused: Json | None = None  # stopped for an offer: what to go on from (bot.engine.pauses)
    last_list: TableId | None = None

    @property
    def rolls(self) -> list[Roll]:
        return [step.roll for step in self.steps]


class Resolver:
    """Resolves rolls for one player on one turn under a ruleset's nesting policy and budget."""

    __slots__ = (
        "_budget",
        "_chaos",
        "_denied",
        "_given",
        "_ignore_nested",
        "_lists",
        "_tables",
        "_waits",
        "bytes",
        "dice",
        "next_id",
        "player",
        "result",
        "rng",
        "root",
        "ruleset",
        "turn",
        "used",
    )

    def __init__(
        self,
        ruleset: Ruleset,
        rng: random.Random,
        *,
        player: PlayerId,
        turn: int,
        next_id: int,
        used: int = 0,
        chaos: TableId | None = None,
        denied: Mapping[TableId, frozenset[EntryId]] | None = None,
        given: Mapping[TableId, frozenset[EntryId]] | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.rng = rng
        self.player = player
        self.turn = turn
        self.next_id = next_id
        self.used = used
        self.root: int | None = None
        self.dice = 0  # thrown by this resolver, tables' and entries' (bot.engine.limits)
        self.bytes = 0  # about, of its roll events
        self.result = Resolution()
        self._tables = ruleset.tables
        self._budget = ruleset.budget
        self._ignore_nested = ruleset.nesting is Nesting.IGNORE_NESTED
        self._lists = ruleset.lists
        self._chaos = chaos  # where a chaos roll is made now (None: chaos is a deck)
        self._denied = _deniable(ruleset, denied or {})
        # With no repeats (a house rule): the entries of each list that came up since it last
        # started over; None when repeats are allowed.
        self._given = None if given is None else dict(given)
        # Rolls whose result offered a roll, each with how many rolls were pending before the
        # rolls it asked for itself: once the pending rolls are back down to that, the rest
        # waits for the offer.
        self._waits: list[tuple[int, int]] = []

    def roll(self, table: TableId) -> Resolution:
        """Roll on `table` and resolve everything that follows from it."""
        if table not in self._tables:
            self.ruleset.table(table)  # raises, naming the lists there are
        return self.run([Task(table, None, 0)])

    def spite(self, table: TableId) -> Resolution:
        """A classic spite roll: one roll on `table` where only a life-gaining result counts.

        Anything else, multi-rolls included, is recorded as ignored and not re-rolled.
        """
        entry, roll = self._roll(Task(table, None, 0))
        if not entry.spite_counts:
            roll["ignored"] = True
            roll["reason"] = "spite roll: only a result that gains life counts"
            self.result.steps[-1].honoured = False
            return self.result
        pending: list[Task] = []
        self._honour(roll, entry, Task(table, None, 0), pending)
        return self.run(pending)

    def copy(self, source: Roll, entry: Entry, reason: str) -> Resolution:
        """Resolve `entry` again as a new roll (a fork): same result, fresh inline dice."""
        task = Task(source["table"], None, 0)
        roll = self._record(task, entry, list(source["dice"]), source["result"], reason)
        pending: list[Task] = []
        self._honour(roll, entry, task, pending)
        return self.run(pending)

    def keep(self, kept: Roll, entry: Entry, context: Json) -> Resolution:
        """Go on after the roller picked `kept` out of a "roll N, keep one"."""
        task = Task.from_json(context["task"])
        pending = self._restore(context)
        if entry.offers:
            self._waits.append((len(pending), kept["id"]))
        self._honour(kept, entry, task, pending)
        return self.run(pending)

    def resume(self, context: Json) -> Resolution:
        """Go on with the later rolls of a resolution that waited for an offer."""
        return self.run(self._restore(context))

    def _restore(self, context: Json) -> list[Task]:
        self.root = context["root"]
        self._waits = [(height, roll) for height, roll in context.get("waits", [])]
        return [Task.from_json(t) for t in context["pending"]]

    def run(self, pending: list[Task]) -> Resolution:
        """Make the pending rolls, last item first, until none are left or the budget runs out,
        or until a result's offer must be settled before the next roll."""
        result = self.result
        spent = self._spent
        waits = self._waits
        while pending and result.keep is None and result.exhausted is None:
            if waits and waits[-1][0] >= len(pending):
                self._pause(pending)
                break
            task = pending.pop()
            if task.table == CHAOS_ROLL:  # "roll chaos": the list is decided now
                target = result.last_list or self._chaos
                if target is None:
                    continue  # a deck ruleset: there is no list to roll chaos on
                task = task._replace(table=target)
            if spent(task):
                self._exhaust(task)
                break
            entry, roll = self._roll(task)
            if self._ignore_nested and not task.last and entry.demands_several:
                roll["ignored"] = True
                roll["reason"] = (
                    f"{entry.name} asks for several rolls, but this is roll {task.slot}"
                    " and only the last pending roll may do that: rolled again"
                )
                result.steps[-1].honoured = False
                pending.append(task)
                continue
            if entry.offers:
                waits.append((len(pending), roll["id"]))
            if entry.kind is Kind.LINK or entry.kind is Kind.MULTI:  # the rest ask for no rolls
                self._honour(roll, entry, task, pending)
        stopped = result.keep if result.keep is not None else result.paused
        if stopped is not None:
            stopped["pending"] = [t.to_json() for t in pending]
            if waits:  # a keep's context had none before offers waited: logs read the same
                stopped["waits"] = [list(w) for w in waits]
        return result

    def _pause(self, pending: list[Task]) -> None:
        """Stop before the next pending roll: the offers of the rolls whose own rolls are done
        are settled first (taken and resolved, or declined)."""
        waits = self._waits
        settle: list[int] = []
        while waits and waits[-1][0] >= len(pending):
            settle.append(waits.pop()[1])
        self.result.paused = {"root": self.root, "settle": sorted(settle), "used": self.used}

    def _roll(self, task: Task) -> tuple[Entry, Roll]:
        table = self._tables.get(task.table) or self.ruleset.table(task.table)
        faces, result = table.dice.roll(self.rng)
        entry = table.lookup(result)
        barred = self._denied.get(task.table, frozenset())
        given = None if self._given is None else self._given.get(task.table, frozenset())
        if not barred and given is None:  # no house rule touches this roll
            return entry, self._record(task, entry, list(faces), result, None)
        # A house rule denies it: rolled again at once with the same dice, each denied result
        # kept in the roll (bot.engine.house).
        denied: list[DeniedResult] = []
        drawn = False
        while entry.id in barred:
            denied.append(_result(faces, result, entry))
            self.dice += len(faces)
            self.bytes += roll_size(len(entry.name), len(faces))
            if len(denied) >= MAX_DENIED_ROLLS:
                result = _draw_allowed(table, barred, self.rng)
                faces, entry, drawn = (), table.lookup(result), True
                break
            faces, result = table.dice.roll(self.rng)
            entry = table.lookup(result)
        fresh, repeat = False, None
        if given is not None:
            # No repeats: an entry that came up already is replaced by one drawn by weight
            # among those that haven't; once every entry has, the list starts over.
            if all(e.id in given or e.id in barred for e in table.entries):
                fresh, given = True, frozenset()
            elif entry.id in given:
                repeat = _result(faces, result, entry)
                result = _draw_allowed(table, barred | given, self.rng)
                faces, entry, drawn = (), table.lookup(result), True
            assert self._given is not None
            self._given[task.table] = given | {entry.id}
        roll = self._record(task, entry, list(faces), result, None)
        if denied:
            roll["denied"] = denied
        if repeat is not None:
            roll["repeat"] = repeat
        if drawn:
            roll["drawn"] = True
        if fresh:
            roll["fresh"] = True
        return entry, roll

    def _record(
        self, task: Task, entry: Entry, faces: list[int], result: int, reason: str | None
    ) -> Roll:
        self.used += 1
        roll_id = self.next_id
        self.next_id += 1
        if self.root is None:
            self.root = roll_id
        inline: list[InlineDice] = []
        text = entry.text
        if "{" in text:
            text, rolled = render_inline(text, self.rng)
            inline.extend(inline_record(r) for r in rolled)
        if entry.x is not None:
            inline.append(inline_record(entry.x.roll(self.rng), label="X"))
        roll: Roll = {
            "type": "roll",
            "id": roll_id,
            "turn": self.turn,
            "player": self.player,
            "table": task.table,
            "dice": faces,
            "result": result,
            "entry": {"id": entry.id, "name": entry.name},
            "depth": task.depth,
            "parent": task.parent,
            "ignored": False,
            "reason": reason,
            "text": text,
            "inline": inline,
            "slot": task.slot,
        }
        dice = len(faces)
        for record in inline:  # usually none: a loop costs less than sum() over a generator
            dice += len(record["faces"])
        self.dice += dice
        self.bytes += roll_size(len(text), dice)
        self.result.steps.append(Step(roll, entry, True))
        if task.table in self._lists:
            self.result.last_list = task.table
        return roll

    def _honour(self, roll: Roll, entry: Entry, task: Task, pending: list[Task]) -> None:
        """Queue the rolls an honoured entry asks for (links and multi-rolls)."""
        depth = task.depth + 1
        if entry.kind is Kind.LINK and entry.link is not None:
            pending.append(Task(entry.link, roll["id"], depth, task.last))
            return
        multi = entry.multi
        if entry.kind is not Kind.MULTI or multi is None:
            return
        if multi.mode is MultiMode.RANDOM:
            # One die picks the list; the roll it makes is one roll, like a link's.
            pick = parse_expr(f"1d{len(multi.tables)}").roll(self.rng)
            roll["inline"].append(inline_record(pick, label="list"))
            chosen = multi.tables[min(max(pick.total, 1), len(multi.tables)) - 1]
            pending.append(Task(chosen, roll["id"], depth, task.last))
            return
        if multi.mode is MultiMode.EACH:
            tables = list(multi.tables)
        elif multi.mode is MultiMode.CHAOS:
            count = multi.times.roll(self.rng)
            if any(sides for _, _, sides in multi.times.terms):
                roll["inline"].append(inline_record(count, label="times"))
            n = max(count.total, 0)
            tables = [*multi.tables[:1], *[CHAOS_ROLL] * n][:n]
        else:
            count = multi.times.roll(self.rng)
            if any(sides for _, _, sides in multi.times.terms):
                roll["inline"].append(inline_record(count, label="times"))
            tables = [multi.tables[0] if multi.tables else task.table] * max(count.total, 0)
        n = len(tables)
        slots = [
            Task(table, roll["id"], depth, task.last and i == n - 1, f"{i + 1}/{n}")
            for i, table in enumerate(tables)
        ]
        if multi.mode is MultiMode.KEEP and slots:
            self._offer_keep(roll, slots)
            return
        pending.extend(reversed(slots))

    def _offer_keep(self, roll: Roll, slots: list[Task]) -> None:
        """Roll the candidates of a "roll N, keep one" and stop until the roller picks."""
        candidates: list[Any] = []
        for task in slots:
            while True:
                if self._spent(task):
                    self._exhaust(task)
                    return
                entry, candidate = self._roll(task)
                self.result.steps[-1].honoured = False
                if self._ignore_nested and not task.last and entry.demands_several:
                    candidate["ignored"] = True
                    candidate["reason"] = (
                        f"{entry.name} asks for several rolls on roll {task.slot}: rolled again"
                    )
                    continue
                candidate["reason"] = "one of the rolls to keep from"
                candidates.append(
                    {
                        "roll": candidate["id"],
                        "entry": entry.id,
                        "table": task.table,
                        "text": candidate["text"],
                    }
                )
                break
        self.result.keep = {
            "root": self.root,
            "parent": roll["id"],
            "candidates": candidates,
            "task": Task(slots[0].table, roll["id"], slots[0].depth, slots[-1].last).to_json(),
            "used": self.used,
        }

    def _spent(self, task: Task) -> bool:
        """True when `task` may not be rolled: the budget, or a limit of bot.engine.limits."""
        budget = self._budget
        return (
            self.used >= budget.rolls
            or task.depth > budget.depth
            or self.dice >= MAX_RESOLUTION_DICE
            or self.bytes >= MAX_RESOLUTION_BYTES
        )

    def _exhaust(self, task: Task) -> None:
        budget = self.ruleset.budget
        if self.used >= budget.rolls:
            message = (
                f"roll budget used up: {budget.rolls} rolls in one resolution;"
                " the rolls still pending are dropped"
            )
        elif self.dice >= MAX_RESOLUTION_DICE:
            message = (
                f"{self.dice:,} dice thrown in one resolution, and {MAX_RESOLUTION_DICE:,} is"
                " the most; the rolls still pending are dropped"
            )
        elif self.bytes >= MAX_RESOLUTION_BYTES:
            message = (
                f"this resolution's log reached {MAX_RESOLUTION_BYTES // 1024} KB, the most one"
                " may write; the rolls still pending are dropped"
            )
        else:
            message = (
                f"rolls nested more than {budget.depth} deep; the rolls still pending are dropped"
            )
        self.result.exhausted = {
            "type": "budget_exhausted",
            "root": self.root if self.root is not None else 0,
            "rolls": self.used,
            "depth": task.depth,
            "message": message,
        }


# Denied results rolled again, at most, before the result is drawn by weight among those not
# denied: the same odds (a result not denied comes up as often relative to another as its
# dice say), in bounded time however much of a list is denied.
MAX_DENIED_ROLLS = 100


def _result(faces: tuple[int, ...], result: int, entry: Entry) -> DeniedResult:
    return {"dice": list(faces), "result": result, "entry": {"id": entry.id, "name": entry.name}}


def _deniable(
    ruleset: Ruleset, denied: Mapping[TableId, frozenset[EntryId]]
) -> dict[TableId, frozenset[EntryId]]:
    """The denied entries of each list that still has an entry to roll: a deny that leaves a
    list nothing (refused when it is set, but the tables may have changed since) is left out."""
    kept: dict[TableId, frozenset[EntryId]] = {}
    for table_id, entries in denied.items():
        table = ruleset.tables.get(table_id)
        if table is not None and any(e.id not in entries for e in table.entries):
            kept[table_id] = entries
    return kept


def _draw_allowed(table: RollTable, barred: frozenset[EntryId], rng: random.Random) -> int:
    """A result of `table` whose entry isn't barred, drawn by the dice's own weights."""
    weights = table.dice.weights()
    allowed = [n for n in sorted(weights) if table.lookup(n).id not in barred]
    return rng.choices(allowed, weights=[weights[n] for n in allowed])[0]


def inline_record(rolled: InlineRoll, label: str | None = None) -> InlineDice:
    """An inline roll as the roll event keeps it; `label` names what it was for (X, times)."""
    expr = rolled.expr if label is None else f"{label}={rolled.expr}"
    return {"expr": expr, "faces": list(rolled.faces), "total": rolled.total}
