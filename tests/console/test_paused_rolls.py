"""A roll offered inside a multi-roll is made before the multi-roll's later rolls (issue 23,
ruling 1), in the real console.

`tests/data/offerer` is the issue's case: List A's one result rolls on Offerer, then on List B;
Offerer's one result offers a roll on List C. Rolling one at a time, each resolved completely,
the roll on C comes before the roll on B, so B is the list rolled on last, and the next player
rolls chaos on B.
"""

from __future__ import annotations

from pathlib import Path

from tests.console.test_transcripts import assert_in_order, block, play

OFFERER = Path(__file__).resolve().parents[1] / "data" / "offerer"
START = ("--tables", str(OFFERER), "--players", "Ann,Bob,Cy", "--seed", "1")


def _lines(*commands: str) -> str:
    return "".join(f"{command}\n" for command in commands)


def test_the_offered_roll_on_c_comes_before_the_slot_on_b(tmp_path: Path) -> None:
    out = play(
        tmp_path, *START, stdin=_lines("chaos roll", "chaos roll c", "turn next", "chaos roll")
    )
    assert_in_order(
        out,
        r"> chaos roll",
        r"Ann rolls List A d2 \[\d\] = \d → #1-2 Two Stops",
        r"└─ roll 1/2: Offerer d2 \[\d\] = \d → #1-2 Open Door",
        r" +\? Ann may roll on List C \(offered by Open Door\): `chaos roll c`\.",
        r"‖ R1 Two Stops waits before its roll 2/2 on List B: the offered roll comes first, taken"
        r" \(`chaos roll c`\) or declined \(`chaos decline c`\)\.",
        r"> chaos roll c",
        r"Ann takes the offered roll on List C\.",
        r"Ann rolls List C d2 \[\d\] = \d → #1-2 Stay on C \(offered by Open Door, R1\)",
        r" +→ the current list is List C \(the last chaos list rolled on was c\)\.",
        r"→ R1 Two Stops goes on with its next roll\.",
        r"└─ roll 2/2: List B d2 \[\d\] = \d → #1-2 Stay on B",
        r" +→ the current list is List B \(the last chaos list rolled on was b\)\.",
        r"> turn next",
        r"── Turn 2 — Bob ──",
        r"> chaos roll",
        r"Bob rolls List B d2 \[\d\] = \d → #1-2 Stay on B",
    )
    assert not [line for line in block(out, "chaos roll") if "List B d2" in line]  # B waited


def test_declined_the_slot_on_b_is_rolled_with_the_same_dice(tmp_path: Path) -> None:
    taken = play(tmp_path, *START, stdin=_lines("chaos roll", "chaos roll c"))
    (tmp_path / "games.db").unlink()
    out = play(
        tmp_path,
        *START,
        stdin=_lines("chaos roll", "turn next", "game status", "chaos decline", "turn next"),
    )
    assert_in_order(
        out,
        r"> turn next",
        r"! the turn can't end yet: R1 isn't finished: Ann takes the roll Open Door offered"
        r" \(`chaos roll c`\) or declines it \(`chaos decline c`\), then its roll 2/2 on List B is"
        r" made",
        r"> game status",
        r"Offered to Ann by Open Door: a roll on List C \(`chaos roll c`, or `chaos decline c`:"
        r" R1's next roll waits for it\)",
        r"> chaos decline",
        r"Ann declines the offered roll on List C\.",
        r"→ R1 Two Stops goes on with its next roll\.",
        r"└─ roll 2/2: List B d2 \[\d\] = \d → #1-2 Stay on B",
        r"> turn next",
        r"── Turn 2 — Bob ──",
    )
    slot = [line for line in out.splitlines() if line.startswith("└─ roll 2/2")]
    assert slot == [line for line in taken.splitlines() if line.startswith("└─ roll 2/2")]


def test_undo_and_verify_across_a_pause(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    out = play(
        tmp_path,
        *START,
        stdin=_lines(
            "chaos roll",
            "chaos decline",
            "chaos undo",
            "game status",
            "chaos roll c",
            "turn next",
            "game end",
            f"game export {log}",
            f"game verify {log}",
        ),
    )
    assert_in_order(
        out,
        r"> chaos undo",
        r"Undone: chaos decline \(by Ann\)\.",
        r"> game status",
        r"Offered to Ann by Open Door: a roll on List C .*R1's next roll waits for it\)",
        r"> chaos roll c",
        r"→ R1 Two Stops goes on with its next roll\.",
        r"└─ roll 2/2: List B .*",
        r"> game verify .*",
        r"Verified: this offered-first game replays exactly from its revealed seed: .*",
        r"1 action was undone \(the log keeps them\): Ann: chaos decline\.",
    )
    events = log.read_text(encoding="utf-8")
    assert '"type":"roll_paused"' in events
    assert '"type":"roll_resumed"' in events


def test_the_bundled_staircase_rolls_gift_economys_vortex_before_lists_b_and_c(
    tmp_path: Path,
) -> None:
    # Seed 11176: Ann's fourth chaos roll is C #39 Staircase, whose roll on A is #56-57 Gift
    # Economy. The Vortex sends her to List B; then Staircase rolls on B and C, so Cy's chaos
    # roll is on C (rolling B and C first, the Vortex's B would have stayed for the game).
    turns = ["chaos roll", "turn next"] * 3
    stdin = _lines(*turns, "chaos roll", "chaos roll vortex", "turn next", "chaos roll")
    out = play(
        tmp_path, "--ruleset", "lists", "--players", "Ann,Bob,Cy", "--seed", "11176", stdin=stdin
    )
    assert_in_order(
        out,
        r"── Turn 4 — Ann ──",
        r"Ann rolls List C d8×d10 \[3, 9\] = 39 → #39 Staircase",
        r"└─ roll 1/3: List A d8×d10 \[\d, \d\] = 5\d → #56-57 Gift Economy",
        r" +\? Ann may roll on The Vortex \(offered by Gift Economy\): `chaos roll vortex`\.",
        r"‖ R\d+ Staircase waits before its roll 2/3 on List B: .*",
        r"> chaos roll vortex",
        r"Ann rolls The Vortex 3d8 .*\(offered by Gift Economy, R\d+\)",
        r"└─ List B d8×d10 .*",
        r" +→ the current list is List B \(the last chaos list rolled on was b\)\.",
        r"→ R\d+ Staircase goes on with its next roll\.",
        r"├─ roll 2/3: List B .*",
        r"└─ roll 3/3: List C .*",
        r" +→ the current list is List C \(the last chaos list rolled on was c\)\.",
        r"> turn next",
        r"── Turn 5 — Cy ──",
        r"> chaos roll",
        r"Cy rolls List C .*",
    )
