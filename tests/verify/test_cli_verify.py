"""`chaos-referee verify`, run as a real process on a game the console played and exported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

GAME = """\
chaos roll
turn next
chaos roll
turn next
chaos roll
game end
game export game.jsonl
"""


def run(cwd: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def test_verify_a_played_game_then_a_tampered_copy(tmp_path: Path) -> None:
    played = run(tmp_path, "play", "--players", "Ann,Bob", "--seed", "10", "--db", "db", stdin=GAME)
    assert played.returncode == 0, played.stderr
    commitment = next(
        line.rsplit(" ", 1)[1] for line in played.stdout.splitlines() if "commitment" in line
    )
    ok = run(tmp_path, "verify", "game.jsonl", "--commitment", commitment[:16])
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("Verified: this classic game replays exactly")
    assert "It is the one you gave." in ok.stdout
    assert "The seed is a small number" in ok.stdout  # --seed named it

    events = [json.loads(line) for line in (tmp_path / "game.jsonl").read_text().splitlines()]
    index = max(i for i, e in enumerate(events) if e["type"] == "roll")
    events[index]["dice"][-1] = events[index]["dice"][-1] % 10 + 1
    (tmp_path / "bad.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    bad = run(tmp_path, "verify", "bad.jsonl")
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert f"verification failed: Event {index + 1} (roll, turn 3)" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_files_that_cant_be_checked_exit_1_with_a_sentence(tmp_path: Path) -> None:
    (tmp_path / "junk.jsonl").write_bytes(b"\x00\xff not a log")
    for path, says in [
        ("junk.jsonl", "isn't UTF-8 text"),
        ("missing.jsonl", "missing.jsonl isn't a file"),
        (".", ". isn't a file"),
    ]:
        result = run(tmp_path, "verify", path)
        assert result.returncode == 1, result.stderr
        assert says in result.stderr
        assert "internal error" not in result.stderr
