"""The fake's gateway websocket: HELLO, heartbeats, IDENTIFY → READY + GUILD_CREATE, RESUME.

Several sessions may be open at once, one per shard or more, as on Discord: IDENTIFY carries
``shard: [shard_id, num_shards]`` (none means ``[0, 1]``), and each guild's events go only to the
sessions whose shard is ``(guild_id >> 22) % num_shards``; events without a guild go to shard 0.
Discord's session start limits hold: one IDENTIFY per ``shard_id % max_concurrency`` bucket per
5 seconds (a faster one is answered with op 9 INVALID_SESSION, ``d: false``, as Discord's gateway
docs say), and at most ``total`` IDENTIFYs in all: past that Discord ends every session and resets
the token, so the fake closes every connection with 4004.

Frames are JSON TEXT frames, or with ``zlib=True`` one zlib stream per connection in BINARY frames
when the client asks for ``compress=zlib-stream``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import zlib as zlib_module
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
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
    "GUILD_CREATE": GUILDS_INTENT,
    "GUILD_DELETE": GUILDS_INTENT,
    "GUILD_MEMBER_ADD": GUILD_MEMBERS_INTENT,
    "MESSAGE_DELETE": GUILD_MESSAGES_INTENT,
}
# Events whose guild is the payload's own id rather than its guild_id.
GUILD_EVENTS = {"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"}
AUTHENTICATION_FAILED = 4004
INVALID_SHARD = 4010
DISALLOWED_INTENTS = 4014
IDENTIFY_INTERVAL = 5.0  # seconds between two IDENTIFYs of one bucket
DAY_MS = 24 * 3600 * 1000


@dataclass
class Limits:
    """What ``GET /gateway/bot`` tells the bot, and what the gateway enforces.

    ``identify_interval`` 0 turns the per-bucket refusal off, for tests that log in twice on
    purpose and test something else.
    """

    shards: int = 1
    max_concurrency: int = 1
    total: int = 1000
    identify_interval: float = IDENTIFY_INTERVAL


@dataclass
class Connection:
    """One websocket and its compression stream; a resumed session moves to a new one."""

    ws: web.WebSocketResponse
    compressor: Any  # zlib's compress object has no public type
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def open(self) -> bool:
        return not self.ws.closed

    async def send(self, frame: JSON) -> bool:
        """Send one frame; False if it was counted as compressed."""
        text = json.dumps(frame)
        if self.compressor is None:
            await self.ws.send_str(text)
            return False
        data = self.compressor.compress(text.encode())
        data += self.compressor.flush(zlib_module.Z_SYNC_FLUSH)
        await self.ws.send_bytes(data)
        return True


@dataclass
class Session:
    """A gateway session: its shard, intents and sequence, on its current connection."""

    id: str
    shard_id: int
    num_shards: int
    intents: int
    conn: Connection
    seq: int = 0

    @property
    def live(self) -> bool:
        return self.conn.open

    def routes(self, guild_id: str | None) -> bool:
        """Whether Discord would send this guild's events (None: no guild) to this session."""
        if guild_id is None:
            return self.shard_id == 0
        return p.shard_of(guild_id, self.num_shards) == self.shard_id


