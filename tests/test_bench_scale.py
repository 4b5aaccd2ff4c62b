"""The scale benchmark: its arithmetic, its options, and one small run end to end.

How shards are split over processes decides what each process of the benchmark runs, and the
CPU bookkeeping decides what the report blames: both are checked on made-up counters. Which
process counts it runs (``--processes``), on how many shards and guilds, is checked on the
parsed options; a small run with ``--processes 1,2`` checks the report's per-process figures.
Nothing here asserts a speed.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from itertools import combinations
from math import lcm
from pathlib import Path

import pytest

from bench.cluster import shard_ranges
from bench.cpu import Snapshot, Usage
from bench.scale import (
    MAX_PROCESSES,
    MAX_SHARDS,
    Burst,
    Setup,
    StoreRun,
    connections_note,
    parse,
    shard_count,
)
from bench.scale_report import bound_by, print_report
from tests import postgres

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("processes", "ranges"),
    [
        (1, ["0-5"]),
        (2, ["0-2", "3-5"]),
        (3, ["0-1", "2-3", "4-5"]),
        (4, ["0-0", "1-2", "3-3", "4-5"]),
    ],
)
def test_every_shard_goes_to_exactly_one_process(processes: int, ranges: list[str]) -> None:
    assert shard_ranges(6, processes) == ranges


def snapshot(
    wall: float, own: float, bots: tuple[float, ...], backends: dict[int, float], machine: float
) -> Snapshot:
    return Snapshot(wall=wall, own=own, bots=bots, backends=backends, machine=machine)


def test_a_backend_that_connected_during_the_stretch_counts_from_zero() -> None:
    before = snapshot(10.0, 1.0, (5.0, 7.0), {100: 2.0}, 50.0)
    after = snapshot(12.0, 1.5, (6.0, 7.5), {100: 2.25, 101: 0.25}, 53.0)
    usage = Usage.between(before, after)
    assert usage.wall == pytest.approx(2.0)
    assert usage.fake == pytest.approx(0.5)
    assert usage.bots == pytest.approx((1.0, 0.5))
    assert usage.postgres == pytest.approx(0.5)
    assert usage.other == pytest.approx(3.0 - 0.5 - 1.5 - 0.5)
    assert usage.cores(usage.machine) == pytest.approx(1.5)


def test_other_work_is_never_below_zero() -> None:
    """The kernel's counters tick at 100 Hz: ours may add up to a little more than the total."""
    before = snapshot(0.0, 0.0, (0.0,), {}, 0.0)
    after = snapshot(1.0, 0.5, (0.52,), {}, 1.0)
    assert Usage.between(before, after).other == 0.0


@pytest.mark.parametrize(
    ("fake", "bots", "machine", "words"),
    [
        (0.9, (0.5,), 1.5, "the fake Discord"),
        (0.3, (0.8,), 1.2, "a bot process"),
        (0.3, (0.6, 0.6), 1.9, "all 2 cores"),
        (0.3, (0.4,), 0.9, "none saturated"),
    ],
)
def test_the_report_blames_what_was_saturated(
    fake: float, bots: tuple[float, ...], machine: float, words: str
) -> None:
    usage = Usage(wall=1.0, fake=fake, bots=bots, postgres=0.1, machine=machine)
    assert words in bound_by(usage, cores=2)


def test_by_default_it_runs_todays_setups() -> None:
    """1, 2 and 3 processes on 6 shards, 12 guilds: what docs/scaling.md describes."""
    args = parse([])
    assert (args.processes, args.shards, args.guilds) == ([1, 2, 3], 6, 12)


@pytest.mark.parametrize(
    ("given", "counts", "shards", "guilds"),
    [
        ("1,2,4,8", [1, 2, 4, 8], 8, 16),
        ("2", [1, 2], 2, 12),  # one process is always run: every ratio is to it
        (" 4, 1 ,4", [1, 4], 4, 12),
        ("1", [1], 1, 12),
        ("1,2,3,4,5,6,7,8", [1, 2, 3, 4, 5, 6, 7, 8], 24, 48),  # 840 would be too many
        (str(MAX_PROCESSES), [1, MAX_PROCESSES], MAX_PROCESSES, 2 * MAX_PROCESSES),
    ],
)
def test_processes_pick_the_shards_and_guilds(
    given: str, counts: list[int], shards: int, guilds: int
) -> None:
    args = parse(["--processes", given])
    assert (args.processes, args.shards, args.guilds) == (counts, shards, guilds)
    assert args.guilds % args.shards == 0  # as many guilds on every shard


