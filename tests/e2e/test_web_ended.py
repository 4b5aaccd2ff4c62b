"""The live page of a finished game, in Chromium: it switches to an ended state (no "In play",
no "roll on", no "Live"), says "Game over" with the standings, the winner first, and the
overlay shows the standings too. Screenshots of the page, the overlay and a phone at the
game's start, middle and end are kept in build/artifacts/ ({page,overlay,phone}-{start,middle,
end}.png)."""

from __future__ import annotations

import asyncio

from tests.e2e.table import Table
from tests.e2e.test_web_browser import aio
from tests.e2e.test_web_link import link_in
from tests.web.browser import ARTIFACTS, chromium, shows


@aio
async def test_the_page_of_a_finished_game_tells_how_it_ended(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path, web=True) as t, chromium() as b:
        owner, _, _ = await t.game("lists", life=20, players=3)
        url = link_in(await t.slash("game link", user=owner))
        pages = {
            "page": await b.new_page(viewport={"width": 1280, "height": 900}),
            "overlay": await b.new_page(viewport={"width": 480, "height": 640}),
            "phone": await b.new_page(viewport={"width": 390, "height": 844}, is_mobile=True),
        }
        for name, page in pages.items():
            await page.goto(url + ("?layout=overlay" if name == "overlay" else ""))
        ARTIFACTS.mkdir(parents=True, exist_ok=True)

        async def snap(moment: str) -> None:
            """Screenshots of the three layouts at a moment of the game, once all show it."""
            version = (await t.current()).version
            for name, page in pages.items():
                await shows(page, version)
                path = ARTIFACTS / f"{name}-{moment}.png"
                await page.screenshot(path=path, full_page=name != "overlay",
                                      omit_background=name == "overlay")  # fmt: skip

        await snap("start")
        await t.slash("chaos roll", user=owner)
        for _ in range(3):
            await t.slash("chaos roll", {"extra": True}, user=owner)
        await snap("middle")
        version = (await t.current()).version
        full = pages["page"]
        assert await full.is_visible("#effects-section")
        assert not await full.is_visible("#recap")

        await t.slash("life lose", {"amount": 20, "player": "guest2"}, user=owner)
        await t.slash("life lose", {"amount": 25, "player": "player"}, user=owner)
        for page in pages.values():
            await shows(page, version + 2)
        await asyncio.sleep(1.0)  # the stream of a finished game may close: the page stays put

        assert await full.text_content("#recap-heading") == "Game over"
        assert await full.inner_text("#recap-headline") == (
            "owner wins: owner is the last one standing."
        )
        names = await full.locator("#standings .name").all_inner_texts()
        assert names == ["owner", "player", "guest2"]
        hows = await full.locator("#standings .how").all_inner_texts()
        assert hows[:2] == ["winner", "out on turn 1: dropped below 1 life"]
        assert await full.get_attribute("#standings > li:first-child", "class") == "winner"
        lines = await full.locator("#recap-lines > li").all_inner_texts()
        assert lines[0].startswith("1 turn played, ")
        assert "Biggest life swing: player -25 on turn 1, to -5 (lose by owner)." in lines
        assert "game verify" in await full.inner_text("#recap-verify")
        for hidden in ("#effects-section", "#chaos-section"):
            assert not await full.is_visible(hidden), hidden
        shown = await full.inner_text("main")
        for word in ("In play", "Chaos roll on", "Live."):
            assert word not in shown, word
        assert await full.inner_text("#connection") == "Game over: this page no longer changes."
        assert await full.text_content("#roll-heading") == "Last roll"

        overlay = pages["overlay"]
        assert await overlay.is_visible("#standings")
        assert not await overlay.is_visible("#roll")
        height = await overlay.evaluate("document.querySelector('main').scrollHeight")
        assert height <= 640, f"the ended overlay is {height} px tall"
        phone = pages["phone"]
        assert await phone.is_visible("#standings")
        assert await phone.evaluate("document.documentElement.scrollWidth") <= 390

        for name, page in pages.items():
            path = ARTIFACTS / f"{name}-end.png"
            await page.screenshot(path=path, full_page=name != "overlay",
                                  omit_background=name == "overlay")  # fmt: skip
