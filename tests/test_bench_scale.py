"""The scale benchmark's arithmetic (bench/scale.py runs the real thing; nothing here is timed).

How shards are split over processes decides what each process of the benchmark runs, and the
CPU bookkeeping decides what the report blames: both are checked on made-up counters.
"""

from __future__ import annotations

import pytest

from bench.cluster import shard_ranges
from bench.cpu import Snapshot, Usage
from bench.scale_report import bound_by


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
