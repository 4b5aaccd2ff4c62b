"""Where a roll's time goes: the phases of ``/chaos roll`` in the bot, timed one by one.

``bench/discord_bench.py`` says how a roll compares with ``/ping``; this says what the
difference is made of. The same in-process bot and fake Discord play turns one at a time
(``discord_bench``'s latency phase), and the bot's own steps are wrapped with a clock: the
engine, the save (its wait for the commit), drawing the answer (done during that wait), the
answer's HTTP round trip, and the steps before them. The fake's own CPU for each
interaction's answer is measured too, since it shares the event loop and is billed to the
figures. Medians, in ms.

Run from the repository root::

    python bench/phases.py [--rounds 300]

Wrapping costs a few microseconds a call: read the figures against each other and against the
floor printed beside them, not as absolutes.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

# The fake Discord lives with the tests: the repository root must be on the path.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench.discord_bench as bench
import bot.client.play as play
import tests.fakediscord.rest as rest
from bot import memory
from bot.engine.game import Game
from bot.service import GameService
from bot.store.contract import Store
from tests.fakediscord.server import FakeDiscord

TIMES: dict[str, list[float]] = {}


def timed_async(owner: Any, name: str, phase: str, clock: Callable[[], float]) -> None:
    """Replace `owner.name` (a coroutine function) with one that times each call."""
    original = getattr(owner, name)

    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = clock()
        try:
            result: Awaitable[Any] = original(*args, **kwargs)
            return await result
        finally:
            TIMES.setdefault(phase, []).append(clock() - started)

    setattr(owner, name, wrapper)


def timed(owner: Any, name: str, phase: str) -> None:
    """Replace `owner.name` (a plain function) with one that times each call."""
    original = getattr(owner, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            TIMES.setdefault(phase, []).append(time.perf_counter() - started)

    setattr(owner, name, wrapper)


def instrument() -> None:
    wall = time.perf_counter
    timed_async(play.Play, "act", "the bot's whole action (Play.act)", wall)
    timed_async(play.Play, "caller", "  who is asking (settings)", wall)
    timed_async(GameService, "current", "  the game as it stands (service.current)", wall)
    timed(Game, "act", "  the engine (Game.act)")
    timed(play, "result_embeds", "    drawing the answer: its embeds")
    timed(play, "steps_view", "    drawing the answer: its buttons")
    timed_async(Store, "append_events", "  the save, to its commit (the drawing inside)", wall)
    timed_async(play, "reply", "  the answer's HTTP round trip", wall)
    timed_async(rest.Rest, "_callback", "the fake's CPU for an answer", time.process_time)


async def main(rounds: int) -> None:
    memory.settle()
    instrument()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        async with FakeDiscord() as fake:
            bench.point_discord_at(fake)
            channels = [fake.channel_id]
            channels += [fake.add_channel(f"table-{n}") for n in range(1, 20)]
            async with bench.running_bot(fake, folder) as (bot, _):
                await bench.open_games(fake, bot, channels)
                TIMES.clear()
                times = await bench.latency(fake, bot, channels, rounds, folder)
    ping, roll = statistics.median(times["ping"]), statistics.median(times["chaos roll"])
    floor, hop = statistics.median(times["disk"]), statistics.median(times["hop"])
    print(
        f"/ping p50 {ping * 1e3:.2f} ms, /chaos roll p50 {roll * 1e3:.2f} ms, the floor (stdlib"
        f" insert + commit) {floor * 1e3:.2f} ms, {hop * 1e3:.2f} ms in one hop to a thread."
        f" Each phase, every action of the turns played (rolls, choices, turn next):"
    )
    for phase, values in TIMES.items():
        print(f"  {phase:<46} p50 {statistics.median(values) * 1e3:6.3f} ms  ({len(values)})")


if __name__ == "__main__":
    logging.basicConfig(level=logging.ERROR)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=300, help="rolls timed one at a time")
    asyncio.run(main(parser.parse_args().rounds))
