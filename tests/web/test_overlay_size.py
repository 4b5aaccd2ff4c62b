"""The overlay fits the browser source the docs give (docs/discord.md), in Chromium, whatever
the game holds: 2, 8 and 16 seats with 0, 5 and 15 effects in play. Every seat and the latest
roll stay on screen; with more than fits, the effects beyond the first few are counted, then
the overlay is drawn smaller, never below half size. ``?scale=`` draws it smaller still.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from bot.engine import actions as a
from bot.service import Outcome
from tests.web.browser import ARTIFACTS, chromium, shows
from tests.web.helpers import SCOPE, Pages, serving

DOCS = Path(__file__).resolve().parents[2] / "docs" / "discord.md"


def documented_size() -> tuple[int, int]:
    """The Width and Height the OBS steps in docs/discord.md give the overlay."""
    found = re.search(r"\*\*Width\*\* (\d+) and \*\*Height\*\* (\d+)", DOCS.read_text())
    assert found, "docs/discord.md no longer gives the overlay's size"
    return int(found[1]), int(found[2])


async def table(pages: Pages, seats: int, effects: int) -> Outcome:
    """A classic game with `seats` players and exactly `effects` effects in play, rolled for
    by extra rolls (the game's own effects, with their real names and texts)."""
    service = pages.service
    await service.start(SCOPE, "classic", host="p0", host_name="Ann", life=20)
    for n in range(1, seats):
        await service.act(SCOPE, a.Join(actor=f"p{n}", player_name=f"Player {n}"))
    await service.act(SCOPE, a.Begin(actor="p0"))
    outcome = await service.act(SCOPE, a.RollChaos(actor="p0"))  # the turn's roll, on screen
    for _ in range(400):
        state = outcome.game.state
        if state.pending is not None:
            option = state.pending.options[0][0]
            outcome = await service.act(
                SCOPE, a.Choose(actor=state.pending.player, referee=True, option=option)
            )
        elif len(state.effects) > effects:
            newest = max(state.effects)
            outcome = await service.act(SCOPE, a.EndEffect(actor="p0", referee=True, effect=newest))
        elif len(state.effects) < effects:
            outcome = await service.act(SCOPE, a.RollChaos(actor="p0", referee=True, extra=True))
        else:
            break
    assert len(outcome.game.state.effects) == effects
    return outcome


@pytest.mark.parametrize(
    ("seats", "effects"), [(s, e) for s in (2, 8, 16) for e in (0, 5, 15)] + [(8, 10)]
)
def test_the_overlay_fits_its_documented_size(tmp_path, seats: int, effects: int) -> None:
    width, height = documented_size()

    async def run() -> None:
        async with serving(tmp_path / "games.db") as pages, chromium() as browser:
            outcome = await table(pages, seats, effects)
            url = await pages.links.make(SCOPE, "p0", referee=False)
            page = await browser.new_page(viewport={"width": width, "height": height})
            await page.goto(url + "?layout=overlay")
            await shows(page, outcome.version)
            box = await page.evaluate(
                "(() => { const r = document.querySelector('main').getBoundingClientRect();"
                " return [r.right, r.bottom]; })()"
            )
            assert box[0] <= width + 0.5, f"{seats} seats, {effects} effects: {box[0]} px wide"
            assert box[1] <= height + 0.5, f"{seats} seats, {effects} effects: {box[1]} px tall"
            zoom = float(await page.get_attribute("body", "data-zoom") or "0")
            assert zoom >= 0.5
            if seats <= 8 and effects <= 10:  # what the documented size is chosen to hold
                assert zoom == 1.0, f"{seats} seats and {effects} effects were drawn smaller"
                shown = await page.get_attribute("body", "data-effects-shown")
                assert shown == str(effects)
            for seat in await page.locator("#seats .seat").all():
                assert await seat.is_visible()
            assert await page.locator("#seats .seat").count() == seats
            assert await page.is_visible(".roll.top .entry")
            listed = await page.locator("#effects > li.effect:not([hidden])").count()
            more = await page.locator("#effects > li.more").all_inner_texts()
            assert listed + sum(int(m.split()[0][1:]) for m in more) == effects
            if (seats, effects) in {(8, 5), (16, 15)}:
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                shot = ARTIFACTS / f"overlay-{seats}-seats-{effects}-effects.png"
                await page.screenshot(path=shot, omit_background=True)

    asyncio.run(run())


def test_scale_draws_the_overlay_smaller(tmp_path) -> None:
    width, height = documented_size()

    async def run() -> None:
        async with serving(tmp_path / "games.db") as pages, chromium() as browser:
            outcome = await table(pages, 2, 0)
            url = await pages.links.make(SCOPE, "p0", referee=False)
            page = await browser.new_page(viewport={"width": width, "height": height})
            await page.goto(url + "?layout=overlay&scale=0.75")
            await shows(page, outcome.version)
            assert await page.get_attribute("body", "data-zoom") == "0.750"
            right = await page.evaluate(
                "document.querySelector('main').getBoundingClientRect().right"
            )
            assert right <= width + 0.5

    asyncio.run(run())
