"""Tab completion offers the words that fit where the cursor is, read off the command grammar;
and the real console, in a terminal, lists them on a double Tab."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.commands import SPECS
from bot.commands.grammar import groups, parse
from bot.console.completion import completions, next_words, usage_of

SETTINGS = ("DISCORD_TOKEN", "CHAOS_DB_PATH", "CHAOS_LOG_LEVEL", "CHAOS_IDLE_DAYS")


@pytest.mark.parametrize(
    ("before", "text", "offered"),
    [
        ("", "", sorted(g + " " for g in groups())),
        ("", "T", ["table ", "turn "]),
        ("turn ", "", ["extra ", "next ", "reverse ", "seats ", "skip "]),
        ("turn ", "s", ["seats ", "skip "]),
        ("turn next ", "", ["override "]),
        ("turn next override ", "", []),
        ("chaos spite Bob ", "", ["card ", "library ", "life ", "poison "]),
        ("chaos roll ", "", ["extra "]),
        ("player away Bob ", "", ["next "]),
        ("as Bob: player away ", "", ["next "]),
        ("AS bob : ", "tu", ["turn "]),
        ("game start ", "", ["life ", "seed ", "tables "]),
        ("game start classic life ", "", []),  # a number comes next
        ("game start classic life 30 ", "", ["seed ", "tables "]),
        ("game verify log.jsonl ", "c", ["commitment "]),
        ("help ", "", sorted(g + " " for g in groups())),
        ("roll ", "", ["dice "]),
        ("chaos reveal ", "", []),
        ("banana ", "", []),
    ],
)
def test_the_words_offered_fit_where_the_cursor_is(
    before: str, text: str, offered: list[str]
) -> None:
    assert completions(before, text) == offered


# What a command needs before its optional words, for the line to parse.
VALUES = {
    "chaos spite": "Bob",
    "house chaos_from": "3",
    "house veto": "on",
    "house deny": "chaos 1",
    "house allow": "chaos 1",
    "house repeats": "never",
    "house exclude": "slow",
    "house include": "slow",
}


@pytest.mark.parametrize("name", list(SPECS))
def test_every_command_is_reached_word_by_word_and_its_words_are_offered(name: str) -> None:
    words = name.split()
    for n, word in enumerate(words):
        assert word in next_words(words[:n]), (name, words[:n])
    after = set(next_words(words))
    usage = usage_of(name)
    assert usage.flags | usage.valued <= after
    # Whatever is offered after the name, with a value where one is wanted, still parses as it.
    for word in sorted(usage.flags):
        line = f"{name} {VALUES.get(name, '')} {word}".replace("  ", " ")
        if name.startswith("house ") and word in ("next", "game"):
            line = f"{name} {VALUES[name]} next game"  # one optional phrase of two words
        if name == "house repeats" and word in ("never", "allowed"):
            line = f"{name} {word}"  # the value itself
        if name == "house veto" and word in ("on", "off"):
            line = f"{name} {word}"
        parsed = parse(line)
        assert parsed is not None
        assert parsed.name == name


def test_nothing_offered_is_outside_the_grammar() -> None:
    known = {w for spec in SPECS.values() for w in spec.usage.replace("|", " ").split()}
    known = {w.strip("[]") for w in known}
    for spec in SPECS.values():
        words = spec.name.split()
        for n in range(len(words) + 1):
            for offered in next_words(words[:n]):
                assert offered in known or offered in groups(), (spec.name, offered)


def read_until(fd: int, token: bytes, timeout: float = 20.0) -> bytes:
    out = b""
    ends = time.monotonic() + timeout
    while time.monotonic() < ends and token not in out:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                out += os.read(fd, 4096)
            except OSError:  # the console closed the terminal
                break
    return out


def test_a_double_tab_in_a_real_terminal_lists_the_verbs_of_the_group(tmp_path: Path) -> None:
    parent, child = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS} | {"TERM": "dumb"}
    play = ["play", "--db", str(tmp_path / "games.db"), "--players", "Ann,Bob", "--seed", "1"]
    console = subprocess.Popen(
        [sys.executable, "-m", "bot", *play],
        stdin=child,
        stdout=child,
        stderr=child,
        env=env,
        cwd=tmp_path,
    )
    os.close(child)
    try:
        assert b"(turn 1)> " in read_until(parent, b"(turn 1)> ")
        os.write(parent, b"turn \t\t")
        listed = read_until(parent, b"skip").decode()
        assert listed.split("\r\n")[1].split() == ["extra", "next", "reverse", "seats", "skip"]
        os.write(parent, b"\x15player away Bob n\t\n")  # Ctrl-U, then one Tab ends the word
        assert b"Bob steps away until their next turn." in read_until(parent, b"next turn.")
        os.write(parent, b"quit\n")
        assert b"The game is saved" in read_until(parent, b"saved")
        assert console.wait(20) == 0
    finally:
        if console.poll() is None:
            console.kill()
        os.close(parent)
