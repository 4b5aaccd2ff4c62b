"""Loading and checking table files: every kind of problem names its file, line and key path."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.engine import Begin, Choose, Game, Join, Kind, MultiMode, NextTurn, RollChaos
from bot.engine.dice import Die, Sum, TensUnits
from bot.engine.errors import TableError
from bot.engine.model import Lasts, Nesting, SpitePolicy, StartRoll, Token, TurnChange
from bot.tables import (
    TableFileError,
    TableProblems,
    load_file,
    load_folder,
    load_ruleset,
    load_text,
)
from bot.tables.yamlnodes import MAX_FILE_BYTES
from tests.tables.samples import MINI, RULESET, table_file, write_folder


def problems(path: Path) -> list[TableFileError]:
    """Every problem loading `path` (a file or a folder) reports; fails if it loads."""
    load: Callable[[Path], object] = load_folder if path.is_dir() else load_file
    with pytest.raises(TableProblems) as caught:
        load(path)
    return list(caught.value.problems)


def only(path: Path) -> TableFileError:
    found = problems(path)
    assert len(found) == 1, "\n".join(map(str, found))
    return found[0]


def write(tmp_path: Path, text: str, name: str = "t.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def entries(*lines: str) -> str:
    return "".join(f"  {line}\n" for line in lines)


# -- a valid ruleset -----------------------------------------------------------------------------


def test_valid_folder_builds_the_engine_ruleset(tmp_path: Path) -> None:
    loaded = load_ruleset(write_folder(tmp_path, MINI))
    ruleset = loaded.ruleset
    assert (ruleset.id, ruleset.name, ruleset.revision) == ("mini", "Mini Chaos", "1")
    assert ruleset.chaos_table == "chaos"
    assert (ruleset.start, ruleset.start_table) == (StartRoll.WORLD, "ewl")
    assert ruleset.nesting is Nesting.IGNORE_NESTED
    assert (ruleset.spite, ruleset.spite_table) == (SpitePolicy.LIFE_GAIN_ROLL, "chaos")
    assert ruleset.tokens
    assert (ruleset.budget.rolls, ruleset.budget.depth, ruleset.life) == (30, 5, 20)
    assert sorted(ruleset.tables) == ["chaos", "ewl", "wacky"]
    assert [rule.id for rule in loaded.rules] == ["chaos-phase"]
    assert loaded.rules[0].keywords == ("phase", "when")
    assert loaded.files[0].name.endswith("ruleset.yaml")


def test_every_entry_kind_becomes_the_engine_entry(tmp_path: Path) -> None:
    ruleset = load_ruleset(write_folder(tmp_path, MINI)).ruleset
    chaos = ruleset.tables["chaos"]
    assert chaos.dice == Die(10)
    assert chaos.directions == "Roll a d10."
    by_id = {entry.id: entry for entry in chaos.entries}
    assert by_id["1"].multi is not None
    assert by_id["1"].multi.tables == ()
    assert by_id["2"].kind is Kind.LINK
    assert by_id["2"].link == "wacky"
    fireball = by_id["3-4"]
    assert (fireball.kind, fireball.card, fireball.x and fireball.x.text) == (
        Kind.CARD,
        "Fireball",
        "1d6",
    )
    assert (by_id["5"].token, by_id["5"].count) == (Token.COUNTER, 2)
    assert by_id["6"].gains_life
    assert by_id["6"].life is not None
    assert by_id["7"].duration is not None
    assert by_id["7"].duration.lasts is Lasts.NEXT_TURN
    assert by_id["8"].turn is TurnChange.REVERSE
    assert by_id["9"].multi is not None
    assert by_id["9"].multi.mode is MultiMode.KEEP
    each = by_id["10"].multi
    assert each is not None
    assert (each.mode, each.tables) == (MultiMode.EACH, ("ewl", "wacky"))
    assert ruleset.tables["ewl"].entries[0].kind is Kind.WORLD
    assert ruleset.tables["wacky"].dice == Sum(2, 4)
    assert chaos.lookup(4) is fireball


def test_a_loaded_ruleset_plays(tmp_path: Path) -> None:
    ruleset = load_ruleset(write_folder(tmp_path, MINI)).ruleset
    game = Game.start(ruleset, seed=7, host="ann", name="Ann")
    game.act(Join(actor="bob", player_name="Bob"))
    game.act(Begin(actor="ann"))
    for _ in range(12):
        game.act(RollChaos(actor="ann"))
        while game.state.pending is not None:
            game.act(Choose(actor="ann", option=game.state.pending.options[0][0]))
        game.act(NextTurn(actor="ann"))
    assert game.state.turn == 13


def test_tens_dice_and_yaml_words_read_as_written(tmp_path: Path) -> None:
    # A bare `on` is True in YAML 1.1 and `Yes` a boolean: keys and names keep what was typed.
    text = table_file(
        "{tens: d20, max_tens_is_zero: true, zero_units_is_ten: true}",
        entries(
            "- {at: 1-199, name: Yes, text: 1984}",
            "- {at: 200, name: x, roll: {times: 2, list: t}}",
        ),
    )
    table = load_text(text, "t.yaml").table
    assert table is not None
    assert table.dice == TensUnits(20, True, True)
    assert (table.entries[0].name, table.entries[0].text) == ("Yes", "1984")
    multi = table.entries[1].multi
    assert multi is not None
    assert multi.tables == ("t",)


def test_decks_and_split_cards(tmp_path: Path) -> None:
    text = """\
