"""Who used the CPU during a stretch of a benchmark: our processes, PostgreSQL, everyone else.

On a 2-core machine shared by the bot processes, the fake Discord and PostgreSQL, a throughput
figure alone can't say what held it back. Snapshots of the kernel's own counters (Linux's
``/proc``: no psutil, which is no dependency of ours) taken before and after tell it: each bot
process's CPU seconds, those of the PostgreSQL backends serving the benchmark's database (the
server may be busy with other databases too: that is not ours to count), and the whole
machine's busy time, of which the rest is other work on the machine and the kernel's.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")
TICK = 1 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.01
CORES = os.cpu_count() or 1


def process_seconds(pid: int) -> tuple[float, float]:
    """CPU seconds of `pid`: its own (user + system), and its reaped children's."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:  # gone, or not Linux
        return 0.0, 0.0
    # The command name (field 2) is in parentheses and may hold spaces: split after it.
    fields = text.rsplit(")", 1)[1].split()
    utime, stime, cutime, cstime = (int(f) for f in fields[11:15])
    return (utime + stime) * TICK, (cutime + cstime) * TICK


def machine_busy_seconds() -> float:
    """CPU seconds every core spent not idle since boot (``/proc/stat``'s first line)."""
    try:
        first = (PROC / "stat").read_text().split("\n", 1)[0].split()
    except OSError:
        return 0.0
    # user nice system idle iowait irq softirq steal [guest guest_nice, already in user]
    ticks = [int(f) for f in first[1:9]]
    return (sum(ticks) - ticks[3] - ticks[4]) * TICK


@dataclass(frozen=True)
class Snapshot:
    """The counters at one moment; subtract two for the stretch between them."""

    wall: float
    own: float  # this process (the fake Discord and the bench driving it)
    bots: tuple[float, ...]
    backends: dict[int, float]  # PostgreSQL backend pid -> its CPU seconds
    machine: float

    @classmethod
    def take(cls, bot_pids: list[int], backend_pids: list[int]) -> Snapshot:
        return cls(
            wall=time.perf_counter(),
            own=time.process_time(),
            bots=tuple(sum(process_seconds(pid)) for pid in bot_pids),
            backends={pid: process_seconds(pid)[0] for pid in backend_pids},
            machine=machine_busy_seconds(),
        )


@dataclass(frozen=True)
class Usage:
    """CPU seconds used between two snapshots, by whom, over `wall` seconds."""

    wall: float
    fake: float
    bots: tuple[float, ...]
    postgres: float
    machine: float

    @classmethod
    def between(cls, before: Snapshot, after: Snapshot) -> Usage:
        return cls(
            wall=after.wall - before.wall,
            fake=after.own - before.own,
            bots=tuple(b - a for a, b in zip(before.bots, after.bots, strict=True)),
            # A backend that connected in between counts from 0; one that ended is lost.
            postgres=sum(t - before.backends.get(pid, 0.0) for pid, t in after.backends.items()),
            machine=after.machine - before.machine,
        )

    @property
    def bot(self) -> float:
        return sum(self.bots)

    @property
    def other(self) -> float:
        """Busy time nobody of ours accounts for: other work on the machine (never below 0)."""
        return max(0.0, self.machine - self.fake - self.bot - self.postgres)

    def cores(self, seconds: float) -> float:
        """`seconds` of CPU as cores kept busy on average over the stretch."""
        return seconds / self.wall if self.wall > 0 else 0.0
