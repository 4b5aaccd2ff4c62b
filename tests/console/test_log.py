"""`chaos log N` shows the last N actions, each whole, in the real console: never a roll torn
from the action that made it, never a tree beginning at its last branch (issue 23)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.console.test_transcripts import block, play

# A keep-one waits for `chaos choose`, a deck's card for `chaos reveal`; where nothing waits,
# either is refused and leaves the log alone.
TURNS = "chaos roll\nchaos reveal\nchaos choose 1\nturn next\n" * 3


@pytest.mark.parametrize(("ruleset", "seed"), [("classic", 7), ("lists", 3), ("deck", 5)])
def test_log_n_is_the_last_n_actions_of_the_whole_log(
    tmp_path: Path, ruleset: str, seed: int
) -> None:
    counts = range(1, 9)
    asks = "".join(f"chaos log {n}\n" for n in counts)
    stdin = f"game start {ruleset}\ngame join Bob\ngame join Cy\ngame begin\n"
    stdin += TURNS + "chaos log 200\n" + asks
    out = play(tmp_path, "--seed", str(seed), stdin=stdin)
    whole = block(out, "chaos log 200")
    starts = [at for at, line in enumerate(whole) if line.startswith("» ")]
    assert len(starts) >= 10, whole  # start, 2 joins, begin and the turns' actions
    for n in counts:
        shown = block(out, f"chaos log {n}")
        assert shown[0].startswith("» "), shown  # an action first, never `└─ roll 2/2`
        assert sum(line.startswith("» ") for line in shown) == n
        assert shown == whole[starts[-n] :]


def test_log_three_after_three_turns_shows_the_turns_not_one_roll(tmp_path: Path) -> None:
    # The case: three turns of a classic game with one roll each.
    stdin = "chaos roll\nturn next\nchaos roll\nturn next\nchaos roll\nchaos log 3\n"
    shown = block(
        play(tmp_path, "--players", "Ann,Bob,Cy", "--seed", "11", stdin=stdin), "chaos log 3"
    )
    assert [line for line in shown if line.startswith("» ")] == [
        "» Bob: chaos roll",
        "» Bob: turn next",
        "» Cy: chaos roll",
    ]
