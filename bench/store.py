"""Benchmark: a durable action through the service, against the floor for writing its bytes.

An action through :class:`~bot.service.GameService` takes the game's lock, loads the game (from
the cache), runs the engine, saves the events in a transaction that checks the version, and
logs. The floor is what any durable action must pay at least: a bare aiosqlite insert of the
same bytes (the events' JSON) and a commit, into a table of the same shape, in a database file
with the same settings (WAL, ``synchronous=FULL``), in the same run, interleaved one for one.

Two workloads on the bundled classic ruleset:

* ``life gain``: the smallest action (two events);
* ``played turns``: chaos rolls, the choices they ask for, and passing the turn.

Then memory: 10,000 games are stored, and every one of them is touched through a service whose
cache holds 256 games (so most are loaded from the database and evicted again); the resident
memory (``VmRSS``) afterwards must stay within 100 MB. Run from the repository root::

    python bench/store.py [--actions 1000] [--games 10000] [--dir DIR] [--strict]

Goals: the service's median at most 2× the floor's, and the memory goal. It prints PASS or FAIL
and exits 0 either way, unless ``--strict`` is given (then FAIL exits 1).
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiosqlite

try:
    import bot  # noqa: F401  (installed in the venv: nothing to do)
except ImportError:  # pragma: no cover - run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import Action, Begin, Choose, Join, Life, NextTurn, Reveal, RollChaos
from bot.engine.game import Game
from bot.service import GameService, Outcome
from bot.store import Store, dump_event
from bot.store.sqlite import PRAGMAS

GOAL_RATIO = 2.0
GOAL_RSS_MB = 100.0
CACHE_SIZE = 256
SEED = 20_261_122

# The floor's table has the shape of the store's events table. This SQL is the benchmark's
# yardstick, not part of the bot (whose SQL lives only in bot/store/).
FLOOR_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS events (game_id INTEGER NOT NULL, pos INTEGER NOT NULL,"
    " action INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (game_id, pos))"
)
FLOOR_INSERT = "INSERT INTO events (game_id, pos, action, data) VALUES (?, ?, ?, ?)"


class _Positions:
    """Numbers a floor's rows, one game's log growing from position 0."""

    pos = 0

    def rows(self, lines: list[str]) -> list[tuple[int, int, int, str]]:
        """`lines` as the next rows of the log."""
        rows = [(1, self.pos + i, 0, line) for i, line in enumerate(lines)]
        self.pos += len(rows)
        return rows


def insert_and_commit(db: sqlite3.Connection, rows: list[tuple[int, int, int, str]]) -> None:
    """The floor's whole write, on a stdlib connection in legacy mode (the insert begins it)."""
    db.executemany(FLOOR_INSERT, rows)
    db.commit()


