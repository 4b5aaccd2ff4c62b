"""The fake's gateway websocket: HELLO, heartbeats, IDENTIFY → READY + GUILD_CREATE, RESUME.

Frames are JSON TEXT frames, or with ``zlib=True`` one zlib stream per connection in BINARY frames
when the client asks for ``compress=zlib-stream``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import zlib as zlib_module
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakediscord import payloads as p
from tests.fakediscord.recorder import DEADLINE
from tests.fakediscord.schema import JSON
from tests.fakediscord.world import World

HEARTBEAT_INTERVAL_MS = 41_250
GUILDS_INTENT = 1 << 0
GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MESSAGES_INTENT = 1 << 9
# members, presences, message_content: Discord refuses them unless enabled for the app.
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)
# Discord only sends these events to a client that asked for the intent.
EVENT_INTENTS = {
    "CHANNEL_CREATE": GUILDS_INTENT,
    "THREAD_CREATE": GUILDS_INTENT,
    "GUILD_ROLE_CREATE": GUILDS_INTENT,
    "GUILD_MEMBER_ADD": GUILD_MEMBERS_INTENT,
    "MESSAGE_DELETE": GUILD_MESSAGES_INTENT,
}
DISALLOWED_INTENTS = 4014


class Gateway:
    def __init__(
        self, world: World, url: str, *, zlib: bool = False, privileged_allowed: bool = True
    ) -> None:
        self.world = world
        self.url = url
        self.zlib = zlib
        self.privileged_allowed = privileged_allowed
        self.identifies: list[JSON] = []
        self.resumes: list[JSON] = []
        self.queries: list[dict[str, str]] = []  # the query string of each connection
        self.compressed_frames = 0
        self.session_id = f"session-{p.snowflake()}"
        self.intents: int | None = None  # from the last IDENTIFY
        self._seq = 0
        self._ws: web.WebSocketResponse | None = None
        self._compressor: Any = None  # zlib's compress object has no public type
        self._pending: list[asyncio.Task[None]] = []
        self._send_lock: asyncio.Lock | None = None
        self._connected: asyncio.Event | None = None

    def start(self) -> None:
        self._send_lock = asyncio.Lock()
        self._connected = asyncio.Event()

    async def close(self) -> None:
        for task in self._pending:
            task.cancel()
        self._pending.clear()
        if self._ws is not None and not self._ws.closed:
            await self._ws.close()

    @property
    def connected(self) -> bool:
        return self._ws is not None and not self._ws.closed and self.intents is not None

    async def wait_connected(self, timeout: float = DEADLINE) -> None:
        assert self._connected is not None, "the fake is not started"
        await asyncio.wait_for(self._connected.wait(), timeout)

    # -- sending ----------------------------------------------------------------------------------

    async def send(self, frame: JSON) -> None:
        ws, lock = self._ws, self._send_lock
        if ws is None or ws.closed or lock is None:
            raise RuntimeError("no gateway connection to send on")
        # One lock keeps the zlib stream and the sequence numbers in the order frames leave.
        async with lock:
            if frame.get("op") == 0:
                self._seq += 1
                frame = {**frame, "s": self._seq}
            text = json.dumps(frame)
            if self._compressor is None:
                await ws.send_str(text)
                return
            data = self._compressor.compress(text.encode())
            data += self._compressor.flush(zlib_module.Z_SYNC_FLUSH)
            self.compressed_frames += 1
            await ws.send_bytes(data)

    async def dispatch(self, event: str, data: JSON) -> None:
        """Send a DISPATCH after every event queued by :meth:`dispatch_soon`."""
        await self.flush()
        await self._dispatch_now(event, data)

    def dispatch_soon(self, event: str, data: JSON) -> None:
        """Queue a DISPATCH from synchronous code; it leaves before any later one."""
        if not self.connected:
            return  # the next GUILD_CREATE carries the new state
        self._pending.append(asyncio.create_task(self._dispatch_queued(event, data)))

    async def flush(self) -> None:
        while self._pending:
            await self._pending.pop(0)

    async def _dispatch_queued(self, event: str, data: JSON) -> None:
        # A client that dropped meanwhile gets the state in its next GUILD_CREATE instead.
        with contextlib.suppress(RuntimeError, ConnectionError):
            await self._dispatch_now(event, data)

    async def _dispatch_now(self, event: str, data: JSON) -> None:
        wanted = EVENT_INTENTS.get(event)
        if wanted is not None and self.intents is not None and not self.intents & wanted:
            return
        await self.send({"op": 0, "t": event, "d": data})

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the client reconnects and RESUMEs."""
        assert self._connected is not None
        self._connected.clear()
        await self.send({"op": 7, "d": None})

    # -- receiving --------------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.queries.append(dict(request.query))
        self._ws = ws
        compress = self.zlib and request.query.get("compress") == "zlib-stream"
        self._compressor = zlib_module.compressobj() if compress else None
        await self.send({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                break
            frame = json.loads(msg.data)
            op = frame.get("op")
            if op == 1:
                await self.send({"op": 11})
            elif op == 2:
                await self._identify(ws, frame["d"])
            elif op == 6:
                await self._resume(frame["d"])
            # op 3 (presence), op 8 (member chunks) and others are ignored
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: JSON) -> None:
        self.identifies.append(data)
        if not self.privileged_allowed and data.get("intents", 0) & PRIVILEGED_INTENTS:
            await ws.close(code=DISALLOWED_INTENTS, message=b"Disallowed intent(s).")
            return
        self._seq = 0
        self.intents = data.get("intents", 0)
        self.session_id = f"session-{p.snowflake()}"
        ready = {
            "v": 10,
            "user": self.world.bot_user,
            "session_id": self.session_id,
            "resume_gateway_url": self.url,
            "guilds": [{"id": self.world.guild_id, "unavailable": True}],
            "application": {"id": self.world.app_id, "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        await self.dispatch("READY", ready)
        await self.dispatch("GUILD_CREATE", self.world.guild_payload())
        assert self._connected is not None
        self._connected.set()

    async def _resume(self, data: JSON) -> None:
        self.resumes.append(data)
        if data.get("session_id") != self.session_id:
            await self.send({"op": 9, "d": False})
            return
        await self.dispatch("RESUMED", {})
        assert self._connected is not None
        self._connected.set()
