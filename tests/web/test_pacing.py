"""A burst of connections to the live pages is taken a few a turn of the event loop, and a
page's streams opening together look their link up once (bot.web.pacing, bot.web.links)."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import aiohttp

from bot.web.pacing import READS_PER_TURN, listening_socket
from bot.web.streams import CLIENT_STREAMS, TOO_MANY_HERE
from tests.store.helpers import aio
from tests.web.helpers import SCOPE, begun, serving

BURST = 300


async def first_answer(http: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    """The status of `url`, and its body (a stream: its first event)."""
    async with http.get(url) as answer:
        if answer.status != 200:
            return answer.status, await answer.text()
        while (line := await answer.content.readline()).strip() != b"event: view":
            assert line, "the stream ended before its first view"
        return 200, "view"


@aio
async def test_a_burst_is_started_a_few_a_turn_and_every_connection_is_answered(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path / "db") as pages:
        await begun(pages.service)
        url = await pages.links.make(SCOPE, "ann", referee=False) + "/stream"
        connector = aiohttp.TCPConnector(limit=0, force_close=True)
        async with aiohttp.ClientSession(connector=connector) as http:
            answers = await asyncio.gather(*(first_answer(http, url) for _ in range(BURST)))
        pacer = pages.server.pacer
        assert pacer.busiest <= READS_PER_TURN, pacer.busiest
        assert pacer.held > 0  # the burst did have to wait its turns
    # Each is served or refused with the sentence (a stream is closed once it showed its view,
    # and its slot goes to another: more than CLIENT_STREAMS may be served in all).
    assert {(status, text.strip()) for status, text in answers} == {
        (200, "view"),
        (429, TOO_MANY_HERE),
    }
    assert len(answers) == BURST
    assert sum(status == 200 for status, _ in answers) >= CLIENT_STREAMS


@aio
async def test_streams_opening_together_look_their_link_up_once(tmp_path: Path) -> None:
    async with serving(tmp_path / "db") as pages:
        await begun(pages.service)
        url = await pages.links.make(SCOPE, "ann", referee=False) + "/stream"
        store = pages.service.store
        asked = 0
        link = store.link

        async def counted(*args: Any) -> Any:
            nonlocal asked
            asked += 1
            return await link(*args)

        store.link = counted  # type: ignore[method-assign,assignment]
        answers = await asyncio.gather(*(first_answer(pages.http, url) for _ in range(12)))
        assert [status for status, _ in answers] == [200] * 12
        assert asked == 1


@aio
async def test_a_burst_waits_in_the_kernels_queue_not_turned_away(tmp_path: Path) -> None:
    """asyncio takes a few connections a turn, but the kernel still holds a burst for it: here
    the loop is kept busy (these connections are made from it, blocking) while 200 connect."""
    async with serving(tmp_path / "db") as pages:
        clients: list[socket.socket] = []
        try:
            for _ in range(200):  # the kernel's queue: nobody accepts them meanwhile
                clients.append(socket.create_connection(("127.0.0.1", pages.server.port), 2))
        finally:
            for client in clients:
                client.close()
        assert len(clients) == 200


def test_the_listening_socket_takes_any_address_the_setting_allows() -> None:
    for host in ("127.0.0.1", "0.0.0.0", "localhost", "::1"):
        with listening_socket(host, 0) as listening:
            assert listening.getsockname()[1] > 0
