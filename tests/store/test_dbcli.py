"""``chaos-referee db migrate`` and ``db copy``, run as real processes on a real SQLite file
and real PostgreSQL databases."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.engine import End, Life
from bot.store import HEAD, BoardRecord, GuildSettings, Store
from tests.postgres import fresh_database
from tests.store.helpers import begun, open_service, play_turn

ROOT = Path(__file__).resolve().parents[2]


def chaos(*args: str, input: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("CHAOS_")}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=input,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**clean, **env},
    )


@pytest.fixture
def target() -> Iterator[str]:
    with fresh_database(empty=True) as url:
        yield url


async def a_server(path: Path) -> dict[str, str]:
    """A SQLite file as a server leaves it: games over and under way, settings, an uploaded
    table and a board. Returns each scope's export, to compare after the copy."""
    async with open_service(path) as service:
        await begun(service, "g1:c1", seed=3)
        for _ in range(4):
            await play_turn(service, "g1:c1")
        await begun(service, "g1:c2", seed=4)
        await service.act("g1:c2", End(actor="ann"))
        await begun(service, "g1:c2", seed=5)  # the channel's next game
        await begun(service, "g2:c1", seed=6)
        await service.act("g2:c1", Life(actor="ann", mode="gain", amount=2), interaction=99)
        store = service.store
        await store.put_guild_settings("g1", GuildSettings(referee_role=7, auto_roll=True))
        await store.put_table("g1", "house", "id: house\n", now=5.0)
        await store.put_table("g1", "house", "id: house\n# v2\n", now=6.0)
        game = await service.current("g1:c1")
        await store.put_board(BoardRecord("g1:c1", game.game_id, "c1", "m1"))
        return {scope: await service.export(scope) for scope in ("g1:c1", "g1:c2", "g2:c1")}


def test_migrate_says_what_it_ran_and_then_that_nothing_was_left(target: str) -> None:
    first = chaos("db", "migrate", "--db", target)
    assert first.returncode == 0, first.stderr
    numbers = ", ".join(str(n) for n in range(1, HEAD + 1))
    assert f"to schema {HEAD}: ran migrations {numbers}." in first.stdout
    again = chaos("db", "migrate", CHAOS_DATABASE_URL=target)  # the configured database
    assert again.returncode == 0, again.stderr
    assert f"is already at schema {HEAD}; nothing to run." in again.stdout


def test_migrate_a_sqlite_file(tmp_path: Path) -> None:
    result = chaos("db", "migrate", CHAOS_DB_PATH=str(tmp_path / "games.db"))
    assert result.returncode == 0, result.stderr
    assert f"games.db to schema {HEAD}" in result.stdout


def test_copy_moves_every_game_checks_it_and_play_goes_on(tmp_path: Path, target: str) -> None:
    source = tmp_path / "games.db"
    exports = asyncio.run(a_server(source))
    result = chaos("db", "copy", "--from", str(source), "--to", target)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Copied 4 games (")
    assert "1 guild settings, 2 guild table revisions and 1 boards" in result.stdout
    assert "replayed all 4 games there and each came out the same." in result.stdout

    async def after() -> None:
        async with open_service(target) as service:
            for scope, export in exports.items():
                assert await service.export(scope) == export
            settings = await service.store.guild_settings("g1")
            assert settings == GuildSettings(referee_role=7, auto_roll=True)
            table = await service.store.get_table("g1", "house")
            assert table is not None
            assert (table.revision, table.created) == (2, 6.0)
            board = await service.store.board("g1:c1")
            assert board is not None
            assert board.message == "m1"
            # Play goes on, and a new game gets an id after the copied ones.
            moved = await play_turn(service, "g1:c1")
            assert moved.game_id == board.game_id
            fresh = await begun(service, "g3:c1")
            async with Store.connect(source) as old:
                assert fresh.game_id > max(await old.game_ids())

    asyncio.run(after())
    # A second copy into the same database is refused, and changes nothing.
    again = chaos("db", "copy", "--from", str(source), "--to", target)
    assert again.returncode == 1
    assert "already has games or guild settings, so nothing was copied" in again.stderr
    assert "Traceback" not in again.stderr


@pytest.mark.parametrize(
    ("source", "target", "said"),
    [
        ("missing.db", "postgresql://127.0.0.1/x", "there is no database file at missing.db"),
        ("games.db", "other.db", "the target other.db is not a PostgreSQL URL"),
    ],
)
def test_copy_refuses_what_it_cannot_do_in_one_sentence(
    tmp_path: Path, source: str, target: str, said: str
) -> None:
    (tmp_path / "games.db").touch()
    result = subprocess.run(
        [sys.executable, "-m", "bot", "db", "copy", "--from", source, "--to", target],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 1
    assert said in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
