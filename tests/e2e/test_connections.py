"""The bot's answers share a bounded pool of warm HTTP connections.

discord.py's own pool has no limit, so a burst of answers used to open a connection for nearly
every one of them (against the real Discord, a TLS handshake each).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.client.bot import REST_CONNECTIONS
from tests.e2e.table import Table
from tests.fakediscord.plugin import aio
from tests.fakediscord.server import FakeDiscord


@aio
async def test_a_burst_of_answers_takes_turns_on_a_bounded_pool_of_connections(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with fake, Table.open(fake, tmp_path):
        count = 4 * REST_CONNECTIONS
        sent = await asyncio.gather(
            *(fake.slash("ping", user=(fake.owner, fake.player)[n % 2]) for n in range(count))
        )
        tokens = {payload["token"] for payload, _ in sent}
        answers = [
            call
            for call in fake.calls_to("POST /interactions/*/callback")
            if call.path.split("/")[-2] in tokens
        ]
        assert len(answers) == count  # every one answered
        peers = {call.peer for call in answers}
        assert all(peers)
        # Warm connections are taken in turn: never more than the limit, and far fewer than
        # one for each answer.
        assert 1 <= len(peers) <= REST_CONNECTIONS