class Floor(_Positions):
    """A bare aiosqlite connection that inserts rows and commits: nothing else."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    @classmethod
    async def open(cls, path: Path) -> Floor:
        db = await aiosqlite.connect(path)  # implicit transactions: insert, then commit
        for pragma in PRAGMAS:
            await db.execute(pragma)
        await db.execute(FLOOR_SCHEMA)
        await db.commit()
        return cls(db)

    async def write(self, lines: list[str]) -> None:
        await self.db.executemany(FLOOR_INSERT, self.rows(lines))
        await self.db.commit()

    async def write_in_one_hop(self, lines: list[str]) -> None:
        """The same insert and commit, as one call to the connection's thread: what a durable
        write costs when the event loop must not wait for the disk itself (as the bot's may
        not). aiosqlite's ``_execute`` is the way the store's own saves reach that thread."""
        await self.db._execute(insert_and_commit, self.db._conn, self.rows(lines))


class DiskFloor(_Positions):
    """The honest floor: the stdlib ``sqlite3`` inserting rows and committing, on the calling
    thread, with the store's pragmas. It pays for SQLite and the fsync and nothing else (no
    thread hop, no event loop), so what an action costs above it is ours to trim."""

    def __init__(self, path: Path) -> None:
        self.db = sqlite3.connect(path)  # legacy mode: the insert begins the transaction
        for pragma in PRAGMAS:
            self.db.execute(pragma)
        self.db.execute(FLOOR_SCHEMA)
        self.db.commit()

    def write(self, lines: list[str]) -> None:
        insert_and_commit(self.db, self.rows(lines))


def next_play(game: Game) -> Action:
    """The next action of an ordinary turn: a choice, a reveal, the roll, or passing."""
    state = game.state
    actor = state.active or state.host
    if state.pending is not None:
        return Choose(actor=state.pending.player, option=state.pending.options[0][0])
    if state.face_down is not None:
        return Reveal(actor=actor)
    if not state.rolled and state.active is not None:
        return RollChaos(actor=actor)
    return NextTurn(actor=actor)


async def begin(service: GameService, scope: str, seed: int) -> Outcome:
    await service.start(scope, "classic", host="ann", host_name="Ann", seed=seed)
    await service.act(scope, Join(actor="bob", player_name="Bob"))
    await service.act(scope, Join(actor="cy", player_name="Cy"))
    return await service.act(scope, Begin(actor="ann"))


async def measure(
    service: GameService, floor: Floor, scope: str, pick: Callable[[Game], Action], n: int
) -> tuple[list[float], list[float]]:
    """`n` actions through the service, each followed by the floor writing the same bytes."""
    ours: list[float] = []
    bare: list[float] = []
    outcome = await service.current(scope)
    for _ in range(n):
        action = pick(outcome.game)
        start = time.perf_counter()
        outcome = await service.act(scope, action)
        ours.append(time.perf_counter() - start)
        lines = [dump_event(event) for event in outcome.events]
        start = time.perf_counter()
        await floor.write(lines)
        bare.append(time.perf_counter() - start)
    return ours, bare


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1]


def report(name: str, ours: list[float], bare: list[float]) -> bool:
    ratio = statistics.median(ours) / statistics.median(bare)
    ok = ratio <= GOAL_RATIO
    print(f"  {name}, {len(ours)} actions")
    for label, times in (("through the service", ours), ("floor: insert + commit", bare)):
        median_us, p90_us = statistics.median(times) * 1e6, p90(times) * 1e6
        print(f"    {label:<24} median {median_us:8.0f} µs   p90 {p90_us:8.0f} µs")
    print(f"    ratio at the median     {ratio:8.2f}×   (goal ≤ {GOAL_RATIO:.0f}×)  {verdict(ok)}")
    return ok


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


async def latency(folder: Path, actions: int) -> bool:
    print(f"latency: classic ruleset, database files in {folder} (WAL, synchronous=FULL)")
    store = await Store.open(folder / "bench.db")
    service = GameService(store, cache_size=CACHE_SIZE)
    floor = await Floor.open(folder / "floor.db")
    try:
        gain = Life(actor="ann", mode="gain", amount=1)

        def life(_: Game) -> Action:
            return gain

        await begin(service, "bench:life", SEED)
        await measure(service, floor, "bench:life", life, 50)  # warm up
        ok = report("life gain", *await measure(service, floor, "bench:life", life, actions))
        await begin(service, "bench:turns", SEED + 1)
        played = await measure(service, floor, "bench:turns", next_play, actions)
        ok &= report("played turns", *played)
    finally:
        await service.close()
        await floor.db.close()
    return ok


def rss_mb() -> tuple[float, float]:
    """Resident memory now and at its peak, in MB (Linux's /proc, else getrusage's peak)."""
    try:
        fields = dict(
            line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines()
        )
        return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024
    except (OSError, KeyError, ValueError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        return peak, peak


async def timed(what: str, work: Awaitable[None]) -> None:
    start = time.perf_counter()
    await work
    print(f"    {what}: {time.perf_counter() - start:.1f} s")


async def memory(folder: Path, games: int) -> bool:
    print(f"memory: {games:,} stored games, a cache of {CACHE_SIZE}")
    store = await Store.open(folder / "memory.db")
    service = GameService(store, cache_size=CACHE_SIZE)
    scopes = [f"bench:{i}" for i in range(games)]

    async def start_all() -> None:
        for i, scope in enumerate(scopes):
            await service.start(scope, "classic", host="ann", host_name="Ann", seed=i)

    async def touch_all() -> None:
        for scope in scopes:
            await service.act(scope, Join(actor="bob", player_name="Bob"))

    try:
        await timed(f"{games:,} games started", start_all())
        await timed(f"{games:,} games touched (loaded, joined, saved)", touch_all())
        assert len(service._cache) <= CACHE_SIZE
        now, peak = rss_mb()
    finally:
        await service.close()
    ok = now <= GOAL_RSS_MB
    print(
        f"    resident memory {now:6.1f} MB (peak {peak:.1f} MB)"
        f"   (goal ≤ {GOAL_RSS_MB:.0f} MB)  {verdict(ok)}"
    )
    return ok


async def main_async(args: argparse.Namespace) -> bool:
    with tempfile.TemporaryDirectory(prefix="chaos-bench-", dir=args.dir) as tmp:
        ok = await latency(Path(tmp), args.actions)
        ok &= await memory(Path(tmp), args.games)
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=1000, help="actions per workload")
    parser.add_argument("--games", type=int, default=10_000, help="games for the memory test")
    parser.add_argument("--dir", type=Path, default=None, help="where the database files go")
    parser.add_argument("--strict", action="store_true", help="exit 1 if a goal is missed")
    args = parser.parse_args()
    ok = asyncio.run(main_async(args))
    print(verdict(ok))
    return 1 if args.strict and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
