"""The life changes a table declares (issue 23, life on the board): every form of the `life:` key,
mistakes named with file, line and key, `tables check` warning of life text nobody declared, and a
test per bundled result whose text speaks of life."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.engine.lifegain import LifeOp, Rotate, Swap, Who
from bot.engine.model import Entry
from bot.tables import TableProblems, find_ruleset
from bot.tables.files import load_text
from bot.tables.outcomekeys import mentions_life
from bot.tables.uploads import summarise
from tests.tables.test_outcome_keys import load_entry


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("life: {lose: 2}", "you lose 2 life"),
        ("life: {pay: 3}", "you pay 3 life"),
        ("life: {lose: 1d6, who: each player}", "each player loses 1d6 life"),
        (
            "life: {lose: rolled, who: each opponent}",
            "each opponent loses as much life as the dice",
        ),
        ("life: {lose: unknown}", "you lose an amount of life only the table knows"),
        ("life: {lose: 4, who: opponent}", "an opponent loses 4 life"),
        ("life: {lose: 1, who: player, per: opponent}", "a player loses 1 life per opponent"),
        ("life: {set: 20, who: each player}", "the life total of each player becomes 20"),
        (
            "life: {lose: third, round: up, who: each player}",
            "each player loses a third of their life, rounded up",
        ),
        ("life: {lose: half, round: down}", "you lose a half of their life, rounded down"),
        (
            "life: {set: lowest, who: each player}",
            "the life total of each player becomes the lowest among the players still in",
        ),
        (
            "life: {set: average, round: up, who: each player}",
            "the life total of each player becomes the average among the players still in,"
            " rounded up",
        ),
        ("life: {set: rolled}", "your life total becomes what the dice in the text roll"),
        ("life: {swap: opponent}", "you swap life totals with an opponent"),
        ("life: {swap: random}", "you swap life totals with an opponent picked by a die"),
        ("life: {rotate: left}", "each player takes the life total of the player on their left"),
        ("life: {rotate: previous}", "each player takes the life total of the player before them"),
        ("life: {unsure: each opponent}", "the life total of each opponent changes in a way only"),
    ],
)
def test_each_change_reads_and_says_what_it_does(tmp_path: Path, line: str, expected: str) -> None:
    entry = load_entry(tmp_path, line)
    (change,) = entry.life_changes
    assert change.describe().startswith(expected)
    assert not entry.gains_life
    assert entry.changes_life


def test_a_list_holds_changes_and_one_gain_applied_last(tmp_path: Path) -> None:
    entry = load_entry(tmp_path, "life: [{lose: 2, who: each opponent}, 2 per opponent]")
    assert entry.gains_life
    assert entry.life is not None
    assert entry.life.per_opponent
    (change,) = entry.life_changes
    assert (change.op, change.who) == (LifeOp.LOSE, Who.OPPONENTS)
    rolled = load_entry(tmp_path, "text: You gain {1d6} life.", "life: rolled")
    assert rolled.life is not None
    assert rolled.life.rolled
    assert not rolled.life.asks
    swaps = load_entry(tmp_path, "life: [{swap: random}, {rotate: next}]")
    assert [(c.swap, c.rotate) for c in swaps.life_changes] == [
        (Swap.RANDOM, None),
        (None, Rotate.NEXT),
    ]
    assert swaps.spite_counts  # a swap may raise the roller's total: a spite roll honours it


@pytest.mark.parametrize(
    ("line", "path", "words"),
    [
        (
            "life: {lose: lots}",
            "entries[0].life.lose",
            "expected a number, dice like 1d6, x, rolled",
        ),
        ("life: {lose: 1d6-4}", "entries[0].life.lose", "1d6-4 can come out below 0"),
        ("life: {lose: x}", "entries[0].life.lose", "x is the card's X, so the entry needs x"),
        (
            "life: {lose: 2, who: everyone}",
            "entries[0].life.who",
            "expected one of you, each player",
        ),
        ("life: {lose: 2, per: player}", "entries[0].life.per", "expected opponent, got 'player'"),
        ("life: {lose: 2, when: now}", "entries[0].life.when", "unknown key 'when'"),
        ("life: {swap: anyone}", "entries[0].life.swap", "expected one of opponent, random"),
        ("life: {swap: opponent, who: you}", "entries[0].life.who", "unknown key 'who'"),
        ("life: {rotate: up}", "entries[0].life.rotate", "expected one of left, right, next"),
        ("life: {unsure: them}", "entries[0].life.unsure", "expected one of you, each player"),
        ("life: {lose: 2, set: 3}", "entries[0].life", "one change at a time"),
        ("life: [3, 4]", "entries[0].life[1]", "an entry gains life once"),
        ("life: []", "entries[0].life", "list 1 to 6 life changes, not 0"),
        ("life: [{drain: 2}]", "entries[0].life[0]", "expected a life change"),
        ("life: {lose: half}", "entries[0].life", "half needs round: up or down"),
        ("life: {lose: 2, round: up}", "entries[0].life.round", "only a half, a third or an"),
        ("life: {lose: half, round: sideways}", "entries[0].life.round", "expected up or down"),
        ("life: {set: half, round: up}", "entries[0].life.set", "a total is set to a number or"),
        ("life: {lose: lowest}", "entries[0].life.lose", "lowest is a total to set to"),
    ],
)
def test_mistakes_name_file_line_and_key(tmp_path: Path, line: str, path: str, words: str) -> None:
    with pytest.raises(TableProblems) as caught:
        load_entry(tmp_path, line)
    (problem,) = caught.value.problems
    assert (problem.file, problem.line, problem.path) == (str(tmp_path / "t.yaml"), 10, path)
    assert words in problem.message


def test_life_text_nobody_declared_is_marked_and_lasting_effects_are_not(tmp_path: Path) -> None:
    assert load_entry(tmp_path, "text: You lose 3 life.").life_undeclared
    assert not load_entry(tmp_path, "text: You lose 3 life.", "life: {lose: 3}").life_undeclared
    assert not load_entry(
        tmp_path, "text: Each upkeep, lose 1 life.", "lasts: next_turn"
    ).life_undeclared
    assert not load_entry(tmp_path, "text: Draw a card.").life_undeclared
    assert not load_entry(tmp_path, "text: Second Lifeboat.").life_undeclared


def test_tables_check_warns_of_life_text_nobody_declared(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "t.yaml").write_text(
        "schema: 1\nkind: table\nid: t\nname: T\nrevision: '1'\ndice: d2\nentries:\n"
        "  - at: 1\n    name: Blood Pact\n    text: You lose 3 life and draw three cards.\n"
        "  - at: 2\n    name: Counted\n    text: You lose 3 life.\n    life: {lose: 3}\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [sys.executable, "-m", "bot", "tables", "check", str(folder)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stdout.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1
    assert (
        f"{folder / 't.yaml'}:10 entries[0].text: Blood Pact: its text speaks of life"
        in (warnings[0])
    )
    assert result.stdout.splitlines()[-1].startswith("OK: 1 files")
    bundled = subprocess.run(
        [sys.executable, "-m", "bot", "tables", "check", "tables"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).parents[2],
    )
    assert "warning:" not in bundled.stdout


def test_an_upload_with_life_text_nobody_declared_says_so() -> None:
    text = (
        "schema: 1\nkind: table\nid: t\nname: T\nrevision: '1'\ndice: d2\nentries:\n"
        "  - at: 1\n    name: Blood Pact\n    text: You lose 3 life.\n"
        "  - at: 2\n    name: Drain\n    text: Each opponent loses 1 life.\n"
    )
    what = summarise(load_text(text, "t.yaml")).what
    assert what.startswith("a list of 2 entries (d2); 2 entries speak of life but declare no")
    declared = text.replace("1 life.\n", "1 life.\n    life: {lose: 1, who: each opponent}\n")
    assert summarise(load_text(declared, "t.yaml")).what == (
        "a list of 2 entries (d2); 1 entry speaks of life but declares no change, so the bot"
        " shows every total as unsure when one comes up: give each a `life:` key (see the table"
        " format)"
    )


# Bundled results whose text speaks of life but that change no total when they come up, each
# reviewed, with why. Everything else that speaks of life declares its change.
LASTING = "a lasting effect: it changes totals later, as the players count them with `life`"
NOT_A_CHANGE: dict[tuple[str, str, str], str] = {
    ("classic", "chaos", "11"): "Soft Landing keeps a total at 1 later: " + LASTING,
    ("classic", "chaos", "69"): "Question Time costs life each time someone slips: " + LASTING,
    ("classic", "chaos", "174"): "Villain Voice costs life for each spell: " + LASTING,
    ("classic", "ewl", "4"): "Double Stakes doubles later gains: " + LASTING,
    ("classic", "ewl", "8"): "Last Words gains life as creatures die: " + LASTING,
    ("classic", "ewl", "20"): "Mercy Rule reads totals, never changes one: " + LASTING,
    ("lists", "a", "26-27"): "Sunny Disposition gains life for each spell: " + LASTING,
    ("lists", "b", "53-54"): "Warm Hearth gains life as creatures die: " + LASTING,
    ("lists", "d", "25-26"): "Thorns costs life with combat damage: " + LASTING,
    ("lists", "f", "85-86"): "Spell Toll costs life for each spell: " + LASTING,
    ("lists", "global", "75-79"): "Toll of Knowledge costs life each upkeep: " + LASTING,
    ("lists", "global", "90-94"): "Underdog's Blessing gains life each upkeep: " + LASTING,
    ("deck", "chaos", "lightning-rods"): "Lightning Rods costs life for each spell: " + LASTING,
    ("deck", "globals", "blood-altar"): "Blood Altar lets a player pay life later: " + LASTING,
    ("deck", "globals", "sanctuary-grove"): "Sanctuary Grove gains life as creatures die: "
    + LASTING,
    ("deck", "globals", "waning-moon"): "Waning Moon reads a total, never changes one: " + LASTING,
}


def bundled() -> list[tuple[str, str, Entry]]:
    found: list[tuple[str, str, Entry]] = []
    for name in ("classic", "lists", "deck"):
        ruleset = find_ruleset(name).ruleset
        for table in ruleset.tables.values():
            found += [(name, table.id, band.entry) for band in table.bands]
        for deck in ruleset.decks.values():
            for card in deck.cards:
                found += [(name, deck.id, e) for e in (card.entry, *card.entry.halves)]
    return found


SPEAKING = [(r, t, e) for r, t, e in bundled() if mentions_life(e.text)]
_LOSES = re.compile(r"\b(?:loses?|pays?) ([0-9]+) life\b", re.IGNORECASE)


@pytest.mark.parametrize(
    ("ruleset", "table", "entry"), SPEAKING, ids=[f"{r}-{t}-{e.id}" for r, t, e in SPEAKING]
)
def test_every_bundled_result_that_speaks_of_life_declares_its_change(
    ruleset: str, table: str, entry: Entry
) -> None:
    key = (ruleset, table, entry.id)
    if key in NOT_A_CHANGE:
        assert not entry.changes_life, f"{entry.name} declares a change: drop it from the list"
        lasting = entry.duration is not None or entry.kind.value in ("world", "global")
        assert lasting
        assert not entry.life_undeclared  # so the bot doesn't mark any total for it
        return
    assert entry.changes_life, f"{entry.name} ({key}) speaks of life but declares no change"
    assert not entry.life_undeclared
    # A fixed loss the text states is declared with that amount (or as one only the table knows).
    for amount in _LOSES.findall(entry.text):
        declared = {
            c.amount.dice.text
            for c in entry.life_changes
            if c.amount is not None and c.amount.dice is not None
        }
        unsure = any(
            c.op is LifeOp.UNSURE or (c.amount is not None and c.amount.unknown)
            for c in entry.life_changes
        )
        assert amount in declared or unsure, f"{entry.name}: loses {amount} life, not declared"


def test_the_reviewed_list_names_only_bundled_results() -> None:
    keys = {(r, t, e.id) for r, t, e in SPEAKING}
    assert set(NOT_A_CHANGE) <= keys
