"""Hostile members and uploads: twenty at once can't stall the bot, and one member can't hog it.

The flood test prints the probe's latency; run it with ``-s`` to read it.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from bot.client.errors import APOLOGY
from bot.uploadlimits import UploadLimits
from tests.e2e.probe import Probe
from tests.e2e.table import JSON, Table, is_ephemeral, text_of
from tests.fakediscord.plugin import aio
from tests.fakediscord.server import FakeDiscord

FLOODERS = 20
FLOOD_TIMEOUT = 120.0  # seconds for every flooder's answer, on a slow shared machine


def flood_file() -> bytes:
    """256 KB of a table file that is expensive to check: thousands of entries, each wrong in
    two ways (a second of work or more on the event loop, a fraction of one in a worker)."""
    head = "schema: 1\nkind: table\nid: flood\nname: Flood\nrevision: '1'\ndice: d6\nentries:\n"
    entry = "  - {at: 1, name: a, text: b, x: 1, lasts: 2}\n"
    count = (256 * 1024 - len(head)) // len(entry)
    return (head + entry * count).encode()


async def answer_of(t: Table, path: str, options: dict[str, Any], user: JSON) -> JSON:
    """What the user finally reads, waiting as long as a flood needs (final_answer waits 3 s)."""
    payload, body = await t.fake.slash(path, options, user=user, timeout=FLOOD_TIMEOUT)
    if body["type"] == 5:  # deferred: the answer is a follow-up
        pattern = f"POST /webhooks/*/{payload['token']}"
        call = await t.fake.wait_for_call(pattern, timeout=FLOOD_TIMEOUT)
        return {"data": call.json, "files": call.files}
    return body


def test_twenty_validates_at_once_leave_another_channel_answered_within_a_second(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    asyncio.run(asyncio.wait_for(_flood(fake_discord, tmp_path), FLOOD_TIMEOUT + 30))


async def _flood(fake: FakeDiscord, tmp_path: Path) -> None:
    lobby = fake.add_channel("lobby")
    data = flood_file()
    assert len(data) > 250 * 1024
    async with fake, Table.open(fake, tmp_path) as t:
        users = [fake.add_user(f"flooder{n}") for n in range(FLOODERS)]
        files = [fake.attachment(f"flood{n}.yaml", data) for n in range(FLOODERS)]
        started = time.perf_counter()
        async with Probe(fake, lobby) as probe:
            answers = await asyncio.gather(
                *(
                    answer_of(t, "table validate", {"file": f}, u)
                    for f, u in zip(files, users, strict=True)
                )
            )
        flood_time = time.perf_counter() - started

        for body in answers:  # every flooder got a sentence, none the apology
            assert is_ephemeral(body)
            assert "flood" in text_of(body)
            assert "problems, nothing was stored" in text_of(body)
            assert APOLOGY not in text_of(body)
        print(
            f"\n{FLOODERS} validates of {len(data) // 1024} KB answered in {flood_time:.1f} s;"
            f" {probe.summary()}"
        )
        probe.check()


@aio
async def test_a_member_checks_one_file_at_a_time_and_ten_in_ten_minutes(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    now = [1000.0]
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        t.bot.upload_limits = UploadLimits(clock=lambda: now[0])
        house = (Path(__file__).resolve().parents[1] / "data" / "house.yaml").read_bytes()
        file = t.fake.attachment("house.yaml", house)
        options = {"file": file}
        first, second = await asyncio.gather(
            answer_of(t, "table validate", options, t.fake.player),
            answer_of(t, "table validate", options, t.fake.player),
        )
        assert "No problems" in text_of(first)
        assert is_ephemeral(second)
        assert "Your last file is still being checked" in text_of(second)

        for _ in range(9):  # ten in all
            body = await answer_of(t, "table validate", options, t.fake.player)
            assert "No problems" in text_of(body)
        body = await answer_of(t, "table validate", options, t.fake.player)
        assert is_ephemeral(body)
        assert "You had 10 files checked in the last 10 minutes" in text_of(body)
        other = await answer_of(t, "table validate", options, t.fake.owner)
        assert "No problems" in text_of(other)  # one member's count is theirs alone

        now[0] += 601
        body = await answer_of(t, "table validate", options, t.fake.player)
        assert "No problems" in text_of(body)
