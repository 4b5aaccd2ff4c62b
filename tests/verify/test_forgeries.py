"""The issue's reproductions, from the outside: a console game, its export, and the real
`chaos-referee verify` on forgeries of it (issue 23, sections 2 and 3).

- An undone spite roll made again after a life set that changes nothing gives the same dice.
- A log rewritten without its dice scheme doesn't verify against the commitment announced.
- No-op actions slipped in before a fatal blow don't change the spite roll: the forgery
  verifies only because it tells the same story.
- A line with a key twice is refused, naming the line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.engine import Game
from bot.tables.registry import find_ruleset
from tests.verify.test_cli_verify import run

PLAYERS = ("--players", "Ann,Bob,Cy", "--seed", "11")
GAME = """\
chaos roll
turn next
chaos roll
life lose Bob 25
turn next
chaos roll
game end
game export game.jsonl
"""
PLAIN = """\
chaos roll
turn next
chaos roll
turn next
chaos roll
game end
game export game.jsonl
"""


def block(stdout: str, command: str, nth: int = 0) -> list[str]:
    """What the console printed for the nth `command` typed."""
    blocks = stdout.split("\n> ")
    found = [b.splitlines()[1:] for b in blocks if b.splitlines()[0] == command]
    return [line for line in found[nth] if not line.startswith("The game is saved")]


def test_an_undone_spite_roll_comes_again_after_a_life_set(tmp_path: Path) -> None:
    stdin = "chaos roll\nlife lose Bob 25\nchaos undo\nlife set Cy 20\nlife lose Bob 25\n"
    played = run(tmp_path, "play", *PLAYERS, "--db", "db", stdin=stdin)
    assert played.returncode == 0, played.stderr
    first, again = (
        block(played.stdout, "life lose Bob 25", 0),
        block(played.stdout, "life lose Bob 25", 1),
    )
    spite = [line for line in first if line.startswith("Bob rolls Chaos List")]
    assert spite, first
    assert again == first  # the same spite roll, to the die: undo bought no reroll


def exported(tmp_path: Path, stdin: str = GAME) -> tuple[list[dict[str, Any]], str]:
    """A finished console game's export, and the commitment the console showed at its start."""
    played = run(tmp_path, "play", *PLAYERS, "--db", "db", stdin=stdin)
    assert played.returncode == 0, played.stderr
    shown = next(
        line.rsplit(" ", 1)[1] for line in played.stdout.splitlines() if "commitment" in line
    )
    lines = (tmp_path / "game.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines], shown


def forged(tmp_path: Path, actions: list[dict[str, Any]], name: str) -> Path:
    """The log a forger gets by playing `actions` again with the revealed seed and salt."""
    game = Game.replay(find_ruleset("classic").ruleset, actions)
    path = tmp_path / name
    path.write_text(game.export(), encoding="utf-8")
    return path


def story(path: Path) -> list[Any]:
    """What the game was: its rolls, effects, life totals and end, without the actions."""
    events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    told = ("roll", "effect_started", "effect_ended", "life", "player_out", "game_ended")
    return [
        e for e in events if e["type"] in told and not (e["type"] == "life" and e["delta"] == 0)
    ]


def test_a_log_replayed_without_its_dice_scheme_doesnt_verify(tmp_path: Path) -> None:
    events, shown = exported(tmp_path, PLAIN)
    actions = [e["action"] for e in events if e["type"] == "action"]
    assert "dice" in actions[0]
    del actions[0]["dice"]
    path = forged(tmp_path, actions, "older.jsonl")
    assert story(path) != story(tmp_path / "game.jsonl")  # another game...
    result = run(tmp_path, "verify", path.name, "--commitment", shown)
    assert result.returncode == 2, result.stdout  # ...that can't pass for the one announced
    assert "isn't the one you gave" in result.stderr
    assert "Traceback" not in result.stderr


def test_no_op_actions_before_the_fatal_blow_tell_the_same_story(tmp_path: Path) -> None:
    events, shown = exported(tmp_path)
    actions = [e["action"] for e in events if e["type"] == "action"]
    blow = next(i for i, a in enumerate(actions) if a["name"] == "life")
    noop = {**actions[blow], "player": "cy", "mode": "set", "amount": 20}
    actions[blow:blow] = [noop] * 4
    path = forged(tmp_path, actions, "padded.jsonl")
    result = run(tmp_path, "verify", path.name, "--commitment", shown)
    # Verified only because nothing the four actions did moved a die: the same story.
    assert result.returncode == 0, result.stderr
    assert story(path) == story(tmp_path / "game.jsonl")


def test_a_roll_line_with_a_key_twice_is_refused_naming_its_line(tmp_path: Path) -> None:
    exported(tmp_path)
    lines = (tmp_path / "game.jsonl").read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "roll")
    roll = json.loads(lines[at])
    cases = {
        "entry": '{"entry":{"id":"1","name":"Something else"},' + lines[at][1:],
        "dice and result": f'{{"dice":[1,1],"result":{roll["result"] % 100 + 1},' + lines[at][1:],
    }
    for what, line in cases.items():
        (tmp_path / "twice.jsonl").write_text("\n".join([*lines[:at], line, *lines[at + 1 :]]))
        result = run(tmp_path, "verify", "twice.jsonl")
        assert result.returncode == 1, (what, result.stdout)
        assert f"Line {at + 1} has the key" in result.stderr, result.stderr
        assert "twice in one object" in result.stderr
        assert "Traceback" not in result.stderr
