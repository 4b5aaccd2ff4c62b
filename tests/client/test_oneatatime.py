"""One member's commands take turns; another member's don't wait behind them."""

from __future__ import annotations

import asyncio

import pytest

from bot.client.oneatatime import OneAtATime


class Counter:
    def __init__(self) -> None:
        self.now = 0
        self.most = 0
        self.order: list[str] = []

    async def work(self, name: str, seconds: float = 0.001) -> None:
        self.now += 1
        self.most = max(self.most, self.now)
        self.order.append(name)
        try:
            await asyncio.sleep(seconds)
        finally:
            self.now -= 1


def test_a_members_flood_runs_one_at_a_time_while_another_member_goes_first() -> None:
    async def run() -> tuple[Counter, list[str]]:
        turns, flood, other = OneAtATime(), Counter(), Counter()
        works = [turns.run(1, flood.work(f"flood{n}")) for n in range(100)]
        works.append(turns.run(2, other.work("other")))
        running = asyncio.gather(*works)
        await asyncio.sleep(0.01)
        done_before = list(flood.order)
        await running
        assert turns.keys == 0  # nothing kept once the work is over
        return flood, [*done_before, "|", *other.order]

    flood, seen = asyncio.run(run())
    assert flood.most == 1
    assert flood.order == [f"flood{n}" for n in range(100)]  # in the order they came
    assert seen.index("|") < 10  # the other member ran while the flood had barely begun


@pytest.mark.parametrize("answered", [True, False])
def test_a_slow_command_lets_the_next_start_once_answered_or_after_the_hold(
    answered: bool,
) -> None:
    """Answered at once: the next one starts at once; never answered: after the hold."""

    async def run() -> float:
        turns, counter = OneAtATime(hold=0.2), Counter()
        loop = asyncio.get_running_loop()
        started = loop.time()
        slow = asyncio.ensure_future(
            turns.run(1, counter.work("slow", 1.0), answered=lambda: answered)
        )
        await asyncio.sleep(0)
        await turns.run(1, counter.work("next"))
        waited = loop.time() - started
        assert counter.most == 2  # the slow one still ran when the next began
        await slow
        return waited

    waited = asyncio.run(run())
    if answered:
        assert waited < 0.15
    else:
        assert 0.2 <= waited < 0.9


def test_a_command_cancelled_while_waiting_never_runs_and_leaves_nothing() -> None:
    async def run() -> None:
        turns, counter = OneAtATime(), Counter()
        first = asyncio.ensure_future(turns.run(1, counter.work("first", 0.05)))
        queued = asyncio.ensure_future(turns.run(1, counter.work("queued")))
        await asyncio.sleep(0.01)
        queued.cancel()
        await first
        with pytest.raises(asyncio.CancelledError):
            await queued
        assert counter.order == ["first"]
        assert turns.keys == 0

    asyncio.run(run())
