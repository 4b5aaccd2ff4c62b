"""What bench/scale.py prints: the tables, the ratios, who held each figure back, and what the
bot's own cost per action predicts for a bigger machine.

Kept apart from the measuring so the arithmetic of the reading can be checked by eye: every
prediction is a line of arithmetic on figures printed above it.
"""

from __future__ import annotations

import argparse
import statistics
import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bench.discord_bench import quantile
from bot.client.bot import BOARD_DELAY

if TYPE_CHECKING:
    from bench.cpu import Usage
    from bench.scale import Burst, Setup, StoreRun

# PostgreSQL's durable commits per second measured on a 2-core machine like this one
# (one append per transaction, fsync on): one connection, and 32 (where group commit helps).
COMMITS_ONE_CONNECTION = (1500, 2100)
COMMITS_MANY_CONNECTIONS = (5600, 6200)
DISCORD_GLOBAL_LIMIT = 50  # requests per second per bot, outside interaction answers
WIDTHS = (5, 5, 6, 6, 7, 6)  # of the columns of cores busy
SATURATED = 0.85  # of a core (or of every core): busy enough to be what held a figure back
# A bot process on SQLite hands every statement to aiosqlite's thread and back, waiting on
# the GIL each way: its event loop is the bottleneck a little before the process shows 1 core.
BOT_SATURATED = 0.75
OTHER_NOTICED = 0.2  # cores of other work worth a word in the reading


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:7.2f} ms"


def ratio(a: float, b: float) -> str:
    return f"{a / b:6.2f}×" if b else "     -"


def processes(n: int) -> str:
    return f"{n} process" if n == 1 else f"{n} processes"


