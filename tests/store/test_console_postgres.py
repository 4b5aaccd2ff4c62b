"""The console on PostgreSQL: `play --db URL` and CHAOS_DATABASE_URL open the same database the
bot uses, so an operator can look at a game copied there with `db copy` and play it on from its
turn. Real processes, a real SQLite file and a real PostgreSQL database."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgres import fresh_database
from tests.store.test_dbcli import chaos


@pytest.fixture
def target() -> Iterator[str]:
    with fresh_database(empty=True) as url:
        yield url


def play(*args: str, stdin: str, **env: str) -> str:
    result = chaos("play", *args, input=stdin, **env)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "Traceback" not in result.stdout
    return result.stdout


def turn_line(stdout: str) -> str:
    """The last `── Turn N — NAME ──` line the console printed."""
    turns = re.findall(r"^── Turn \d+ — \w+ ──$", stdout, re.M)
    assert turns, stdout
    return str(turns[-1])


def test_a_console_game_copied_to_postgresql_resumes_at_its_turn(
    tmp_path: Path, target: str
) -> None:
    sqlite = str(tmp_path / "games.db")
    first = play(
        "--db", sqlite, "--players", "Ann,Bob", "--seed", "1265", "--game", "friday",
        stdin="chaos roll\nturn next\nchaos roll\nturn next\n",
    )  # fmt: skip
    assert turn_line(first) == "── Turn 3 — Ann ──"
    copied = chaos("db", "copy", "--from", sqlite, "--to", target)
    assert copied.returncode == 0, copied.stderr
    # --db takes the URL...
    status = play("--db", target, "--game", "friday", stdin="game status\n")
    assert "Resuming the game at table 'friday'." in status
    assert "turn 3 · Ann's turn — roll chaos" in status, status
    # ...and without --db, CHAOS_DATABASE_URL is the database, as it is the bot's.
    going_on = play("--game", "friday", stdin="chaos roll\nturn next\n", CHAOS_DATABASE_URL=target)
    assert "Ann rolls" in going_on, going_on
    assert turn_line(going_on) == "── Turn 4 — Bob ──"
    # The SQLite file never saw that turn: the console played on PostgreSQL.
    back = play("--db", sqlite, "--game", "friday", stdin="game status\n")
    assert "turn 3 · Ann's turn — roll chaos" in back, back


def test_a_url_that_is_not_postgresql_is_refused_with_a_sentence() -> None:
    result = chaos("play", "--players", "Ann,Bob", input="", CHAOS_DATABASE_URL="mysql://x/y")
    assert result.returncode == 1
    assert "CHAOS_DATABASE_URL must be a PostgreSQL URL" in result.stderr
    assert "Traceback" not in result.stderr
