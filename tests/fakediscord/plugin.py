"""Fixtures and helpers for tests that run a discord.py bot against the fake Discord.

Tests under ``tests/fakediscord`` get the fixtures through its ``conftest.py``; other test packages
(``tests/e2e`` later) import them the same way. Without pytest-asyncio, a test is a plain function
decorated with :func:`aio`, which runs it under ``asyncio.run`` with a hard time limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, ParamSpec

import discord
import pytest

from tests.fakediscord.hooks import point_discord_at
from tests.fakediscord.server import FakeDiscord, bind_loopback, close_quietly

P = ParamSpec("P")

TEST_TIMEOUT = 20.0
READY_TIMEOUT = 5.0
# on_ready fires guild_ready_timeout after the last GUILD_CREATE (default 2 s). 0 loses
# on_guild_available; 0.02 is quick and safe.
GUILD_READY_TIMEOUT = 0.02


def aio(test: Callable[P, Awaitable[None]]) -> Callable[P, None]:
    """Run an ``async def`` test under ``asyncio.run``, failing it after ``TEST_TIMEOUT``."""

    @functools.wraps(test)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        async def bounded() -> None:
            async with asyncio.timeout(TEST_TIMEOUT):
                await test(*args, **kwargs)

        asyncio.run(bounded())

    return run


@pytest.fixture
def fake_discord(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[FakeDiscord]:
    """A fake Discord on a fresh loopback port, with discord.py pointed at it.

    The test starts it in its own loop (``async with fake_discord:``). At teardown the test fails
    if the client hit a route the fake does not know, or sent a request that breaks Discord's
    contract (its OpenAPI description and documented limits, ``contract.py``). Keyword arguments
    for :class:`FakeDiscord` come from an indirect parametrization, e.g.
    ``@pytest.mark.parametrize("fake_discord", [{"zlib": True}], indirect=True)``.
    """
    options: dict[str, Any] = getattr(request, "param", None) or {}
    sock = bind_loopback()
    fake = FakeDiscord(sock, **options)
    point_discord_at(monkeypatch, fake.api_base, fake.gateway_url)
    try:
        yield fake
    finally:
        close_quietly(sock)
    assert_no_unknown_routes(fake)
    assert_contract_kept(fake)


def assert_no_unknown_routes(fake: FakeDiscord) -> None:
    unknown = [f"{c.method} {c.path}" for c in fake.unknown]
    assert not unknown, f"the client hit routes the fake Discord does not know: {unknown}"


def assert_contract_kept(fake: FakeDiscord) -> None:
    """Fail if the client sent a request Discord's contract refuses (the fake answered 50035).

    A bot may log a refused message and carry on, so the answer alone would not fail a test.
    """
    breaches = [str(b) for b in fake.breaches]
    assert not breaches, "requests Discord would refuse:\n" + "\n".join(breaches)


@contextlib.asynccontextmanager
async def running(bot: discord.Client, fake: FakeDiscord) -> AsyncIterator[discord.Client]:
    """Log ``bot`` into ``fake`` and wait for ``on_ready``; close it afterwards."""
    await bot.login("fake-token")
    task = asyncio.create_task(bot.connect(reconnect=False))
    try:
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait(
            {ready, task}, timeout=READY_TIMEOUT, return_when="FIRST_COMPLETED"
        )
        if ready not in done:
            ready.cancel()
            if task in done:
                task.result()  # re-raise why the connection ended
            raise TimeoutError(f"the bot was not ready within {READY_TIMEOUT} s")
        yield bot
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, READY_TIMEOUT)
