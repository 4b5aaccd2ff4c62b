"""Benchmark: PostgreSQL against SQLite, and 1, 2 and 3 bot processes on PostgreSQL.

Every figure is a ratio between setups measured in the same run, on the same machine, so a
slower or busier machine moves both sides of it. The setups run side by side and take turns
round by round, so load from elsewhere on the machine falls on each of them alike.

1. **The store alone** (``GameService``, no Discord): played turns one at a time (latency), and
   many games acting at once (throughput), on a SQLite file and on a PostgreSQL database.
2. **Through the fake Discord**: real ``python -m bot`` processes on one bot's shards, guilds
   spread over the shards, a begun game in each of their channels. ``/chaos roll extra:true``
   (a referee's extra roll: resolved and saved like a turn's) one at a time for latency, then
   bursts of many at once across every channel for throughput, on

   * SQLite, one process (all the shards);
   * PostgreSQL, one process; then each other count of ``--processes`` (by default two and
     three) sharing the shards.

For every PostgreSQL setup the report gives the rolls/s of its bursts, the rolls/s per process
and the ratio to one process (``scale-out N processes: …`` lines, one per setup), so the
scale-out can be measured again on a bigger machine: ``--processes 1,2,4,8``.

**Shards.** Every setup runs the same shard count, chosen from the counts listed (see
:func:`shard_count`) so that each of them shares the shards out evenly where it can: the counts'
least common multiple (6 for 1,2,3; 8 for 1,2,4,8), as long as it is at most MAX_SHARDS. The
guilds are as many on every shard, two a shard and 12 in all at least (12 for 1,2,3; 16 for
1,2,4,8), unless ``--guilds`` says otherwise (at least one per shard).

During each burst the kernel's counters say who used the CPU: the bot processes, the fake
Discord (this process: one Python thread, so at most one core), PostgreSQL, and anything else
on the machine. From them the summary tells whether a figure was bound by the bot, by the fake,
or by the machine, and what the bot's own cost per action predicts for a bigger machine.

Run from the repository root (PostgreSQL must answer at ``--postgres``)::

    python bench/scale.py [--quick] [--processes 1,2,3] [--rounds 5] [--burst 600] [--channels 8]

Interrupted (Ctrl-C, SIGTERM), it stops its bot processes and drops its databases first.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import re
import signal
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

# The fake Discord lives with the tests: run from a checkout, the repository root must be on
# the path (it is when run as `python bench/scale.py` from anywhere, with this line).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.cluster import (
    Cluster,
    backends,
    drop_orphans,
    fresh_database,
    running_cluster,
    server_version,
    stored,
)
from bench.cpu import CORES, Snapshot, Usage
from bench.discord_bench import EXTRA, quiet, refused
from bench.scale_report import print_report, processes
from bench.store import begin, next_play
from bot.service import GameService
from bot.store import Store
from bot.store.pgconnect import POOL_SIZE
from tests.fakediscord.server import Call

DEFAULT_PROCESSES = "1,2,3"
# A bound of the benchmark, not of the bot: one process a core on a 16-core machine. Every setup
# runs at once (the largest beside the smaller ones), and the fake Discord serving them all is
# one Python thread of this process: with many more processes it, not the bot, sets the pace.
MAX_PROCESSES = 16
# Every shard is a gateway connection the fake Discord serves, with guilds of its own.
MAX_SHARDS = 48
# Guilds: a multiple of the shards (as many on each), two a shard at least, and at least 12 in
# all (with 6 shards, today's figure), so that a burst spreads over as many channels whatever
# the shard count.
GUILDS_PER_SHARD = 2
GUILDS_AT_LEAST = 12
SEED = 20_261_122
SERVER = "postgresql://postgres@127.0.0.1:5432"
ANSWER_WITHIN = 120.0  # seconds: a late answer is counted as late, not lost


@dataclass
class Burst:
    """One burst: when each result came, who used the CPU, what reached the database and
    Discord."""

    count: int
    wall: float  # seconds until the last result
    results: list[float]  # seconds from the burst's start to each result
    refused: int
    busy: Usage  # until the last result
    settled: Usage  # until the boards of the burst were drawn too
    stored: int  # actions the database gained (committed in batches: see bot.store)
    token_requests: int  # REST requests other than interaction answers (Discord's 50/s)

    @property
    def applied(self) -> int:
        return self.count - self.refused

    @property
    def rate(self) -> float:
        """Rolls applied per second (a refusal costs next to nothing, so it doesn't count)."""
        return self.applied / self.wall


@dataclass
class Setup:
    """One way of running the bot, and what was measured of it."""

    name: str
    processes: int
    postgres: bool
    latencies: list[float] = field(default_factory=list)  # one roll at a time, to its result
    refused_alone: int = 0  # rolls refused one at a time, left out of the latencies
    bursts: list[Burst] = field(default_factory=list)
    cluster: Cluster | None = None

    def median_burst(self) -> Burst:
        return sorted(self.bursts, key=lambda b: b.rate)[len(self.bursts) // 2]


@dataclass
class StoreRun:
    """The store alone on one backend: with group commit, and (`single`) one commit per
    action, its baseline, measured in the same rounds."""

    name: str
    latencies: list[float] = field(default_factory=list)
    rates: list[float] = field(default_factory=list)
    single: list[float] = field(default_factory=list)  # actions/s, one commit per action
    batches: list[int] = field(default_factory=list)  # sizes of the group commits


# -- the store alone ------------------------------------------------------------------------------


async def store_round(
    target: Path | str, run: StoreRun, actions: int, games: int, per_game: int
) -> None:
    """Played turns one at a time (each timed), then `games` games playing at once."""
    service = GameService(await Store.open(target), cache_size=games + 8)
    try:
        scope = f"bench:turns:{len(run.rates)}"
        outcome = await begin(service, scope, SEED)
        for n in range(actions + 20):  # the first 20 warm up
            started = time.perf_counter()
            outcome = await service.act(scope, next_play(outcome.game))
            if n >= 20:
                run.latencies.append(time.perf_counter() - started)

        async def play(each: str) -> None:
            game = (await service.current(each)).game
            for _ in range(per_game):
                game = (await service.act(each, next_play(game))).game

        async def many(grouped: bool) -> float:
            """`games` games playing at once; actions/s."""
            scopes = [f"bench:many:{len(run.rates)}:{grouped}:{g}" for g in range(games)]
            for g, each in enumerate(scopes):
                await begin(service, each, SEED + g)
            service.store.writer.group = grouped
            service.store.writer.batches = [] if grouped else None
            started = time.perf_counter()
            await asyncio.gather(*(play(each) for each in scopes))
            took = time.perf_counter() - started
            run.batches += service.store.writer.batches or []
            service.store.writer.group, service.store.writer.batches = True, None
            return games * per_game / took

        # Group commit and its baseline, in turns from round to round.
        if len(run.rates) % 2 == 0:
            run.rates.append(await many(grouped=True))
            run.single.append(await many(grouped=False))
        else:
            run.single.append(await many(grouped=False))
            run.rates.append(await many(grouped=True))
    finally:
        await service.close()


async def store_alone(
    folder: Path, server: str, rounds: int, actions: int, games: int, per_game: int
) -> tuple[StoreRun, StoreRun]:
    lite, pg = StoreRun("SQLite"), StoreRun("PostgreSQL")
    async with fresh_database(server) as url:
        for n in range(rounds):
            turns: list[tuple[Path | str, StoreRun]] = [(folder / f"store-{n}.db", lite), (url, pg)]
            for target, run in turns if n % 2 == 0 else turns[::-1]:
                await store_round(target, run, actions, games, per_game)
    return lite, pg


# -- through the fake Discord ---------------------------------------------------------------------


async def result_of(cluster: Cluster, channel: str) -> tuple[float, bool]:
    """One extra roll in `channel`: seconds to its result (the follow-up of a deferred answer),
    and whether it was refused."""
    fake = cluster.fake
    started = time.perf_counter()
    payload, body = await fake.slash(
        "chaos roll", EXTRA, user=fake.owner, channel=channel, timeout=ANSWER_WITHIN
    )
    if body["type"] != 5:
        return time.perf_counter() - started, refused(body)
    pattern = f"POST /webhooks/*/{payload['token']}"
    call = await fake.wait_for_call(pattern, timeout=ANSWER_WITHIN)
    return call.at - started, refused({"data": call.json})


async def one_at_a_time(setup: Setup, count: int) -> None:
    assert setup.cluster is not None
    channels = setup.cluster.channels
    for n in range(count):
        took, was_refused = await result_of(setup.cluster, channels[n % len(channels)])
        if was_refused:
            setup.refused_alone += 1
        else:
            setup.latencies.append(took)
    await setup.cluster.answer_choices()  # and the boards redrawn before the next turn


def is_answer(call: Call) -> bool:
    """An interaction's answer or follow-up: made with its token, outside the 50/s limit."""
    return call.matches("POST /interactions/*") or call.matches("* /webhooks/*")


async def burst(setup: Setup, count: int) -> Burst:
    """`count` extra rolls at once, spread over every channel; each result's time (a deferred
    roll's result is its follow-up, read from the fake's record), and the CPU spent."""
    cluster = setup.cluster
    assert cluster is not None
    fake, channels = cluster.fake, cluster.channels
    stored_before = await stored(cluster)
    mark = len(fake.calls)
    # This process holds every setup's fake Discord; a full collection of all their records,
    # landing in one burst and not another, would be billed to that burst's fake. Collected
    # now, and what survives is left out of later collections.
    gc.collect()
    gc.freeze()
    before = Snapshot.take(cluster.pids, await backends(cluster))

    async def one(n: int) -> tuple[str, bool, float | None]:
        channel = channels[n % len(channels)]
        payload, body = await fake.slash(
            "chaos roll", EXTRA, user=fake.owner, channel=channel, timeout=ANSWER_WITHIN
        )
        if body["type"] == 5:
            return payload["token"], False, None
        return payload["token"], refused(body), time.perf_counter()

    sent = await asyncio.gather(*(one(n) for n in range(count)))
    waiting = {token for token, _, at in sent if at is None}
    followups: dict[str, Call] = {}
    read = mark
    async with asyncio.timeout(ANSWER_WITHIN):
        while True:
            calls, read = fake.calls[read:], len(fake.calls)
            for call in calls:
                token = call.path.rsplit("/", 1)[-1]
                if token in waiting and call.matches("POST /webhooks/*"):
                    followups.setdefault(token, call)
            if len(followups) == len(waiting):
                break
            await asyncio.sleep(0.02)
    done = Snapshot.take(cluster.pids, await backends(cluster))
    await quiet(fake, 0.6)  # the boards the burst asked for, drawn
    settled = Snapshot.take(cluster.pids, await backends(cluster))
    gained = await stored(cluster) - stored_before
    await cluster.answer_choices()  # untimed
    results, refusals = [], 0
    for token, was_refused, at in sent:
        if at is None:
            results.append(followups[token].at - before.wall)
            refusals += refused({"data": followups[token].json})
        else:
            results.append(at - before.wall)
            refusals += was_refused
    requests = sum(not is_answer(call) for call in fake.calls[mark:])
    return Burst(
        count=count,
        wall=max(results),
        results=results,
        refused=refusals,
        busy=Usage.between(before, done),
        settled=Usage.between(before, settled),
        stored=gained,
        token_requests=requests,
    )


@contextlib.asynccontextmanager
async def all_running(
    setups: list[Setup], folder: Path, server: str, *, shards: int, guilds: int, channels: int
) -> AsyncIterator[None]:
    """Every setup running at once, each with its fake Discord and database; all stopped and
    dropped on the way out, whatever ends the run."""
    async with contextlib.AsyncExitStack() as stack:
        for n, setup in enumerate(setups):
            url = None
            if setup.postgres:
                url = await stack.enter_async_context(fresh_database(server))
            setup.cluster = await stack.enter_async_context(
                running_cluster(
                    folder / f"setup-{n}",
                    processes=setup.processes,
                    shards=shards,
                    guilds=guilds,
                    channels=channels,
                    database_url=url,
                )
            )
            print(f"  ready: {setup.name}", flush=True)
        yield


async def through_discord(args: argparse.Namespace, folder: Path) -> list[Setup]:
    setups = [Setup("SQLite, 1 process", 1, postgres=False)] + [
        Setup(f"PostgreSQL, {processes(n)}", n, postgres=True) for n in args.processes
    ]
    async with all_running(
        setups,
        folder,
        args.postgres,
        shards=args.shards,
        guilds=args.guilds,
        channels=args.channels,
    ):
        for setup in setups:  # warm up: imports, caches, connections
            await one_at_a_time(setup, 2 * len(setup.cluster.channels) if setup.cluster else 0)
            await burst(setup, args.burst // 2)
            setup.latencies.clear()
            setup.refused_alone = 0
        for n in range(args.rounds):
            # Forwards, then backwards: a load that grows or fades during the run falls on the
            # first setup and the last alike.
            turns = setups if n % 2 == 0 else setups[::-1]
            for setup in turns:
                await one_at_a_time(setup, args.latency)
            for setup in turns:
                setup.bursts.append(await burst(setup, args.burst))
            print(f"  round {n + 1} of {args.rounds} done", flush=True)
    return setups


def stop_on_signals() -> None:
    """Ctrl-C or SIGTERM cancels the run, so every clean-up runs: the bot processes stopped,
    the databases dropped. A second signal is not let cut that clean-up short."""
    task = asyncio.current_task()
    assert task is not None
    stopping: list[int] = []

    def stop(signum: int) -> None:
        if not stopping:
            task.cancel()
        else:
            print("stopping the bot processes and dropping the databases …", flush=True)
        stopping.append(signum)

    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop, signum)


async def connections_note(server: str, bots: int) -> str | None:
    """A warning when the PostgreSQL setups' bot processes could ask for more connections than
    the server has free: each opens its pool as it needs it (up to POOL_SIZE) and one more to
    take turns connecting to Discord. A connection refused makes a roll fail, not wait."""
    con = await asyncpg.connect(f"{server}/postgres", timeout=10)
    try:
        allowed = int(await con.fetchval("SHOW max_connections"))
        used = int(
            await con.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'"
            )
        )
    finally:
        await con.close()
    wanted = bots * (POOL_SIZE + 1)
    if wanted <= allowed - used:
        return None
    return (
        f"note: the PostgreSQL setups run {bots} bot processes, which may open up to {wanted}"
        f" connections, and the server has {allowed - used} free (max_connections {allowed},"
        f" {used} in use); if rolls come back refused, raise max_connections"
    )


async def main(args: argparse.Namespace) -> None:
    stop_on_signals()
    try:
        orphans = await drop_orphans(args.postgres)
    except (OSError, asyncpg.PostgresError) as error:
        raise SystemExit(
            f"bench/scale.py needs a PostgreSQL server at {args.postgres} (--postgres): {error}"
        ) from None
    for name in orphans:
        print(f"dropped {name}, left by a benchmark that was killed")
    note = await connections_note(args.postgres, sum(args.processes))
    if note:
        print(note)
    with tempfile.TemporaryDirectory(prefix="chaos-scale-", dir=args.dir) as tmp:
        folder = Path(tmp)
        print(f"The store alone ({args.rounds} rounds) …", flush=True)
        stores = await store_alone(
            folder, args.postgres, args.rounds, args.actions, args.games, args.per_game
        )
        print("Through the fake Discord: starting the bot processes …", flush=True)
        setups = await through_discord(args, folder)
    print()
    version = await server_version(args.postgres)
    print_report(args, stores, setups, shards=args.shards, cores=CORES, postgres=version)


def process_counts(text: str) -> list[int]:
    """``--processes``: comma-separated counts of bot processes, each a PostgreSQL setup.

    One process is always among them (every ratio is to it), the counts are sorted and each is
    run once. A count below 1, above MAX_PROCESSES or not a whole number is refused with a
    sentence (argparse prints it after the usage line).
    """
    counts = set()
    for part in text.split(","):
        word = part.strip()
        if not re.fullmatch(r"[+-]?[0-9]+", word):
            what = repr(word[:40]) if word else "an empty place"
            raise argparse.ArgumentTypeError(
                f"{what} is not a number of processes: give whole numbers separated by"
                f" commas, such as 1,2,4,8"
            )
        # Past 6 digits it is out of bounds either way (and int() refuses past 4,300).
        big = len(word.lstrip("+-").lstrip("0")) > 6
        count = (-1 if word.startswith("-") else MAX_PROCESSES + 1) if big else int(word)
        shown = word if len(word) <= 12 else f"{word[:12]}…"
        if count < 1:
            raise argparse.ArgumentTypeError(
                f"{shown} processes can't answer anything: every count must be 1 or more"
            )
        if count > MAX_PROCESSES:
            raise argparse.ArgumentTypeError(
                f"{shown} processes is more than this benchmark runs (at most {MAX_PROCESSES}):"
                f" past that its fake Discord, one Python thread, would set the pace, not the bot"
            )
        counts.add(count)
    return sorted(counts | {1})


def shard_count(counts: list[int]) -> int:
    """The shards every setup runs: the smallest multiple of the largest count, at most
    MAX_SHARDS, that the most counts divide.

    A multiple of the largest count, so that its processes, the most, get as many shards each
    (no process is left without one); as many counts as can be dividing it, so that in those
    setups too each process runs as many shards, and so as many guilds, as its siblings; the
    smallest such, because every shard is a gateway connection the fake Discord keeps busy. When
    the counts' least common multiple is at most MAX_SHARDS it is that (1,2,3: 6, today's
    figure; 1,2,4,8: 8; 1,2,3,4,6,8: 24). Past it (1 to 8 would need 840) the rest split as
    evenly as contiguous ranges can (:func:`bench.cluster.shard_ranges`): 1 to 8 gets 24, where
    only 5 and 7 processes are uneven.
    """
    largest = max(counts)
    multiples = range(largest, max(MAX_SHARDS, largest) + 1, largest)
    return max(multiples, key=lambda shards: (sum(shards % n == 0 for n in counts), -shards))


def positive(text: str) -> int:
    """A whole number of 1 or more, or a sentence saying why not."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is too few: give 1 or more")
    return value


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a smaller run (about a minute)")
    parser.add_argument(
        "--processes",
        type=process_counts,
        default=DEFAULT_PROCESSES,
        metavar="N,N,…",
        help=f"bot processes of each PostgreSQL setup (default {DEFAULT_PROCESSES}; 1 is always"
        f" run; at most {MAX_PROCESSES})",
    )
    parser.add_argument(
        "--rounds", type=positive, help="rounds each setup takes (default 5; quick 1)"
    )
    parser.add_argument("--burst", type=positive, help="rolls at once (default 600; quick 240)")
    parser.add_argument(
        "--latency", type=positive, help="rolls one at a time (default 150; quick 48)"
    )
    parser.add_argument(
        "--guilds",
        type=positive,
        help=f"guilds over the shards (default: a multiple of the shards, {GUILDS_PER_SHARD} a"
        f" shard or more, {GUILDS_AT_LEAST} or more)",
    )
    parser.add_argument("--channels", type=positive, help="channels per guild (default 8; quick 4)")
    parser.add_argument("--actions", type=positive, help="store: turns one at a time (default 600)")
    parser.add_argument("--games", type=positive, default=32, help="store: games playing at once")
    parser.add_argument("--per-game", type=positive, help="store: actions per game (default 30)")
    parser.add_argument("--postgres", default=SERVER, help="the server (no database name)")
    parser.add_argument("--dir", default=None, help="where SQLite files and logs go (a temp dir)")
    args = parser.parse_args(argv)
    quick = args.quick
    defaults = {
        "rounds": (5, 1),
        "burst": (600, 240),
        "latency": (150, 48),
        "channels": (8, 4),
        "actions": (600, 200),
        "per_game": (30, 10),
    }
    for name, (full, small) in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, small if quick else full)
    args.shards = shard_count(args.processes)
    if args.guilds is None:
        args.guilds = args.shards * max(GUILDS_PER_SHARD, -(-GUILDS_AT_LEAST // args.shards))
    elif args.guilds < args.shards:
        parser.error(
            f"--guilds {args.guilds} would leave shards without a guild: --processes"
            f" {','.join(map(str, args.processes))} runs {args.shards} shards, so give at least"
            f" {args.shards}"
        )
    return args


def run() -> int:
    logging.basicConfig(level=logging.ERROR)  # the fake's and discord.py's chatter is noise here
    arguments = parse()
    try:
        asyncio.run(main(arguments))
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("interrupted: the bot processes are stopped and the databases dropped")
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(run())
