"""A hostile look at the live page: games holding every secret a table keeps (a named seed and
its salt, the order of a deck, a face-down card, a spite look's cards), and every byte the page
gets (its HTML, its JSON in both layouts, its stream), searched for each secret.

A secret is looked for only while it is one: a face-down card becomes public when it is turned
up. What the project's own public log (``sealed``) shows is public by definition; a card name
that appears there (a card revealed earlier, a Global in play) is not a secret any more.
"""

from __future__ import annotations

from pathlib import Path

from bot.engine import actions as a
from bot.engine.game import Game
from bot.service import GameService
from tests.store.helpers import aio
from tests.web.helpers import SCOPE, EventReader, Pages, secrets_of, serving, stream

SEED = 1_987_654_321  # named by the host (below 2**31), distinctive enough to search for


async def everything(pages: Pages, url: str) -> bytes:
    """Every byte a page gets from the bot at this moment: HTML, script, style, both views."""
    got = b""
    for tail in ("", "?layout=overlay", "/view", "/view?layout=overlay"):
        async with pages.http.get(url + tail) as answer:
            assert answer.status == 200
            got += await answer.read()
    for name in ("page.js", "page.css"):
        async with pages.http.get(pages.server.own_url + "static/" + name) as answer:
            got += await answer.read()
    return got


def assert_hidden(secrets: set[str], *seen: bytes) -> None:
    text = b"".join(seen).decode()
    leaked = sorted(s for s in secrets if s in text)
    assert not leaked, f"the page shows what the table must not see: {leaked}"


async def now(service: GameService) -> Game:
    return (await service.current(SCOPE)).game


async def check(pages: Pages, url: str, streams: list[EventReader]) -> set[str]:
    game = await now(pages.service)
    secrets = secrets_of(game)
    version = (await pages.service.current(SCOPE)).version
    for events in streams:  # each stream has caught up with this moment
        while (await events.view())["version"] != version:
            pass
    assert_hidden(secrets, await everything(pages, url), *(bytes(e.raw) for e in streams))
    return secrets


@aio
async def test_a_deck_game_keeps_its_seed_order_face_down_card_and_spite_look(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path / "db") as pages:
        service = pages.service
        await service.start(SCOPE, "deck", host="ann", host_name="Ann", seed=SEED, life=20)
        await service.act(SCOPE, a.Join(actor="bob", player_name="Bob"))
        url = await pages.links.make(SCOPE, "ann", referee=False)
        async with (
            stream(pages, url + "/stream") as full,
            stream(pages, url + "/stream?layout=overlay") as overlay,
        ):
            streams = [full, overlay]
            await check(pages, url, streams)  # the lobby: the seed is named already
            await service.act(SCOPE, a.Begin(actor="ann"))
            assert len(await check(pages, url, streams)) > 60  # the whole deck's order

            await service.act(SCOPE, a.RollChaos(actor="ann"))
            game = await now(service)
            assert game.state.face_down is not None
            face_down = game.state.face_down[1]
            assert face_down in await check(pages, url, streams)

            await service.act(SCOPE, a.Reveal(actor="ann"))
            await service.act(SCOPE, a.Life(actor="ann", player="bob", mode="lose", amount=20))
            game = await now(service)
            assert game.state.pending is not None
            assert game.state.pending.private
            looked = {card for card, _ in game.state.pending.options}
            assert looked <= await check(pages, url, streams)
            async with pages.http.get(url + "/view") as answer:
                waiting = (await answer.json())["waiting"]
            assert waiting == (
                "Waiting for Bob to pick a card from their spite look (only they see it)."
            )

            # Once the game is over, its seed is the table's to check.
            await service.act(SCOPE, a.End(actor="ann"))
            async with pages.http.get(url + "/view") as answer:
                over = await answer.json()
            assert any(f"seed {SEED}" in line for line in over["fairness"])


@aio
async def test_a_drawn_seed_and_its_salt_stay_off_every_page(tmp_path: Path) -> None:
    async with serving(tmp_path / "db", seed=2**127 + 12345) as pages:
        service = pages.service
        await service.start(SCOPE, "classic", host="ann", host_name="Ann")
        await service.act(SCOPE, a.Join(actor="bob", player_name="Bob"))
        url = await pages.links.make(SCOPE, "ann", referee=False)
        async with stream(pages, url + "/stream") as events:
            await service.act(SCOPE, a.Begin(actor="ann"))
            for _ in range(3):
                await service.act(SCOPE, a.RollChaos(actor="ann", extra=True))
            secrets = await check(pages, url, [events])
            assert {str(2**127 + 12345), (await now(service)).state.salt} <= secrets
