"""Hostile input to the real console: every line gets an answer, and every refusal is a sentence.

The console runs as a real `chaos-referee play --json` process under two locales: C.UTF-8, and a
strict UTF-8 locale (en_US.UTF-8, built for the test where the machine lacks it). Under the
strict one Python used to die at the first invalid byte on stdin, losing every line after it.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.console.locales import c_utf8, strict_utf8

SETTINGS = ("DISCORD_TOKEN", "CHAOS_DB_PATH", "CHAOS_LOG_LEVEL", "CHAOS_IDLE_DAYS")
BASE = {k: v for k, v in os.environ.items() if k not in SETTINGS}


@pytest.fixture(scope="module", params=["C.UTF-8", "en_US.UTF-8"])
def locale_env(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, str]:
    if request.param == "C.UTF-8":
        return c_utf8(BASE)
    return strict_utf8(BASE, tmp_path_factory.mktemp("locale"))


def play_json(
    folder: Path, env: dict[str, str], stdin: bytes, *, seed: int = 1
) -> list[dict[str, object]]:
    """A `play --json` session for Ann, Bob and Cy on `stdin`; the objects it wrote.

    It must end cleanly: exit 0, nothing on stderr, every output line ASCII JSON.
    """
    command = ["play", "--json", "--players", "Ann,Bob,Cy", "--seed", str(seed)]
    result = subprocess.run(
        [sys.executable, "-m", "bot", *command, "--db", str(folder / "games.db")],
        input=stdin,
        capture_output=True,
        timeout=600,
        cwd=folder,
        env=env,
    )
    assert result.stderr == b"", result.stderr.decode("utf-8", "replace")[-2000:]
    assert result.returncode == 0
    assert result.stdout.isascii()
    return [json.loads(line) for line in result.stdout.decode("ascii").splitlines()]


def answers(objects: list[dict[str, object]]) -> dict[int, list[dict[str, object]]]:
    by_line: dict[int, list[dict[str, object]]] = {}
    for obj in objects:
        line = obj["line"]
        assert isinstance(line, int)
        by_line.setdefault(line, []).append(obj)
    return by_line


def test_an_invalid_byte_is_refused_and_the_lines_after_it_are_read(
    tmp_path: Path, locale_env: dict[str, str]
) -> None:
    stdin = b"game status\ncard Fog \xff\xfe\nchaos roll\nas B\xc3\x28b: chaos roll\nturn next\n"
    by_line = answers(play_json(tmp_path, locale_env, stdin))
    assert sorted(by_line) == [0, 1, 2, 3, 4, 5]
    assert by_line[2] == [
        {
            "type": "error",
            "message": "a card's name can't contain bytes that aren't valid text",
            "line": 2,
        }
    ]
    assert any(o["type"] == "roll" for o in by_line[3])
    assert "there's no player 'B\ufffd(b'" in str(by_line[4][0]["message"])
    assert any(o["type"] == "turn_started" for o in by_line[5])


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("roll dice 5d0", "'5d0': a die must have 2 to 1000 sides; got 0."),
        ("roll dice d1", "'d1': a die must have 2 to 1000 sides; got 1."),
        (
            "chaos choose \u2460",
            "an option's number must be written with the digits 0 to 9, like 3; got '\u2460'",
        ),
        (
            "chaos choose \u00b2",
            "an option's number must be written with the digits 0 to 9, like 3; got '\u00b2'",
        ),
        (
            "chaos choose \u0663",
            "an option's number must be written with the digits 0 to 9, like 3; got '\u0663'",
        ),
        ("game export log\x00.jsonl", "a file's name can't contain a control character (U+0000)"),
        (
            "game export log\x1b[31m.jsonl",
            "a file's name can't contain a control character (U+001B)",
        ),
        ("card Fog\x07", "a card's name can't contain a control character (U+0007)"),
    ],
)
def test_hostile_arguments_get_a_sentence(tmp_path: Path, line: str, message: str) -> None:
    objects = play_json(tmp_path, c_utf8(BASE), line.encode() + b"\n")
    assert [o for o in objects if o["line"] == 1] == [
        {"type": "error", "message": message, "line": 1}
    ]
    assert not list(tmp_path.glob("log*"))


# -- the fuzz test ---------------------------------------------------------------------------

COMMANDS = [
    "chaos roll", "chaos roll chaos", "chaos roll ewl", "turn next", "turn next override",
    "chaos counter", "chaos fork", "chaos choose 1", "chaos choose 2", "chaos global",
    "chaos veto", "as Cy: chaos veto", "as Bob: chaos veto", "house veto on next game",
    "chaos spite", "chaos spite Bob", "chaos reveal", "chaos undo", "game status", "chaos log 5",
    "effects list", "effects end 3", "middle add Fog", "middle play 1", "middle list",
    "life lose Bob 25", "life gain 3", "life set Cy 0", "player away Bob 2", "player back Bob",
    "turn extra Bob", "turn skip Cy", "turn reverse", "turn seats Cy,Bob,Ann", "table list",
    "table show chaos", "rules", "rules spite", "card Lightning Bolt", "roll dice 2d6+1",
    "help chaos", "as Bob: chaos counter", "as Cy: chaos roll", "game join Dee", "game begin",
    "game end", "game start lists", "game start deck seed 5", "game leave", "as Ann: game end",
    "effects end E3", "effects end #2", "middle play M1", "table lookup chaos 158",
    "table validate /dev/zero", "table validate .", "house show", "house chaos_from 2 next game",
    "house chaos_from 1 next game", "house deny chaos 12 next game", "house allow chaos 12",
    "house deny wacky Fog next game", "house repeats never next game", "house repeats allowed",
    "house exclude swingy next game", "house include swingy", "house exclude slow",
]  # fmt: skip
# Files written by `game export` stay in the test's folder: these names are never mutated.
EXPORTS = ["game export", "game export log.jsonl", "game export log\x00x", "game export .."]
HOSTILE = [
    b"\xff", b"\xfe\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82",
    "\u2460".encode(), "\u00b2".encode(), "\u0663".encode(), "\U0001d7d9".encode(), b"\x00",
    b"\x1b[31m", b"\r", b"\t", b"\x7f", b"\x85", "\ufeff".encode(), "\u202e".encode(),
    "\u2028".encode(), "\U0001f0a1".encode(), b"{d0}", b"5d0", b"d1000000", b"1d", b"0",
    b"99999999999999999999999", b"-1", b"+1", b"#", b":", b",", b"as ", b"{", b"}", b"\\",
    b"'", b'"', b"%s", b"{0}", b"\x00" * 30, b"x" * 600, "\u00e9\u0301".encode(),
]  # fmt: skip
# Now and then the game is set up afresh, so hostile lines keep meeting a game in progress.
RESET = [
    b"as Ann: game end",
    b"as Ann: game start classic",
    b"game join Bob",
    b"game join Cy",
    b"as Ann: game begin",
]
QUITTING = re.compile(rb"(^|[\s:])(quit|exit)($|\s)", re.IGNORECASE)


def hostile_lines(seed: int, count: int) -> list[bytes]:
    """`count` lines: commands with hostile bytes put in, swapped in, or alone; no `quit`."""
    rng = random.Random(f"hostile/{seed}")
    lines: list[bytes] = []
    while len(lines) < count:
        if rng.random() < 0.02:
            lines += RESET
            continue
        how = rng.randrange(7)
        if how <= 1:
            line = rng.choice(COMMANDS).encode()
        elif how == 2:
            line = rng.choice(EXPORTS).encode() if rng.random() < 0.2 else rng.choice(HOSTILE)
        elif how == 3:
            line = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
        else:
            words = rng.choice(COMMANDS).encode().split(b" ")
            at = rng.randrange(len(words) + 1)
            piece = rng.choice(HOSTILE)
            if how == 4:
                words.insert(at, piece)
            elif how == 5 and at < len(words):
                words[at] = piece
            else:
                words[-1] += piece
            line = b" ".join(words)
        line = line.replace(b"\n", b"")
        if QUITTING.search(line) or (b"export" in line and line.decode() not in EXPORTS):
            continue
        lines.append(line)
    return lines


def test_a_few_thousand_hostile_lines_are_each_answered_without_an_internal_error(
    tmp_path: Path, locale_env: dict[str, str]
) -> None:
    lines = hostile_lines(seed=9, count=4000)
    objects = play_json(tmp_path, locale_env, b"\n".join(lines) + b"\n", seed=9)
    by_line = answers(objects)
    assert sorted(by_line) == list(range(len(lines) + 1))
    messages = [str(o.get("message")) for o in objects if o["type"] == "error"]
    assert not [m for m in messages if "internal error" in m]
    assert len(messages) > len(lines) // 3  # it was hostile: most lines were refused
    assert sum(o["type"] == "roll" for o in objects) > 50  # and some were played
