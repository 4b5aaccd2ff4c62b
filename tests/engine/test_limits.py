"""What one entry and one resolution may throw and write (bot.engine.limits)."""

from __future__ import annotations

import json
import random
import time

from bot.engine import Budget, ChaosSource, Die, Kind, Ruleset
from bot.engine.limits import (
    MAX_ENTRY_DICE,
    MAX_RESOLUTION_BYTES,
    MAX_RESOLUTION_DICE,
    entry_dice,
    entry_problem,
)
from bot.engine.resolve import Resolver
from tests.engine.rulesets import entry, table, times

HEAVY = "{100d1000} " * 2  # 200 dice: as many as an entry may throw
BIG = Budget(rolls=10_000, depth=100)


def one_list(make_entry: object, budget: Budget = BIG) -> Ruleset:
    bomb = table("bomb", Die(2), make_entry)  # type: ignore[arg-type]
    return Ruleset(
        "bomb", "Bomb", ChaosSource.TABLE, chaos_table="bomb", budget=budget, tables={"bomb": bomb}
    )


def resolve(ruleset: Ruleset) -> tuple[Resolver, float]:
    """The resolver after one roll, and the CPU seconds the roll took on this thread (not the
    wall clock, which counts whatever else a busy machine runs meanwhile)."""
    resolver = Resolver(ruleset, random.Random(1), player="ann", turn=1, next_id=1)
    started = time.thread_time()
    resolver.roll("bomb")
    return resolver, time.thread_time() - started


def test_an_entry_counts_the_dice_of_its_text_x_and_times() -> None:
    assert entry_dice(entry(1, "Calm", text="Draw {1d3} cards, then {2d6+1} more {W}")) == 3
    assert entry_dice(entry(1, "Again", kind=Kind.MULTI, multi=times("2d3"))) == 2
    assert entry_problem(entry(1, "Heavy", text=HEAVY)) is None
    problem = entry_problem(entry(1, "Heavier", text=HEAVY + "{d6}"))
    assert problem is not None
    assert "throws up to 201 dice" in problem
    assert f"at most {MAX_ENTRY_DICE}" in problem


def test_a_resolution_stops_once_it_threw_the_most_dice_and_says_so() -> None:
    # Every entry throws 200 dice and asks for two more rolls: a 10,000-roll budget would throw
    # two million dice.
    ruleset = one_list(lambda n: entry(n, "Boom", text=HEAVY, kind=Kind.MULTI, multi=times(2)))
    resolver, took = resolve(ruleset)
    result = resolver.result
    assert result.exhausted is not None
    assert f"and {MAX_RESOLUTION_DICE:,} is the most" in result.exhausted["message"]
    assert MAX_RESOLUTION_DICE <= resolver.dice < MAX_RESOLUTION_DICE + 2 * MAX_ENTRY_DICE
    assert len(result.rolls) == 10  # 201 dice each
    assert took < 1.0


def test_a_resolution_stops_once_its_log_is_as_big_as_one_may_be() -> None:
    # A hundred rolls on a hundred rolls on a list of long texts: 10,000 rolls of 2 KB each.
    text = "A long effect. " * 130  # about 2,000 characters, no dice
    leaf = table("leaf", Die(2), lambda n: entry(n, "Chatty", text=text))
    mid = table(
        "mid", Die(2), lambda n: entry(n, "More", kind=Kind.MULTI, multi=times(100, "leaf"))
    )
    bomb = table(
        "bomb", Die(2), lambda n: entry(n, "Many", kind=Kind.MULTI, multi=times(100, "mid"))
    )
    tables = {t.id: t for t in (leaf, mid, bomb)}
    ruleset = Ruleset("b", "B", ChaosSource.TABLE, chaos_table="bomb", budget=BIG, tables=tables)
    resolver, took = resolve(ruleset)
    result = resolver.result
    assert result.exhausted is not None
    assert f"log reached {MAX_RESOLUTION_BYTES // 1024} KB" in result.exhausted["message"]
    written = sum(len(json.dumps(roll)) for roll in result.rolls)
    assert MAX_RESOLUTION_BYTES * 0.8 < written < MAX_RESOLUTION_BYTES + 4096
    assert took < 1.0
