"""A card picture that can't load (offline, a blocked host) leaves the card's name in a frame
the shape of a card, in Chromium, on the full page and the overlay: never a broken-image icon."""

from __future__ import annotations

import asyncio

from playwright.async_api import Page, Route

from bot.engine import actions as a
from bot.render.cards import rolled_card
from tests.web.browser import ARTIFACTS, chromium, shows
from tests.web.helpers import SCOPE, begun, serving


async def unreachable(page: Page, own: str) -> list[str]:
    """Every request to another host than the page's own fails, as offline; the ones tried."""
    tried: list[str] = []

    async def block(route: Route) -> None:
        tried.append(route.request.url)
        await route.abort("internetdisconnected")

    await page.route(lambda url: not url.startswith(own), block)
    return tried


def test_a_card_whose_picture_cannot_load_shows_its_name_in_a_card_frame(tmp_path) -> None:
    async def run() -> None:
        async with serving(tmp_path / "games.db") as pages, chromium() as browser:
            await begun(pages.service, "lists")
            await pages.service.act(SCOPE, a.MiddleAdd(actor="ann", card="Black Lotus"))
            card = None
            for _ in range(60):  # extra rolls until the latest names a real card
                outcome = await pages.service.act(
                    SCOPE, a.RollChaos(actor="ann", referee=True, extra=True)
                )
                while (pending := outcome.game.state.pending) is not None:
                    outcome = await pages.service.act(
                        SCOPE, a.Choose(actor="ann", referee=True, option=pending.options[0][0])
                    )
                top = [e for e in outcome.game.events if e["type"] == "roll" and not e["parent"]]
                card = rolled_card(top[-1], outcome.game.ruleset)
                if card:
                    break
            assert card is not None
            url = await pages.links.make(SCOPE, "ann", referee=False)
            own = url.split("/g/")[0]
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            for layout in ("", "?layout=overlay"):
                page = await browser.new_page()
                tried = await unreachable(page, own)
                await page.goto(url + layout)
                await shows(page, outcome.version)
                rolled = page.locator(".roll.top > .card.missing")
                await rolled.wait_for(timeout=5000)
                assert await rolled.inner_text() == card
                # Pictures further down load (and fail) once scrolled to: none is left broken.
                while await page.locator("img.card:visible").count():
                    await page.locator("img.card:visible").first.scroll_into_view_if_needed()
                    await page.wait_for_timeout(100)
                if layout:  # the overlay has no middle
                    await page.screenshot(path=ARTIFACTS / "overlay-card-frame.png")
                    continue
                frame = page.locator("#middle .card.missing")
                await frame.wait_for(timeout=5000)
                assert await frame.inner_text() == "Black Lotus"
                assert await frame.get_attribute("role") == "img"
                assert await frame.get_attribute("aria-label") == "Black Lotus"
                box = await frame.bounding_box()
                assert box is not None
                assert abs(box["height"] / box["width"] - 88 / 63) < 0.05  # a card's shape
                assert any("scryfall" in u for u in tried), tried  # it was tried, and failed
                await frame.screenshot(path=ARTIFACTS / "card-frame.png")

    asyncio.run(run())
