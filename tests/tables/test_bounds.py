"""The worst case of one resolution, bounded when a ruleset loads (bot.tables.bounds), and the
bomb rulesets under tests/data/bombs refused by ``tables check`` with the chain that explodes."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bot.engine.limits import MAX_RESOLUTION_BYTES, MAX_RESOLUTION_DICE
from bot.tables import TableProblems, load_bundled, load_ruleset
from bot.tables.bounds import worst_cases
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