def listed(items: list[str]) -> str:
    """["1", "2", "3"] in words: "1, 2 and 3"."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def times(x: float) -> str:
    return f"{x:6.2f}×"


def round_ratio(a: Setup, b: Setup) -> float:
    """`a`'s rolls/s over `b`'s, round by round, the median: two bursts of one round ran
    minutes apart at most, so load that comes and goes on the machine cancels better than in
    a ratio of medians taken from different rounds."""
    return statistics.median(x.rate / y.rate for x, y in zip(a.bursts, b.bursts, strict=True))


def store_ratio(a: StoreRun, b: StoreRun) -> float:
    """`a`'s actions/s with many games at once over `b`'s, round by round, the median."""
    return statistics.median(x / y for x, y in zip(a.rates, b.rates, strict=True))


def p50(values: list[float]) -> float:
    return statistics.median(values)


def p95(values: list[float]) -> float:
    return quantile(values, 0.95)


def bound_by(usage: Usage, cores: int) -> str:
    """Which part of the system was saturated while the burst was being answered."""
    found = []
    if usage.cores(usage.fake) >= SATURATED:
        found.append("the fake Discord (one thread)")
    busiest = max(usage.bots, default=0.0)
    if usage.cores(busiest) >= BOT_SATURATED:
        found.append("a bot process (its event loop)")
    if usage.cores(usage.machine) >= SATURATED * cores:
        found.append(f"all {cores} cores")
    return ", ".join(found) or "none saturated"


def print_store(stores: tuple[StoreRun, StoreRun], args: argparse.Namespace) -> None:
    lite, pg = stores
    print("  The store alone (GameService, played turns; no Discord):")
    print(
        f"    {'':<22}{'p50':>10}{'p95':>11}{'one at a time':>16}"
        f"{f'{args.games} games at once':>20}"
    )
    for run in stores:
        one = len(run.latencies) / sum(run.latencies)
        print(
            f"    {run.name:<22}{ms(p50(run.latencies)):>10} {ms(p95(run.latencies)):>10}"
            f"{one:>14.0f}/s{p50(run.rates):>18.0f}/s"
        )
    one_pg = len(pg.latencies) / sum(pg.latencies)
    one_lite = len(lite.latencies) / sum(lite.latencies)
    print(
        f"    {'PostgreSQL ÷ SQLite':<22}{ratio(p50(pg.latencies), p50(lite.latencies)):>10}"
        f" {ratio(p95(pg.latencies), p95(lite.latencies)):>10}"
        f"{ratio(one_pg, one_lite):>16}{times(store_ratio(pg, lite)):>20}"
    )
    print(f"  Group commit, {args.games} games at once (one commit per action in the same rounds):")
    for run in stores:
        gain = statistics.median(g / o for g, o in zip(run.rates, run.single, strict=True))
        mean = sum(run.batches) / len(run.batches) if run.batches else 0.0
        print(
            f"    {run.name:<22}{p50(run.rates):>8.0f}/s against {p50(run.single):.0f}/s:"
            f" {times(gain).strip()}; {len(run.batches)} commits, {mean:.1f} actions each"
            f" (up to {max(run.batches, default=0)})"
        )


def results(setup: Setup) -> list[float]:
    return [t for b in setup.bursts for t in b.results]


def print_one_process(setups: list[Setup], args: argparse.Namespace) -> None:
    lite, pg = setups[0], setups[1]
    print(
        f"  Through the fake Discord, one bot process with all shards (/chaos roll extra):\n"
        f"    {'':<22}{'one at a time':>22}   {f'bursts of {args.burst}, to each result':>40}"
    )
    print(f"    {'':<22}{'p50':>10}{'p95':>12}   {'rolls/s':>12}{'p50':>14}{'p95':>14}")
    for s in (lite, pg):
        b = s.median_burst()
        print(
            f"    {s.name:<22}{ms(p50(s.latencies)):>10}{ms(p95(s.latencies)):>12}"
            f"   {b.rate:>10.0f}/s{ms(p50(results(s))):>14}{ms(p95(results(s))):>14}"
        )
    print(
        f"    {'PostgreSQL ÷ SQLite':<22}{ratio(p50(pg.latencies), p50(lite.latencies)):>10}"
        f"{ratio(p95(pg.latencies), p95(lite.latencies)):>12}"
        f"   {times(round_ratio(pg, lite)):>12}"
        f"{ratio(p50(results(pg)), p50(results(lite))):>14}"
        f"{ratio(p95(results(pg)), p95(results(lite))):>14}"
    )


def print_processes(setups: list[Setup], args: argparse.Namespace, cores: int) -> None:
    print(
        f"    {'':<26}{'rolls/s':>10}{'each':>8}{'× 1':>8}{'p95':>11}   cores busy: {'bots':>5}"
        f"{'max':>5}{'fake':>6}{'pg':>6}{'other':>7}{'all':>6}   bound by"
    )
    for s in setups:
        b = s.median_burst()
        u = b.busy
        shares = (u.bot, max(u.bots), u.fake, u.postgres, u.other, u.machine)
        busy = "".join(f"{u.cores(x):>{w}.2f}" for x, w in zip(shares, WIDTHS, strict=True))
        print(
            f"    {s.name:<26}{b.rate:>8.0f}/s{b.rate / s.processes:>6.0f}/s"
            f"{times(round_ratio(s, setups[1])):>8}{ms(p95(results(s))):>11}"
            f"   {'':>11} {busy}   {bound_by(u, cores)}"
        )
    late = sum(t > 3.0 for s in setups for t in results(s))
    refusals = sum(b.refused for s in setups for b in s.bursts)
    counted = sum(b.count for s in setups for b in s.bursts)
    alone = sum(s.refused_alone for s in setups)
    print(
        f"    (rolls applied per second, the median of {args.rounds} rounds; each: per process;"
        f" × 1: the median of each round's ratio to 1 process on PostgreSQL; {refusals} of"
        f" {counted} rolls in bursts and {alone} one at a time refused, their channel waiting"
        f" for a choice; {late} results later than Discord's 3 s)"
    )


def print_scale_out(setups: list[Setup]) -> None:
    """One line per PostgreSQL setup, in one form tools can read: rolls/s, rolls/s per process,
    the ratio to one process, and that ratio per process (1.00: every process as fast as one
    alone)."""
    width = len(processes(max(s.processes for s in setups[1:]))) + 1
    for s in setups[1:]:
        rate, versus = s.median_burst().rate, round_ratio(s, setups[1])
        print(
            f"scale-out {processes(s.processes) + ':':<{width}} {rate:6.0f} rolls/s,"
            f" {versus:5.2f}× 1 process; per process {rate / s.processes:5.0f} rolls/s,"
            f" {versus / s.processes:4.2f}× 1 process alone"
        )


@dataclass(frozen=True)
class Cost:
    """What one roll of a burst cost, until the boards it asked for were drawn."""

    bot_ms: float  # CPU of the bot processes
    fake_ms: float  # CPU of the fake Discord
    pg_ms: float  # CPU of PostgreSQL (the whole server)
    stored: float  # actions the database gained (committed in batches)
    requests: float  # REST requests with the bot's token, outside interaction answers

    @classmethod
    def of(cls, *bursts: Burst) -> Cost:
        """Per roll applied, over every burst given (the refused ones' cost included)."""
        n = sum(b.applied for b in bursts)
        return cls(
            bot_ms=sum(b.settled.bot for b in bursts) / n * 1e3,
            fake_ms=sum(b.settled.fake for b in bursts) / n * 1e3,
            pg_ms=sum(b.settled.postgres for b in bursts) / n * 1e3,
            stored=sum(b.stored for b in bursts) / n,
            requests=sum(b.token_requests for b in bursts) / n,
        )


def print_costs(setups: list[Setup]) -> None:
    print(
        f"    {'':<26}{'bots':>8}{'fake':>8}{'postgres':>10}{'stored':>8}{'requests':>10}"
        "   (CPU ms; actions stored; REST requests with the bot's token)"
    )
    for s in setups:
        c = Cost.of(*s.bursts)
        print(
            f"    {s.name:<26}{c.bot_ms:8.2f}{c.fake_ms:8.2f}{c.pg_ms:10.2f}{c.stored:8.2f}"
            f"{c.requests:10.2f}"
        )
    applied = sum(b.count - b.refused for s in setups for b in s.bursts)
    kept = sum(b.stored for s in setups for b in s.bursts)
    print(f"    rolls applied in the bursts: {applied}; actions the databases gained: {kept}")


def busiest(setups: list[Setup], cores: int) -> str:
    """Where each PostgreSQL setup's burst spent the machine, in words."""
    parts = []
    for s in setups[1:]:
        u = s.median_burst().busy
        parts.append(
            f"{s.processes} process{'es' if s.processes > 1 else ''}: {u.cores(u.machine):.2f} of"
            f" {cores} cores busy, the busiest bot process {u.cores(max(u.bots)):.2f}, the fake"
            f" {u.cores(u.fake):.2f}"
        )
    return "While answering, " + "; ".join(parts) + "."


def fake_verdict(setups: list[Setup]) -> str:
    """Whether the fake Discord, not the bot, set any burst's pace."""
    top = max(b.busy.cores(b.busy.fake) for s in setups for b in s.bursts)
    if top >= SATURATED:
        return (
            f"The fake Discord kept a core {top:.0%} busy in some burst: there the figures"
            f" measure the fake as much as the bot."
        )
    return f"The fake Discord was never what held a burst back: at most {top:.2f} of its one core."


def say(text: str) -> None:
    print(textwrap.fill(text, width=100, initial_indent="  * ", subsequent_indent="    "))


def print_reading(stores: tuple[StoreRun, StoreRun], setups: list[Setup], cores: int) -> None:
    """The summary: what held each figure back here, and what a bigger machine would do."""
    lite_store, pg_store = stores
    lite, pg1 = setups[0], setups[1]
    lite_cost, cost = Cost.of(*lite.bursts), Cost.of(*(b for s in setups[1:] for b in s.bursts))
    bot_ms, fake_ms, pg_ms = cost.bot_ms, cost.fake_ms, cost.pg_ms
    writes = cost.stored
    versus = [round_ratio(s, pg1) for s in setups]
    say(
        f"PostgreSQL against SQLite: the store alone, one action at a time, takes"
        f" {ratio(p50(pg_store.latencies), p50(lite_store.latencies)).strip()} SQLite's time at"
        f" p50; with many games acting at once PostgreSQL does"
        f" {times(store_ratio(pg_store, lite_store)).strip()} SQLite's actions/s."
        f" Both commit the actions queued together as one batch (group commit): SQLite's one"
        f" writer on its one connection, PostgreSQL's as one statement on a connection of the"
        f" pool."
        f" Through Discord one process on PostgreSQL applied"
        f" {times(1 / versus[0]).strip()} the rolls/s of one on SQLite. SQLite's work runs in"
        f" the bot's own process ({lite_cost.bot_ms:.2f} ms of its CPU a roll, against"
        f" {Cost.of(*pg1.bursts).bot_ms:.2f} ms on PostgreSQL, whose own {pg_ms:.2f} ms a roll"
        f" run in its processes, on the other core when it is free)."
    )
    more = setups[2:]
    scaled = ""
    if more:
        said = listed([times(round_ratio(s, pg1)).strip() for s in more])
        per = listed([f"{round_ratio(s, pg1) / s.processes:.2f}" for s in more])
        scaled = (
            f"Processes: {listed([str(s.processes) for s in more])} processes on PostgreSQL"
            f" applied {said} the rolls/s of one: {per} of it per process. "
        )
    say(
        f"{scaled}One roll costs"
        f" {bot_ms:.2f} ms of bot CPU, {fake_ms:.2f} ms of the fake Discord's and {pg_ms:.2f} ms"
        f" of PostgreSQL's, so {cores} cores can't answer more than {cores} × 1000 /"
        f" {bot_ms + fake_ms + pg_ms:.2f} = {cores * 1e3 / (bot_ms + fake_ms + pg_ms):.0f} rolls/s"
        f" however many processes share them, and the fake alone, one Python thread, not more"
        f" than 1000 / {fake_ms:.2f} = {1e3 / fake_ms:.0f}/s. {busiest(setups, cores)}"
        f" {fake_verdict(setups)}"
    )
    if more:
        one, most = Cost.of(*setups[1].bursts), Cost.of(*setups[-1].bursts)
        say(
            f"From 1 to {setups[-1].processes} processes the bots' CPU a roll went from"
            f" {one.bot_ms:.2f} to {most.bot_ms:.2f} ms and PostgreSQL's from {one.pg_ms:.2f} to"
            f" {most.pg_ms:.2f} ms: what more processes and connections taking turns on"
            f" {cores} cores cost."
        )
    bursts = [b.busy for s in setups for b in s.bursts]
    other = sum(u.other for u in bursts) / sum(u.wall for u in bursts)
    if other >= OTHER_NOTICED:
        say(
            f"Other work on the machine (other users, the kernel) kept {other:.2f} of the"
            f" {cores} cores busy during the bursts, on average: every figure above is for what"
            f" was left. The setups took turns, so each met it alike; the ratios hold better than"
            f" the rates."
        )
    batch = max(1.0, sum(pg_store.batches) / len(pg_store.batches)) if pg_store.batches else 1.0
    low, high = (c * batch / writes for c in COMMITS_MANY_CONNECTIONS)
    say(
        f"A bigger machine: real Discord does the fake's part, so with C cores for the bot"
        f" processes (one per core) and PostgreSQL, throughput ≈ C × 1000 / ({bot_ms:.2f} +"
        f" {pg_ms:.2f}) rolls/s, until PostgreSQL's commits bind. A roll applied was {writes:.2f}"
        f" stored actions, and each process sends the actions queued together as one statement"
        f" and one commit: {batch:.1f} actions a commit in the store-alone phase above. PostgreSQL"
        f" commits {COMMITS_MANY_CONNECTIONS[0]:,}–{COMMITS_MANY_CONNECTIONS[1]:,}/s over many"
        f" connections on a 2-core machine like this one ({COMMITS_ONE_CONNECTION[0]:,}–"
        f"{COMMITS_ONE_CONNECTION[1]:,}/s on one connection), so about {low:.0f}–{high:.0f}"
        f" rolls/s at that batch size; batches grow with the load, so the CPU binds first."
    )
    for c in (4, 8, 16):
        cpu = c * 1e3 / (bot_ms + pg_ms)
        print(
            f"      {c:>2} cores: the CPU allows {cpu:6.0f} rolls/s, the commits {low:.0f}–"
            f"{high:.0f}/s → about {min(cpu, low):.0f} rolls/s"
        )
    busy_wall = sum(b.settled.wall for s in setups[1:] for b in s.bursts)
    made = sum(b.token_requests for s in setups[1:] for b in s.bursts)
    say(
        f"Discord's side: the answers (callbacks and follow-ups) aren't under Discord's"
        f" {DISCORD_GLOBAL_LIMIT} requests/s per bot, but board redraws are, and every process"
        f" shares that limit. A board is redrawn at most once per {BOARD_DELAY} s per channel:"
        f" {cost.requests:.2f} requests a roll here, {made / busy_wall:.0f}/s during the bursts."
        f" {DISCORD_GLOBAL_LIMIT}/s is about {DISCORD_GLOBAL_LIMIT * BOARD_DELAY:.0f} channels"
        f" rolling non-stop; past that the REST proxy queues board edits while results still"
        f" arrive. For scale, 1,000 games each acting every 10 s is 100 actions/s."
    )


def print_report(
    args: argparse.Namespace,
    stores: tuple[StoreRun, StoreRun],
    setups: list[Setup],
    *,
    shards: int,
    cores: int,
    postgres: str,
) -> None:
    games = args.guilds * args.channels
    print(
        f"Scale benchmark: {cores} cores, PostgreSQL {postgres}; {shards} shards, {args.guilds}"
        f" guilds × {args.channels} channels = {games} games per setup; {args.rounds} rounds,"
        f" the setups taking turns"
    )
    print()
    print("1. PostgreSQL against SQLite, one process")
    print_store(stores, args)
    print_one_process(setups, args)
    print()
    each = listed([str(s.processes) for s in setups[1:]])
    bots = "bot processes" if len(setups) > 2 else "bot process"
    on = f"{shards} shard" if shards == 1 else f"{shards} shards"
    print(f"2. PostgreSQL: {each} {bots} on {on} (bursts of {args.burst})")
    print_processes(setups, args, cores)
    print()
    print_scale_out(setups)
    print()
    print("   Cost per roll, every round's bursts until their boards were drawn:")
    print_costs(setups)
    print()
    print("3. Reading")
    print_reading(stores, setups, cores)
