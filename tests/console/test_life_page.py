"""An unsure life total on the live page and the board (issue 23): the view says which totals the
bot isn't sure of, the board's seat lines (the Discord board's and the console's) show "20?",
and the page in a real Chromium shows "20? life" until a player sets the total."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from bot.engine import actions as a
from bot.engine.game import Game
from bot.render import Names, seat_lines
from bot.tables import load_ruleset
from bot.web.view import build_view
from tests.console.test_life_console import folder
from tests.console.test_web import LINK, line_with
from tests.store.helpers import aio
from tests.web.browser import chromium, free_port, shows


def swords_game(tmp_path: Path) -> Game:
    ruleset = load_ruleset(folder(tmp_path)).ruleset
    game = Game.start(ruleset, seed=7, host="ann", name="Ann")
    game.act(a.Join(actor="bob", player_name="Bob"))
    game.act(a.Begin(actor="ann"))
    game.act(a.RollChaos(actor="ann", table="swords", referee=True))
    return game


def test_the_view_and_the_board_say_which_totals_are_unsure(tmp_path: Path) -> None:
    game = swords_game(tmp_path)
    seats = build_view(game, game_id=1, version=game.seq, layout="full")["seats"]
    assert [(s["name"], s["life"], s["unsure"]) for s in seats] == [
        ("Ann", 20, True),
        ("Bob", 20, True),
    ]
    board = seat_lines(game.state, game.ruleset, Names.of(game))
    assert board[1:3] == [" ▶ Ann  20? life  [host]", "   Bob  20? life"]
    game.act(a.Life(actor="ann", player="bob", mode="set", amount=17))
    seats = build_view(game, game_id=1, version=game.seq, layout="full")["seats"]
    assert [(s["life"], s["unsure"]) for s in seats] == [(20, True), (17, False)]
    board = seat_lines(game.state, game.ruleset, Names.of(game))
    assert board[2] == "   Bob   17 life"


@aio
async def test_the_page_in_chromium_shows_20_question_until_life_set(tmp_path: Path) -> None:
    port = free_port()
    own = folder(tmp_path)
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "--db", str(tmp_path / "games.db"), "--web",
         str(port), "--tables", str(own), "--players", "Ann,Bob", "--seed", "7"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "CHAOS_LOG_LEVEL": "WARNING"},
    )  # fmt: skip
    assert process.stdin is not None
    try:
        async with asyncio.timeout(60):
            url = (await line_with(process, LINK)).group(1)
            async with chromium() as browser:
                page = await browser.new_page()
                await page.goto(url)
                await page.wait_for_selector("body[data-version]", state="attached")
                version = int(await page.get_attribute("body", "data-version") or 0)
                process.stdin.write("chaos roll swords\n")
                process.stdin.flush()
                await shows(page, version + 1)
                lives = await page.locator("#seats .seat .life").all_inner_texts()
                assert lives == ["20? life", "20? life"]
                unsure = page.locator("#seats .seat .life.unsure").first
                assert "life set" in (await unsure.get_attribute("title") or "")
                process.stdin.write("life set Bob 17\n")
                process.stdin.flush()
                await shows(page, version + 2)
                lives = await page.locator("#seats .seat .life").all_inner_texts()
                assert lives == ["20? life", "17 life"]
                assert await page.locator("#seats .seat .life.unsure").count() == 1
        process.stdin.close()
        assert await asyncio.to_thread(process.wait) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
