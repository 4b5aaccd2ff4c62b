"""Readers never wait on a game's lock: every look at a game reads a version already published.

The readers are found, not listed: every public coroutine of the service that isn't one of
the few that change something is a reader, and each is called while a writer holds the game's
lock (its save stalled mid-commit, its game in memory ahead of the database). A new reader is
swept without anyone remembering to add it; a new writer must be named in WRITERS.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.engine import End, Life, NextTurn, RollChaos
from bot.engine.errors import ChaosError
from bot.render.events import latest_actions
from bot.service import GameService, Outcome
from tests.store.helpers import SCOPE, aio, begun, open_service

# The service's public coroutines that change something; each takes the lock it needs.
WRITERS = {
    "act",
    "change_house",
    "claim",
    "close",
    "expire_idle",
    "import_table",
    "mention",
    "set_board",
    "start",
    "store_upload",
    "update_settings",
}
GUILD = "g"
READ_WITHIN = 10.0  # seconds: a reader that waits for the lock waits until the gate opens


def readers() -> list[str]:
    """Every public coroutine of the service but the writers."""
    return sorted(
        name
        for name, member in inspect.getmembers(GameService, inspect.iscoroutinefunction)
        if not name.startswith("_") and name not in WRITERS
    )


def test_the_sweep_finds_the_readers() -> None:
    found = readers()
    for known in ("current", "latest", "watched", "export", "log", "rules", "settings", "board"):
        assert known in found
    missing = WRITERS - {n for n, _ in inspect.getmembers(GameService, inspect.iscoroutinefunction)}
    assert not missing, f"WRITERS names what the service no longer has: {missing}"


def call(service: GameService, name: str, values: dict[str, Any]) -> Awaitable[Any]:
    """Call a reader with a value for each of its parameters, found by the parameter's name."""
    method: Callable[..., Awaitable[Any]] = getattr(service, name)
    arguments = {}
    for parameter in inspect.signature(method).parameters.values():
        if parameter.name in values:
            arguments[parameter.name] = values[parameter.name]
        elif parameter.default is inspect.Parameter.empty:
            pytest.fail(f"give the sweep a value for {name}({parameter.name}=...)")
    return method(**arguments)


async def read_all(service: GameService, values: dict[str, Any]) -> dict[str, Any]:
    """What each reader gives (or the ChaosError it refuses with), each within READ_WITHIN."""
    seen: dict[str, Any] = {}
    for name in readers():
        try:
            async with asyncio.timeout(READ_WITHIN):
                seen[name] = await call(service, name, values)
        except ChaosError as refused:  # a sentence is an answer too (no table "house" here)
            seen[name] = refused
        except TimeoutError:
            pytest.fail(f"service.{name} waited while the game's lock was held")
    return seen


def check_committed(seen: dict[str, Any], game_id: int, version: int, events: list[Any]) -> None:
    """Each reader saw the committed game (`version`, logged as `events`), not the action
    being saved."""
    for name, value in seen.items():
        if isinstance(value, Outcome):
            assert (value.game_id, value.version, value.game.seq) == (game_id, version, version)
            assert value.game.events == events, name
    assert seen["export"].count('"type":"action"') == version
    assert seen["log"] == list(latest_actions(events, 5))


@aio
async def test_every_reader_returns_while_a_slow_writer_holds_the_lock(
    database: Path | str,
) -> None:
    async with open_service(database) as service:
        await begun(service)
        committed = await service.act(SCOPE, RollChaos(actor="ann"))
        committed_events = list(committed.game.events)
        gate, entered = asyncio.Event(), asyncio.Event()
        save = service.store.append_events

        async def stalled(*args: Any, **kwargs: Any) -> Any:
            entered.set()
            await gate.wait()
            return await save(*args, **kwargs)

        service.store.append_events = stalled  # type: ignore[method-assign]
        writer = asyncio.create_task(service.act(SCOPE, NextTurn(actor="ann")))
        try:
            await entered.wait()  # the writer holds the lock; its game is ahead of the database
            values = {
                "scope": SCOPE,
                "scope_or_ruleset": SCOPE,
                "game_id": committed.game_id,
                "count": 5,
                "guild": GUILD,
                "table_id": "house",
            }
            seen = await read_all(service, values)
        finally:
            gate.set()
            moved = await writer
        check_committed(seen, committed.game_id, committed.version, committed_events)
        # Once committed, the new version is what every reader sees.
        assert (await service.current(SCOPE)).version == moved.version
        assert (await service.watched(SCOPE, committed.game_id)).version == moved.version


@aio
async def test_readers_load_a_game_from_the_database_without_its_lock(
    database: Path | str,
) -> None:
    """A game not in memory (after a restart, or an old game's page) is read from the
    database without the lock too: here the lock is held for the whole test."""
    async with open_service(database) as service:
        ended = await begun(service, seed=3)
        ended = await service.act(SCOPE, End(actor="ann"))
        await begun(service, seed=4)
        committed = await service.act(SCOPE, Life(actor="ann", mode="gain", amount=2))
    async with open_service(database) as service, service._locks.hold(SCOPE):
        values = {
            "scope": SCOPE,
            "scope_or_ruleset": SCOPE,
            "game_id": committed.game_id,
            "count": 5,
            "guild": GUILD,
            "table_id": "house",
        }
        seen = await read_all(service, values)
        check_committed(seen, committed.game_id, committed.version, committed.game.events)
        async with asyncio.timeout(READ_WITHIN):
            old = await service.watched(SCOPE, ended.game_id)
        assert (old.version, old.game.events) == (ended.version, ended.game.events)
