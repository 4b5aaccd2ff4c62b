"""Benchmark: loading and validating table files against plain ``yaml.safe_load``.

Two workloads, each timed both ways in the same run, in turns (best of several runs):

* the bundled set: every ``tables/*/ruleset.yaml`` folder, loaded with ``load_ruleset`` (read,
  parse, check every file, check references and cycles, build the engine's Ruleset) against
  reading and ``safe_load``-ing the same files;
* a generated 5,000-entry table, rolled on ``{tens: d500}`` (a d500 for the tens and a d10 for
  the units: 10 to 5009, exactly 5,000 results). That is the one shape our dice limits allow
  for 5,000 single-number entries: one die has at most 1,000 sides and a ``Sum`` makes few
  results for its dice. Its entries mix every kind: effects, cards with X, self multi-rolls,
  keep-one rolls, tokens, durations, life, turn changes and inline dice.

Both sides read the files from disk and use the same parser: ``yaml.CSafeLoader`` (libyaml)
when PyYAML has it, else ``yaml.SafeLoader``; the baseline is ``yaml.load(text,
Loader=<that class>)``, which is what ``yaml.safe_load`` does with the faster loader. Our
loader reads the parser's events rather than calling the constructor (see
``bot/tables/yamlnodes.py``), so the difference is the cost of validating and building.

Run it from the repository root::

    python bench/tables.py [--runs 9] [--strict]

Goals: (load + validate) / safe_load at most 1.5 for both workloads, and the bundled set
loaded in under 100 ms. It prints PASS or FAIL and exits 0 either way, unless ``--strict`` is
given (then FAIL exits 1).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import yaml

try:
    import bot  # noqa: F401  (installed in the venv: nothing to do)
except ImportError:  # pragma: no cover - run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.tables.files import load_file
from bot.tables.folders import load_ruleset, yaml_files
from bot.tables.registry import ruleset_folders
from bot.tables.yamlnodes import LOADER

GOAL_RATIO = 1.5
GOAL_BUNDLED_MS = 100.0
BIG_TENS = 500  # {tens: d500}: 10 to 5009
BIG_FIRST = 10


def big_table_text() -> str:
    """A 5,000-entry table file, one entry per result, every entry kind mixed in."""
    lines = [
        "schema: 1",
        "kind: table",
        "id: big",
        "name: The Big List",
        'revision: "bench"',
        f"dice: {{tens: d{BIG_TENS}}}",
        "directions: Roll a d500 for the tens and a d10 for the units.",
        "entries:",
    ]
    for i in range(BIG_TENS * 10):
        n = BIG_FIRST + i
        lines += [f"  - at: {n}", f"    name: Result {n}"]
        match i % 10:
            case 0:
                lines += ["    roll: {times: 2}"]
            case 1:
                lines += ["    card: Fireball", "    x: 1d6"]
            case 2:
                lines += ["    text: Deal {1d6+1} damage to any target.", "    lasts: next_turn"]
            case 3:
                lines += ["    token: counter_roll", "    count: 2"]
            case 4:
                lines += ["    text: Gain {1d4} life.", "    gains_life: true", "    life: 1d4"]
            case 5:
                lines += ["    text: Play passes the other way.", "    turn: reverse"]
            case 6:
                lines += ["    roll: {times: 2, keep: 1}"]
            case 7:
                lines += ["    text: Creatures get +1/+1.", "    lasts: {turns: 3}"]
            case _:
                lines += [f"    text: Do the chaotic thing number {n}, then pass the turn."]
    return "\n".join(lines) + "\n"


def best(runs: int, ours: Callable[[], object], base: Callable[[], object]) -> tuple[float, float]:
    """The fastest of `runs` timings of each of `ours` and `base`, in seconds, taken in turns:
    a machine that slows down for a while slows both sides, not only the one timed then."""
    mine: list[float] = []
    theirs: list[float] = []
    for _ in range(runs):
        for work, times in ((ours, mine), (base, theirs)):
            start = time.perf_counter()
            work()
            times.append(time.perf_counter() - start)
    return min(mine), min(theirs)


def safe_load_all(paths: list[Path]) -> None:
    for path in paths:
        yaml.load(path.read_text(encoding="utf-8"), Loader=LOADER)  # LOADER is a safe loader class


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=9, help="timings per workload (best is kept)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a goal is missed")
    args = parser.parse_args(argv)
    runs: int = max(1, args.runs)

    print(f"parser: yaml.{LOADER.__name__} on both sides; best of {runs} runs")
    checks: list[tuple[str, bool]] = []

    folders = ruleset_folders()
    files = [path for folder in folders for path in yaml_files(folder)]
    if folders:
        size = sum(path.stat().st_size for path in files)
        ours, base = best(
            runs, lambda: [load_ruleset(folder) for folder in folders], lambda: safe_load_all(files)
        )
        ratio = ours / base
        print(f"bundled set:   {len(folders)} rulesets, {len(files)} files, {size / 1024:,.0f} KiB")
        print(f"  safe_load:           {base * 1000:8.1f} ms")
        print(f"  load + validate:     {ours * 1000:8.1f} ms   ratio {ratio:.2f}x")
        checks += [
            (f"bundled set loads in under {GOAL_BUNDLED_MS:g} ms", ours * 1000 < GOAL_BUNDLED_MS),
            (f"bundled set ratio <= {GOAL_RATIO:g}x", ratio <= GOAL_RATIO),
        ]
    else:
        print("bundled set:   no tables/*/ruleset.yaml yet: skipped")

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.yaml"
        path.write_text(big_table_text(), encoding="utf-8")
        loaded = load_file(path)
        assert loaded.table is not None
        assert len(loaded.table.bands) == BIG_TENS * 10
        ours, base = best(runs, lambda: load_file(path), lambda: safe_load_all([path]))
        ratio = ours / base
        print(f"5,000 entries: {{tens: d{BIG_TENS}}}, {path.stat().st_size / 1024:,.0f} KiB")
        print(f"  safe_load:           {base * 1000:8.1f} ms")
        print(f"  load + validate:     {ours * 1000:8.1f} ms   ratio {ratio:.2f}x")
        checks.append((f"5,000-entry table ratio <= {GOAL_RATIO:g}x", ratio <= GOAL_RATIO))

    for label, ok in checks:
        print(f"{'PASS' if ok else 'FAIL'}  {label}")
    passed = all(ok for _, ok in checks)
    print("PASS" if passed else "FAIL")
    return 1 if args.strict and not passed else 0


if __name__ == "__main__":
    sys.exit(main())