class Gateway:
    def __init__(
        self,
        world: World,
        url: str,
        *,
        zlib: bool = False,
        privileged_allowed: bool = True,
        limits: Limits | None = None,
        notify: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.world = world
        self.url = url
        self.zlib = zlib
        self.privileged_allowed = privileged_allowed
        self.limits = limits or Limits()
        self._notify = notify
        self.identifies: list[JSON] = []
        self.refused: list[JSON] = []  # IDENTIFYs answered with op 9 for coming too soon
        self.resumes: list[JSON] = []
        self.queries: list[dict[str, str]] = []  # the query string of each connection
        self.compressed_frames = 0
        self.sessions: dict[str, Session] = {}  # by session id, live or resumable
        self.session_id = f"session-{p.snowflake()}"  # the newest session's
        self.intents: int | None = None  # from the last IDENTIFY
        self.token_reset = False
        self._bucket_opened: dict[int, float] = {}  # bucket -> monotonic time of its last READY
        self._first_identify: float | None = None
        self._pending: list[asyncio.Task[None]] = []
        self._connected: asyncio.Event | None = None

    def start(self) -> None:
        self._connected = asyncio.Event()

    async def close(self) -> None:
        for task in self._pending:
            task.cancel()
        self._pending.clear()
        for session in list(self.sessions.values()):
            if session.live:
                await session.conn.ws.close()

    @property
    def connected(self) -> bool:
        return any(s.live for s in self.sessions.values())

    def live_sessions(self) -> list[Session]:
        return [s for s in self.sessions.values() if s.live]

    def shards_open(self) -> set[tuple[int, int]]:
        """The ``(shard_id, num_shards)`` of every live session."""
        return {(s.shard_id, s.num_shards) for s in self.live_sessions()}

    def session_start_limit(self) -> JSON:
        """``session_start_limit`` as ``GET /gateway/bot`` reports it now."""
        used = len(self.identifies)
        if self._first_identify is None:
            reset_after = DAY_MS
        else:
            elapsed = (time.monotonic() - self._first_identify) * 1000
            reset_after = max(0, DAY_MS - int(elapsed))
        return {
            "total": self.limits.total,
            "remaining": max(0, self.limits.total - used),
            "reset_after": reset_after,
            "max_concurrency": self.limits.max_concurrency,
        }

    async def wait_connected(self, timeout: float = DEADLINE) -> None:
        assert self._connected is not None, "the fake is not started"
        await asyncio.wait_for(self._connected.wait(), timeout)

    # -- sending ----------------------------------------------------------------------------------

    async def send(self, session: Session, frame: JSON) -> None:
        conn = session.conn
        if not conn.open:
            raise RuntimeError(f"session {session.id} has no open connection")
        # One lock keeps the zlib stream and the sequence numbers in the order frames leave.
        async with conn.lock:
            if frame.get("op") == 0:
                session.seq += 1
                frame = {**frame, "s": session.seq}
            if await conn.send(frame):
                self.compressed_frames += 1

    async def dispatch(self, event: str, data: JSON) -> int:
        """Send a DISPATCH, after every event queued by :meth:`dispatch_soon`, to the sessions
        that hold the event's guild; returns how many got it."""
        await self.flush()
        return await self._dispatch_now(event, data)

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

    async def _dispatch_now(self, event: str, data: JSON) -> int:
        guild = data.get("id") if event in GUILD_EVENTS else data.get("guild_id")
        wanted = EVENT_INTENTS.get(event)
        sent = 0
        for session in self.live_sessions():
            if not session.routes(None if guild is None else str(guild)):
                continue
            if wanted is not None and not session.intents & wanted:
                continue
            try:
                await self.send(session, {"op": 0, "t": event, "d": data})
            except (RuntimeError, ConnectionError):
                # A session whose process just died: Discord still delivers to the others.
                continue
            sent += 1
        return sent

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT to every live session: each reconnects and RESUMEs."""
        assert self._connected is not None
        self._connected.clear()
        for session in self.live_sessions():
            await self.send(session, {"op": 7, "d": None})

    async def invalidate_sessions(self) -> int:
        """Discord ends every session, as it does now and then: op 7 RECONNECT to each live
        one, whose RESUME is then refused (op 9, ``d: false``), so each shard must IDENTIFY
        afresh. Returns how many sessions were ended."""
        assert self._connected is not None
        live = self.live_sessions()
        self.sessions.clear()  # a RESUME finds none: refused
        self._connected.clear()
        for session in live:
            await self.send(session, {"op": 7, "d": None})
        return len(live)

    # -- receiving --------------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.queries.append(dict(request.query))
        compress = self.zlib and request.query.get("compress") == "zlib-stream"
        conn = Connection(ws, zlib_module.compressobj() if compress else None)
        if await conn.send({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}}):
            self.compressed_frames += 1
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    break
                frame = json.loads(msg.data)
                op = frame.get("op")
                if op == 1:
                    async with conn.lock:
                        if await conn.send({"op": 11}):
                            self.compressed_frames += 1
                elif op == 2:
                    await self._identify(conn, frame["d"])
                elif op == 6:
                    await self._resume(conn, frame["d"])
                # op 3 (presence), op 8 (member chunks) and others are ignored
        finally:
            await self._changed()
        return ws

    async def _identify(self, conn: Connection, data: JSON) -> None:
        self.identifies.append(data)
        if self._first_identify is None:
            self._first_identify = time.monotonic()
        if len(self.identifies) > self.limits.total or self.token_reset:
            await self._reset_token()
            await conn.ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return
        if not self.privileged_allowed and data.get("intents", 0) & PRIVILEGED_INTENTS:
            await conn.ws.close(code=DISALLOWED_INTENTS, message=b"Disallowed intent(s).")
            return
        shard_id, num_shards = data.get("shard") or (0, 1)
        if not 0 <= shard_id < num_shards:
            await conn.ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return
        bucket = shard_id % self.limits.max_concurrency
        now = time.monotonic()
        last = self._bucket_opened.get(bucket)
        if last is not None and now - last < self.limits.identify_interval:
            self.refused.append(data)
            async with conn.lock:
                await conn.send({"op": 9, "d": False})
            return
        self._bucket_opened[bucket] = now
        session = Session(
            f"session-{p.snowflake()}", shard_id, num_shards, data.get("intents", 0), conn
        )
        self.sessions[session.id] = session
        self.session_id = session.id
        self.intents = session.intents
        guilds = [g for g in self.world.guilds if session.routes(g)]
        ready = {
            "v": 10,
            "user": self.world.bot_user,
            "session_id": session.id,
            "resume_gateway_url": self.url,
            "guilds": [{"id": g, "unavailable": True} for g in guilds],
            "shard": [shard_id, num_shards],
            "application": {"id": self.world.app_id, "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        await self.flush()  # what happened before this session is in its GUILD_CREATEs
        await self.send(session, {"op": 0, "t": "READY", "d": ready})
        for guild_id in guilds:
            payload = self.world.guild_payload(guild_id)
            await self.send(session, {"op": 0, "t": "GUILD_CREATE", "d": payload})
        assert self._connected is not None
        self._connected.set()
        await self._changed()

    async def _reset_token(self) -> None:
        """Past ``total`` IDENTIFYs Discord ends every session and resets the token."""
        self.token_reset = True
        for session in self.live_sessions():
            await session.conn.ws.close(code=AUTHENTICATION_FAILED, message=b"Token reset.")
        self.sessions.clear()
        await self._changed()

    async def _resume(self, conn: Connection, data: JSON) -> None:
        self.resumes.append(data)
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or self.token_reset:
            async with conn.lock:
                await conn.send({"op": 9, "d": False})
            return
        old = session.conn
        session.conn = conn
        if old.open and old is not conn:
            await old.ws.close()
        await self.send(session, {"op": 0, "t": "RESUMED", "d": {}})
        assert self._connected is not None
        self._connected.set()
        await self._changed()

    async def _changed(self) -> None:
        if self._notify is not None:
            await self._notify()
