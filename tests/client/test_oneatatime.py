"""One member's commands take turns; another member's don't wait behind them."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

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


def test_a_told_answer_starts_the_next_command_without_waiting_for_a_look() -> None:
    """The answer's signal ends the turn at once (`answered` stays false here, so only the
    signal can end it before the slow work's second is over)."""

    async def run() -> tuple[float, int]:
        turns, counter = OneAtATime(hold=5.0), Counter()
        loop = asyncio.get_running_loop()
        told: asyncio.Future[None] = loop.create_future()
        slow = asyncio.ensure_future(turns.run(1, counter.work("slow", 1.0), told=told))
        await asyncio.sleep(0.01)
        loop.call_later(0.002, told.set_result, None)
        started = loop.time()
        await turns.run(1, counter.work("next"))
        waited = loop.time() - started
        most = counter.most
        await slow
        return waited, most

    waited, most = asyncio.run(run())
    assert most == 2  # the slow one was still running
    assert waited < 0.025  # told: no look at the clock in between


def test_every_first_answer_in_the_bot_says_it_was_sent() -> None:
    """Each function that answers an interaction itself (``interaction.response.X(...)``, or
    quietly with ``send_first``) calls ``answered(interaction)``: otherwise the member's next
    command waits until the work is over, or for the whole hold (bot.client.oneatatime)."""
    answering = {"send_message", "defer", "edit_message", "send_modal"}
    missing, found = [], 0
    for path in [*Path("bot").rglob("*.py"), *Path("cogs").rglob("*.py")]:
        tree = ast.parse(path.read_text(), str(path))
        for function in ast.walk(tree):
            if not isinstance(function, ast.AsyncFunctionDef | ast.FunctionDef):
                continue
            calls = [n for n in ast.walk(function) if isinstance(n, ast.Call)]
            answers = [
                c
                for c in calls
                if (
                    isinstance(c.func, ast.Attribute)
                    and c.func.attr in answering
                    and isinstance(c.func.value, ast.Attribute)
                    and c.func.value.attr == "response"
                )
                or (isinstance(c.func, ast.Name) and c.func.id == "send_first")
            ]
            says = any(isinstance(c.func, ast.Name) and c.func.id == "answered" for c in calls)
            found += len(answers)
            if answers and not says:
                missing.append(f"{path}:{function.lineno} {function.name}")
    assert found >= 8  # the scan sees the answers it is about
    assert not missing, missing
