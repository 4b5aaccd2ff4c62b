"""Resource bombs through Discord: tables that would throw too many dice are refused with the
line (or the chain of lines) that explodes, and a game log too big to upload is compressed, or
refused with a sentence."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

import tests.fakediscord.payloads as fake_payloads
from bot.client.errors import APOLOGY
from tests.e2e.table import Table, final_answer, is_ephemeral, text_of
from tests.fakediscord.plugin import aio
from tests.fakediscord.server import FakeDiscord

BOMBS = Path(__file__).resolve().parents[1] / "data" / "bombs"


def heavy_wacky() -> bytes:
    """WackyLand whose every result throws 150 dice and rolls twice more on WackyLand: each
    entry is within the limit, the chain of them is not."""
    dice = "{100d1000}{50d6}"
    lines = ["schema: 1", "kind: table", "id: wacky", "name: Heavy WackyLand", 'revision: "9"']
    lines += ["dice: d2", "entries:"]
    for at in (1, 2):
        lines += [f"  - at: {at}", "    name: Avalanche", f'    text: "{dice}"']
        lines += ["    roll: {times: 2}"]
    return ("\n".join(lines) + "\n").encode()


@aio
async def test_a_table_whose_entry_throws_too_many_dice_is_refused_at_its_line(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        bomb = t.fake.attachment("dice.yaml", (BOMBS / "dice.yaml").read_bytes())
        body = await final_answer(t, "table validate", {"file": bomb}, user=t.fake.player)
        assert is_ephemeral(body)
        text = text_of(body)
        assert "dice.yaml: 1 problem, nothing was stored" in text
        assert "dice.yaml:9 entries[0]: this entry throws up to 20,000 dice" in text
        assert APOLOGY not in text


@aio
async def test_an_upload_that_makes_a_ruleset_explode_is_refused_naming_the_chain(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        bomb = t.fake.attachment("wacky.yaml", heavy_wacky())
        body = await final_answer(t, "table import", {"file": bomb}, user=t.fake.owner)
        assert is_ephemeral(body)
        text = text_of(body)
        assert "nothing was stored" in text
        assert "classic/wacky.yaml:8: one roll on wacky can lead to 60 rolls and 9,060 dice" in text
        assert "wacky.yaml:8 rolls 2 times on wacky, throws 151 dice" in text
        assert await t.service.guild_tables(t.fake.guild_id) == []


@aio
async def test_an_export_over_the_upload_limit_is_compressed_or_refused_with_a_sentence(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        await t.game("classic", players=2)
        scope = f"{t.fake.guild_id}:{t.fake.channel_id}"
        log = (await t.service.export(scope)).encode()

        # This server may upload a little less than the log: it comes compressed.
        monkeypatch.setattr(fake_payloads, "ATTACHMENT_SIZE_LIMIT", len(log) - 1)
        body = await final_answer(t, "game export", user=t.fake.owner)
        assert is_ephemeral(body)
        assert "compressed with gzip" in text_of(body)
        (file,) = body["files"]
        assert file.filename == f"chaos-game-{t.fake.channel_id}.jsonl.gz"
        assert gzip.decompress(file.data) == log

        # Less than even the compressed log: a sentence, not an error from Discord.
        monkeypatch.setattr(fake_payloads, "ATTACHMENT_SIZE_LIMIT", 200)
        body = await final_answer(t, "game export", user=t.fake.owner)
        assert is_ephemeral(body)
        text = text_of(body)
        assert f"chaos-game-{t.fake.channel_id}.jsonl is " in text
        assert "over the 0 KB this server may upload, so it can't be sent here" in text
        assert APOLOGY not in text
