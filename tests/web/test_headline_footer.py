"""The live page leads with a sentence anyone can read out, and keeps the seed commitment out of
the way (issue 24, section 2), in Chromium: a capitalised headline with no command in it, and a
footer with the commitment's first 16 digits, the whole of it one tap away (and still open
after the page redraws)."""

from __future__ import annotations

import asyncio

from bot.engine import actions as a
from tests.web.browser import ARTIFACTS, chromium, shows
from tests.web.helpers import SCOPE, begun, serving


def test_the_headline_is_a_sentence_and_the_commitment_is_in_the_footer(tmp_path) -> None:
    async def run() -> None:
        async with serving(tmp_path / "games.db") as pages, chromium() as browser:
            await begun(pages.service, "classic")
            current = await pages.service.current(SCOPE)
            commitment = current.game.state.commitment
            assert commitment is not None
            url = await pages.links.make(SCOPE, "ann", referee=False)
            page = await browser.new_page(viewport={"width": 390, "height": 844})  # a phone
            await page.goto(url)
            await shows(page, current.version)
            assert await page.inner_text("#headline") == "Ann's turn — roll chaos"
            footer = page.locator("#fairness")
            first = footer.locator("p").first
            assert await first.inner_text() == (
                f"Seed commitment {commitment[:16]}… · the seed was named, not drawn: whoever"
                " named it can work out every roll"
            )
            whole = footer.locator("details.commitment code")
            assert not await whole.is_visible()  # one tap away, not in the way
            await footer.locator("summary").click()
            assert await whole.inner_text() == commitment
            # The footer is one line of small print on a phone, not a block of hex.
            box = await first.bounding_box()
            assert box is not None
            assert box["height"] < 60

            done = await pages.service.act(SCOPE, a.RollChaos(actor="ann"))
            await shows(page, done.version)
            assert await page.inner_text("#headline") == "Ann's turn — chaos done"
            assert await whole.is_visible()  # the redraw left it open
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            await page.screenshot(path=ARTIFACTS / "phone-headline-footer.png", full_page=True)

            ended = await pages.service.act(SCOPE, a.End(actor="ann"))
            await shows(page, ended.version)
            assert (await page.inner_text("#headline")).startswith("Game over after 1 turn")
            assert f"revealed: seed {ended.game.state.seed}" in await first.inner_text()
            for text in (await page.inner_text("#headline"), await first.inner_text()):
                assert "`" not in text

    asyncio.run(run())