schema: 1
kind: deck
id: chaos
name: Chaos deck
revision: "1"
cards:
  - {id: fog, name: Fog Bank, text: No combat damage., lasts: end_of_turn, copies: 2}
  - id: fire-ice
    name: Fire // Ice
    halves:
      - {id: fire, name: Fire, text: "Deal {2} damage."}
      - {id: ice, name: Ice, text: Tap a permanent.}
"""
    deck = load_text(text, "deck.yaml").deck
    assert deck is not None
    assert deck.fresh_order() == ["fog", "fog", "fire-ice"]
    assert [half.id for half in deck.card("fire-ice").halves] == ["fire", "ice"]


# -- one test per kind of problem ----------------------------------------------------------------


def test_unknown_key_names_it_and_lists_the_allowed_ones(tmp_path: Path) -> None:
    path = write(
        tmp_path, table_file("d2", entries("- at: 1-2", "  name: Fog", "  lasting: next_turn"))
    )
    problem = only(path)
    assert (problem.file, problem.line, problem.path) == (str(path), 10, "entries[0].lasting")
    assert "unknown key 'lasting' (did you mean 'lasts'?)" in problem.message
    assert "at, name, text, card, link, roll" in problem.message
    assert str(problem).startswith(f"{path}:10 entries[0].lasting: unknown key")


def test_unknown_key_at_the_top(tmp_path: Path) -> None:
    path = write(tmp_path, table_file("d2", entries("- {at: 1-2, name: x}")) + "colour: red\n")
    problem = only(path)
    assert (problem.line, problem.path) == (9, "colour")


def test_newer_schema_says_to_update_the_bot_and_nothing_else(tmp_path: Path) -> None:
    path = write(tmp_path, "schema: 2\nkind: table\nfancy_new_key: 1\n")
    problem = only(path)
    assert (problem.line, problem.path) == (1, "schema")
    assert "version 2" in problem.message
    assert "update the bot" in problem.message


def test_missing_header_keys(tmp_path: Path) -> None:
    path = write(tmp_path, "schema: 1\nkind: table\ndice: d2\nentries: [{at: 1-2, name: x}]\n")
    found = problems(path)
    assert {p.message for p in found} == {
        "a table needs 'id'",
        "a table needs 'name'",
        "a table needs 'revision'",
    }
    assert all(p.line == 1 for p in found)


@pytest.mark.parametrize(
    ("value", "shown"), [("My List", "'my-list'"), ("'a/b'", "'a-b'"), ("''", None)]
)
def test_bad_id(tmp_path: Path, value: str, shown: str | None) -> None:
    text = table_file("d2", entries("- {at: 1-2, name: x}")).replace("id: t", f"id: {value}")
    problem = only(write(tmp_path, text))
    assert (problem.line, problem.path) == (3, "id")
    assert "is not an id: use letters, digits, - and _" in problem.message
    if shown:
        assert f"like {shown}" in problem.message


def test_gap_names_the_numbers_and_the_entry_before(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        table_file("d100", entries("- {at: 1-56, name: a}", "- {at: 59-100, name: b}")),
    )
    problem = only(path)
    assert (problem.line, problem.path) == (9, "entries")
    assert problem.message.startswith("no entry for 57-58 (after 1-56 on line 8)")


def test_gap_at_the_ends(tmp_path: Path) -> None:
    path = write(tmp_path, table_file("d10", entries("- {at: 3-8, name: a}")))
    assert [p.message.split(";")[0] for p in problems(path)] == [
        "no entry for 1-2",
        "no entry for 9-10 (after 3-8 on line 8)",
    ]


def test_overlap_names_both_sides_with_their_lines(tmp_path: Path) -> None:
    lines = ["- {at: 1-70, name: a}", "- {at: 71-76, name: b}", "- {at: 76-100, name: c}"]
    problem = only(write(tmp_path, table_file("d100", entries(*lines))))
    assert (problem.line, problem.path) == (10, "entries[2].at")
    assert problem.message == "76 is in both 71-76 (line 9) and 76-100 (line 10)"


def test_overlap_of_several_numbers(tmp_path: Path) -> None:
    path = write(
        tmp_path, table_file("d6", entries("- {at: 1-4, name: a}", "- {at: 3-6, name: b}"))
    )
    assert only(path).message == "3-4 are in both 1-4 (line 8) and 3-6 (line 9)"


def test_entries_outside_the_dice(tmp_path: Path) -> None:
    lines = ["- {at: 1-6, name: a}", "- {at: 7, name: b}", "- {at: 0, name: c}"]
    found = problems(write(tmp_path, table_file("d6", entries(*lines))))
    assert [(p.line, p.path, p.message) for p in found] == [
        (9, "entries[1].at", "7 can never come up: d6 rolls 1-6"),
        (10, "entries[2].at", "0 can never come up: d6 rolls 1-6"),
    ]


def test_band_running_past_the_dice(tmp_path: Path) -> None:
    problem = only(write(tmp_path, table_file("2d4", entries("- {at: 2-9, name: a}"))))
    assert problem.path == "entries[0].at"
    assert problem.message == "2-9 goes outside 2-8, the results 2d4 can make"


@pytest.mark.parametrize(
    ("at", "message"),
    [
        ("three", "expected a number or a band like 2-3, got 'three'"),
        ("6-1", "the band 6-1 runs backwards; write 1-6"),
        ("[1, 2]", "expected a number or a band like 2-3, got a list"),
    ],
)
def test_bad_band(tmp_path: Path, at: str, message: str) -> None:
    found = problems(write(tmp_path, table_file("d6", entries(f"- {{at: {at}, name: a}}"))))
    assert (found[0].line, found[0].path, found[0].message) == (8, "entries[0].at", message)


@pytest.mark.parametrize(
    ("dice", "path", "words"),
    [
        ("d2O", "dice", "expected dice like d20, 2d10 or {tens: d8}, got 'd2O'"),
        ("d10001", "dice", "sides on a die must be a whole number from 2 to 10000"),
        ("2d5000", "dice", "sides on a die must be a whole number from 2 to 1000"),
        ("100d1000", "dice", "makes 99,901 different results; a table may have at most 10,000"),
        ("{tens: 2d6}", "dice.tens", "expected one die like d20 for the tens, got '2d6'"),
        ("{tens: d8, units: d10}", "dice.units", "unknown key 'units'"),
        ("{tens: d8, max_tens_is_zero: 1}", "dice.max_tens_is_zero", "expected true or false"),
    ],
)
def test_bad_dice(tmp_path: Path, dice: str, path: str, words: str) -> None:
    found = problems(write(tmp_path, table_file(dice, entries("- {at: 1, name: a}"))))
    assert found[0].line == 6
    assert found[0].path == path
    assert words in found[0].message


def test_bad_inline_dice(tmp_path: Path) -> None:
    text = table_file(
        "d2", entries("- at: 1-2", "  name: Zap", "  text: Deal {1d} damage, add {G}.")
    )
    problem = only(write(tmp_path, text))
    assert (problem.line, problem.path) == (10, "entries[0].text")
    assert "Can't read '1d' as dice" in problem.message
    assert "mana symbols" in problem.message


def test_times_in_words_is_refused_with_the_documented_message(tmp_path: Path) -> None:
    text = table_file("d2", entries("- at: 1-2", "  name: Thrice", "  roll: {times: three}"))
    problem = only(write(tmp_path, text))
    assert str(problem) == (
        f"{tmp_path / 't.yaml'}:10 entries[0].roll.times: expected a positive integer or dice"
        " like 1d3, got 'three'"
    )


@pytest.mark.parametrize(
    ("lines", "path", "words"),
    [
        (["roll: {times: 500}"], "entries[0].roll.times", "at most 100"),
        (["roll: {times: 1d3-5}"], "entries[0].roll.times", "must be 1 or more"),
        (["roll: {times: 2, keep: 2}"], "entries[0].roll.keep", "only keep: 1"),
        (["roll: {times: 1, keep: 1}"], "entries[0].roll.keep", "2 or more"),
        (["roll: {each: [t], times: 2}"], "entries[0].roll.times", "drop this key"),
        (["roll: {list: t}"], "entries[0].roll", "needs times"),
        (["roll: {random: [t]}"], "entries[0].roll.random", "name 2 to 10 lists"),
        (["roll: {random: [t, t]}"], "entries[0].roll.random", "name each list once"),
        (["roll: {random: [t, u], times: 2}"], "entries[0].roll.times", "drop this key"),
        # A key another kind of multi-roll takes is refused, never quietly left unread.
        (["roll: {random: [t, u], chaos: 2}"], "entries[0].roll.chaos", "drop this key"),
        (["roll: {chaos: 2, each: [t]}"], "entries[0].roll.each", "drop this key"),
        (["roll: {times: 2, starting: t}"], "entries[0].roll.starting", "drop this key"),
        (["roll: {each: [t], starting: t}"], "entries[0].roll.starting", "drop this key"),
        (["roll: {random: [t, u], starting: t}"], "entries[0].roll.starting", "drop this key"),
        (["card: Fireball", "link: t"], "entries[0].link", "does one thing at most"),
        (["x: 1d6"], "entries[0].x", "needs card: NAME"),
        (["count: 2"], "entries[0].count", "needs token"),
        (["life: 3", "gains_life: false"], "entries[0].life", "drop gains_life: false"),
        (["token: counter"], "entries[0].token", "expected one of counter_roll, roll_fork"),
        (["lasts: {turns: 0}"], "entries[0].lasts.turns", "from 1 to 100"),
        (["lasts: forever"], "entries[0].lasts", "expected end_of_turn, next_turn"),
        (["turn: again"], "entries[0].turn", "expected one of reverse, extra, skip"),
        (["world: yes please"], "entries[0].world", "expected true (or leave the key out)"),
        (["card: Bolt", "x: lots"], "entries[0].x", "dice like 2d6 for X"),
        (["link: Not An Id"], "entries[0].link", "is not the id of a list"),
    ],
)
def test_entry_problems(tmp_path: Path, lines: list[str], path: str, words: str) -> None:
    text = table_file("d2", entries("- at: 1-2", "  name: Thing", *(f"  {line}" for line in lines)))
    found = problems(write(tmp_path, text))
    assert found[0].path == path, "\n".join(map(str, found))
    assert found[0].line == 9 + next(
        i for i, line in enumerate(lines, 1) if path.split(".")[1] in line
    )
    assert words in found[0].message


def test_duplicate_key_names_both_lines(tmp_path: Path) -> None:
    problem = only(
        write(tmp_path, table_file("d2", entries("- {at: 1-2, name: x}")) + "dice: d6\n")
    )
    assert (problem.line, problem.path) == (9, "dice")
    assert "appears twice (also on line 6)" in problem.message


def test_yaml_syntax_error_has_its_line(tmp_path: Path) -> None:
    problem = only(write(tmp_path, "schema: 1\nkind: table\nname: [unclosed\nid: x\n"))
    assert problem.path == ""
    assert problem.message.startswith("this is not valid YAML")
    assert problem.line >= 3


def test_tabs_get_a_hint(tmp_path: Path) -> None:
    problem = only(write(tmp_path, "schema: 1\nkind:\n\tx: 1\n"))
    assert "indent with spaces, not tabs" in problem.message


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_bytes(b"schema: 1\nname: caf\xe9\n")
    assert only(path).message == "this file is not UTF-8 text"
    assert only(path).line == 2


def test_empty_file_and_wrong_shape(tmp_path: Path) -> None:
    assert "the file is empty" in only(write(tmp_path, "")).message
    assert "expected a mapping of keys" in only(write(tmp_path, "- 1\n- 2\n")).message


def test_unsafe_tags_are_refused(tmp_path: Path) -> None:
    problem = only(write(tmp_path, "schema: 1\nkind: !!python/object/apply:os.system [echo]\n"))
    assert (problem.line, problem.path) == (2, "kind")
    assert "is not allowed" in problem.message


def test_alias_bomb_is_refused_before_it_expands(tmp_path: Path) -> None:
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 12):
        levels.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    path = write(tmp_path, "\n".join(levels) + "\n")
    start = time.thread_time()  # the parser's own CPU time, however busy the machine is
    problem = only(path)
    assert time.thread_time() - start < 2
    assert "would copy out more than 10,000 values" in problem.message
    assert (problem.line, problem.path) == (4, "a3[7]")  # a1 and a2 copy out 1,220 values


def test_a_few_aliases_are_fine(tmp_path: Path) -> None:
    lines = [
        "- {at: 1-2, name: Fog, lasts: &lasts next_turn}",
        "- {at: 3-4, name: x, lasts: *lasts}",
    ]
    table = load_text(table_file("d4", entries(*lines)), "t.yaml").table
    assert table is not None
    assert table.lookup(4).duration == table.lookup(1).duration


def test_deep_nesting_is_refused(tmp_path: Path) -> None:
    problem = only(write(tmp_path, "a: " + "[" * 5000 + "]" * 5000 + "\n"))
    assert "nested more than 40 levels deep" in problem.message


def test_oversized_file_is_refused_unread(tmp_path: Path) -> None:
    path = write(tmp_path, "schema: 1\n" + "# padding\n" * (MAX_FILE_BYTES // 10))
    problem = only(path)
    assert (problem.line, problem.path) == (1, "")
    assert "may be at most 1,000,000 bytes" in problem.message
    with pytest.raises(TableProblems, match="at most 1,000,000 bytes"):
        load_text(path.read_bytes(), "upload.yaml")


def test_deck_problems(tmp_path: Path) -> None:
    text = """\
