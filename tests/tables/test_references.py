"""References between files, cycles between lists, and the registry of rulesets."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.tables import TableProblems, UnknownRulesetError, find_ruleset, load_bundled, load_ruleset
from tests.tables.samples import CHAOS, MINI, RULESET, table_file, write_folder
from tests.tables.test_loader import entries, only, problems

# -- references and cycles, checked once a whole folder has loaded -------------------------------


def test_missing_reference_names_where_it_is(tmp_path: Path) -> None:
    folder = write_folder(
        tmp_path, {**MINI, "chaos.yaml": CHAOS.replace("link: wacky", "link: wacky2")}
    )
    problem = only(folder)
    assert problem.file == str(folder / "chaos.yaml")
    assert (problem.line, problem.path) == (14, "entries[1].link")
    assert problem.message == (
        "there is no list 'wacky2' here (there are: chaos, ewl, wacky); did you mean 'wacky'?"
    )


def test_ruleset_references(tmp_path: Path) -> None:
    ruleset = RULESET.replace("tables: [chaos, ewl, wacky]", "tables: [chaos, ewl, wacky, gone]")
    ruleset = ruleset.replace(
        "start: {roll: world, table: ewl}", "start: {roll: global_deck, deck: ewl}"
    )
    found = problems(write_folder(tmp_path, {**MINI, "ruleset.yaml": ruleset}))
    assert [(p.line, p.path) for p in found] == [(7, "start.deck"), (13, "tables[3]")]
    assert found[0].message == "'ewl' is a list (EnchantWorldLand in ewl.yaml); this needs a deck"
    assert found[1].message.startswith("there is no list or deck 'gone' here")


def test_file_not_in_the_ruleset(tmp_path: Path) -> None:
    extra = table_file("d2", entries("- {at: 1-2, name: x}"), table_id="stray")
    problem = only(write_folder(tmp_path, {**MINI, "stray.yaml": extra}))
    assert (problem.line, problem.path) == (3, "id")
    assert "not in its tables" in problem.message


def test_next_list_needs_a_lists_ruleset(tmp_path: Path) -> None:
    chaos = CHAOS.replace("    turn: reverse\n", "    next_list: wacky\n")
    problem = only(write_folder(tmp_path, {**MINI, "chaos.yaml": chaos}))
    assert problem.path == "entries[6].next_list"
    assert "chaos is {from: lists}" in problem.message


def test_duplicate_ids_in_a_folder(tmp_path: Path) -> None:
    found = problems(write_folder(tmp_path, {**MINI, "copy.yaml": MINI["ewl.yaml"]}))
    assert any("the id 'ewl' is also used by" in p.message for p in found)


def test_cycle_without_budget_is_refused_naming_the_cycle(tmp_path: Path) -> None:
    ruleset = RULESET.replace("budget: {rolls: 30, depth: 5}\n", "")
    chaos = CHAOS.replace("roll: {times: 2}", "text: Nothing.").replace(
        "roll: {times: 2, keep: 1}", "text: Nothing."
    )
    folder = write_folder(tmp_path, {**MINI, "ruleset.yaml": ruleset, "chaos.yaml": chaos})
    problem = only(folder)
    assert problem.file == str(folder / "ruleset.yaml")
    assert problem.path == "budget"
    assert problem.message.startswith("lists chaos -> wacky -> chaos form a cycle (")
    assert f"{folder / 'chaos.yaml'}:14 leads to wacky" in problem.message
    assert "give the ruleset a budget" in problem.message


def test_a_list_rolling_on_itself_is_a_cycle(tmp_path: Path) -> None:
    ruleset = RULESET.replace("budget: {rolls: 30, depth: 5}\n", "")
    found = problems(write_folder(tmp_path, {**MINI, "ruleset.yaml": ruleset}))
    assert len(found) == 1
    assert found[0].message.startswith("list chaos rolls on itself")


def test_cycle_with_budget_is_accepted(tmp_path: Path) -> None:
    loaded = load_ruleset(write_folder(tmp_path, MINI))
    assert loaded.ruleset.budget.rolls == 30


def test_every_problem_of_every_file_is_reported(tmp_path: Path) -> None:
    chaos = CHAOS.replace("dice: d10", "dice: d12").replace("link: wacky", "link: nowhere")
    wacky = MINI["wacky.yaml"].replace("lasts: {turns: 2}", "lasts: {turns: -1}")
    found = problems(write_folder(tmp_path, {**MINI, "chaos.yaml": chaos, "wacky.yaml": wacky}))
    assert {Path(p.file).name for p in found} == {"chaos.yaml", "wacky.yaml"}
    assert len(found) == 3


# -- the registry ------------------------------------------------------------------------------


def test_registry_finds_rulesets_by_id(tmp_path: Path) -> None:
    write_folder(tmp_path, MINI)
    assert list(load_bundled(tmp_path)) == ["mini"]
    assert find_ruleset("mini", tmp_path).ruleset.chaos_table == "chaos"
    with pytest.raises(UnknownRulesetError, match=r"no ruleset 'maxi' \(rulesets: mini\)"):
        find_ruleset("maxi", tmp_path)


def test_registry_reports_broken_folders(tmp_path: Path) -> None:
    write_folder(tmp_path, {**MINI, "ewl.yaml": "schema: 1\nkind: table\n"})
    with pytest.raises(TableProblems, match=r"ewl\.yaml:1: a table needs 'id'"):
        load_bundled(tmp_path)


LISTS_RULESET = """\
schema: 1
kind: ruleset
id: ab
name: A and B
revision: "1"
chaos: {from: lists, lists: [A, B]}
tables: [A, B, side]
"""


def lists_folder(tmp_path: Path, a_extra: str = "", ruleset: str = LISTS_RULESET) -> Path:
    a = table_file(
        "d2", f"  - {{at: 1, name: up, link: B}}\n  - {{at: 2, name: x{a_extra}}}\n", "A"
    )
    b = table_file("d2", "  - {at: 1, name: down, link: side}\n  - {at: 2, name: y}\n", "B")
    side = table_file("d2", "  - {at: 1-2, name: back, link: A}\n", "side")
    files = {"ruleset.yaml": ruleset, "a.yaml": a, "b.yaml": b, "side.yaml": side}
    return write_folder(tmp_path, files, "ab")


def test_a_longer_cycle_is_named_in_order(tmp_path: Path) -> None:
    problem = only(lists_folder(tmp_path))
    assert problem.message.startswith("lists A -> B -> side -> A form a cycle")


def test_next_list_must_be_a_chaos_list(tmp_path: Path) -> None:
    ruleset = LISTS_RULESET + "budget: {rolls: 20, depth: 4}\n"
    folder = lists_folder(tmp_path, ", next_list: side", ruleset)
    problem = only(folder)
    assert (Path(problem.file).name, problem.line, problem.path) == (
        "a.yaml",
        9,
        "entries[1].next_list",
    )
    assert problem.message == "'side' is not one of the chaos lists (A, B)"
    load_ruleset(lists_folder(tmp_path / "ok", ", next_list: B", ruleset))


def test_deck_look_needs_a_chaos_deck(tmp_path: Path) -> None:
    ruleset = RULESET.replace(
        "spite: {policy: life_gain_roll, table: chaos}", "spite: {policy: deck_look}"
    )
    problem = only(write_folder(tmp_path, {**MINI, "ruleset.yaml": ruleset}))
    assert (problem.line, problem.path) == (9, "spite.policy")
    assert "needs chaos: {from: deck}" in problem.message


def test_a_broken_file_is_not_also_reported_missing(tmp_path: Path) -> None:
    wacky = MINI["wacky.yaml"].replace("dice: 2d4", "dice: 2d5")
    found = problems(write_folder(tmp_path, {**MINI, "wacky.yaml": wacky}))
    assert [Path(p.file).name for p in found] == ["wacky.yaml"]
    assert "no entry for 9-10" in found[0].message
