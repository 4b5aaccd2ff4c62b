"""Probe: how long text made to stall the bot holds up every other server.

What a member types is read on the event loop: dice notation by ``/roll dice`` (and the
console's ``roll``), names and table texts by the escaping every answer goes through, console
lines by the command reader. For each hostile text below, and for an ordinary one of the same
kind as the baseline, it runs the bot's own function ``--repeat`` times on the event loop while
a probe wakes every 5 ms and records how late it woke: what another server's command would
wait. The hostile texts include the 72-character ``/roll`` of issue 22 (6 to 9 s before it was
fixed) and each pattern the regex guard made us rewrite, at the length a member can send.

Run from the repository root::

    python bench/hostile_text.py [--repeat 20]

It prints each text's median and slowest call in processor time (the bot's own work, which a
busy machine doesn't inflate), the probe's worst lateness in wall time (which it does), and
the ratio of the median call to its baseline's. No goal is asserted: it measures.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.client.wording import plain
from bot.commands.grammar import parse
from bot.commands.reference import roll_dice
from bot.engine.errors import ChaosError

TICK = 0.005


def _roll(text: str) -> object:
    try:
        return roll_dice(text, random.Random(1), markdown=True, limit=1998)
    except ChaosError as refused:
        return str(refused)


def _line(text: str) -> object:
    try:
        return parse(text)
    except ChaosError as refused:
        return str(refused)


# (what, the function the bot runs on the loop, an ordinary text, the hostile ones)
CASES: list[tuple[str, Callable[[str], object], str, list[str]]] = [
    (
        "/roll dice",
        _roll,
        "4d6kh3",
        [
            "1d6" + "kh1" * 23,  # issue 22: 6.2 to 9.4 s, doubling with each kh1
            "1d6" + "pl1" * 32,
            "1d6" + "e>0" * 32,  # d20 alone: 0.5 s
            "200d6" + "k>1" * 31,  # d20 alone: 0.9 s
            "1d20" + "kh1" * 28 + " adv",
        ],
    ),
    (
        "names and texts",
        plain,
        "Ann's *wacky* table: see https://example.com/a_b.",
        [
            "`turn" + " ID" * 32,  # 2^n ways to read the IDs before
            "<a:/" * 25,
            "https://" + "." * 92,
            "{" + "d" * 99,
        ],
    ),
    ("console line", _line, "as Ann: chaos roll", ["as" + " " * 98, "as " + "a " * 48 + "x"]),
]


async def measure(
    run: Callable[[str], object], text: str, repeat: int
) -> tuple[float, float, float]:
    """`repeat` calls of `run(text)` on the loop: the median and the slowest in processor
    time, and the probe's worst lateness."""
    late: list[float] = [0.0]
    running = True

    async def probe() -> None:
        while running:
            due = time.perf_counter() + TICK
            await asyncio.sleep(TICK)
            late.append(time.perf_counter() - due)

    prober = asyncio.create_task(probe())
    await asyncio.sleep(0.02)
    took: list[float] = []
    for _ in range(repeat):
        started = time.thread_time()
        run(text)
        took.append(time.thread_time() - started)
        await asyncio.sleep(TICK * 2)  # let the probe see the loop free again
    running = False
    await prober
    return statistics.median(took), max(took), max(late)


async def main(repeat: int) -> None:
    _roll("1d6")  # d20 builds its parser on first use: not part of any figure
    print(f"{'what':16} {'text':28} {'median':>8} {'slowest':>8} {'loop late':>10} {'x base':>7}")
    for what, run, ordinary, hostile in CASES:
        base = 0.0
        for text in [ordinary, *hostile]:
            median, slowest, late = await measure(run, text, repeat)
            base = base or median
            shown = f"{text[:20]}… ({len(text)})" if len(text) > 28 else text
            print(
                f"{what if text is ordinary else '':16} {shown:28} {median * 1e3:6.2f}ms"
                f" {slowest * 1e3:6.2f}ms {late * 1e3:8.1f}ms {median / base:6.1f}x"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=20)
    asyncio.run(main(parser.parse_args().repeat))
