"""Offered rolls in the real console: the hint under the result, the board, taking one, lapsing.

Seed 39 of the bundled `lists` ruleset makes Ann's first chaos roll Gift Economy, which offers
a roll on the Vortex.
"""

from __future__ import annotations

from pathlib import Path

from tests.console.test_transcripts import assert_in_order, block, play

START = ("--players", "Ann,Bob", "--seed", "17", "--ruleset", "lists")


def test_the_roller_takes_the_offered_roll_with_the_command_the_hint_names(tmp_path: Path) -> None:
    stdin = "chaos roll\ngame status\nas Bob: chaos roll vortex\nchaos roll vortex\n"
    stdout = play(tmp_path, *START, stdin=stdin)

    assert_in_order(
        stdout,
        r"Ann rolls List A d8×d10 \[5, 7\] = 57 → #56-57 Gift Economy",
        r" +\? Ann may roll on The Vortex \(offered by Gift Economy\): `chaos roll vortex`\.",
        r"> game status",
        r"Offered to Ann by Gift Economy: a roll on The Vortex \(`chaos roll vortex`\)",
        r"> as Bob: chaos roll vortex",
        r"! only Ann, the host or a referee can take a roll a result offered",
        r"> chaos roll vortex",
        r"Ann takes the offered roll on The Vortex\.",
        r"Ann rolls The Vortex 3d8 \[\d+, \d+, \d+\] = \d+ → #\d+ .+ \(offered by Gift Economy,"
        r" R2\)",
    )
    assert not any(line.startswith("Offered") for line in block(stdout, "chaos roll vortex"))


def test_an_offer_nobody_takes_lapses_when_the_turn_ends(tmp_path: Path) -> None:
    stdout = play(tmp_path, *START, stdin="chaos roll\nturn next\ngame status\n")

    assert block(stdout, "turn next")[:2] == [
        "− the offered roll on The Vortex lapses: the turn ended.",
        "── Turn 2 — Bob ──",
    ]
    assert not any(line.startswith("Offered") for line in block(stdout, "game status"))
