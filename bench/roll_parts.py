"""Benchmark: what a roll's CPU is made of, found by taking parts of it away.

``bench/discord_bench.py`` measures the bot's CPU for a burst of 1,000 rolls against its CPU
for 1,000 ``/ping`` (issue 27's *cpu* goal: at most 2×; its *burst* goal, 1.5× in time, is
bound by the same CPU, since the bot's process is busy for the whole burst). This says how
much of a roll's share each part takes, so the goals can be set against what is left when a
part costs nothing:

* **as it is:** the bot as a host runs it (``python -m bot``, its own process), the same
  bursts as discord_bench, 100 hosts over 100 tables;
* **answer not drawn:** the same, but a roll is answered with a one-line embed and no
  buttons: what drawing the answer (its embeds, its buttons) and sending a larger one cost;
* **and no board:** also no board redrawn after it;
* **the service alone:** the same 1,000 rolls through the game service (engine, durable
  save) in this process, no Discord at all: the process's CPU for them.

The parts are taken away by a ``sitecustomize`` module this script writes into a temporary
folder on the bot process's ``PYTHONPATH``; the bot's code has no switch for it.

Run from the repository root::

    python bench/roll_parts.py [--bursts 5] [--burst 1000] [--channels 100]

Each figure is the median of ``--bursts`` bursts in one bot process, pings and rolls taking
turns. Prints milliseconds of the bot's CPU per command, and each ratio to a ping.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.discord_bench import (
    SEED,
    bot_process,
    burst,
    cpu_seconds,
    hosts_of,
    open_games,
    quiet,
)
from bench.store import begin
from bot import memory
from bot.engine import ChaosError, RollChaos
from bot.service import GameService
from bot.store import Store
from tests.fakediscord.server import FakeDiscord

# Imported by the bot's process at start (it is first on its path): takes away the parts named
# in ROLL_PARTS_WITHOUT. (Not a CHAOS_ name: bot_process keeps none of those from this process.)
SHIM = r"""
import os

_without = set(filter(None, os.environ.get("ROLL_PARTS_WITHOUT", "").split(",")))
if _without:
    import discord
    import bot.client.keeper as keeper
    import bot.client.play as play

    if "drawing" in _without:
        play._draw = lambda outcome: ([discord.Embed(title="Rolled")], None)
    if "board" in _without:
        keeper.BoardKeeper.touch = lambda self, *args, **kwargs: self.forget_expected()
    with open(os.environ["ROLL_PARTS_TAKEN"], "a") as taken:
        taken.write(",".join(sorted(_without)) + "\n")  # the bench checks it was
"""

WAYS = {
    "as it is": "",
    "answer not drawn": "drawing",
    "and no board": "drawing,board",
}


async def cpu_per_command(
    folder: Path, shim: Path, without: str, bursts: int, count: int, tables: int
) -> tuple[float, float]:
    """The bot's CPU per /ping and per roll, in seconds: medians of `bursts` bursts each."""
    names = ("PYTHONPATH", "ROLL_PARTS_WITHOUT", "ROLL_PARTS_TAKEN")
    saved = {name: os.environ.get(name) for name in names}
    taken = folder / "taken"
    taken.unlink(missing_ok=True)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(shim), saved["PYTHONPATH"]]))
    os.environ["ROLL_PARTS_WITHOUT"] = without
    os.environ["ROLL_PARTS_TAKEN"] = str(taken)
    try:
        async with FakeDiscord() as fake:
            channels = [fake.channel_id] + [fake.add_channel(f"t-{n}") for n in range(1, tables)]
            fake.recorder.checks_contract = False  # the fake's work, not the bot's
            hosts = hosts_of(fake, channels)
            async with bot_process(fake, folder) as pid:
                await open_games(fake, None, channels, hosts)
                await burst(fake, channels, count // 4, "ping", hosts)  # warm up
                await quiet(fake)
                spent: dict[str, list[float]] = {"ping": [], "chaos roll": []}
                for _ in range(bursts):
                    for command, used in spent.items():
                        before = cpu_seconds(pid)
                        await burst(fake, channels, count, command, hosts)
                        used.append((cpu_seconds(pid) - before) / count)
        if without and not (
            taken.exists() and ",".join(sorted(without.split(","))) in taken.read_text()
        ):
            raise SystemExit(f"the bot's process didn't take away {without}: the figures are void")
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return statistics.median(spent["ping"]), statistics.median(spent["chaos roll"])


async def service_alone(folder: Path, count: int, tables: int) -> float:
    """This process's CPU per roll for `count` extra rolls through the service alone (the
    engine and the durable save, group-committed), across `tables` begun games."""
    store = await Store.open(folder / f"alone-{time.monotonic_ns()}.db")
    service = GameService(store, seeds=lambda: SEED)
    scopes = [f"alone:{n}" for n in range(tables)]
    for n, scope in enumerate(scopes):
        await begin(service, scope, SEED + n)

    async def roll(n: int) -> None:
        with contextlib.suppress(ChaosError):  # a pending choice holds its table's next roll
            await service.act(scopes[n % tables], RollChaos(actor="ann", extra=True))

    memory.freeze()
    started = time.process_time()
    await asyncio.gather(*(roll(n) for n in range(count)))
    used = time.process_time() - started
    await service.close()
    return used / count


async def main(args: argparse.Namespace) -> None:
    memory.settle()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        shim = folder / "shim"
        shim.mkdir()
        (shim / "sitecustomize.py").write_text(SHIM)
        ping = None
        for way, without in WAYS.items():
            pinged, rolled = await cpu_per_command(
                folder, shim, without, args.bursts, args.burst, args.channels
            )
            ping = ping or pinged
            print(
                f"{way:<18} the bot's CPU per roll {rolled * 1e3:5.2f} ms,"
                f" per /ping {pinged * 1e3:5.2f} ms: {rolled / pinged:4.2f}× a ping",
                flush=True,
            )
        alone = await service_alone(folder, args.burst, args.channels)
        assert ping is not None
        print(
            f"{'the service alone':<18} this process's CPU per roll {alone * 1e3:5.2f} ms:"
            f" {alone / ping:4.2f}× the first run's /ping"
        )


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--bursts", type=int, default=5, help="bursts of each, per way")
    parser.add_argument("--burst", type=int, default=1000, help="commands a burst")
    parser.add_argument("--channels", type=int, default=100, help="tables (games) for them")
    return parser.parse_args(argv)


if __name__ == "__main__":
    logging.basicConfig(level=logging.ERROR)
    asyncio.run(main(parse()))
