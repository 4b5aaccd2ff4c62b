"""A service with its live pages on a real socket, and a reader of server-sent events."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bot.engine import actions as a
from bot.engine.fairness import sealed
from bot.engine.game import Game
from bot.engine.state import Phase
from bot.service import GameService
from bot.store import Store
from bot.web.links import Links
from bot.web.server import PageServer

SCOPE = "g:c"


@dataclass
class Pages:
    service: GameService
    links: Links
    server: PageServer
    http: aiohttp.ClientSession


@contextlib.asynccontextmanager
async def serving(db: Path | str, *, seed: int = 5, poll: float = 0.5) -> AsyncIterator[Pages]:
    """A service over the database `db`, its pages on a free loopback port, and a client."""
    store = await Store.open(db)
    service = GameService(store, seeds=lambda: seed)
    links = Links(service, None)
    server = PageServer(service, links, port=0, poll=poll)
    await server.start()
    links.serve_at(server.own_url)
    links.on_revoke = server.revoked
    try:
        async with aiohttp.ClientSession() as http:
            yield Pages(service, links, server, http)
    finally:
        await server.close()
        await service.close()


async def begun(service: GameService, ruleset: str = "classic", **start: Any) -> None:
    """Ann hosts a game of `ruleset` in SCOPE; Bob joins; it begins."""
    await service.start(SCOPE, ruleset, host="ann", host_name="Ann", **start)
    await service.act(SCOPE, a.Join(actor="bob", player_name="Bob"))
    await service.act(SCOPE, a.Begin(actor="ann"))


@dataclass
class EventReader:
    """The events of one open stream, and every byte it brought."""

    response: aiohttp.ClientResponse
    raw: bytearray = field(default_factory=bytearray)

    async def next(self, timeout: float = 3.0) -> tuple[str, Any]:
        """The next event: its name and its data (parsed JSON); comments are skipped."""
        name, data = "message", ""
        async with asyncio.timeout(timeout):
            while True:
                line = await self.response.content.readline()
                if not line:
                    raise EOFError("the stream ended")
                self.raw += line
                text = line.decode().rstrip("\n")
                if text.startswith("event:"):
                    name = text.partition(":")[2].strip()
                elif text.startswith("data:"):
                    data += text.partition(":")[2].strip()
                elif not text and data:
                    return name, json.loads(data)

    async def view(self, timeout: float = 3.0) -> dict[str, Any]:
        name, data = await self.next(timeout)
        assert name == "view", (name, data)
        return dict(data)


@contextlib.asynccontextmanager
async def stream(pages: Pages, url: str) -> AsyncIterator[EventReader]:
    async with pages.http.get(url) as response:
        assert response.status == 200, await response.text()
        assert response.headers["Content-Type"] == "text/event-stream"
        yield EventReader(response)


def secrets_of(game: Game) -> set[str]:
    """Everything the table must not see right now, as text to look for."""
    state = game.state
    assert state.phase is not Phase.ENDED
    public = json.dumps(sealed(game.events), ensure_ascii=False)
    hidden: set[str] = {str(state.seed), state.salt}
    cards: list[tuple[str, str]] = []
    for deck_id, deck in state.decks.items():
        cards += [(deck_id, card) for card in deck.draw + deck.looking]
    if state.face_down is not None:
        cards.append((state.face_down[0], state.face_down[1]))
    if state.pending is not None and state.pending.private:
        deck_of = str(state.pending.context.get("deck", "chaos"))
        cards += [(deck_of, option) for option, _ in state.pending.options]
    for deck_id, card in cards:
        known = game.ruleset.decks.get(deck_id)
        for word in (card, known.card(card).name if known else card):
            if word not in public:
                hidden.add(word)
    return hidden
