"""Every route of the live pages answers while the game's lock is held by a slow writer.

The routes are the page server's own (its router), not a list kept here: a new route is
swept without anyone remembering to add it. Each is asked while an action's save is stalled
under the game's lock, its game in memory already ahead of the database; each must answer
(a stream: its first view), and show the committed version.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from bot.engine import actions as a
from tests.store.helpers import aio
from tests.web.helpers import SCOPE, EventReader, begun, serving

ANSWER_WITHIN = 10.0  # seconds; a route that waits for the lock waits until the gate opens


@aio
async def test_every_route_answers_while_a_slow_writer_holds_the_lock(tmp_path: Path) -> None:
    async with serving(tmp_path / "db") as pages:
        await begun(pages.service)
        committed = await pages.service.act(SCOPE, a.RollChaos(actor="ann"))
        url = await pages.links.make(SCOPE, "ann", referee=False)
        values = {"token": url.rpartition("/")[2], "name": "page.js"}
        store = pages.service.store
        save = store.append_events
        gate, stalled = asyncio.Event(), asyncio.Event()

        async def slow(*args: Any, **kwargs: Any) -> Any:
            stalled.set()
            await gate.wait()
            return await save(*args, **kwargs)

        store.append_events = slow  # type: ignore[method-assign]
        writer = asyncio.create_task(pages.service.act(SCOPE, a.NextTurn(actor="ann")))
        asked = []
        try:
            await stalled.wait()
            for route in pages.server.app.router.routes():
                if route.method != "GET":
                    continue
                path = route.resource.canonical if route.resource else ""
                for name in re.findall(r"{(\w+)}", path):
                    if name not in values:
                        pytest.fail(f"give the sweep a value for {{{name}}} in {path}")
                    path = path.replace(f"{{{name}}}", values[name])
                asked.append(path)
                async with (
                    asyncio.timeout(ANSWER_WITHIN),
                    pages.http.get(pages.server.own_url + path.lstrip("/")) as answer,
                ):
                    assert answer.status < 500, path
                    if path.endswith("/stream"):
                        view = await EventReader(answer).view(timeout=ANSWER_WITHIN)
                        assert view["version"] == committed.version, path
                    elif path.endswith("/view"):
                        assert (await answer.json())["version"] == committed.version, path
                    else:
                        await answer.read()
        finally:
            gate.set()
            await writer
        assert {"/g/{token}/stream", "/g/{token}/view", "/g/{token}"} <= {
            p.replace(values["token"], "{token}") for p in asked
        }
