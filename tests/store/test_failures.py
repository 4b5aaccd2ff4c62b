"""A database the bot can't use as it is: each case is a sentence saying what to do, not a crash.

Every case uses a real SQLite file. A damaged and a read-only file are met by the real
`chaos-referee play` process. A lock is held by another real process. A full disk is simulated
with SQLite's ``PRAGMA max_page_count`` on the store's connection: SQLite then answers exactly
as it does when the disk runs out (SQLITE_FULL), without needing a small filesystem.
"""

from __future__ import annotations

import ctypes
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.engine import RollChaos
from bot.errors import StoreError
from bot.store import Store
from tests.store.helpers import SCOPE, aio, begun, on_sqlite, open_service, play_turn

SETTINGS = ("DISCORD_TOKEN", "CHAOS_DB_PATH", "CHAOS_LOG_LEVEL", "CHAOS_IDLE_DAYS")
ENV = {k: v for k, v in os.environ.items() if k not in SETTINGS}


def console(db: Path, stdin: str, *, read_only: bool = False) -> subprocess.CompletedProcess[str]:
    """`chaos-referee play --db DB` for Ann and Bob, as a real process.

    With `read_only`, the process can't write the file even when the tests run as root: root
    writes anything only through CAP_DAC_OVERRIDE, which the child gives up before it starts.
    """
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "play",
            "--players",
            "Ann,Bob",
            "--seed",
            "1",
            "--db",
            str(db),
        ],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=ENV,
        preexec_fn=_without_root_powers if read_only and os.geteuid() == 0 else None,
    )


def _without_root_powers() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def saved_game(folder: Path) -> Path:
    """A database with a game in it, folded into the main file (no write-ahead log beside it)."""
    db = folder / "games.db"
    result = console(db, "chaos roll\n")
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(db) as plain:
        plain.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    plain.close()
    return db


def test_a_damaged_database_is_named_with_how_to_recover(tmp_path: Path) -> None:
    db = saved_game(tmp_path)
    data = bytearray(db.read_bytes())
    page = 4096
    for start in range(2 * page, len(data), page):  # every page after the first two
        data[start : start + 100] = b"\xa5" * 100
    db.write_bytes(bytes(data))
    result = console(db, "game status\nchaos roll\n")
    assert result.returncode == 1
    assert "internal error" not in result.stderr
    assert result.stderr == (
        f"chaos-referee: the database file {db} is damaged. Stop the bot and keep a copy of the"
        " file; then restore a backup, or save what can still be read with"
        f" `sqlite3 {db} .recover | sqlite3 recovered.db` and use recovered.db instead"
        " (--db or CHAOS_DB_PATH).\n"
    )


def test_a_read_only_database_says_so(tmp_path: Path) -> None:
    db = saved_game(tmp_path)
    db.chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        result = console(db, "game status\nchaos roll\n", read_only=True)
    finally:
        tmp_path.chmod(0o755)
    assert result.returncode == 1
    assert result.stderr == (
        f"chaos-referee: the database {db} is read-only: the bot must be able to write to the file"
        " and to its folder (check their permissions, and that the disk isn't read-only).\n"
    )


def test_a_database_folder_that_cant_be_made_says_so(tmp_path: Path) -> None:
    (tmp_path / "games").write_text("a file where the folder should be")
    db = tmp_path / "games" / "games.db"
    result = console(db, "game status\n")
    assert result.returncode == 1
    assert result.stderr == (
        f"chaos-referee: can't make the folder {db.parent} for the database (a file of that"
        " name is in the way): give --db or CHAOS_DB_PATH a path in a folder the bot may write"
        " to.\n"
    )


HOLD_LOCK = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.read()
db.execute("ROLLBACK")
"""


@aio
async def test_a_database_locked_by_another_process_says_so_and_works_once_freed(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.db"
    async with open_service(db) as service:
        await begun(service)
        # Five seconds of patience are right for the bot; a tenth of one is enough here.
        await on_sqlite(service.store)._db.execute("PRAGMA busy_timeout = 100")
        holder = subprocess.Popen(
            [sys.executable, "-c", HOLD_LOCK, str(db)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert holder.stdout is not None
            assert holder.stdout.readline() == "locked\n"
            with pytest.raises(StoreError, match="is locked by another program") as caught:
                await service.act(SCOPE, RollChaos(actor="ann"))
            assert str(caught.value) == (
                f"the database {db} is locked by another program (waited 5 seconds): another"
                " bot or console using the same file, or a backup. Try again when it is done."
            )
        finally:
            holder.communicate("", timeout=30)
        rolled = await service.act(SCOPE, RollChaos(actor="ann"))
        assert any(e["type"] == "roll" for e in rolled.events)


@aio
async def test_a_full_disk_says_so_and_loses_only_the_action_that_did_not_fit(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.db"
    async with open_service(db) as service:
        await begun(service)
        connection = on_sqlite(service.store)._db
        async with connection.execute("PRAGMA page_count") as cursor:
            row = await cursor.fetchone()
        assert row is not None
        # The database may not grow past its size now: what SQLite does when the disk is full.
        await connection.execute(f"PRAGMA max_page_count = {row[0]}")
        turns = 0

        async def play_on() -> None:
            nonlocal turns
            for _ in range(10_000):
                await play_turn(service, SCOPE)
                turns += 1

        with pytest.raises(StoreError) as caught:
            await play_on()
        assert str(caught.value) == (
            f"the database {db} can't grow: the disk is full (or the database has reached its"
            " size limit). The last action wasn't saved; free some space and try again."
        )
        assert turns > 0
        before = (await service.current(SCOPE)).version
    async with Store.connect(db) as store:
        stored = await store.active_game(SCOPE)
        assert stored is not None
        assert stored.record.version == before