schema: 1
kind: deck
id: chaos
name: Chaos deck
revision: "1"
cards:
  - {id: fog, name: Fog}
  - {id: fog, name: Fog again}
  - id: split
    name: Half a split
    text: Split cards keep their words on their halves.
    halves:
      - {id: fire, name: Fire}
  - {id: bolt, name: Bolt, link: chaos, copies: 0}
"""
    found = problems(write(tmp_path, text))
    assert [(p.line, p.path) for p in found] == [
        (8, "cards[1].id"),
        (11, "cards[2].text"),
        (12, "cards[2].halves"),
        (14, "cards[3].copies"),
        (14, "cards[3].link"),
    ]
    assert "used twice (also line 7)" in found[0].message
    assert "exactly two halves, not 1" in found[2].message


def test_problems_are_table_errors() -> None:
    with pytest.raises(TableError):
        load_text("schema: 1\n", "x.yaml")


def test_a_rules_section_reads_its_answer_and_see_also(tmp_path: Path) -> None:
    extra = """\
    answer: >-
      Roll first,
      then untap.
    see: [spite]
  - id: spite
    title: Spite
    text: When you would lose, roll once more.
    see: [chaos-phase]
"""
    folder = write_folder(tmp_path, {**MINI, "ruleset.yaml": RULESET + extra})
    phase, spite = load_ruleset(folder).rules
    assert (phase.answer, phase.see) == ("Roll first, then untap.", ("spite",))
    assert (spite.answer, spite.see) == ("", ("chaos-phase",))


def test_rules_section_problems_name_the_line_and_key(tmp_path: Path) -> None:
    extra = """\
    see: [chaos-phse, chaos-phase, 7 up]
  - id: spite
    title: Spite
    answer: |
      One paragraph.

      And another.
    text: When you would lose, roll once more.
"""
    found = problems(write(tmp_path, RULESET + extra, "ruleset.yaml"))
    assert [(p.line, p.path) for p in found] == [
        (19, "rules[0].see[0]"),
        (19, "rules[0].see[1]"),
        (19, "rules[0].see[2]"),
        (22, "rules[1].answer"),
    ]
    assert "no rules section 'chaos-phse' in this ruleset; did you mean 'chaos-phase'?" in (
        found[0].message
    )
    assert "can't point to itself" in found[1].message
    assert "one short paragraph" in found[3].message