def test_every_count_shares_the_shards_evenly_when_it_can() -> None:
    """Whenever the counts' least common multiple is within bounds, it is the shard count, so
    every process of every setup runs as many shards; otherwise the largest count still does."""
    for size in (1, 2, 3):
        for counts in combinations(range(1, MAX_PROCESSES + 1), size):
            shards = shard_count(list(counts))
            assert shards <= MAX_SHARDS
            assert shards % max(counts) == 0
            if lcm(*counts) <= MAX_SHARDS:
                assert shards == lcm(*counts)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--processes", "0"], "0 processes can't answer anything"),
        (["--processes", "1,-2"], "-2 processes can't answer anything"),
        (["--processes", "1,two"], "'two' is not a number of processes"),
        (["--processes", "1,,2"], "an empty place is not a number of processes"),
        (["--processes", "2.5"], "'2.5' is not a number of processes"),
        (["--processes", "1,17"], f"more than this benchmark runs (at most {MAX_PROCESSES})"),
        (["--processes", "9" * 5000], "999999999999… processes is more than"),
        (["--processes", "1,2,4,8", "--guilds", "4"], "give at least 8"),
        (["--rounds", "0"], "0 is too few"),
    ],
)
def test_bad_options_are_refused_with_a_sentence(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        parse(argv)
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert says in error
    assert "Traceback" not in error


SCALE_OUT = re.compile(
    r"^scale-out (\d+) process(?:es)?: +(\d+) rolls/s, +(\d+\.\d\d)× 1 process;"
    r" per process +(\d+) rolls/s, (\d+\.\d\d)× 1 process alone$",
    re.M,
)


def made_up(processes: int, rates: list[float]) -> Setup:
    """A PostgreSQL setup (SQLite if `processes` is 0) whose bursts applied `rates` rolls/s."""
    setup = Setup(f"made up, {processes}", max(1, processes), postgres=processes > 0)
    setup.latencies = [0.002, 0.003]
    for rate in rates:
        usage = Usage(wall=1.0, fake=0.1, bots=(0.5,) * setup.processes, postgres=0.1, machine=1.5)
        setup.bursts.append(
            Burst(
                count=int(rate),
                wall=1.0,
                results=[0.5, 1.0],
                refused=0,
                busy=usage,
                settled=usage,
                stored=int(rate),
                token_requests=10,
            )
        )
    return setup


def test_the_report_gives_each_count_its_rolls_per_process(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """On figures made up for 1, 2, 4 and 8 processes (this machine can't run 8 usefully): the
    ratio to one process is taken round by round, and shared by the processes."""
    args = parse(["--processes", "1,2,4,8", "--rounds", "2"])
    store = StoreRun("x", latencies=[0.001, 0.002], rates=[900.0, 1000.0], single=[100.0, 100.0])
    store.batches = [4, 6]
    setups = [made_up(0, [500, 500])] + [
        made_up(n, [400 * n * 0.9, 400 * n * 1.0]) if n > 1 else made_up(1, [400, 400])
        for n in args.processes
    ]
    print_report(args, (store, store), setups, shards=args.shards, cores=16, postgres="15")
    out = capsys.readouterr().out
    assert "2. PostgreSQL: 1, 2, 4 and 8 bot processes on 8 shards" in out
    lines = {
        int(n): (int(r), float(x), int(e), float(a)) for n, r, x, e, a in SCALE_OUT.findall(out)
    }
    # rolls/s: the median burst (the faster of two); × 1: the median of 0.9n and 1.0n
    assert lines == {
        1: (400, 1.00, 400, 1.00),
        2: (800, 1.90, 400, 0.95),
        4: (1600, 3.80, 400, 0.95),
        8: (3200, 7.60, 400, 0.95),
    }
    assert "2, 4 and 8 processes on PostgreSQL applied 1.90×, 3.80× and 7.60× the rolls/s" in out
    assert "From 1 to 8 processes" in out


def test_the_report_reads_with_one_process_only(capsys: pytest.CaptureFixture[str]) -> None:
    args = parse(["--processes", "1", "--rounds", "1"])
    store = StoreRun("x", latencies=[0.001], rates=[900.0], single=[100.0], batches=[3])
    print_report(
        args,
        (store, store),
        [made_up(0, [500]), made_up(1, [400])],
        shards=1,
        cores=2,
        postgres="15",
    )
    out = capsys.readouterr().out
    assert "2. PostgreSQL: 1 bot process on 1 shard (bursts of 600)" in out
    assert SCALE_OUT.findall(out) == [("1", "400", "1.00", "400", "1.00")]
    assert "Processes:" not in out
    assert "From 1 to" not in out


def test_a_small_run_reports_each_process_count() -> None:
    """`--processes 1,2` end to end at a small size: a line per PostgreSQL setup with its
    rolls/s, the rolls/s per process and the ratio to one process."""
    postgres.require_server()
    small = ["--rounds", "1", "--burst", "24", "--latency", "4", "--guilds", "2"]
    small += ["--channels", "2", "--actions", "20", "--games", "4", "--per-game", "3"]
    bench = [sys.executable, "bench/scale.py", "--postgres", postgres.SERVER]
    result = subprocess.run(
        [*bench, "--processes", "1,2", *small],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    out = result.stdout
    assert result.returncode == 0, f"{out[-2000:]}\n{result.stderr[-3000:]}"
    assert "Traceback" not in result.stderr
    assert "2. PostgreSQL: 1 and 2 bot processes on 2 shards (bursts of 24)" in out, out
    lines = {
        int(n): (int(rate), float(ratio), int(each), float(alone))
        for n, rate, ratio, each, alone in SCALE_OUT.findall(out)
    }
    assert set(lines) == {1, 2}, out
    assert lines[1][1:] == (1.0, lines[1][0], 1.0)  # one process is 1.00× itself
    rate, ratio, each, alone = lines[2]
    assert abs(each - rate / 2) <= 1  # per process: the setup's rolls/s shared by its 2
    assert alone == pytest.approx(ratio / 2, abs=0.01)
    for n in (1, 2):  # the table's "each" column: rolls/s per process too
        row = re.search(rf"PostgreSQL, {n} process(?:es)? +(\d+)/s +(\d+)/s +\d+\.\d\d×", out)
        assert row is not None, out
        assert abs(int(row[2]) - int(row[1]) / n) <= 1


def test_it_warns_when_the_processes_may_want_more_connections_than_are_free() -> None:
    postgres.require_server()
    note = asyncio.run(connections_note(postgres.SERVER, 1000))
    assert note is not None
    assert "1000 bot processes, which may open up to" in note
    assert "raise max_connections" in note
    assert asyncio.run(connections_note(postgres.SERVER, 1)) is None
