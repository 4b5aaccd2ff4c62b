"""A fake Discord (REST under ``/api/v10`` and a JSON gateway) on 127.0.0.1 for discord.py tests.

The unmodified discord.py client logs into it once its two hook points point here (see
``hooks.py``). Tests act as users with :meth:`FakeDiscord.slash`, :meth:`FakeDiscord.click`,
:meth:`FakeDiscord.select` and :meth:`FakeDiscord.autocomplete`, and read what the bot did from
:attr:`FakeDiscord.calls` and :attr:`FakeDiscord.messages`.

This module is the facade: the state lives in ``world.py``, the routes in ``rest.py``, the
websocket in ``gateway.py`` and the call log in ``recorder.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Callable, Iterable
from typing import Any

from aiohttp import web

from tests.fakediscord import payloads as p
from tests.fakediscord.components import STRING_SELECT, check_button, check_select
from tests.fakediscord.contract import discord_contract
from tests.fakediscord.gateway import IDENTIFY_INTERVAL, Gateway, Limits
from tests.fakediscord.recorder import (
    API,
    CALL,
    DEADLINE,
    Breach,
    Call,
    Recorder,
    UploadedFile,
    error,
    json_response,
)
from tests.fakediscord.rest import Rest
from tests.fakediscord.schema import JSON, SchemaError, build_command_data
from tests.fakediscord.world import EPHEMERAL, LOADING, World

# What a select menu's values resolve as, by select type (user, role, mentionable, channel).
SELECT_OPTION_TYPE = {5: 6, 6: 8, 7: 9, 8: 7}
MAX_UPLOAD = 64 * 1024 * 1024  # above Discord's limit, so the fake can answer 413 itself


class FakeDiscord(World):
    """One fake Discord with one bot, its guilds, their roles, channels and human members.

    ``zlib=True`` compresses gateway frames as a ``zlib-stream``; ``privileged_allowed=False``
    closes the gateway with 4014 when IDENTIFY asks for a privileged intent. ``shards`` is the
    count ``GET /gateway/bot`` recommends; ``max_concurrency`` and ``session_starts`` (its
    ``total``) are the session start limits the gateway enforces; ``identify_interval=0`` lets
    IDENTIFYs of one bucket come closer than Discord's 5 s.
    """

    def __init__(
        self,
        sock: socket.socket | None = None,
        *,
        zlib: bool = False,
        privileged_allowed: bool = True,
        shards: int = 1,
        max_concurrency: int = 1,
        session_starts: int = 1000,
        identify_interval: float = IDENTIFY_INTERVAL,
    ) -> None:
        discord_contract()  # loaded here, once per process, rather than on the loop at a request
        self._sock = sock or bind_loopback()
        self.port: int = self._sock.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.api_base = self.base + API
        self.gateway_url = f"ws://127.0.0.1:{self.port}/gateway"
        super().__init__(self.base)
        self.recorder = Recorder()
        limits = Limits(shards, max_concurrency, session_starts, identify_interval)
        self.gateway = Gateway(
            self,
            self.gateway_url,
            zlib=zlib,
            privileged_allowed=privileged_allowed,
            limits=limits,
            notify=self.recorder.notify,
        )
        self.announce = self.gateway.dispatch_soon
        self._offered: set[str] = set()  # attachment ids a user may pass to a slash command
        self._runner: web.AppRunner | None = None

    # -- lifecycle -------------------------------------------------------------------------------

    async def start(self) -> None:
        self.recorder.start()
        self.gateway.start()
        app = web.Application(middlewares=[self.recorder.middleware], client_max_size=MAX_UPLOAD)
        Rest(self, self.recorder, self.gateway).add_routes(app)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        await web.SockSite(self._runner, self._sock).start()

    async def close(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- the call log -----------------------------------------------------------------------------

    @property
    def calls(self) -> list[Call]:
        return self.recorder.calls

    @property
    def unknown(self) -> list[Call]:
        return self.recorder.unknown

    def fail_next(
        self,
        pattern: str,
        status: int = 429,
        *,
        times: int = 1,
        retry_after: float = 0.05,
        via: bool = True,
        code: int = 0,
    ) -> None:
        """Answer the next ``times`` requests matching ``pattern`` (see :meth:`Call.matches`).

        ``via=False`` leaves out the ``Via`` header of a 429, as a REST proxy's own 429 does;
        ``code`` is Discord's error code in the body of any other status.
        """
        self.recorder.fail_next(pattern, status, times, retry_after, via, code)

    def exhaust_next(self, pattern: str, *, times: int = 1, reset_after: float = 1.0) -> None:
        """The next ``times`` successful answers to ``pattern`` say the route's rate-limit bucket
        is spent for ``reset_after`` seconds (``X-RateLimit-Remaining: 0``)."""
        self.recorder.exhaust_next(pattern, times, reset_after)

    def take_unknown(self) -> list[Call]:
        """Return and forget the unknown routes hit (for tests that hit one on purpose)."""
        return self.recorder.take_unknown()

    @property
    def breaches(self) -> list[Breach]:
        """Requests that broke Discord's contract (``contract.py``), answered as Discord would."""
        return self.recorder.breaches

    def take_breaches(self) -> list[Breach]:
        """Return and forget the breaches (for tests that send an invalid request on purpose)."""
        return self.recorder.take_breaches()

    def calls_to(self, pattern: str) -> list[Call]:
        return self.recorder.calls_to(pattern)

    async def wait_for_call(
        self, pattern: str, *, status: int | None = None, timeout: float = DEADLINE
    ) -> Call:
        """The first answered call matching ``pattern`` (and ``status``), waiting if needed."""
        return await self.recorder.wait_for_call(pattern, status, timeout)

    # -- the gateway ------------------------------------------------------------------------------

    @property
    def identifies(self) -> list[JSON]:
        return self.gateway.identifies

    @property
    def resumes(self) -> list[JSON]:
        return self.gateway.resumes

    @property
    def session_id(self) -> str:
        return self.gateway.session_id

    @property
    def refused(self) -> list[JSON]:
        """IDENTIFYs answered with op 9 because their bucket identified less than 5 s before."""
        return self.gateway.refused

    async def wait_connected(self, timeout: float = DEADLINE) -> None:
        await self.gateway.wait_connected(timeout)

    async def wait_for_shards(
        self, num_shards: int, shard_ids: Iterable[int] | None = None, timeout: float = DEADLINE
    ) -> None:
        """Wait until live sessions hold every one of ``shard_ids`` (default all) of
        ``num_shards``."""
        wanted = {(s, num_shards) for s in (shard_ids or range(num_shards))}
        await self.recorder.wait_until(
            lambda: True if wanted <= self.gateway.shards_open() else None, timeout
        )

    def shard_of(self, guild_id: str, num_shards: int) -> int:
        return p.shard_of(guild_id, num_shards)

    async def dispatch(self, event: str, data: JSON) -> int:
        """Send an event to the sessions holding its guild; returns how many got it."""
        return await self.gateway.dispatch(event, data)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the client reconnects and RESUMEs."""
        await self.gateway.request_reconnect()

    # -- messages and attachments -----------------------------------------------------------------

    def attachment(
        self, filename: str, data: bytes, *, content_type: str = "application/x-yaml"
    ) -> str:
        """Upload a file as a user would for an attachment option; returns its id."""
        attachment_id = str(self.upload(self.channel_id, filename, data, content_type)["id"])
        self._offered.add(attachment_id)
        return attachment_id

    def original(self, payload: JSON) -> JSON:
        """The message an interaction's first answer made or updated (its ``@original``)."""
        return self.messages[self.originals[payload["token"]]]

    def channel_messages(self, channel_id: str | None = None) -> list[JSON]:
        """The messages everyone sees in a channel (default ``channel_id``), oldest first."""
        cid = channel_id or self.channel_id
        return [
            m
            for m in self.messages.values()
            if m["channel_id"] == cid and not m["flags"] & EPHEMERAL
        ]

    def ephemeral_messages(self, user: JSON | None = None) -> list[JSON]:
        """Ephemeral messages (flag 64), oldest first; only those shown to ``user`` if given."""

        def shown_to(m: JSON) -> object:
            return m.get("interaction_metadata", {}).get("user", {}).get("id")

        return [
            m
            for m in self.messages.values()
            if m["flags"] & EPHEMERAL and (user is None or shown_to(m) == user["id"])
        ]

    def attachment_data(self, attachment: JSON) -> bytes:
        """The bytes the fake serves for an attachment object of a stored message."""
        return self.uploads[attachment["id"]].data

    async def wait_for_message(
        self, predicate: Callable[[JSON], bool], timeout: float = DEADLINE
    ) -> JSON:
        """The first stored message (sent or edited) for which ``predicate`` holds."""
        return await self.recorder.wait_until(
            lambda: next((m for m in list(self.messages.values()) if predicate(m)), None),
            timeout,
        )

    # -- interactions -----------------------------------------------------------------------------

    async def slash(
        self,
        path: str,
        options: dict[str, Any] | None = None,
        *,
        user: JSON | None = None,
        channel: str | None = None,
        timeout: float = DEADLINE,
    ) -> tuple[JSON, JSON]:
        """Run ``/path`` with ``options``; return the interaction payload and the first callback."""
        data = self._command_data(path, options or {}, user, channel)
        return await self.send_interaction(
            self._interaction(2, data, user, channel), timeout=timeout
        )

    async def autocomplete(
        self,
        path: str,
        options: dict[str, Any],
        focused: str,
        *,
        user: JSON | None = None,
        channel: str | None = None,
        timeout: float = DEADLINE,
    ) -> tuple[JSON, JSON]:
        """Type into option ``focused`` of ``/path``; the callback carries ``data.choices``."""
        data = self._command_data(path, options, user, channel, focused=focused)
        return await self.send_interaction(
            self._interaction(4, data, user, channel), timeout=timeout
        )

    async def click(
        self,
        custom_id: str,
        *,
        message: JSON | None = None,
        user: JSON | None = None,
        channel: str | None = None,
        timeout: float = DEADLINE,
    ) -> tuple[JSON, JSON]:
        """Press the button ``custom_id`` on ``message`` (by default a bot message holding it)."""
        if message is None:
            button = {"type": 2, "style": 1, "label": custom_id, "custom_id": custom_id}
            message = self.store_message(
                channel or self.channel_id, {"components": [{"type": 1, "components": [button]}]}
            )
        message = self._live(message, channel)
        check_button(message, custom_id)
        data = {"custom_id": custom_id, "component_type": 2}
        payload = self._interaction(3, data, user, message["channel_id"], message)
        return await self.send_interaction(payload, timeout=timeout)

    async def select(
        self,
        custom_id: str,
        values: list[str],
        *,
        message: JSON,
        user: JSON | None = None,
        channel: str | None = None,
        timeout: float = DEADLINE,
    ) -> tuple[JSON, JSON]:
        """Choose ``values`` in the select menu ``custom_id`` of ``message``."""
        message = self._live(message, channel)
        kind = check_select(message, custom_id, values)["type"]
        data: JSON = {"custom_id": custom_id, "component_type": kind, "values": list(values)}
        if kind != STRING_SELECT:
            chosen = [{"type": SELECT_OPTION_TYPE[kind], "value": v} for v in values]
            guild = self.guild_of(message["channel_id"])
            data["resolved"] = self.resolved(chosen, user or self.player, guild)
        payload = self._interaction(3, data, user, message["channel_id"], message)
        return await self.send_interaction(payload, timeout=timeout)

    async def send_interaction(
        self, payload: JSON, *, timeout: float = DEADLINE
    ) -> tuple[JSON, JSON]:
        """Dispatch INTERACTION_CREATE and wait (at most ``timeout``) for its first callback."""
        fut: asyncio.Future[JSON] = asyncio.get_running_loop().create_future()
        self.interactions[payload["id"]] = payload
        self.by_token[payload["token"]] = payload
        self.waiters[payload["id"]] = fut
        try:
            if not await self.dispatch("INTERACTION_CREATE", payload):
                shards = sorted(self.gateway.shards_open())
                raise RuntimeError(
                    f"no session holds the shard of guild {payload.get('guild_id')}"
                    f" (open: {shards})"
                )
            body = await asyncio.wait_for(fut, timeout)
        finally:
            self.waiters.pop(payload["id"], None)
        return payload, body

    def _command_data(
        self,
        path: str,
        options: dict[str, Any],
        user: JSON | None,
        channel: str | None,
        focused: str | None = None,
    ) -> JSON:
        guild = self.guild_of(channel)
        data = build_command_data(
            self.synced_commands(guild),
            path,
            options,
            focused=focused,
            attachments=self._offered,
            channels=self.channels,
        )
        resolved = self.resolved(data["options"], user or self.player, guild)
        if resolved:
            data["resolved"] = resolved
        return data

    def _live(self, message: JSON, channel: str | None) -> JSON:
        """The stored version of ``message``: Discord shows no components of deleted ones."""
        live = self.messages.get(message["id"])
        if live is None:
            raise SchemaError(f"message {message['id']} was deleted or never sent")
        if channel is not None and channel != live["channel_id"]:
            raise SchemaError(f"message {live['id']} is in channel {live['channel_id']}")
        return live

    def _interaction(
        self,
        kind: int,
        data: JSON,
        user: JSON | None,
        channel: str | None,
        message: JSON | None = None,
    ) -> JSON:
        where = self.get_channel(channel)
        return p.interaction(
            kind=kind,
            application_id=self.app_id,
            guild_id=where["guild_id"],
            channel=where,
            member_obj=self.member(user, where["guild_id"]),
            data=data,
            message_obj=message,
        )


def bind_loopback() -> socket.socket:
    """A listening-ready TCP socket on 127.0.0.1 with an ephemeral port, known before start."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


def close_quietly(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.close()


__all__ = [
    "CALL",
    "EPHEMERAL",
    "LOADING",
    "Call",
    "FakeDiscord",
    "SchemaError",
    "UploadedFile",
    "bind_loopback",
    "error",
    "json_response",
]
