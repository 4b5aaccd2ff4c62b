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
        r"Ann opens a classic game \(seed 5, 20 life, house rules: chaos starts in round 2\)\.",
        r"Classic Chaos · turn 1 · Ann's turn — no chaos before round 2 \(`turn next`\)\.",
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
        r"> game end",
        r"Recap: .*",
        r"Played with house rules: chaos starts in round 2\.",
        r"> game verify game.jsonl",
        r"Verified.*",
        r"Its commitment .* the host and the starting life, and its house rules \(chaos starts"
        r" in round 2\)\. .*",
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


def test_the_house_rules_doc_transcripts_are_what_the_console_prints(tmp_path: Path) -> None:
    """docs/house-rules.md's transcripts, each typed literally into a fresh console: it prints
    them line for line."""
    text = DOC.read_text(encoding="utf-8")
    blocks = list(
        re.finditer(
            r"```text\n\$ chaos-referee play (?P<args>[^\n]*)\n(?P<body>.*?)\n```", text, re.S
        )
    )
    assert len(blocks) == 4, "docs/house-rules.md shows chaos from round N, deny, exclude, veto"
    for n, found in enumerate(blocks):
        typed: list[str] = []
        shown: list[str] = []
        for line in found["body"].splitlines():
            prompt = PROMPT.match(line)
            if prompt:
                typed.append(prompt["line"])
                line = f"> {prompt['line']}"
            shown.append(line)
        folder = tmp_path / str(n)
        folder.mkdir()
        stdin = "".join(f"{t}\n" for t in typed)
        stdout = play(folder, *shlex.split(found["args"]), stdin=stdin)
        assert stdout.splitlines()[1 : len(shown) + 1] == shown


def test_rules_house_answers_at_the_console(tmp_path: Path) -> None:
    out = play(tmp_path, stdin="rules house\n")
    assert_in_order(out, r"> rules house", r"House Rules \(house\)", r".*`house show`.*")


def test_a_deny_list_game_verifies_and_a_changed_deny_does_not(tmp_path: Path) -> None:
    stdin = "".join(
        f"{line}\n"
        for line in [
            "house deny persona 8",
            "house deny persona 3",
            "as Ann: game start classic",
            "game join Bob",
            "game begin",
            *["chaos roll persona"] * 6,
            "game end",
            "game export game.jsonl",
            "game verify game.jsonl",
        ]
    )
    out = play(tmp_path, "--seed", "5", stdin=stdin)  # its first roll throws 8, denied
    assert_in_order(
        out,
        r"> chaos roll persona",
        r"   denied by a house rule and rolled again: #8 Your playgroup's picky eater\.",
        r"> game verify game.jsonl",
        r"Verified.*",
        r"Its commitment .* and its house rules \(2 entries denied\)\. .*",
    )
    events = [json.loads(line) for line in (tmp_path / "game.jsonl").read_text().splitlines()]
    rolls = [e for e in events if e["type"] == "roll" and e["table"] == "persona"]
    assert len(rolls) == 6
    assert not [r for r in rolls if r["entry"]["id"] in ("3", "8")]
    assert events[1]["house"] == {"deny": [["persona", "3"], ["persona", "8"]]}
    forgeries = {}
    allowed = json.loads(json.dumps(events))
    for where in (allowed[0]["action"], allowed[1]):
        where["house"] = {"deny": [["persona", "8"]]}
    forgeries["allowed"] = allowed
    quiet = json.loads(json.dumps(events))
    for event in quiet:
        event.pop("denied", None)
    forgeries["quiet"] = quiet
    for name, forged in forgeries.items():
        (tmp_path / f"{name}.jsonl").write_text("".join(json.dumps(e) + "\n" for e in forged))
        checked = play(tmp_path, stdin=f"game verify {name}.jsonl\n")
        assert_in_order(checked, rf"> game verify {name}.jsonl", r"! .*")


