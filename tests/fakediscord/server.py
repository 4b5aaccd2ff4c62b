"""A fake Discord (REST under ``/api/v10`` and a JSON gateway) on 127.0.0.1 for discord.py tests.

The unmodified discord.py client logs into it once its two hook points point here (see
``hooks.py``). Tests drive it with :meth:`FakeDiscord.slash`, :meth:`FakeDiscord.click` and
:meth:`FakeDiscord.autocomplete`, and read what the bot did from :attr:`FakeDiscord.calls`.
"""

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
import json
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakediscord import payloads as p
from tests.fakediscord.schema import JSON, SchemaError, build_command_data

API = "/api/v10"
HEARTBEAT_INTERVAL_MS = 41_250
EPHEMERAL = 64
LOADING = 128
DEADLINE = 3.0  # Discord's deadline for the first answer to an interaction

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class Call:
    """One REST request the client made. ``path`` is relative to ``/api/v10``."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[tuple[str, int]] = field(default_factory=list)  # (filename, size) of uploads
    status: int = 0  # the status the fake answered with

    def matches(self, pattern: str) -> bool:
        """``pattern`` is ``"METHOD /path"`` with shell wildcards, e.g. ``"POST /webhooks/*"``."""
        return fnmatch.fnmatchcase(f"{self.method} {self.path}", pattern)


CALL: web.RequestKey[Call] = web.RequestKey("call", Call)


@dataclass
class Fault:
    pattern: str
    status: int
    times: int
    retry_after: float


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # discord.py compares Content-Type with == "application/json"; web.json_response would add
    # "; charset=utf-8" and make it read the body as text.
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        content_type="application/json",
        headers=headers,
    )


def error(status: int, code: int, message: str) -> web.Response:
    return json_response({"message": message, "code": code}, status=status)


class FakeDiscord:
    """One fake Discord with one bot user, one guild, one text channel and one human member."""

    def __init__(self, sock: socket.socket | None = None) -> None:
        self._sock = sock or bind_loopback()
        self.port: int = self._sock.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.api_base = self.base + API
        self.gateway_url = f"ws://127.0.0.1:{self.port}/gateway"

        self.app_id = p.snowflake()  # the application and the bot user share an id, as on Discord
        self.bot_user = p.user(self.app_id, "referee-bot", bot=True)
        self.owner = p.user(p.snowflake(), "owner")
        self.player = p.user(p.snowflake(), "player")
        self.guild_id = p.snowflake()
        self.channel = p.text_channel(p.snowflake(), self.guild_id, "chaos-table")
        self.channel_id: str = self.channel["id"]

        self.calls: list[Call] = []
        self.unknown: list[Call] = []
        self.identifies: list[JSON] = []
        self.resumes: list[JSON] = []
        self.global_commands: list[JSON] = []
        self.guild_commands: dict[str, list[JSON]] = {}
        self.messages: dict[str, JSON] = {}
        self.callbacks: dict[str, JSON] = {}  # interaction id -> the first callback body
        self.session_id = f"session-{p.snowflake()}"

        self._interactions: dict[str, JSON] = {}  # id -> payload, for ids and tokens sent
        self._by_token: dict[str, JSON] = {}
        self._originals: dict[str, str] = {}  # token -> message id of the original response
        self._waiters: dict[str, asyncio.Future[JSON]] = {}
        self._faults: list[Fault] = []
        self._ws: web.WebSocketResponse | None = None
        self._seq = 0
        self._connected: asyncio.Event | None = None
        self._changed: asyncio.Condition | None = None
        self._runner: web.AppRunner | None = None

    # -- lifecycle -------------------------------------------------------------------------------

    async def start(self) -> None:
        self._connected = asyncio.Event()
        self._changed = asyncio.Condition()
        app = web.Application(middlewares=[self._record])
        self._add_routes(app)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        await web.SockSite(self._runner, self._sock).start()

    async def close(self) -> None:
        if self._ws is not None and not self._ws.closed:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- the test-facing API ----------------------------------------------------------------------

    def fail_next(
        self, pattern: str, status: int = 429, *, times: int = 1, retry_after: float = 0.05
    ) -> None:
        """Answer the next ``times`` requests matching ``pattern`` (see :meth:`Call.matches`)."""
        self._faults.append(Fault(pattern, status, times, retry_after))

    def take_unknown(self) -> list[Call]:
        """Return and forget the unknown routes hit (for tests that hit one on purpose)."""
        taken, self.unknown = self.unknown, []
        return taken

    def calls_to(self, pattern: str) -> list[Call]:
        return [c for c in self.calls if c.matches(pattern)]

    async def wait_for_call(
        self, pattern: str, *, status: int | None = None, timeout: float = DEADLINE
    ) -> Call:
        """The first answered call matching ``pattern`` (and ``status``), waiting if needed."""
        assert self._changed is not None, "the fake is not started"

        def found() -> Call | None:
            return next(
                (
                    c
                    for c in self.calls
                    if c.status and c.matches(pattern) and status in (None, c.status)
                ),
                None,
            )

        async with asyncio.timeout(timeout), self._changed:
            await self._changed.wait_for(lambda: found() is not None)
        call = found()
        assert call is not None
        return call

    async def wait_connected(self, timeout: float = DEADLINE) -> None:
        assert self._connected is not None, "the fake is not started"
        await asyncio.wait_for(self._connected.wait(), timeout)

    def synced_commands(self) -> list[JSON]:
        """The commands an interaction in the test guild can use: guild ones first."""
        return self.guild_commands.get(self.guild_id, []) + self.global_commands

    def member(self, user: JSON | None = None) -> JSON:
        return p.member(user or self.player, permissions=p.EVERYONE_PERMISSIONS)

    async def slash(
        self,
        path: str,
        options: dict[str, Any] | None = None,
        *,
        user: JSON | None = None,
        timeout: float = DEADLINE,
    ) -> tuple[JSON, JSON]:
        """Run ``/path`` with ``options``; return the interaction payload and the first callback."""
        data = build_command_data(self.synced_commands(), path, options or {})
        return await self.send_interaction(self._interaction(2, data, user), timeout=timeout)

    async def autocomplete(
        self,
        path: str,
        options: dict[str, Any],
        focused: str,
        *,
        user: JSON | None = None,
        timeout: float = DEADLINE,
    ) -> tuple[JSON, JSON]:
        """Type into option ``focused`` of ``/path``; the callback carries ``data.choices``."""
        data = build_command_data(self.synced_commands(), path, options, focused=focused)
        return await self.send_interaction(self._interaction(4, data, user), timeout=timeout)

    async def click(
        self,
        custom_id: str,
        *,
        message: JSON | None = None,
        user: JSON | None = None,
        timeout: float = DEADLINE,
    ) -> tuple[JSON, JSON]:
        """Press the button ``custom_id`` on ``message`` (by default a bot message holding it)."""
        if message is None:
            button = {"type": 2, "style": 1, "label": custom_id, "custom_id": custom_id}
            message = self._store_message(
                self.channel_id, {"components": [{"type": 1, "components": [button]}]}
            )
        ids = [
            c.get("custom_id") for row in message.get("components", []) for c in row["components"]
        ]
        if custom_id not in ids:
            raise SchemaError(f"message {message['id']} has no component {custom_id!r}: {ids}")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self.send_interaction(
            self._interaction(3, data, user, message), timeout=timeout
        )

    async def send_interaction(
        self, payload: JSON, *, timeout: float = DEADLINE
    ) -> tuple[JSON, JSON]:
        """Dispatch INTERACTION_CREATE and wait (at most ``timeout``) for its first callback."""
        fut: asyncio.Future[JSON] = asyncio.get_running_loop().create_future()
        self._interactions[payload["id"]] = payload
        self._by_token[payload["token"]] = payload
        self._waiters[payload["id"]] = fut
        await self.dispatch("INTERACTION_CREATE", payload)
        try:
            body = await asyncio.wait_for(fut, timeout)
        finally:
            self._waiters.pop(payload["id"], None)
        return payload, body

    async def dispatch(self, event: str, data: JSON) -> None:
        if self._ws is None or self._ws.closed:
            raise RuntimeError("no gateway connection to dispatch on")
        self._seq += 1
        await self._ws.send_str(json.dumps({"op": 0, "t": event, "s": self._seq, "d": data}))

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the client reconnects and RESUMEs."""
        assert self._ws is not None
        assert self._connected is not None
        self._connected.clear()
        await self._ws.send_str(json.dumps({"op": 7, "d": None}))

    # -- payloads ---------------------------------------------------------------------------------

    def _interaction(
        self, kind: int, data: JSON, user: JSON | None, message: JSON | None = None
    ) -> JSON:
        return p.interaction(
            kind=kind,
            application_id=self.app_id,
            guild_id=self.guild_id,
            channel=self.channel,
            member_obj=self.member(user),
            data=data,
            message_obj=message,
        )

    def _store_message(
        self, channel_id: str, body: JSON, *, flags: int = 0, author: JSON | None = None
    ) -> JSON:
        msg = p.message(
            p.snowflake(),
            channel_id,
            author or self.bot_user,
            body,
            guild_id=self.guild_id,
            flags=flags,
        )
        self.messages[msg["id"]] = msg
        return msg

    def _edit_message(self, msg: JSON, body: JSON) -> JSON:
        for key in ("content", "embeds", "components", "flags"):
            if key in body and body[key] is not None:
                msg[key] = body[key]
        msg["flags"] = msg.get("flags", 0) & ~LOADING
        msg["edited_timestamp"] = p.now_iso()
        return msg

    # -- REST -------------------------------------------------------------------------------------

    @web.middleware
    async def _record(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path == "/gateway":
            return await handler(request)
        path = request.path.removeprefix(API)
        call = Call(request.method, path, dict(request.query), None)
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            for name, value in form.items():
                if name == "payload_json" and isinstance(value, str):
                    call.json = json.loads(value)
                elif isinstance(value, web.FileField):
                    call.files.append((value.filename, len(value.file.read())))
        elif request.can_read_body:
            raw = await request.read()
            call.json = json.loads(raw) if raw else None
        request[CALL] = call
        self.calls.append(call)
        fault = self._inject_fault(call)
        response = fault if fault is not None else await handler(request)
        call.status = response.status
        assert self._changed is not None
        async with self._changed:
            self._changed.notify_all()
        return response

    def _inject_fault(self, call: Call) -> web.Response | None:
        for fault in self._faults:
            if fault.times > 0 and call.matches(fault.pattern):
                fault.times -= 1
                if fault.status != 429:
                    return error(fault.status, 0, "injected server error")
                reset = str(fault.retry_after)
                headers = {
                    "Retry-After": reset,
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset-After": reset,
                    "X-RateLimit-Bucket": "fake-bucket",
                    "X-RateLimit-Scope": "user",
                    # Without Via, discord.py takes a 429 for a Cloudflare ban and gives up.
                    "Via": "1.1 google",
                }
                body = {
                    "message": "You are being rate limited.",
                    "retry_after": fault.retry_after,
                    "global": False,
                    "code": 0,
                }
                return json_response(body, status=429, headers=headers)
        return None

    def _add_routes(self, app: web.Application) -> None:
        r = app.router
        r.add_get("/gateway", self._gateway)
        r.add_get(API + "/gateway", self._get_gateway)
        r.add_get(API + "/gateway/bot", self._get_gateway_bot)
        r.add_get(API + "/users/@me", self._get_me)
        r.add_get(API + "/oauth2/applications/@me", self._get_application)
        r.add_put(API + "/applications/{app}/commands", self._put_commands)
        r.add_get(API + "/applications/{app}/commands", self._get_commands)
        r.add_put(API + "/applications/{app}/guilds/{guild}/commands", self._put_commands)
        r.add_get(API + "/applications/{app}/guilds/{guild}/commands", self._get_commands)
        r.add_post(API + "/interactions/{iid}/{token}/callback", self._callback)
        r.add_post(API + "/webhooks/{app}/{token}", self._followup)
        original = API + "/webhooks/{app}/{token}/messages/{mid}"
        r.add_get(original, self._webhook_message)
        r.add_patch(original, self._webhook_message)
        r.add_delete(original, self._webhook_message)
        r.add_post(API + "/channels/{cid}/messages", self._create_message)
        message = API + "/channels/{cid}/messages/{mid}"
        r.add_get(message, self._channel_message)
        r.add_patch(message, self._channel_message)
        r.add_delete(message, self._channel_message)
        r.add_route("*", "/{tail:.*}", self._unknown_route)  # last: everything else

    async def _unknown_route(self, request: web.Request) -> web.Response:
        self.unknown.append(request[CALL])
        return error(404, 0, f"fake discord does not know {request.method} {request.path}")

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return json_response({"url": self.gateway_url, "shards": 1, "session_start_limit": limit})

    async def _get_me(self, request: web.Request) -> web.Response:
        return json_response(self.bot_user)

    async def _get_application(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "id": self.app_id,
                "name": "Chaos Referee (fake)",
                "description": "",
                "icon": None,
                "bot_public": False,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "owner": self.owner,
                "flags": 0,
                "bot": self.bot_user,
            }
        )

    def _scope(self, request: web.Request) -> list[JSON]:
        guild = request.match_info.get("guild")
        return self.global_commands if guild is None else self.guild_commands.get(guild, [])

    async def _put_commands(self, request: web.Request) -> web.Response:
        guild = request.match_info.get("guild")
        synced: list[JSON] = []
        for command in request[CALL].json or []:
            stored = {
                **command,
                "id": p.snowflake(),
                "application_id": self.app_id,
                "version": p.snowflake(),
                "type": command.get("type", 1),
            }
            if guild is not None:
                stored["guild_id"] = guild
            synced.append(stored)
        if guild is None:
            self.global_commands = synced
        else:
            self.guild_commands[guild] = synced
        return json_response(synced)

    async def _get_commands(self, request: web.Request) -> web.Response:
        return json_response(self._scope(request))

    async def _callback(self, request: web.Request) -> web.Response:
        iid = request.match_info["iid"]
        payload = self._interactions.get(iid)
        if payload is None or payload["token"] != request.match_info["token"]:
            return error(404, 10062, "Unknown interaction")
        if iid in self.callbacks:
            return error(400, 40060, "Interaction has already been acknowledged.")
        body: JSON = request[CALL].json
        self.callbacks[iid] = body
        kind = body["type"]
        data = body.get("data") or {}
        message: JSON | None = None
        if kind in (4, 5):  # a message, or "thinking…" that an edit of @original completes
            message = self._store_message(self.channel_id, data, flags=LOADING if kind == 5 else 0)
            self._originals[payload["token"]] = message["id"]
        elif kind in (6, 7) and "message" in payload:  # (deferred) update of the clicked message
            message = self.messages.get(payload["message"]["id"]) or payload["message"]
            assert message is not None
            if kind == 7:
                self._edit_message(message, data)
            self._originals[payload["token"]] = message["id"]
        result: JSON = {
            "interaction": {
                "id": iid,
                "type": payload["type"],
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool((data.get("flags") or 0) & EPHEMERAL),
            },
            "resource": {"type": kind},
        }
        if message is not None:
            result["interaction"]["response_message_id"] = message["id"]
            result["resource"]["message"] = message
        waiter = self._waiters.get(iid)
        if waiter is not None and not waiter.done():
            waiter.set_result(body)
        return json_response(result)

    async def _followup(self, request: web.Request) -> web.Response:
        payload = self._by_token.get(request.match_info["token"])
        if payload is None or request.match_info["app"] != self.app_id:
            return error(404, 10015, "Unknown Webhook")
        if payload["id"] not in self.callbacks:
            return error(404, 10015, "Unknown Webhook")  # no followup before the first answer
        return json_response(self._store_message(payload["channel_id"], request[CALL].json or {}))

    async def _webhook_message(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        mid = request.match_info["mid"]
        if mid == "@original":
            mid = self._originals.get(token, "")
        msg = self.messages.get(mid)
        if msg is None or token not in self._by_token:
            return error(404, 10008, "Unknown Message")
        return self._message_verb(request, msg)

    async def _create_message(self, request: web.Request) -> web.Response:
        cid = request.match_info["cid"]
        if cid != self.channel_id:
            return error(404, 10003, "Unknown Channel")
        return json_response(self._store_message(cid, request[CALL].json or {}))

    async def _channel_message(self, request: web.Request) -> web.Response:
        msg = self.messages.get(request.match_info["mid"])
        if msg is None or msg["channel_id"] != request.match_info["cid"]:
            return error(404, 10008, "Unknown Message")
        return self._message_verb(request, msg)

    def _message_verb(self, request: web.Request, msg: JSON) -> web.Response:
        if request.method == "DELETE":
            del self.messages[msg["id"]]
            return web.Response(status=204)
        if request.method == "PATCH":
            self._edit_message(msg, request[CALL].json or {})
        return json_response(msg)

    # -- gateway ----------------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._ws = ws
        await ws.send_str(
            json.dumps({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        )
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                break
            frame = json.loads(msg.data)
            op = frame.get("op")
            if op == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif op == 2:
                await self._identify(frame["d"])
            elif op == 6:
                await self._resume(frame["d"])
            # op 3 (presence) and others are ignored
        return ws

    async def _identify(self, data: JSON) -> None:
        self.identifies.append(data)
        self._seq = 0
        self.session_id = f"session-{p.snowflake()}"
        ready = {
            "v": 10,
            "user": self.bot_user,
            "session_id": self.session_id,
            "resume_gateway_url": self.gateway_url,
            "guilds": [{"id": self.guild_id, "unavailable": True}],
            "application": {"id": self.app_id, "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        await self.dispatch("READY", ready)
        members = [p.member(self.bot_user), p.member(self.player), p.member(self.owner)]
        guild = p.guild(self.guild_id, "Chaos Night", self.owner["id"], [self.channel], members)
        await self.dispatch("GUILD_CREATE", guild)
        assert self._connected is not None
        self._connected.set()

    async def _resume(self, data: JSON) -> None:
        self.resumes.append(data)
        assert self._ws is not None
        if data.get("session_id") != self.session_id:
            await self._ws.send_str(json.dumps({"op": 9, "d": False}))
            return
        await self.dispatch("RESUMED", {})
        assert self._connected is not None
        self._connected.set()


def bind_loopback() -> socket.socket:
    """A listening-ready TCP socket on 127.0.0.1 with an ephemeral port, known before start."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


def close_quietly(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.close()


__all__ = ["Call", "FakeDiscord", "SchemaError", "bind_loopback", "json_response"]
