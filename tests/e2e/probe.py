"""A latency probe for flood tests: someone in another channel keeps typing `/roll 1d6`.

A command is due every 50 ms, as if typed; its latency runs from when it was due, so a stalled
event loop counts even while the probe itself waits. The issue's bar: another channel's command
is answered within :data:`PROBE_LIMIT` whatever a flood does.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from types import TracebackType

from tests.e2e.table import text_of
from tests.fakediscord.server import FakeDiscord

PROBE_LIMIT = 1.0  # seconds: another channel's command must be answered within this
EVERY = 0.05  # seconds between the probe's commands


class Probe:
    """``async with Probe(fake, channel) as probe:`` times `/roll` in `channel` meanwhile (a
    channel of its own, added before the fake Discord starts)."""

    def __init__(self, fake: FakeDiscord, channel: str) -> None:
        self.fake = fake
        self.channel = channel
        self.latencies: list[float] = []
        self._running = False
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Probe:
        self._running = True
        self._task = asyncio.create_task(self._probe())
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._running = False
        assert self._task is not None
        await self._task

    async def _probe(self) -> None:
        while self._running:
            due = time.perf_counter() + EVERY
            await asyncio.sleep(EVERY)
            _, body = await self.fake.slash("roll dice", {"expr": "1d6"}, channel=self.channel)
            self.latencies.append(time.perf_counter() - due)
            assert "1d6" in text_of(body)

    def summary(self) -> str:
        """``probe /roll in another channel: N answers, median M ms, max X ms``."""
        median, most = statistics.median(self.latencies), max(self.latencies)
        return (
            f"probe /roll in another channel: {len(self.latencies)} answers,"
            f" median {median * 1000:.0f} ms, max {most * 1000:.0f} ms"
        )

    def quantile(self, q: float) -> float:
        """The latency below which a fraction `q` of the probe's answers came (nearest rank)."""
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]

    def check(self, *, answers: int = 5) -> None:
        """Every probe answered within the limit, and enough of them to mean something."""
        assert max(self.latencies) < PROBE_LIMIT, self.summary()
        assert len(self.latencies) >= answers, self.summary()
