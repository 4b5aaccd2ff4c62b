"""Which 429s the bot waits out itself: those a REST proxy makes up, never what may be a ban.

A real aiohttp server answers each case; a real aiohttp session with the bot's middleware asks
it. discord.py raises on every 429 without ``Via``, so what gets through the middleware is what
the bot would report.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import aiohttp
import discord.http
import discord.interactions
import pytest
from aiohttp import web

from bot.client.ratelimits import MAX_RETRIES, MAX_WAIT, retry_made_up_429
from tests.fakediscord.plugin import aio

Answer = Callable[[], web.Response]


def json_429(body: str, **headers: str) -> Answer:
    return lambda: web.Response(
        status=429, body=body.encode(), content_type="application/json", headers=headers
    )


def bare_429(**headers: str) -> Answer:
    return lambda: web.Response(status=429, headers=headers)


# nirn-proxy's own 429 (lib/queue_manager.go Generate429) and @discordjs/proxy's (a Retry-After
# header and nothing else).
NIRN = json_429('{"global": false, "message": "You are being rate limited.", "retry_after": 0.05}')
DISCORDJS = bare_429(**{"Retry-After": "0.05"})


@asynccontextmanager
async def serving(answers: list[Answer]) -> AsyncIterator[tuple[str, list[bytes]]]:
    """A server answering its requests with `answers` in turn, then 200; the URL to ask and the
    bodies it received."""
    bodies: list[bytes] = []

    async def handle(request: web.Request) -> web.Response:
        bodies.append(await request.read())
        if len(bodies) <= len(answers):
            return answers[len(bodies) - 1]()
        return web.json_response({"ok": True})

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handle)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}/api/v10/channels/1/messages", bodies
    finally:
        await runner.cleanup()


async def status_after(answers: list[Answer], **request: object) -> tuple[int, list[bytes]]:
    async with (
        serving(answers) as (url, bodies),
        aiohttp.ClientSession(middlewares=(retry_made_up_429,)) as session,
        session.post(url, **request) as response,  # type: ignore[arg-type]
    ):
        await response.read()
        return response.status, bodies


@pytest.mark.parametrize("made_up", [NIRN, DISCORDJS], ids=["nirn-proxy", "discordjs-proxy"])
@aio
async def test_a_proxy_429_is_waited_out_and_sent_again(made_up: Answer) -> None:
    status, bodies = await status_after([made_up], json={"content": "hi"})
    assert status == 200
    assert bodies == [b'{"content": "hi"}'] * 2


@aio
async def test_a_file_upload_is_sent_whole_again() -> None:
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", '{"content": "log"}', content_type="application/json")
    form.add_field("files[0]", b"x" * 100_000, filename="log.jsonl")
    status, bodies = await status_after([DISCORDJS], data=form)
    assert status == 200
    assert len(bodies) == 2
    assert bodies[0] == bodies[1]
    assert bodies[1].count(b"x" * 100_000) == 1


@pytest.mark.parametrize(
    "answer",
    [
        json_429('{"retry_after": 0.05, "global": false}', Via="1.1 google"),
        lambda: web.Response(status=429, text="<html>banned</html>", content_type="text/html"),
        lambda: web.Response(status=429, text="error code: 1015", headers={"Retry-After": "1"}),
        bare_429(),
        bare_429(**{"Retry-After": "Wed, 21 Oct 2026 07:28:00 GMT"}),
        bare_429(**{"Retry-After": str(MAX_WAIT + 1)}),
        json_429("not json", **{"Retry-After": "0.05"}),
    ],
    ids=[
        "discord's own, for discord.py",
        "cloudflare's page",
        "cloudflare's text",
        "no wait given",
        "a date",
        "too long a wait",
        "a broken body",
    ],
)
@aio
async def test_what_may_be_a_ban_or_is_discords_own_429_passes_through(answer: Answer) -> None:
    status, bodies = await status_after([answer], json={})
    assert status == 429
    assert len(bodies) == 1


@aio
async def test_a_proxy_that_keeps_refusing_is_asked_a_bounded_number_of_times() -> None:
    status, bodies = await status_after([DISCORDJS] * (MAX_RETRIES + 5), json={})
    assert status == 429
    assert len(bodies) == MAX_RETRIES + 1


@aio
async def test_the_body_is_still_there_for_discord_py_to_read() -> None:
    async with (
        serving([bare_429(), NIRN]) as (url, _),
        aiohttp.ClientSession(middlewares=(retry_made_up_429,)) as session,
        session.get(url) as response,
    ):
        assert response.status == 429
        assert await response.text() == ""
    async with (
        serving([json_429('{"retry_after": 30}')]) as (url, _),
        aiohttp.ClientSession(middlewares=(retry_made_up_429,)) as session,
        session.get(url) as response,
    ):
        assert (await response.json())["retry_after"] == 30


def test_the_hook_points_install_relies_on_have_not_moved() -> None:
    """install() reaches into discord.py's session and aiohttp's middlewares; fail loudly if
    either moves (the e2e tests in tests/e2e/test_rest_proxy.py would only see a 429 raised)."""
    assert "self.__session" in inspect.getsource(discord.http.HTTPClient.static_login)
    assert "_HTTPClient__session" in inspect.getsource(discord.interactions)
    assert "_middlewares" in aiohttp.ClientSession.ATTRS
    assert "self._middlewares" in inspect.getsource(aiohttp.ClientSession._request)
