"""A choice in the console says what each option does, numbered and indented under its name:
the Vortex's "keep one", a split card's halves and a spite look's cards (the real console,
seeded games)."""

from __future__ import annotations

from pathlib import Path

from tests.console.test_transcripts import assert_in_order, play


def test_the_vortex_keep_one_says_what_each_roll_does(tmp_path: Path) -> None:
    stdin = "as Ann: game start lists seed 3\ngame join Bob\ngame begin\nchaos roll vortex\n"
    assert_in_order(
        play(tmp_path, stdin=stdin),
        r"Ann rolls The Vortex 3d8 \[4, 6, 5\] = 15 → #15 Fork in the Current",
        r"\? Ann keeps one of these rolls — `chaos choose N`:",
        r"   1\) Drifting Home",
        r"      Roll once on List A\.",
        r"   2\) The Sky Tears Open",
        r"      Roll once on Global\.",
    )


def test_a_split_card_shows_both_halves_texts(tmp_path: Path) -> None:
    turns = "chaos roll\nchaos reveal\nturn next\n" * 6
    stdin = f"as Ann: game start deck seed 2\ngame join Bob\ngame begin\n{turns}"
    assert_in_order(
        play(tmp_path, stdin=stdin),
        r"\? Bob picks a half of the split card — `chaos choose N`:",
        r"   1\) Bind",
        r"      Tap the Global\. Then each player taps an untapped land they control\.",
        r"   2\) Unbind",
        r"      Untap the Global\. The card's controller may activate one of its abilities .+",
        r"      mana cost\.",
    )


def test_a_spite_look_shows_what_each_card_does(tmp_path: Path) -> None:
    stdin = "as Ann: game start deck seed 2 life 20\ngame join Bob\ngame begin\nlife lose Bob 25\n"
    stdout = play(tmp_path, stdin=stdin)
    assert_in_order(
        stdout,
        r"\? Bob picks a card to play face up — `chaos choose N`:",
        r"   1\) Silent Hour",
        r"      This turn, only the card's controller may cast spells\. \(lasts until end of"
        r" turn\)",
        r"   2\) Second Wind",
        r"      The card's controller gains 4 life, then draws a card\. \(you gain 4 life\)",
        r"   6\) Bind // Unbind",
        r"      Bind: Tap the Global\. .+ // Unbind: Untap",
        r"   7\) Deep Sleep",
    )
    # Every line of the look stays within the console's width.
    look = stdout.split("picks a card to play face up")[1].split("The game is saved")[0]
    assert all(len(line) <= 100 for line in look.splitlines())