def test_no_repeats_at_the_console(tmp_path: Path) -> None:
    stdin = "".join(
        f"{line}\n"
        for line in [
            "house repeats sometimes",
            "house repeats never",
            "as Ann: game start classic",
            "game join Bob",
            "game begin",
            *["chaos roll persona"] * 21,
            "game end",
            "game export game.jsonl",
            "game verify game.jsonl",
        ]
    )
    out = play(tmp_path, "--seed", "5", stdin=stdin)
    assert_in_order(
        out,
        r"! repeats are `never` or `allowed` \(usage: house repeats never\|allowed \[next game\]\)",
        r"Repeats: never\. A list gives no entry twice until every entry of it has come up;.*",
        r"Ann opens a classic game \(seed 5, 20 life, house rules: no repeats until a list has"
        r" come up whole\)\.",
        r"Ann rolls PersonaLand d20 \[drawn\] = \d+ → .*",
        r".*came up already \(no repeats\): drawn by the dice's weights among the.*",
        r".*every entry of this list has come up: it starts over \(no repeats\)\.",
        r"Verified.*",
    )
    events = [json.loads(line) for line in (tmp_path / "game.jsonl").read_text().splitlines()]
    rolls = [e for e in events if e["type"] == "roll" and e["table"] == "persona"]
    assert len({r["entry"]["id"] for r in rolls[:20]}) == 20
    assert [n for n, r in enumerate(rolls) if r.get("fresh")] == [20]


VETO_SESSION = """\
house veto on
as Ann: game start classic
game join Bob
game join Cy
game begin
chaos roll
chaos veto
as Bob: chaos veto
as Bob: chaos veto
game status
as Cy: chaos veto
as Bob: chaos veto
turn next
chaos roll
as Cy: chaos veto
life lose Ann 1
as Ann: chaos veto
game end
game export game.jsonl
game verify game.jsonl
"""


def test_a_veto_vote_at_the_console(tmp_path: Path) -> None:
    """`chaos veto` votes as the active player (here the roller, refused), `as NAME: chaos
    veto` as NAME; two of three vetoes, the roll is taken back and made again, and the game
    verifies. The export without the rule fails."""
    out = play(tmp_path, "--seed", "5", stdin=VETO_SESSION)
    assert_in_order(
        out,
        r"> house veto on",
        r"Veto: on\. The players at the table but the roller may vote .*",
        r"Ann opens a classic game \(seed 5, 20 life, house rules: results may be vetoed\)\.",
        r"> chaos roll",
        r"Ann rolls Chaos List d20×d10 \[7, 2\] = 72 → #72 Graveyard Bonfire",
        r"> chaos veto",
        r"! Ann rolled R2: a veto is the other players' vote, not the roller's",
        r"> as Bob: chaos veto",
        r"✕ Bob votes to veto R2 Graveyard Bonfire \(1 of 2 votes\)\.",
        r"> as Bob: chaos veto",
        r"! Bob has voted to veto R2 already",
        r"> game status",
        r"Veto R2 Graveyard Bonfire\? 1 of 2 votes: Bob \(`chaos veto`, until the next action\)\.",
        r"House rules: results may be vetoed\.",
        r"> as Cy: chaos veto",
        r"✕ Cy votes to veto R2 Graveyard Bonfire \(2 of 2 votes\)\.",
        r"✕ R2 Graveyard Bonfire is vetoed by Bob and Cy: taken back, and rolled again\.",
        r"Ann rolls Chaos List d20×d10 \[1, 8\] = 18 → #18 Someone You Know \(rolled again: R2"
        r" was vetoed\)",
        r"> as Bob: chaos veto",
        r"! R2 was vetoed this turn, and a turn has one veto at most: the roll made again stands",
        r"> as Cy: chaos veto",
        r"✕ Cy votes to veto R\d+ .* \(1 of 2 votes\)\.",
        r"> life lose Ann 1",
        r"> as Ann: chaos veto",
        r"! there is no result to veto: a result can be vetoed from when it is shown until the"
        r" next action",
        r"> game end",
        r"Played with house rules: results may be vetoed\.",
        r"> game verify game.jsonl",
        r"Verified.*",
        r"Its commitment .* and its house rules \(results may be vetoed\)\. .*",
    )
    events = [json.loads(line) for line in (tmp_path / "game.jsonl").read_text().splitlines()]
    assert events[1]["house"] == {"veto": True}
    [vetoed] = [e for e in events if e["type"] == "vetoed"]
    assert vetoed["voters"] == ["bob", "cy"]
    for where in (events[0]["action"], events[1]):
        del where["house"]
    (tmp_path / "forged.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    out = play(tmp_path, stdin="game verify forged.jsonl\n")
    assert_in_order(out, r"> game verify forged.jsonl", r"! .*commitment doesn't match.*")
