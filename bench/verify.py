"""Benchmark: how long `chaos-referee verify` takes on a long game's export.

Plays a game of each bundled ruleset for many turns (three players, tokens answered, a life
change now and then, one roll undone every ten turns), ends it, exports it, and times
:func:`bot.verify.verify` on the export: reading, the commitment, and the replay of every
action. It also times the real command line once (``chaos-referee verify FILE``), process
start included. Run from the repository root::

    python bench/verify.py [--turns 500] [--strict]

Goal: a 500-turn game (far longer than any evening's) verifies in under 2 seconds, well inside
the 10-second replay limit. Prints PASS or FAIL; exits 0 either way unless ``--strict``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import Back, End, Status, Undo
from bot.engine.model import Ruleset
from bot.verify import verify
from bot.verify.tables import folder_finder
from tests.engine.make_golden import PLAYERS, Driver

GOAL_SECONDS = 2.0
SEED = 2**127 + 2026  # as large as the seeds the bot draws


def long_game(ruleset: str, turns: int) -> bytes:
    """The export of a finished `turns`-turn game of the bundled `ruleset`."""
    from tests.engine import rulesets

    rulesets.RULESETS[ruleset] = lambda: _bundled(ruleset)
    driver = Driver(ruleset, SEED, PLAYERS, life=None if ruleset == "classic" else 20, salt="b")
    while driver.game.state.turn <= turns and not driver.over:
        turn = driver.game.state.turn
        driver.roll()
        if turn % 10 == 0 and not driver.over and driver.game.actions[-1]["name"] == "chaos roll":
            driver.act(Undo(actor=driver.host))
            driver.roll()
        if turn % 3 == 0:
            driver.respond()
        for player in driver.game.state.players.values():  # a result sent them away
            if player.status is Status.AWAY and not driver.over:
                driver.act(Back(actor=player.id))
        if not driver.over:
            driver.next_turn()
    if not driver.over:
        driver.act(End(actor=driver.host))
    return driver.game.export().encode()


def _bundled(ruleset: str) -> Ruleset:
    from bot.tables import find_ruleset

    return find_ruleset(ruleset).ruleset


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=500)
    parser.add_argument("--strict", action="store_true")
    args = parser.parse_args()
    worst = 0.0
    for ruleset in ("classic", "lists", "deck"):
        data = long_game(ruleset, args.turns)
        started = time.perf_counter()
        verdict = verify(data, folder_finder())
        took = time.perf_counter() - started
        worst = max(worst, took)
        print(
            f"{ruleset:8} {len(data) / 1024:7.0f} KB  {verdict.actions:5} actions"
            f"  {verdict.rolls:5} rolls  verify {took * 1000:7.0f} ms"
        )
        if ruleset == "classic":
            with tempfile.TemporaryDirectory() as folder:
                path = Path(folder) / "game.jsonl"
                path.write_bytes(data)
                started = time.perf_counter()
                subprocess.run(
                    [sys.executable, "-m", "bot", "verify", str(path)],
                    check=True,
                    capture_output=True,
                )
                print(
                    f"         the command line, process start included:"
                    f" {(time.perf_counter() - started) * 1000:.0f} ms"
                )
    ok = worst < GOAL_SECONDS
    print(f"{'PASS' if ok else 'FAIL'}: slowest {worst:.2f} s (goal < {GOAL_SECONDS:.0f} s)")
    return 1 if args.strict and not ok else 0


if __name__ == "__main__":
    raise SystemExit(main())
