"""Probe: how long one game's size-proportional work holds up every other server.

Builds a long classic game (``--events``, by default just under the most a game may hold: far
more than any real game, see :mod:`bot.engine.limits`), stores it, and then, while another
scope's probe wakes every 5 ms and records how late it woke (the event-loop stall any other
server's command would feel), it

* exports the long game ``--repeat`` times (``/game export``, the console's ``game export``);
* undoes its last action and does it again, ``--repeat`` times (``/undo``).

Run from the repository root::

    python bench/stall.py [--events 49000] [--repeat 5]

It prints each operation's wall time and the probe's worst and median lateness while it ran.
No goal is asserted: it measures.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.store import next_play
from bot.engine import Begin, Join, Undo
from bot.engine.game import Game
from bot.engine.limits import MAX_GAME_EVENTS
from bot.service import GameService
from bot.store import Store
from bot.tables import find_ruleset

SCOPE = "bench:long"
TICK = 0.005


def long_game(events: int) -> Game:
    """A classic game of three, played turn after turn until its log has `events` events."""
    ruleset = find_ruleset("classic").ruleset
    game = Game.start(ruleset, seed=2026, host="ann", name="Ann", salt="s")
    game.act(Join(actor="bob", player_name="Bob"))
    game.act(Join(actor="cy", player_name="Cy"))
    game.act(Begin(actor="ann"))
    while len(game.events) < min(events, MAX_GAME_EVENTS - 100) and game.state.winner is None:
        game.act(next_play(game))
    return game


async def probed(what: str, work: Callable[[], Awaitable[object]], repeat: int) -> None:
    """Run `work` `repeat` times while a probe measures how late the event loop wakes it."""
    late: list[float] = []
    running = True

    async def probe() -> None:
        while running:
            due = time.perf_counter() + TICK
            await asyncio.sleep(TICK)
            late.append(time.perf_counter() - due)

    prober = asyncio.create_task(probe())
    await asyncio.sleep(0.05)
    took: list[float] = []
    for _ in range(repeat):
        started = time.perf_counter()
        await work()
        took.append(time.perf_counter() - started)
    running = False
    await prober
    print(
        f"{what:12} median {statistics.median(took) * 1000:4.0f} ms,"
        f" max {max(took) * 1000:4.0f} ms;"
        f" event loop late by median {statistics.median(late) * 1000:5.1f} ms,"
        f" max {max(late) * 1000:5.0f} ms"
    )


async def main_async(args: argparse.Namespace) -> None:
    started = time.perf_counter()
    game = long_game(args.events)
    print(
        f"built a {len(game.events):,}-event game ({game.seq:,} actions, turn"
        f" {game.state.turn}) in {time.perf_counter() - started:.1f} s"
    )
    with tempfile.TemporaryDirectory(prefix="chaos-stall-") as tmp:
        store = await Store.open(Path(tmp) / "stall.db")
        service = GameService(store)
        snapshot, _ = await service._freeze(find_ruleset("classic"))
        await store.create_game(
            scope=SCOPE, guild=None, snapshot=snapshot, events=game.events, now=time.time()
        )
        await service.current(SCOPE)  # loaded once, as a game in play is
        await probed("export", lambda: service.export(SCOPE), args.repeat)

        async def undo_and_again() -> None:
            host = (await service.current(SCOPE)).game
            play = next_play(host)
            await service.act(SCOPE, play)
            await service.act(SCOPE, Undo(actor="ann"))

        await probed("act + undo", undo_and_again, args.repeat)
        await service.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=MAX_GAME_EVENTS - 1_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(main_async(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
