"""The live page shows the choice the game waits for with what each option does, in Chromium;
a spite look's cards stay the chooser's alone."""

from __future__ import annotations

import asyncio

from bot.engine import actions as a
from bot.render.choices import option_texts
from tests.web.browser import ARTIFACTS, chromium, shows
from tests.web.helpers import SCOPE, begun, serving


def test_the_page_shows_what_each_option_of_a_choice_does(tmp_path) -> None:
    async def run() -> None:
        async with serving(tmp_path / "games.db", seed=3) as pages, chromium() as browser:
            await begun(pages.service, "lists")
            outcome = await pages.service.act(
                SCOPE, a.RollChaos(actor="ann", referee=True, table="vortex")
            )
            pending = outcome.game.state.pending
            assert pending is not None
            assert pending.kind == "keep"
            texts = option_texts(
                pending.kind, pending.options, pending.context, outcome.game.ruleset
            )
            url = await pages.links.make(SCOPE, "ann", referee=False)
            page = await browser.new_page(viewport={"width": 1280, "height": 900})
            await page.goto(url)
            await shows(page, outcome.version)
            assert await page.inner_text("#waiting") == "Waiting for Ann to choose:"
            names = await page.locator("#choice > li > strong").all_inner_texts()
            assert names == [name for _, name in pending.options]
            does = await page.locator("#choice > li > .does").all_inner_texts()
            assert does == texts
            assert all(texts)
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            await page.screenshot(path=ARTIFACTS / "page-choice.png")

            # Chosen: the list goes.
            chosen = await pages.service.act(
                SCOPE, a.Choose(actor="ann", option=pending.options[0][0])
            )
            await shows(page, chosen.version)
            assert not await page.is_visible("#choice")

    asyncio.run(run())


def test_a_spite_look_lists_no_card_on_the_page(tmp_path) -> None:
    async def run() -> None:
        async with serving(tmp_path / "games.db") as pages, chromium() as browser:
            await begun(pages.service, "deck", life=20)
            outcome = await pages.service.act(
                SCOPE, a.Life(actor="ann", player="bob", mode="lose", amount=25)
            )
            pending = outcome.game.state.pending
            assert pending is not None
            assert pending.private
            url = await pages.links.make(SCOPE, "ann", referee=False)
            page = await browser.new_page()
            await page.goto(url)
            await shows(page, outcome.version)
            assert not await page.is_visible("#choice")
            assert await page.locator("#choice > li").count() == 0

    asyncio.run(run())
