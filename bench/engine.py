"""Benchmark: chaos resolutions per second on a classic-style ruleset.

Builds a 200-entry Chaos List (d20×d10, 20 counts as 0, 0 counts as 10) of which 34 entries
(17%) are about the rolls themselves: roll-three-times, roll-once-on-each, links to WackyLand
(2d10), PersonaLand (d20) and EnchantWorldLand (d20), and token grants. Other entries last
until the roller's next turn, name a card with X dice, or carry inline dice like ``{1d6+1}``.

It times ``Resolver(...).roll("chaos")`` (the code path a real chaos roll takes) against a
baseline of the bare dice draws a resolution needs at least: ``rng.randint(1, 20)`` and
``rng.randint(0, 9)``. Run it from the repository root::

    python bench/engine.py [--n 200000] [--strict]

Goals: at least 50,000 resolutions per second, and no more than 10 times the baseline's time.
It prints PASS or FAIL and exits 0 either way, unless ``--strict`` is given (then FAIL exits 1).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

try:
    import bot  # noqa: F401  (installed in the venv: nothing to do)
except ImportError:  # pragma: no cover - run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.dice import Die, Sum, TensUnits, parse_expr
from bot.engine.lifegain import LifeGain
from bot.engine.model import (
    Band,
    Budget,
    ChaosSource,
    Duration,
    Entry,
    Kind,
    Lasts,
    MultiMode,
    MultiRoll,
    Nesting,
    RollTable,
    Ruleset,
    SpitePolicy,
    StartRoll,
    Token,
    TurnChange,
)
from bot.engine.resolve import Resolver

GOAL_RATE = 50_000  # resolutions per second
GOAL_RATIO = 10.0  # engine time / baseline time
CHAOS_SIZE = 200
META_COUNT = 34  # 17% of the Chaos List
SEED = 20_240_601
RUNS = 3


# --- The ruleset -----------------------------------------------------------------------------


def _times(n: str, *tables: str, mode: MultiMode = MultiMode.TIMES) -> MultiRoll:
    return MultiRoll(mode, parse_expr(n), tables)


# The meta entries, dealt out in turn over the 34 meta slots of the Chaos List.
_META: tuple[Callable[[str], Entry], ...] = (
    lambda i: Entry(i, "Roll three times", kind=Kind.MULTI, multi=_times("3")),
    lambda i: Entry(i, "Off to WackyLand", kind=Kind.LINK, link="wacky"),
    lambda i: Entry(i, "Persona time", kind=Kind.LINK, link="persona"),
    lambda i: Entry(i, "A new world", kind=Kind.LINK, link="ewl"),
    lambda i: Entry(i, "A CounterRoll", kind=Kind.TOKEN, token=Token.COUNTER),
    lambda i: Entry(i, "A RollFork", kind=Kind.TOKEN, token=Token.FORK),
    lambda i: Entry(
        i,
        "Everywhere at once",
        kind=Kind.MULTI,
        multi=_times("1", "persona", "ewl", mode=MultiMode.EACH),
    ),
    lambda i: Entry(i, "Roll 1d3 times", kind=Kind.MULTI, multi=_times("1d3")),
)


def _meta_numbers() -> set[int]:
    """34 results spread evenly over 1-200."""
    return {i * CHAOS_SIZE // META_COUNT + 3 for i in range(META_COUNT)}


def _chaos_entry(n: int, meta: set[int], dealt: list[int]) -> Entry:
    key = str(n)
    if n in meta:
        make = _META[dealt[0] % len(_META)]
        dealt[0] += 1
        return make(key)
    match n % 10:
        case 1 | 6:
            return Entry(
                key,
                f"Lingering chaos {n}",
                text="Until your next turn, creatures get +1/+0.",
                duration=Duration(Lasts.NEXT_TURN),
            )
        case 2:
            return Entry(key, f"Firebolt {n}", text="Deals {1d6+1} damage to any target.")
        case 4:
            return Entry(key, f"Fireball {n}", kind=Kind.CARD, card="Fireball", x=parse_expr("1d6"))
        case 8:
            return Entry(
                key,
                f"Second wind {n}",
                text="Gain {1d4} life.",
                gains_life=True,
                life=LifeGain(parse_expr("1d4")),
            )
        case _:
            return Entry(key, f"Chaos {n}", text=f"Do the chaotic thing number {n}.")


def _wacky_entry(n: int) -> Entry:
    key = str(n)
    if n == 11:
        return Entry(
            key,
            "All the lists",
            kind=Kind.MULTI,
            multi=_times("1", "chaos", "persona", "ewl", mode=MultiMode.EACH),
        )
    if n == 2:
        return Entry(key, "Time warp", text="Take another turn.", turn=TurnChange.EXTRA)
    if n == 20:
        return Entry(key, "Backwards", text="Play passes the other way.", turn=TurnChange.REVERSE)
    return Entry(key, f"Wacky {n}", text=f"Something wacky, number {n}.")


def _persona_entry(n: int) -> Entry:
    return Entry(
        str(n),
        f"Persona {n}",
        text=f"You are persona {n} until your next turn.",
        duration=Duration(Lasts.NEXT_TURN),
    )


def _world_entry(n: int) -> Entry:
    return Entry(str(n), f"World {n}", kind=Kind.WORLD, text=f"World rule {n}.")


def _table(table_id: str, name: str, dice: Die | Sum | TensUnits, make: Callable[[int], Entry]):
    bands = tuple(Band(n, n, make(n)) for n in dice.outcomes())
    return RollTable(table_id, name, dice, bands)


def build_ruleset() -> Ruleset:
    """A classic ruleset: the 200-entry Chaos List and its three sub-lists."""
    meta, dealt = _meta_numbers(), [0]
    chaos = _table(
        "chaos",
        "Chaos List",
        TensUnits(20, tens_max_is_zero=True, units_zero_is_ten=True),
        lambda n: _chaos_entry(n, meta, dealt),
    )
    tables = (
        chaos,
        _table("wacky", "WackyLand", Sum(2, 10), _wacky_entry),
        _table("persona", "PersonaLand", Die(20), _persona_entry),
        _table("ewl", "EnchantWorldLand", Die(20), _world_entry),
    )
    assert sum(entry.is_meta for entry in chaos.entries) == META_COUNT
    return Ruleset(
        id="bench-classic",
        name="Classic (benchmark)",
        chaos=ChaosSource.TABLE,
        chaos_table="chaos",
        start=StartRoll.WORLD,
        start_table="ewl",
        nesting=Nesting.IGNORE_NESTED,
        spite=SpitePolicy.LIFE_GAIN_ROLL,
        spite_table="chaos",
        tokens=True,
        budget=Budget(rolls=60, depth=10),
        life=20,
        tables={table.id: table for table in tables},
    )


# --- Timing ----------------------------------------------------------------------------------


def run_engine(ruleset: Ruleset, n: int) -> tuple[float, int]:
    """Resolve `n` chaos rolls; returns (seconds, total rolls made)."""
    rng = random.Random(SEED)
    rolls = 0
    start = time.perf_counter()
    for turn in range(n):
        resolution = Resolver(ruleset, rng, player="ann", turn=turn, next_id=1).roll("chaos")
        rolls += len(resolution.steps)
    return time.perf_counter() - start, rolls


def run_baseline(n: int) -> float:
    """The bare draws of one d20 and one d10 per resolution, `n` times; returns seconds."""
    rng = random.Random(SEED)
    randint = rng.randint
    start = time.perf_counter()
    for _ in range(n):
        randint(1, 20)
        randint(0, 9)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--n", type=int, default=200_000, help="resolutions per run")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a goal is missed")
    args = parser.parse_args(argv)
    n: int = args.n
    if n < 1:
        parser.error("--n must be at least 1")

    ruleset = build_ruleset()
    engine_runs = [run_engine(ruleset, n) for _ in range(RUNS)]
    engine_time = min(seconds for seconds, _ in engine_runs)
    rolls = engine_runs[0][1]
    baseline_time = min(run_baseline(n) for _ in range(RUNS))

    rate = n / engine_time
    ratio = engine_time / baseline_time
    print(f"chaos resolutions:   {n:,} per run, best of {RUNS}")
    print(f"resolutions/s:       {rate:,.0f}")
    print(f"µs per resolution:   {engine_time / n * 1e6:.2f}")
    print(f"mean rolls/resol.:   {rolls / n:.3f}")
    print(f"baseline draws/s:    {n / baseline_time:,.0f} (randint d20 + d10 per resolution)")
    print(f"engine/baseline:     {ratio:.2f}×")
    checks = [
        (f"≥ {GOAL_RATE:,} resolutions/s", rate >= GOAL_RATE),
        (f"ratio ≤ {GOAL_RATIO:g}×", ratio <= GOAL_RATIO),
    ]
    for label, ok in checks:
        print(f"{'PASS' if ok else 'FAIL'}  {label}")
    passed = all(ok for _, ok in checks)
    print("PASS" if passed else "FAIL")
    return 1 if args.strict and not passed else 0


if __name__ == "__main__":
    sys.exit(main())
