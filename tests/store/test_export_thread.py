"""`/game export` writes on a thread: the log is the game as it stood when it was asked for."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.engine import Event, fairness
from bot.store import dump_event
from tests.store.helpers import SCOPE, aio, begun, open_service, play_turn


def lines(events: list[Event]) -> str:
    return "".join(dump_event(e) + "\n" for e in events)


@aio
async def test_an_action_played_while_the_log_is_written_is_not_in_it(database: Path | str) -> None:
    async with open_service(database) as service:
        await begun(service)
        for _ in range(30):
            await play_turn(service, SCOPE)
        before = list((await service.current(SCOPE)).game.events)

        # The export copies the log under the game's lock, then writes it on a thread; the
        # action waits for the lock, and gets it while the thread works.
        exported, acted = await asyncio.gather(service.export(SCOPE), play_turn(service, SCOPE))
        assert exported == lines(fairness.sealed(before))
        assert len(acted.game.events) > len(before)
        assert await service.export(SCOPE) == lines(fairness.sealed(acted.game.events))
