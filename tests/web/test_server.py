"""The live pages on a real socket: the page, its view, its stream, links and their end."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from bot.engine import actions as a
from bot.web.links import MAX_LINKS, TooManyLinksError
from bot.web.streams import GONE
from tests.store.helpers import aio
from tests.web.helpers import SCOPE, begun, serving, stream

SECURITY = ("Content-Security-Policy", "Referrer-Policy", "X-Content-Type-Options")


@aio
async def test_the_page_its_files_and_its_view(tmp_path: Path) -> None:
    async with serving(tmp_path / "db") as pages:
        await begun(pages.service, "lists")
        url = await pages.links.make(SCOPE, "ann", referee=False)
        assert url.startswith(pages.server.own_url + "g/")
        async with pages.http.get(url) as page:
            html = await page.text()
            assert page.status == 200
            assert page.headers["Referrer-Policy"] == "no-referrer"
            assert "default-src 'none'" in page.headers["Content-Security-Policy"]
        # Everything the page loads comes from the bot: no http(s) address in it at all.
        assert "http" not in html.replace("http-equiv", "")
        assert '<script src="../static/page.js"' in html
        for name, kind in (("page.js", "text/javascript"), ("page.css", "text/css")):
            async with pages.http.get(pages.server.own_url + "static/" + name) as file:
                assert file.status == 200
                assert file.content_type == kind
                assert all(h in file.headers for h in SECURITY)
                assert "//" not in (await file.text()).replace("// ", "")
        async with pages.http.get(url + "/view") as answer:
            view = await answer.json()
        assert (view["turn"], view["active"], view["ruleset"]) == (1, "Ann", "Chaos Lists A–F")
        assert [s["name"] for s in view["seats"]] == ["Ann", "Bob"]
        assert view["chaos"]["current"] == "List A"
        assert [e["kind"] for e in view["effects"]] == ["global"]  # rolled at the start
        assert view["log"]
        assert view["log_left_out"] == 0
        async with pages.http.get(url + "/view?layout=overlay") as answer:
            overlay = await answer.json()
        assert "log" not in overlay
        assert overlay["roll"] == view["roll"]


@pytest.mark.parametrize(
    ("path", "status", "says"),
    [
        ("g/" + "x" * 32, 404, "doesn't work"),
        ("g/short", 404, "doesn't work"),
        ("g/" + "%00" * 30 + "/view", 404, "doesn't work"),
        ("g/../../etc/passwd", 404, ""),
        ("static/page.html", 404, "nothing here"),
        ("static/..%2fserver.py", 404, ""),
        ("", 404, "nothing here"),
    ],
)
@aio
async def test_what_isnt_a_link_gets_a_sentence(
    tmp_path: Path, path: str, status: int, says: str
) -> None:
    async with (
        serving(tmp_path / "db") as pages,
        pages.http.get(pages.server.own_url + path) as answer,
    ):
        assert answer.status == status
        assert says in await answer.text()
        assert "Traceback" not in await answer.text()


@aio
async def test_an_unknown_layout_is_refused_with_a_sentence(tmp_path: Path) -> None:
    async with serving(tmp_path / "db") as pages:
        await begun(pages.service)
        url = await pages.links.make(SCOPE, "ann", referee=False)
        for tail in ("?layout=tiny", "/view?layout=<script>", "/stream?layout=huge"):
            async with pages.http.get(url + tail) as answer:
                assert answer.status == 400
                assert await answer.text() == "layout must be full or overlay\n"


@aio
async def test_a_stream_sends_the_view_then_each_change_at_once(tmp_path: Path) -> None:
    async with serving(tmp_path / "db", poll=60.0) as pages:  # the service's word alone
        await begun(pages.service)
        url = await pages.links.make(SCOPE, "ann", referee=False)
        async with stream(pages, url + "/stream") as events:
            first = await events.view()
            assert first["version"] == 3
            assert first["roll"] is not None  # the start roll
            started = time.perf_counter()
            await pages.service.act(SCOPE, a.RollChaos(actor="ann"))
            after = await events.view()
            took = time.perf_counter() - started
            assert after["version"] == 4
            assert after["roll"]["player"] == "Ann"
            assert after["roll"]["id"] != first["roll"]["id"]
            assert took < 1.0, f"the change took {took:.3f} s to reach the stream"
        # A page that reconnects gets the whole current view at once.
        async with stream(pages, url + "/stream") as events:
            assert (await events.view())["version"] == 4


@aio
async def test_another_processs_change_is_seen_by_asking_the_store(tmp_path: Path) -> None:
    # Two services on one database, as two bot processes on PostgreSQL: the one serving the
    # page never hears of the other's action, and finds it by the stored version.
    async with serving(tmp_path / "db", poll=0.2) as pages, serving(tmp_path / "db") as other:
        await begun(pages.service)
        url = await pages.links.make(SCOPE, "ann", referee=False)
        async with stream(pages, url + "/stream") as events:
            assert (await events.view())["version"] == 3
            started = time.perf_counter()
            await other.service.act(SCOPE, a.RollChaos(actor="ann"))
            after = await events.view()
            assert after["version"] == 4
            assert time.perf_counter() - started < 1.0


@aio
async def test_turning_links_off_ends_open_pages_and_the_link(tmp_path: Path) -> None:
    async with serving(tmp_path / "db") as pages:
        await begun(pages.service)
        url = await pages.links.make(SCOPE, "ann", referee=False)
        kept = await pages.links.make(SCOPE, "ref", referee=True)
        async with stream(pages, url + "/stream") as events:
            await events.view()
            assert await pages.links.revoke(SCOPE, "ann", referee=False) == 2
            assert await events.next() == ("gone", {"message": GONE})
        for link in (url, kept):
            async with pages.http.get(link + "/view") as answer:
                assert answer.status == 404
                assert "doesn't work" in await answer.text()
        fresh = await pages.links.make(SCOPE, "ann", referee=False)
        async with pages.http.get(fresh + "/view") as answer:
            assert answer.status == 200


@aio
async def test_a_link_outlives_a_restart_and_dies_when_its_game_expires(tmp_path: Path) -> None:
    async with serving(tmp_path / "db") as pages:
        await begun(pages.service)
        url = await pages.links.make(SCOPE, "ann", referee=False)
        token = url.rpartition("/")[2]
    async with serving(tmp_path / "db") as pages:  # a restart: another port, the same token
        url = pages.links.url(token)
        async with pages.http.get(url + "/view") as answer:
            assert (await answer.json())["version"] == 3
        async with stream(pages, url + "/stream") as events:
            await events.view()
            pages.service.idle_days = 0
            assert await pages.service.expire_idle() == 1
            assert await events.next() == ("gone", {"message": GONE})
        async with pages.http.get(url) as answer:
            assert answer.status == 404


@aio
async def test_an_ended_game_stays_on_its_page_with_its_seed_revealed(tmp_path: Path) -> None:
    async with serving(tmp_path / "db", seed=424242) as pages:
        await begun(pages.service)
        url = await pages.links.make(SCOPE, "ann", referee=False)
        async with stream(pages, url + "/stream") as events:
            view = await events.view()
            assert "424242" not in str(view)
            await pages.service.act(SCOPE, a.End(actor="ann"))
            view = await events.view()
            assert view["phase"] == "ended"
            assert any("seed 424242" in line for line in view["fairness"])
            # A new game in the channel is another game: this link still shows the old one.
            await begun(pages.service)
            async with pages.http.get(url + "/view") as answer:
                assert (await answer.json())["game"] == view["game"]


@aio
async def test_a_game_has_a_few_links_at_most(tmp_path: Path) -> None:
    async with serving(tmp_path / "db") as pages:
        await begun(pages.service)
        urls = {await pages.links.make(SCOPE, "ann", referee=False) for _ in range(MAX_LINKS)}
        assert len(urls) == MAX_LINKS
        with pytest.raises(TooManyLinksError, match="revoke:True"):
            await pages.links.make(SCOPE, "ann", referee=False)


@aio
async def test_the_consoles_link_follows_its_tables_latest_game(tmp_path: Path) -> None:
    async with serving(tmp_path / "db") as pages:
        token = pages.links.fixed(SCOPE)
        url = pages.links.url(token)
        async with pages.http.get(url + "/view") as answer:
            assert answer.status == 404  # no game yet
        await begun(pages.service)
        async with stream(pages, url + "/stream") as events:
            first = await events.view()
            await pages.service.act(SCOPE, a.End(actor="ann"))
            assert (await events.view())["phase"] == "ended"
            await begun(pages.service)
            assert (await events.view())["game"] != first["game"]


@aio
async def test_an_ended_games_page_isnt_rebuilt_for_the_next_game(tmp_path: Path) -> None:
    async with serving(tmp_path / "db") as pages:
        await begun(pages.service)
        url = await pages.links.make(SCOPE, "ann", referee=False)
        await pages.service.act(SCOPE, a.End(actor="ann"))
        looks: list[int | None] = []
        watched = pages.service.watched

        async def counting(scope: str, game_id: int | None = None) -> Any:
            looks.append(game_id)
            return await watched(scope, game_id)

        pages.service.watched = counting  # type: ignore[method-assign]
        async with stream(pages, url + "/stream") as events:
            ended = await events.view()
            assert len(looks) == 1
            await begun(pages.service)  # three actions in the channel, none of them this game's
            await pages.service.act(SCOPE, a.RollChaos(actor="ann"))
            await asyncio.sleep(0.3)
            assert len(looks) == 1
            async with pages.http.get(url + "/view") as answer:
                assert (await answer.json())["version"] == ended["version"]
