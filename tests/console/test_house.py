"""House rules at the real console (issue 26): `house show`, `house chaos_from`, a game that
keeps the rules it started with, and `game verify` over them, a tampered export included."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from tests.console.test_transcripts import assert_in_order, block, play

SESSION = """\
house show
house chaos_from 2
as Ann: game start classic seed 5
game join Bob
game begin
game status
chaos roll
chaos global
house chaos_from 3
house chaos_from 3 next game
house show
turn next
turn next
chaos roll
turn next
game end
game export game.jsonl
game verify game.jsonl
"""


def test_chaos_from_round_two_at_the_console(tmp_path: Path) -> None:
    out = play(tmp_path, stdin=SESSION)
    assert block(out, "house show")[1] == (
        "Chaos from round: 1 (the default: chaos from the first turn)."
    )
    assert_in_order(
        out,
        r"> house chaos_from 2",
        r"Saved\. Games started from now on play by them\.",
        r"Chaos from round: 2\. No chaos roll or card is made, owed or offered before round 2;.*",
        r"Ann opens a classic game \(seed 5, 20 life, house rule: chaos starts in round 2\)\.",
        r"Classic Chaos · turn 1 — Ann's turn; no chaos before round 2: `turn next` when done\.",
        r"Chaos starts in round 2 \(a house rule\); this is round 1: no chaos roll yet\.",
        r"House rules: chaos starts in round 2\.",
        r"> chaos roll",
        r"! chaos starts in round 2 \(a house rule\), and this is round 1: no chaos roll or card"
        r" before then",
        r"> chaos global",
        r"! chaos starts in round 2 .*",
        r"> house chaos_from 3",
        r"! A game is running here, and it keeps the house rules it started with: .*",
        r"> house chaos_from 3 next game",
        r"Saved\. They apply from the next game: the game running here keeps the rules it"
        r" started with\.",
        r"> turn next",
        r"── Turn 2 — Bob ──",
        r"> turn next",
        r"── Turn 3 — Ann ──",
        r"Ann rolls .*",  # round 2: the start roll (a world) waited for chaos, and comes now
        r"> chaos roll",
        r"Ann rolls Chaos List .*",
        r"> game verify game.jsonl",
        r"Verified.*",
        r"Its commitment .* the host and the starting life, and its house rules \(chaos from"
        r" round 2\)\. .*",
    )
    # The export keeps the rules the game started with, not the ones saved since.
    events = [json.loads(line) for line in (tmp_path / "game.jsonl").read_text().splitlines()]
    assert events[0]["action"]["house"] == {"chaos_from": 2}
    assert events[1]["house"] == {"chaos_from": 2}
    # Another house rule written into the export: the commitment says no.
    for where in (events[0]["action"], events[1]):
        where["house"] = {"chaos_from": 1}
    forged = "".join(json.dumps(e) + "\n" for e in events)
    (tmp_path / "forged.jsonl").write_text(forged)
    out = play(tmp_path, stdin="game verify forged.jsonl\n")
    assert_in_order(out, r"> game verify forged.jsonl", r"! .*commitment doesn't match.*")


DOC = Path(__file__).parents[2] / "docs" / "house-rules.md"
PROMPT = re.compile(r"^(?:chaos|lobby|\w+ \(turn \d+\))> (?P<line>.*)$")


def test_the_house_rules_doc_transcript_is_what_the_console_prints(tmp_path: Path) -> None:
    """docs/house-rules.md's transcript, typed literally: the console prints it line for line."""
    text = DOC.read_text(encoding="utf-8")
    block = re.search(
        r"```text\n\$ chaos-referee play (?P<args>[^\n]*)\n(?P<body>.*?)\n```", text, re.S
    )
    assert block, "docs/house-rules.md has no console transcript"
    typed: list[str] = []
    shown: list[str] = []
    for line in block["body"].splitlines():
        prompt = PROMPT.match(line)
        if prompt:
            typed.append(prompt["line"])
            line = f"> {prompt['line']}"
        shown.append(line)
    stdout = play(tmp_path, *shlex.split(block["args"]), stdin="".join(f"{t}\n" for t in typed))
    assert stdout.splitlines()[1 : len(shown) + 1] == shown


def test_rules_house_answers_at_the_console(tmp_path: Path) -> None:
    out = play(tmp_path, stdin="rules house\n")
    assert_in_order(out, r"> rules house", r"House Rules \(house\)", r".*`house show`.*")
