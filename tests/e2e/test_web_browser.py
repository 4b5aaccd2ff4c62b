"""The live page in a real browser (Debian's Chromium) against the real bot on the fake Discord:
a roll shows within a second, through a restart of the bot; the overlay renders on a transparent
background (its screenshot is kept in build/artifacts/); the page works with a keyboard and on
a phone; and nothing the table must not see ever reaches the browser.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec

import pytest
from playwright.async_api import Page, Response

from tests.e2e.table import Table, text_of
from tests.e2e.test_web_link import link_in
from tests.web.browser import ARTIFACTS, chromium, free_port, missing, shows
from tests.web.helpers import secrets_of

P = ParamSpec("P")
SEED = 1_987_654_321
BROWSER_TIMEOUT = 60.0  # a browser start and a bot restart take longer than the usual 20 s


def aio(test: Callable[P, Awaitable[None]]) -> Callable[P, None]:
    @functools.wraps(test)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        async def bounded() -> None:
            async with asyncio.timeout(BROWSER_TIMEOUT):
                await test(*args, **kwargs)

        asyncio.run(bounded())

    return run


def top_entry(game: Any) -> str:
    """The entry of the latest roll that began a resolution."""
    rolls = [e for e in game.events if e["type"] == "roll" and e["parent"] is None]
    return str(rolls[-1]["entry"]["name"])


async def timed(t: Table, page: Page, command: str, **options: Any) -> float:
    """Run a slash command as the owner; seconds until the page shows the game it made."""
    started = time.perf_counter()
    answer = await t.slash(command, options or None, user=t.fake.owner)
    assert "Sorry" not in text_of(answer), text_of(answer)
    await shows(page, (await t.current()).version, timeout=2.0)
    return time.perf_counter() - started


# The bot restarts at once on the same fake; the 5 s between IDENTIFYs is tested in test_shards.
@pytest.mark.parametrize("fake_discord", [{"identify_interval": 0}], indirect=True)
@aio
async def test_a_roll_shows_on_the_page_within_a_second_through_a_restart(fake_discord, tmp_path):
    port = free_port()
    async with fake_discord, chromium() as browser:
        page = await browser.new_page()
        async with Table.open(fake_discord, tmp_path, web=port, db="games.db") as t:
            await t.game("classic")
            url = link_in(await t.slash("game link", user=t.fake.owner))
            await page.goto(url)
            await shows(page, (await t.current()).version)

            took = await timed(t, page, "chaos roll")
            assert took < 1.0, f"the roll took {took:.3f} s to show"
            entry = top_entry((await t.current()).game)
            assert await page.inner_text(".roll.top .entry") == entry
            assert await page.inner_text("#connection") == "Live."

        # The bot is down: the page says so and keeps trying.
        await page.wait_for_selector("#connection:has-text('reconnecting')", timeout=5000)
        async with Table.open(fake_discord, tmp_path, web=port, db="games.db") as t:
            await page.wait_for_selector("#connection:text-is('Live.')", timeout=5000)
            took = await timed(t, page, "turn next")
            assert took < 1.0, f"after a restart, the turn took {took:.3f} s to show"
            took = await timed(t, page, "chaos roll")
            assert took < 1.0
            assert await page.inner_text(".roll.top .entry") == top_entry((await t.current()).game)
            assert await page.inner_text("#ruleset") == "Classic Chaos · turn 2"


@aio
async def test_the_overlay_renders_on_a_transparent_background(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path, web=True) as t, chromium() as b:
        await t.game("lists", life=20)
        await t.slash("chaos roll", user=t.fake.owner)
        url = link_in(await t.slash("game link", user=t.fake.owner))
        version = (await t.current()).version
        page = await b.new_page(viewport={"width": 480, "height": 400})
        await page.goto(url + "?layout=overlay")
        await shows(page, version)

        transparent = "rgba(0, 0, 0, 0)"
        assert await page.evaluate("getComputedStyle(document.body).backgroundColor") == transparent
        assert (
            await page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
            == transparent
        )
        assert await page.is_visible(".roll.top .entry")
        assert await page.is_visible("#effects")
        for hidden in ("#log-section", "#fairness", "#chaos-section", ".skip"):
            assert not await page.is_visible(hidden), hidden
        width = await page.evaluate("document.querySelector('main').getBoundingClientRect().width")
        assert width <= 480

        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shot = ARTIFACTS / "overlay.png"
        await page.screenshot(path=shot, omit_background=True)
        png = shot.read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert png[25] == 6, "the screenshot has no alpha channel"  # colour type RGBA
        print(f"overlay screenshot: {shot}")


@aio
async def test_the_full_page_works_with_a_keyboard_and_on_a_phone(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path, web=True) as t, chromium() as b:
        await t.game("lists", life=20, players=3)
        for _ in range(3):
            answer = await t.slash("chaos roll", {"extra": True}, user=t.fake.owner)
            assert "extra roll" in text_of(answer)
        await t.slash("player away", user=t.fake.player)
        url = link_in(await t.slash("game link", user=t.fake.owner))
        version = (await t.current()).version
        ARTIFACTS.mkdir(parents=True, exist_ok=True)

        page = await b.new_page(viewport={"width": 1280, "height": 900})
        await page.goto(url)
        await shows(page, version)
        seats = await page.locator("#seats .seat .name").all_inner_texts()
        assert seats == ["owner", "player", "guest2"]
        assert await page.get_attribute("#seats .seat.away", "class") == "seat away"
        assert await page.inner_text("#seats .seat.active .name") == "owner"
        await page.screenshot(path=ARTIFACTS / "page.png", full_page=True)

        # The keyboard: Tab reaches the skip link first; / jumps to the search, which filters.
        await page.keyboard.press("Tab")
        assert await page.evaluate("document.activeElement.className") == "skip"
        await page.keyboard.press("Escape")
        await page.locator("body").click()
        await page.keyboard.press("/")
        assert await page.evaluate("document.activeElement.id") == "log-search"
        every = await page.locator("#log > li").count()
        await page.keyboard.type("player away")
        shown = await page.locator("#log > li:not([hidden])").count()
        assert 0 < shown < every
        assert "player away" in (await page.locator("#log > li:not([hidden])").all_inner_texts())[0]
        await page.keyboard.press("Escape")
        assert await page.locator("#log > li:not([hidden])").count() == every

        phone = await b.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
        await phone.goto(url)
        await shows(phone, version)
        assert await phone.evaluate("document.documentElement.scrollWidth") <= 390
        await phone.screenshot(path=ARTIFACTS / "phone.png", full_page=True)


class Captured:
    """Every byte the bot sends a browser: each response's body and each message of the
    event stream (which Chromium's DevTools protocol reports as it arrives)."""

    def __init__(self) -> None:
        self.responses: list[Response] = []
        self.messages: list[str] = []

    async def watch(self, page: Page) -> None:
        page.on("response", lambda response: self.responses.append(response))
        devtools = await page.context.new_cdp_session(page)
        await devtools.send("Network.enable")
        devtools.on(
            "Network.eventSourceMessageReceived",
            lambda event: self.messages.append(f"{event['eventName']} {event['data']}"),
        )

    async def text(self, *pages: Page) -> str:
        bodies = [
            (await r.body()).decode()
            for r in self.responses
            if "text/event-stream" not in (await r.all_headers()).get("content-type", "")
        ]
        drawn = [await page.content() for page in pages]
        return "\n".join([*bodies, *self.messages, *drawn])


@aio
async def test_nothing_the_table_must_not_see_reaches_the_browser(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path, web=True) as t, chromium() as b:
        owner, player = await t.game("deck", life=20, seed=SEED)
        url = link_in(await t.slash("game link", user=owner))
        captured = Captured()
        pages = []
        for layout in ("", "?layout=overlay"):
            page = await b.new_page()
            await captured.watch(page)
            await page.goto(url + layout)
            pages.append(page)

        async def check() -> set[str]:
            current = await t.current()
            for page in pages:
                await shows(page, current.version)
            secrets = secrets_of(current.game)
            seen = await captured.text(*pages)
            leaked = sorted(s for s in secrets if s in seen)
            assert not leaked, f"the browser got what the table must not see: {leaked}"
            return secrets

        assert str(SEED) in await check()  # the named seed, the salt and the deck's order
        await t.slash("chaos roll", user=owner)
        face_down = (await t.current()).game.state.face_down
        assert face_down is not None
        assert face_down[1] in await check()

        await t.slash("chaos reveal", user=owner)
        await t.slash("life lose", {"amount": 20, "player": "player"}, user=owner)
        pending = (await t.current()).game.state.pending
        assert pending is not None
        assert pending.private
        looked = {card for card, _ in pending.options}
        assert looked <= await check()
        shown = await pages[0].inner_text("#waiting")
        assert (
            shown == "Waiting for player to pick a card from their spite look (only they see it)."
        )

        # A secret roll isn't the game's: the page never hears of it.
        version = (await t.current()).version
        await t.slash("roll dice", {"expr": "7d13+99", "secret": True}, user=player)
        await asyncio.sleep(0.3)
        assert (await t.current()).version == version
        assert "7d13" not in await captured.text(*pages)
        assert captured.messages, "the event stream's messages weren't captured"


def test_without_chromium_a_browser_test_fails_saying_how_to_install_it(
    monkeypatch, tmp_path
) -> None:
    nowhere = tmp_path / "no-chromium"
    monkeypatch.setenv("CHAOS_CHROMIUM", str(nowhere))

    async def open_one() -> None:
        async with chromium():
            raise AssertionError("a browser that isn't there opened")

    with pytest.raises(pytest.fail.Exception) as failed:
        asyncio.run(open_one())
    assert str(failed.value) == missing(nowhere)
    assert "apt-get install -y chromium chromium-driver" in str(failed.value)
