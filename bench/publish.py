"""Benchmark: what publishing a game for its readers costs, against the action it follows.

After every committed action the service publishes the game for readers (:mod:`bot.published`)
as :meth:`Game.copy <bot.engine.game.Game.copy>`. This plays one classic game in the engine
alone, as ``bench/store.py`` plays it (a choice, a reveal, the roll, or passing), and publishes
a copy after every action, keeping only the newest, as the shelf keeps a live game's. At
several lengths of the game it times, in this thread's CPU (``time.thread_time``):

* **action:** ``game.act`` alone, the baseline;
* **publish:** ``game.copy()``;
* **publish, read:** the copy, then reading its log once, as a board or a live page does;
* **young collections:** the time the garbage collector's collections of its two younger
  generations took while the actions and copies ran, per action (gc callbacks); a full
  collection's time depends on everything else the process holds, so it is left out.

Run from the repository root::

    python bench/publish.py [--actions 3000] [--repeat 200]

Prints microseconds per action and each figure's ratio to the action's.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.store import next_play
from bot.engine import Begin, Game, Join
from bot.tables import find_ruleset

LENGTHS = (200, 1000, 3000)  # actions into the game where it is measured (at most)


class GcClock:
    """The time the garbage collector's young collections take, from its callbacks."""

    def __init__(self) -> None:
        self.total = 0.0
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif info["generation"] < 2:
            self.total += time.perf_counter() - self._started


def per_call(work: Callable[[], object], repeat: int) -> float:
    """The median CPU of `work` in microseconds, over `repeat` calls."""
    times = []
    for _ in range(repeat):
        start = time.thread_time()
        work()
        times.append(time.thread_time() - start)
    return statistics.median(times) * 1e6


def copy_and_read(game: Game) -> None:
    len(game.copy().events)


def measure(game: Game, repeat: int) -> tuple[float, float, float, float]:
    """At the game's length: an action, a publish, a publish read, the gc's time an action
    (each action followed by a publish, as the service does)."""
    acted = []
    clock = GcClock()
    gc.callbacks.append(clock)
    try:
        shown = game.copy()
        for _ in range(repeat):
            action = next_play(game)
            start = time.thread_time()
            game.act(action)
            acted.append(time.thread_time() - start)
            shown = game.copy()
    finally:
        gc.callbacks.remove(clock)
    del shown
    return (
        statistics.median(acted) * 1e6,
        per_call(game.copy, repeat),
        per_call(lambda: copy_and_read(game), repeat),
        clock.total / repeat * 1e6,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=max(LENGTHS), help="the game's length")
    parser.add_argument("--repeat", type=int, default=200, help="actions timed at each length")
    args = parser.parse_args()
    ruleset = find_ruleset("classic").ruleset
    game = Game.start(ruleset, seed=7, host="ann", name="Ann")
    game.act(Join(actor="bob", player_name="Bob"))
    game.act(Join(actor="cy", player_name="Cy"))
    game.act(Begin(actor="ann"))
    shown = game.copy()
    print("actions  events   action µs  publish µs (×)   publish, read µs (×)   young gc µs")
    for length in (n for n in LENGTHS if n <= args.actions):
        while game.seq < length - args.repeat:
            game.act(next_play(game))
            shown = game.copy()
        act, publish, read, collected = measure(game, args.repeat)
        print(
            f"{game.seq:7,} {len(game.events):7,}  {act:9.1f}"
            f"  {publish:9.1f} ({publish / act:4.2f})"
            f"  {read:12.1f} ({read / act:4.2f})  {collected:12.1f}"
        )
    del shown
    return 0


if __name__ == "__main__":
    sys.exit(main())
