"""Who used the CPU during a stretch of a benchmark: our processes, PostgreSQL, everyone else.

On a 2-core machine shared by the bot processes, the fake Discord and PostgreSQL, a throughput
figure alone can't say what held it back. Snapshots of the kernel's own counters (Linux's
``/proc``: no psutil, which is no dependency of ours) taken before and after tell it: each
process's CPU seconds, PostgreSQL's (every ``postgres`` process, plus what the postmaster has
reaped from backends that ended), and the whole machine's busy time, of which the rest is other
work on the machine.
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


def postgres_seconds() -> float:
    """CPU seconds of every PostgreSQL process alive, and of those already reaped.

    A backend that ended is counted in its parent's (the postmaster's) children's time, so a
    connection closed during the stretch isn't lost. It counts the whole server, other users'
    work on it included: on a machine we share, that is part of what the figure shows.
    """
    total = 0.0
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            comm = (entry / "comm").read_text().strip()
        except OSError:
            continue
        if comm == "postgres" or comm.startswith("postgres:"):
            own, children = process_seconds(int(entry.name))
            total += own + children
    return total


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
    postgres: float
    machine: float

    @classmethod
    def take(cls, bot_pids: list[int]) -> Snapshot:
        return cls(
            wall=time.perf_counter(),
            own=time.process_time(),
            bots=tuple(sum(process_seconds(pid)) for pid in bot_pids),
            postgres=postgres_seconds(),
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
            postgres=after.postgres - before.postgres,
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
