"""Waiting out the 429s a REST proxy makes up, which discord.py alone would raise.

Several bot processes share one REST proxy (``DISCORD_API_BASE``; see docs/scaling.md) so that
one place keeps Discord's rate-limit buckets for all of them. When the proxy holds a request
back, it may answer 429 itself: nirn-proxy with a JSON body and ``retry_after``, @discordjs/proxy
(rejecting when limited) with only a ``Retry-After`` header. Neither carries the ``Via`` header
Discord's own 429s have, and discord.py takes a 429 without ``Via`` for a Cloudflare ban: both of
its request loops (``HTTPClient.request``, and the webhook adapter that answers interactions)
raise at once instead of waiting. A player would see an error for what is a wait of a second.

:func:`retry_made_up_429` is an aiohttp client middleware on the one session both loops share,
so it sees every request below discord.py, whatever discord.py's loops look like in a later
release. It waits such a 429 out and sends the request again, at most ``MAX_RETRIES`` times. What
discord.py already handles, or must see, passes through untouched: a 429 with ``Via``, and
anything that looks like a real ban (a text or HTML body, which is what Cloudflare sends, no wait
given, or a wait above ``MAX_WAIT``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math

import aiohttp
import discord.http

log = logging.getLogger(__name__)

MAX_RETRIES = 3
MAX_WAIT = 10.0  # seconds; a proxy's bucket resets within a few, a ban lasts far longer


async def retry_made_up_429(
    request: aiohttp.ClientRequest, handler: aiohttp.ClientHandlerType
) -> aiohttp.ClientResponse:
    """Send `request`; while a proxy answers it with its own 429, wait and send it again."""
    response = await handler(request)
    for _ in range(MAX_RETRIES):
        wait = await made_up_wait(response)
        if wait is None:
            break
        log.warning(
            "%s %s: the REST proxy answered 429; sending it again in %.2f s",
            request.method,
            request.url.path,
            wait,
        )
        response.release()
        await asyncio.sleep(wait)
        response = await handler(request)  # aiohttp replays the body, files included
    return response


async def made_up_wait(response: aiohttp.ClientResponse) -> float | None:
    """The seconds to wait if `response` is a 429 a proxy made up, else None.

    The body is read here and kept by aiohttp, so discord.py still reads it afterwards.
    """
    if response.status != 429 or "Via" in response.headers:
        return None
    wait = _seconds(response.headers.get("Retry-After"))
    body = await response.read()
    if body:
        if response.content_type != "application/json":
            return None  # Cloudflare's ban page
        try:
            data = json.loads(body)
        except ValueError:
            return None
        if isinstance(data, dict):
            wait = _seconds(data.get("retry_after")) or wait
    if wait is None or wait > MAX_WAIT:
        return None
    return wait


def _seconds(value: object) -> float | None:
    """A non-negative number of seconds from a header or a JSON field (an HTTP date is None)."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def install(http: discord.http.HTTPClient) -> None:
    """Put :func:`retry_made_up_429` on `http`'s session (after login, which creates it).

    discord.py has no option for client middlewares. Its session is the name-mangled
    ``HTTPClient.__session``, which discord.py itself reads under that name for interactions
    and webhooks; aiohttp reads a session's middlewares from ``_middlewares`` on every request.
    The canary test in tests/fakediscord fails if either moves.
    """
    session: aiohttp.ClientSession = http._HTTPClient__session  # type: ignore[attr-defined]
    middlewares = tuple(session._middlewares)
    if retry_made_up_429 not in middlewares:
        session._middlewares = (*middlewares, retry_made_up_429)
