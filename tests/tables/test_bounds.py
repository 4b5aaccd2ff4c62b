"""The worst case of one resolution, bounded when a ruleset loads (bot.tables.bounds), and the
bomb rulesets under tests/data/bombs refused by ``tables check`` with the chain that explodes."""

from __future__ import annotations

import random
import time
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest

from bot.engine.limits import MAX_RESOLUTION_BYTES, MAX_RESOLUTION_DICE
from bot.engine.model import Ruleset
from bot.tables import TableProblems, load_bundled, load_ruleset
from bot.tables.bounds import CAP, Cost, Totals, _levels, worst_cases
from tests.tables.test_cli import assert_no_traceback, tables

BOMBS = Path(__file__).parents[1] / "data" / "bombs"


@pytest.mark.parametrize("ruleset", sorted(load_bundled()))
def test_the_bundled_rulesets_are_far_from_every_limit(ruleset: str) -> None:
    for worst in worst_cases(load_bundled()[ruleset].ruleset).values():
        assert worst.dice <= MAX_RESOLUTION_DICE / 4, worst
        assert worst.bytes <= MAX_RESOLUTION_BYTES / 4, worst


def problem_of(folder: Path) -> str:
    with pytest.raises(TableProblems) as caught:
        load_ruleset(folder)
    (problem,) = caught.value.problems
    return str(problem)


def test_a_deep_tree_is_refused_naming_every_step_down() -> None:
    problem = problem_of(BOMBS / "deep")
    assert problem.startswith(f"{BOMBS / 'deep' / 'l1.yaml'}:9: one roll on l1 can lead to")
    assert "10,000 rolls and 2,010,000 dice (at most 2,000 are thrown" in problem
    steps = [f"l{n}.yaml:9 rolls 100 times on l{n + 1}, throws 1 die" for n in range(1, 6)]
    assert " -> ".join([*steps, "l6.yaml:9 throws 201 dice"]) in problem


def test_a_cycle_is_refused_naming_the_way_round() -> None:
    problem = problem_of(BOMBS / "cycle")
    assert "one roll on a can lead to 10,000 rolls and" in problem
    assert (
        "a.yaml:9 rolls 100 times on b, throws 201 dice -> b.yaml:9 rolls 100 times on a" in problem
    )


def test_a_wide_fan_of_long_texts_is_refused_for_the_size_of_its_log() -> None:
    problem = problem_of(BOMBS / "wide")
    assert "one roll on fan can lead to 1,000 rolls and 2,006 KB of log (at most 256 KB" in problem
    assert "fan.yaml:9 rolls 100 times on fan" in problem


def test_an_entry_throwing_too_many_dice_is_refused_at_its_line() -> None:
    result = tables("check", BOMBS / "dice.yaml")
    assert_no_traceback(result)
    assert result.returncode == 1
    assert "dice.yaml:9 entries[0]: this entry throws up to 20,000 dice" in result.stdout
    assert "an entry may throw at most 200" in result.stdout


@pytest.mark.parametrize("bomb", ["cycle", "deep", "wide"])
def test_tables_check_refuses_each_bomb_in_well_under_a_second(bomb: str) -> None:
    # CPU time of this thread, not the wall clock: what the check costs, however busy the
    # machine is (simulating the worst bomb took over a minute; the bound takes milliseconds).
    started = time.thread_time()
    with pytest.raises(TableProblems):
        load_ruleset(BOMBS / bomb)
    assert time.thread_time() - started < 0.5
    result = tables("check", BOMBS / bomb)
    assert_no_traceback(result)
    assert result.returncode == 1
    assert "can lead to" in result.stdout


def test_the_bound_counts_what_the_budget_allows_and_no_more(tmp_path: Path) -> None:
    # The deep tree with a small budget plays fine: 60 rolls of at most 201 dice is too many,
    # 9 rolls of them isn't.
    folder = tmp_path / "deep"
    folder.mkdir()
    for path in (BOMBS / "deep").iterdir():
        (folder / path.name).write_text(path.read_text())
    ruleset = folder / "ruleset.yaml"
    ruleset.write_text(
        ruleset.read_text().replace("{rolls: 10000, depth: 10}", "{rolls: 9, depth: 10}")
    )
    worst = worst_cases(load_ruleset(folder).ruleset)["l1"]
    assert (worst.rolls, worst.dice) == (9, 9 * 201)


def _plain_worst(costs: dict[str, list[Cost]], table: str, depth: int, left: int) -> Totals:
    """The worst totals of a roll on `table` at `depth`, by plain recursion over every entry:
    what the dynamic programme must agree with, however it shortens the work."""
    if depth > left or table not in costs:
        return (0, 0, 0)
    worst = (0, 0, 0)
    for cost in costs[table]:
        rolls, dice, size = 1, cost.dice, cost.bytes
        below = [_plain_worst(costs, child, depth + 1, left) for child, _ in cost.children]
        if cost.one_of:  # a random list: one roll on the worst of them
            rolls += max((r for r, _, _ in below), default=0)
            dice += max((d for _, d, _ in below), default=0)
            size += max((b for _, _, b in below), default=0)
        for (_, n), (r, d, b) in zip(cost.children, below, strict=True):
            if not cost.one_of:
                rolls, dice, size = rolls + n * r, dice + n * d, size + n * b
        totals = (min(rolls, CAP), min(dice, CAP), min(size, CAP))
        worst = (max(worst[0], totals[0]), max(worst[1], totals[1]), max(worst[2], totals[2]))
    return worst


def test_the_worst_case_is_every_entry_s_worst_by_plain_recursion() -> None:
    # Entries alike in the rolls they ask for are taken together (with their dearest dice and
    # bytes); random lists, with cycles, missing lists, caps and random picks among lists,
    # must come out the same.
    rng = random.Random(20261124)
    for _ in range(400):
        names = [f"t{n}" for n in range(rng.randint(1, 4))]
        costs = {
            name: [
                Cost(
                    rng.choice([0, 1, 5, 10**14, 10**16]),
                    rng.randint(0, 1000),
                    tuple(
                        (rng.choice([*names, "missing"]), rng.randint(0, 3))
                        for _ in range(rng.randint(0, 2))
                    ),
                    rng.random() < 0.3,  # one_of: a random pick among the children
                )
                for _ in range(rng.randint(0, 6))
            ]
            for name in names
        }
        depth = rng.randint(0, 4)
        budget = SimpleNamespace(budget=SimpleNamespace(depth=depth))
        top = _levels(cast(Ruleset, budget), costs)[0]
        assert top == {name: _plain_worst(costs, name, 0, depth) for name in names}, costs
