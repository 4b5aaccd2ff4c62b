"""The live pages' streams on a real socket: one client holds a few at most, the server a
bounded number; a version is built once for every page; the store is asked once per link, not
once per page; and turning links off answers at once and ends every page."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.engine import actions as a
from bot.web.streams import CLIENT_STREAMS, GONE, TOO_MANY, TOO_MANY_HERE, Slots, client_of
from tests.store.helpers import aio
from tests.web.helpers import SCOPE, EventReader, Pages, begun, serving


@contextlib.asynccontextmanager
async def streams(
    pages: Pages, url: str, count: int, **headers: str
) -> AsyncIterator[list[EventReader]]:
    """`count` open streams of `url`, each past its first view."""
    async with contextlib.AsyncExitStack() as stack:
        readers = []
        for _ in range(count):
            response = await stack.enter_async_context(pages.http.get(url, headers=headers))
            assert response.status == 200, await response.text()
            reader = EventReader(response)
            await reader.view()
            readers.append(reader)
        yield readers


async def refusal(pages: Pages, url: str, **headers: str) -> tuple[int, str, Any]:
    async with pages.http.get(url, headers=headers) as answer:
        return answer.status, await answer.text(), answer.headers


@aio
async def test_one_client_holds_a_few_streams_and_gets_a_sentence_past_them(tmp_path: Path) -> None:
    async with serving(tmp_path / "db") as pages:
        await begun(pages.service)
        url = await pages.links.make(SCOPE, "ann", referee=False) + "/stream"
        async with streams(pages, url, CLIENT_STREAMS) as held:
            status, text, headers = await refusal(pages, url)
            assert (status, text) == (429, TOO_MANY_HERE + "\n")
            assert headers["Content-Type"].startswith("text/plain")
            # Someone else (behind the same reverse proxy on this machine) is still served.
            async with streams(pages, url, 1, **{"X-Forwarded-For": "203.0.113.9"}):
                pass
            # A page that goes away gives its slot back at once.
            held[0].response.close()
            async with asyncio.timeout(5):
                while pages.server.slots.held("127.0.0.1") >= CLIENT_STREAMS:
                    await asyncio.sleep(0.01)
            async with streams(pages, url, 1):
                pass
        async with asyncio.timeout(5):
            while pages.server.slots.open:
                await asyncio.sleep(0.01)


@aio
async def test_the_whole_server_holds_a_bounded_number_of_streams(tmp_path: Path) -> None:
    async with serving(tmp_path / "db") as pages:
        pages.server.slots = Slots(per_client=CLIENT_STREAMS, total=3)
        await begun(pages.service)
        url = await pages.links.make(SCOPE, "ann", referee=False) + "/stream"
        async with streams(pages, url, 3):
            status, text, headers = await refusal(pages, url, **{"X-Forwarded-For": "192.0.2.1"})
            assert (status, text) == (503, TOO_MANY + "\n")
            assert int(headers["Retry-After"]) > 0
            async with pages.http.get(url.removesuffix("/stream") + "/view") as answer:
                assert answer.status == 200  # a look at the view isn't a stream


@aio
async def test_a_version_is_built_once_however_many_pages_show_it(tmp_path: Path) -> None:
    async with serving(tmp_path / "db") as pages:
        await begun(pages.service)
        url = await pages.links.make(SCOPE, "ann", referee=False)
        async with (
            streams(pages, url + "/stream", 10) as full,
            streams(pages, url + "/stream?layout=overlay", 5) as overlay,
        ):
            built = pages.server.views.builds
            assert built == 2  # the first version, in each layout
            moved = await pages.service.act(SCOPE, a.RollChaos(actor="ann"))
            for reader in [*full, *overlay]:
                assert (await reader.view())["version"] == moved.version
            for _ in range(5):
                async with pages.http.get(url + "/view") as answer:
                    assert (await answer.json())["version"] == moved.version
            assert pages.server.views.builds == built + 2


@aio
async def test_the_store_is_asked_once_per_link_not_once_per_page(tmp_path: Path) -> None:
    """Every poll, a link's game's version is looked up once for all its pages; a link is
    looked up once for a page and its stream, not once each."""
    async with serving(tmp_path / "db", poll=0.05) as pages:
        await begun(pages.service)
        url = await pages.links.make(SCOPE, "ann", referee=False)
        store = pages.service.store
        asked: dict[str, int] = {"version": 0, "link": 0}
        for name in asked:
            method = getattr(store, name)

            async def counted(*args: Any, _method: Any = method, _name: str = name) -> Any:
                asked[_name] += 1
                return await _method(*args)

            setattr(store, name, counted)
        async with streams(pages, url + "/stream", CLIENT_STREAMS):
            assert asked["link"] == 1
            asked["version"] = 0
            started = time.monotonic()
            await asyncio.sleep(1.0)
            polls = (time.monotonic() - started) / 0.05
        assert asked["version"] <= polls + 2, asked


@aio
async def test_turning_links_off_answers_at_once_and_ends_every_page(tmp_path: Path) -> None:
    async with serving(tmp_path / "db") as pages:
        await begun(pages.service)
        url = await pages.links.make(SCOPE, "ann", referee=False) + "/stream"
        forwarded = [{"X-Forwarded-For": f"198.51.100.{n}"} for n in range(8)]
        async with contextlib.AsyncExitStack() as stack:
            readers = []
            for headers in forwarded:
                readers += await stack.enter_async_context(streams(pages, url, 8, **headers))
            links = pages.service.store.link
            looked: list[str] = []

            async def counted(digest: str) -> Any:
                looked.append(digest)
                return await links(digest)

            pages.service.store.link = counted  # type: ignore[method-assign, assignment]
            started = time.perf_counter()
            assert await pages.links.revoke(SCOPE, "ann", referee=False) == 1
            took = time.perf_counter() - started
            assert took < 1.0
            assert looked == []  # the answer didn't wait for any page
            ends = await asyncio.gather(*(reader.next() for reader in readers))
            assert ends == [("gone", {"message": GONE})] * len(readers)
            assert len(looked) == 1  # one look for the 64 pages on the link


class _Request:
    """What client_of reads of a request."""

    def __init__(self, remote: str, forwarded: str | None = None) -> None:
        self.remote = remote
        self.headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}


@pytest.mark.parametrize(
    ("remote", "forwarded", "client"),
    [
        ("203.0.113.5", None, "203.0.113.5"),
        ("203.0.113.5", "198.51.100.7", "203.0.113.5"),  # only a proxy here may say who
        ("127.0.0.1", "198.51.100.7", "198.51.100.7"),
        ("127.0.0.1", "10.0.0.1, 198.51.100.7", "198.51.100.7"),  # what the proxy appended
        ("::1", "2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:aaaa::1", None, "2001:db8:1:2::/64"),  # one machine's /64 is one client
        ("::ffff:203.0.113.5", None, "203.0.113.5"),
        ("127.0.0.1", None, "127.0.0.1"),
        ("127.0.0.1", "not an address", "not an address"),
    ],
)
def test_who_a_client_is(remote: str, forwarded: str | None, client: str) -> None:
    assert client_of(_Request(remote, forwarded)) == client  # type: ignore[arg-type]


def test_a_client_is_counted_by_its_own_slots() -> None:
    slots = Slots(per_client=2, total=3)
    assert slots.take("a") is None
    assert slots.take("a") is None
    refused = slots.take("a")
    assert refused is not None
    assert refused.status == 429
    assert slots.take("b") is None
    refused = slots.take("c")
    assert refused is not None
    assert refused.status == 503
    slots.give_back("a")
    assert slots.take("c") is None
    assert (slots.open, slots.held("a"), slots.held("c")) == (3, 1, 1)


@aio
async def test_a_page_that_goes_away_ends_its_watch(tmp_path: Path) -> None:
    async with serving(tmp_path / "db") as pages:
        await begun(pages.service)
        url = await pages.links.make(SCOPE, "ann", referee=False) + "/stream"
        async with streams(pages, url, 3):
            assert len(pages.server.watches) == 1
        async with asyncio.timeout(5):
            while len(pages.server.watches) or pages.server.slots.open:
                await asyncio.sleep(0.01)
        async with streams(pages, url, 1) as again:  # and a new page starts it again
            await pages.service.act(SCOPE, a.RollChaos(actor="ann"))
            assert (await again[0].view())["version"] == 4
