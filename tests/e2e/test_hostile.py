"""A hostile member, and a machine in trouble, met through discord.py and the fake Discord.

Each finding of the red team that is a Discord matter has its test here: what a member can do
to the bot gets a sentence, loses nothing, and slows nobody else down.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.client.errors import APOLOGY
from tests.e2e.table import JSON, Table, is_ephemeral, text_of
from tests.fakediscord.plugin import aio
from tests.fakediscord.server import FakeDiscord


@aio
async def test_a_full_disk_during_play_tells_the_player_in_a_sentence(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The database can't grow (SQLite's answer when the disk is full, simulated with
    ``max_page_count``): the player reads what happened, not the apology for a bug; the host's
    log gets the store's sentence, with no traceback, and the game is whole."""
    fake = fake_discord
    async with fake, Table.open(fake, tmp_path) as t:
        await t.game("classic", players=2, seed=9)
        version = (await t.current()).version
        db = t.service.store._db
        async with db.execute("PRAGMA page_count") as cursor:
            row = await cursor.fetchone()
        assert row is not None
        await db.execute(f"PRAGMA max_page_count = {row[0]}")
        body: JSON = {}
        turns = [(fake.owner, "chaos roll"), (fake.owner, "turn next")]
        turns += [(fake.player, "chaos roll"), (fake.player, "turn next")]
        for n in range(400):  # until an action no longer fits
            user, command = turns[n % 4]
            body = await t.slash(command, user=user)
            if is_ephemeral(body):
                break
        text = text_of(body)
        assert is_ephemeral(body), text
        assert text != APOLOGY
        assert "disk is full" in text
        assert "wasn't saved" in text
        assert str(tmp_path) not in text  # the host's path is for the host
        failed = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert failed, "the host is told"
        assert all(r.exc_info is None for r in failed)  # not a bug: no traceback
        assert "internal error" not in caplog.text
        assert "can't grow" in caplog.text
        assert (await t.current()).version > version
        await db.execute("PRAGMA max_page_count = 1073741823")
