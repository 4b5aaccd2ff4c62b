"""Autocomplete works on each member's latest keystroke only.

Discord asks for suggestions on every keystroke, and a member (or a script) can type faster
than the bot answers: a hundred requests from one member once queued a hundred searches, and
every server waited behind them. Here each member's requests for one option of one command take
turns: while one is being worked on, the next waits, and a newer one replaces it, the one it
replaced given up at once (Discord shows only the answer to the newest request anyway; the
callbacks leave it unanswered, :func:`bot.client.choices.latest_only`). So a member has at most
one request worked on and one waiting, however fast they type, and what is remembered is one
small record per member typing right now.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")
U = TypeVar("U")

TYPING_LIMIT = 10_000  # members typing at once; past this, a request is given up


@dataclass
class _Turns:
    """One member's requests for one option: the newest one's number, and whether one is
    being worked on."""

    newest: int = 0
    working: bool = False
    holders: int = 0  # requests not yet answered
    _moved: asyncio.Future[None] | None = None

    def moved(self) -> asyncio.Future[None]:
        """Done when a request arrives or one is finished."""
        if self._moved is None:
            self._moved = asyncio.get_running_loop().create_future()
        return self._moved

    def move(self) -> None:
        if self._moved is not None and not self._moved.done():
            self._moved.set_result(None)
        self._moved = None


class Keystrokes:
    """Each key (member, command, option) has its newest request worked on, one at a time."""

    def __init__(self, limit: int = TYPING_LIMIT) -> None:
        self.limit = limit
        self._turns: dict[Hashable, _Turns] = {}
        self.superseded = 0  # requests given up because a newer one came (for tests, bench)

    def typing(self) -> int:
        """How many keys have a request in hand."""
        return len(self._turns)

    async def latest(self, key: Hashable, work: Callable[[], Awaitable[T]], given_up: U) -> T | U:
        """`work`'s answer when this is still the key's newest request once the previous one
        is done; `given_up` when a newer request came first (or too many members type)."""
        turns = self._turns.get(key)
        if turns is None:
            if len(self._turns) >= self.limit:
                return given_up
            turns = self._turns[key] = _Turns()
        turns.newest += 1
        mine = turns.newest
        turns.holders += 1
        turns.move()  # a request waiting its turn gives way to this one now
        try:
            # Requests that arrived together are all counted before any is worked on.
            await asyncio.sleep(0)
            while turns.newest == mine and turns.working:
                await turns.moved()
            if turns.newest != mine:
                self.superseded += 1
                return given_up
            turns.working = True
            try:
                return await work()
            finally:
                turns.working = False
                turns.move()
        finally:
            turns.holders -= 1
            if turns.holders == 0:
                del self._turns[key]
