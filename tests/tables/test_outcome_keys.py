"""The `life:` and `removes:` keys of an entry: every form they take, and every mistake named
with its file, line and key path."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine.lifegain import LifeGain
from bot.tables import TableProblems, load_file
from tests.tables.samples import table_file


def load_entry(tmp_path: Path, *lines: str, at: str = "1-2"):
    text = table_file(
        "d2", f"  - at: {at}\n    name: Thing\n" + "".join(f"    {x}\n" for x in lines)
    )
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    table = load_file(path).table
    assert table is not None
    return table.entries[0]


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (["life: 3"], "you gain 3 life"),
        (["life: 1d6"], "you gain 1d6 life"),
        (["card: Stream of Life", "x: 1d6", "life: x"], "you gain X life"),
        (["life: ask"], "you gain life (a spite asks how much)"),
        (["life: 2 per opponent"], "you gain 2 life per opponent"),
        (["life: 3 each player"], "each player gains 3 life"),
        (["life: 1 each player per opponent"], "each player gains 1 life per opponent"),
        (["life: {gain: 2, per: opponent}"], "you gain 2 life per opponent"),
        (["life: {gain: 3, each: player}"], "each player gains 3 life"),
        (
            ["life: {gain: 5, if: Is your life the lowest at the table?}"],
            "you gain 5 life, if the answer to 'Is your life the lowest at the table?' is yes",
        ),
        (["gains_life: true"], "you gain life (a spite asks how much)"),
        (["gains_life: true", "life: 4"], "you gain 4 life"),
    ],
)
def test_life_forms(tmp_path: Path, lines: list[str], expected: str) -> None:
    entry = load_entry(tmp_path, *lines)
    assert entry.gains_life
    assert entry.life_gain is not None
    assert entry.life_gain.describe() == expected


def test_life_alone_marks_the_entry_as_gaining_life(tmp_path: Path) -> None:
    entry = load_entry(tmp_path, "life: 3 each player")
    assert entry.gains_life
    assert entry.life == LifeGain(entry.life.amount if entry.life else None, each_player=True)
    assert load_entry(tmp_path, "text: Nothing.").life_gain is None


@pytest.mark.parametrize(
    ("line", "path", "words"),
    [
        ("life: lots", "entries[0].life", "expected an amount of life: a number, dice like 1d6"),
        ("life: x", "entries[0].life", "life: x gains the card's X, so the entry needs x: DICE"),
        ("life: 1d6-4", "entries[0].life", "1d6-4 can come out below 0; a life gain can't"),
        ("life: per opponent", "entries[0].life", "expected an amount of life"),
        ("life: true", "entries[0].life", "expected an amount of life"),
        ("life: {per: opponent}", "entries[0].life", "a life gain needs 'gain'"),
        ("life: {gain: 2, per: player}", "entries[0].life.per", "expected opponent, got 'player'"),
        ("life: {gain: 2, each: one}", "entries[0].life.each", "expected player, got 'one'"),
        ("life: {gain: 2, if: ''}", "entries[0].life.if", "is empty; write some text"),
        ("life: {gain: 2, when: now}", "entries[0].life.when", "unknown key 'when'"),
        ("removes: []", "entries[0].removes", "name something to remove: worlds, globals"),
        ("removes: 3", "entries[0].removes", "expected a list of things to remove, got 3"),
        ("removes: [worlds, 3]", "entries[0].removes[1]", "expected worlds, globals, effects"),
    ],
)
def test_life_and_removes_mistakes_name_file_line_and_key(
    tmp_path: Path, line: str, path: str, words: str
) -> None:
    with pytest.raises(TableProblems) as caught:
        load_entry(tmp_path, line)
    (problem,) = caught.value.problems
    assert (problem.file, problem.line, problem.path) == (str(tmp_path / "t.yaml"), 10, path)
    assert words in problem.message


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("worlds", ("worlds",)),
        ("[worlds, globals]", ("worlds", "globals")),
        ("[effects, Glorious Anthem]", ("effects", "Glorious Anthem")),
    ],
)
def test_removes_forms(tmp_path: Path, value: str, expected: tuple[str, ...]) -> None:
    assert load_entry(tmp_path, f"removes: {value}").removes == expected
