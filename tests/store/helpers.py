"""Running async tests without a plugin, and the games the store tests play.

``@aio`` turns an ``async def`` test into a plain one that runs under ``asyncio.run``, so no
pytest plugin is needed; fixtures still reach it by name.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, ParamSpec

from bot.engine import Action, Begin, Choose, Event, Game, Join, NextTurn, Phase, Reveal, RollChaos
from bot.service import GameService, Outcome
from bot.store import SQLiteStore, Store

P = ParamSpec("P")
SCOPE = "console:test"


def aio(test: Callable[P, Coroutine[Any, Any, None]]) -> Callable[P, None]:
    """Run an async test function to completion in a fresh event loop."""

    @functools.wraps(test)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        asyncio.run(test(*args, **kwargs))

    return run


class Clock:
    """A clock the test moves by hand (Unix seconds)."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, days: float) -> None:
        self.now += days * 86_400


@asynccontextmanager
async def open_service(path: Path | str, **options: Any) -> AsyncIterator[GameService]:
    """A service over the store at `path` (a SQLite file or a PostgreSQL URL), closed after."""
    store = await Store.open(path)
    service = GameService(store, **options)
    try:
        yield service
    finally:
        await service.close()


def on_sqlite(store: Store) -> SQLiteStore:
    """The store, for a test of what only SQLite has (its connection, its pragmas)."""
    assert isinstance(store, SQLiteStore)
    return store


async def begun(
    service: GameService, scope: str = SCOPE, *, ruleset: str = "classic", seed: int = 8
) -> Outcome:
    """A game of Ann, Bob and Cy that has begun (Ann's turn 1)."""
    await service.start(scope, ruleset, host="ann", host_name="Ann", seed=seed)
    await service.act(scope, Join(actor="bob", player_name="Bob"))
    await service.act(scope, Join(actor="cy", player_name="Cy"))
    return await service.act(scope, Begin(actor="ann"))


def replayed_events(game: Game) -> list[Event]:
    """The events of the game played again from its actions through a fresh Game, as JSON
    gives them back (the store keeps JSON, where a tuple is a list).
    """
    events: list[Event] = json.loads(json.dumps(Game.replay(game.ruleset, game.actions).events))
    return events


def next_action(game: Game) -> Action | None:
    """What the table does next in an ordinary game: answer a choice, reveal a face-down
    card, make the turn's chaos roll, or pass the turn. None once the game is over.
    """
    state = game.state
    actor = state.active or state.host
    if state.phase is Phase.ENDED:
        return None
    if state.pending is not None:
        return Choose(actor=state.pending.player, option=state.pending.options[0][0])
    if state.face_down is not None:
        return Reveal(actor=actor)
    if not state.rolled and state.active is not None:
        return RollChaos(actor=actor)
    return NextTurn(actor=actor)


async def play_turn(service: GameService, scope: str) -> Outcome:
    """Play until the turn has passed (answering choices on the way)."""
    outcome = await service.current(scope)
    turn = outcome.game.state.turn
    while outcome.game.state.turn == turn:
        action = next_action(outcome.game)
        assert action is not None
        outcome = await service.act(scope, action)
    return outcome
