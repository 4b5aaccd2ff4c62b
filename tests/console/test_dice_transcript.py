"""The real `chaos-referee play` rolling dice notation: `roll 4d6kh3`, `roll (1d4+1)*3`,
`roll 1d6!` without the word `dice`, every die shown, dropped ones marked `dropped` (a terminal
shows no markdown: issue 24), and the same rolls again from the same seed."""

from __future__ import annotations

import re
from pathlib import Path

from tests.console.test_transcripts import assert_in_order, block, play

LINES = """\
roll 4d6kh3
roll (1d4+1)*3
roll 1d6!
roll dice 2d20kl1
roll 1d20+3 adv
roll 1000000d1000000
roll ((1d6!)!)
roll 1d6e>0
roll ٣d6
roll chaos
roll
"""


def faces(shown: str) -> list[tuple[int, bool]]:
    """The faces in `a, b dropped, 6!` as (face, kept)."""
    assert "~~" not in shown  # no markdown in a terminal
    assert "**" not in shown
    out = []
    for die in shown.split(", "):
        kept = not die.endswith(" dropped")
        out.append((int(die.removesuffix(" dropped").strip("!")), kept))
    return out


def test_roll_reads_the_notation_of_discords_dice_bots(tmp_path: Path) -> None:
    stdout = play(tmp_path, "--seed", "7", stdin=LINES)
    keep, times, explode, low, adv = assert_in_order(
        stdout,
        r"4d6kh3 \((.*)\) = (\d+)",
        r"\(1d4 \((\d)\) \+ 1\) \* 3 = (\d+)",
        r"1d6e6 \((.*)\) = (\d+)",
        r"2d20kl1 \((.*)\) = (\d+)",
        r"2d20kh1 \((.*)\) \+ 3 = (\d+)",
    )
    dice = faces(keep.group(1))
    assert len(dice) == 4
    dropped = [face for face, kept in dice if not kept]
    assert len(dropped) == 1
    assert dropped[0] == min(face for face, _ in dice)
    assert int(keep.group(2)) == sum(face for face, _ in dice) - dropped[0]

    assert int(times.group(2)) == (int(times.group(1)) + 1) * 3

    thrown = explode.group(1).split(", ")
    assert all(die == "6!" for die in thrown[:-1])  # every 6 threw one more die
    assert not thrown[-1].endswith("!")
    assert int(explode.group(2)) == sum(face for face, _ in faces(explode.group(1)))

    for match, keep_low in ((low, True), (adv, False)):
        pair = faces(match.group(1))
        kept = [face for face, k in pair if k]
        assert len(pair) == 2
        assert kept == [min(f for f, _ in pair) if keep_low else max(f for f, _ in pair)]

    assert block(stdout, "roll 1000000d1000000") == [
        "! '1000000d1000000': a die must have 2 to 1000 sides; got 1000000."
    ]
    assert block(stdout, "roll ((1d6!)!)")[0].startswith("! Can't read '((1d6!)!)' as dice: '!'")
    assert "more than 200 dice" in block(stdout, "roll 1d6e>0")[0]
    assert block(stdout, "roll ٣d6") == [
        "! '٣d6': write numbers with the digits 0 to 9, like 3d6; got '٣'."
    ]
    assert block(stdout, "roll chaos") == [
        "! the turn's chaos roll is `chaos roll`; `roll` is for dice"
    ]
    assert block(stdout, "roll") == ["! say which dice, like `roll 2d6+1` (try `help roll`)"]

    # A seeded console rolls the same dice again; another seed, other dice.
    (tmp_path / "again").mkdir()
    (tmp_path / "other").mkdir()
    again = play(tmp_path / "again", "--seed", "7", stdin=LINES)
    assert _rolls(again) == _rolls(stdout)
    other = play(tmp_path / "other", "--seed", "8", stdin=LINES)
    assert _rolls(other) != _rolls(stdout)


def _rolls(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if re.search(r" = \d+$", line)]
