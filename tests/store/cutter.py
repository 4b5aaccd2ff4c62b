"""A TCP relay between the bot's store and a real PostgreSQL server, that cuts connections on cue.

A restart cuts every connection at a moment nobody chooses. To test what the store tells the
player when a commit's connection is cut while the server has it, the cut must come at a
chosen moment of the conversation: this relay forwards bytes both ways and reads the
PostgreSQL protocol's message framing (a type byte and a length), so a test can arm it to cut
the next connection that sends a matching message:

* ``after="answer"``: once the server has answered the message, committed it and said it is
  ready for the next (ReadyForQuery), the connection is cut before that answer reaches the
  client. The write is stored, and the client can't know.
* ``after="sent"``: right after the message went to the server. The server still has it, and
  runs it to its end unless someone ends that server process.
* ``after="unsent"``: instead of sending it. The server never had it.

:meth:`Cutter.refuse` turns new connections away meanwhile, as a server that is down does.
The URL it hands out turns TLS off, so the messages can be read.
"""

from __future__ import annotations

import asyncio
import contextlib
import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

Match = Callable[[bytes, bytes], bool]  # (message type, body) of a client's message


def binds(marker: bytes) -> Match:
    """A statement (of the extended protocol) given parameters holding `marker`: asyncpg
    prepares a statement once per connection, so later runs carry no SQL, only values."""

    def match(kind: bytes, body: bytes) -> bool:
        return kind == b"B" and marker in body

    return match


def commits(kind: bytes, body: bytes) -> bool:
    """A transaction's COMMIT (asyncpg sends it as a simple query)."""
    return kind == b"Q" and body.upper().startswith(b"COMMIT")


@dataclass
class _Cue:
    match: Match
    after: Literal["unsent", "sent", "answer"]
    done: asyncio.Event
    down: bool  # the server goes down with it: every connection cut, new ones turned away


class Cutter:
    """The relay (see the module's notes) to the server at `upstream` (a PostgreSQL URL)."""

    def __init__(self, upstream: str) -> None:
        parts = urlsplit(upstream)
        self._upstream = upstream
        self._host = parts.hostname or "127.0.0.1"
        self._port = parts.port or 5432
        self._cue: _Cue | None = None
        self._refusing = False
        self._server: asyncio.Server | None = None
        self._links: set[asyncio.Task[None]] = set()
        self._open: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self.port = 0

    @property
    def url(self) -> str:
        parts = urlsplit(self._upstream)
        user = parts.netloc.rpartition("@")[0]
        netloc = f"{user}@127.0.0.1:{self.port}" if user else f"127.0.0.1:{self.port}"
        return parts._replace(netloc=netloc, query="sslmode=disable").geturl()

    async def __aenter__(self) -> Cutter:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        for link in list(self._links):
            link.cancel()
        await asyncio.gather(*self._links, return_exceptions=True)
        await self._server.wait_closed()

    def arm(
        self, match: Match, after: Literal["unsent", "sent", "answer"], *, down: bool = False
    ) -> asyncio.Event:
        """Cut the next connection that sends a message `match` accepts, `after` it was sent
        or answered; with `down`, cut every other connection too and turn new ones away from
        then on (the server went down). The event is set once it is cut."""
        self._cue = _Cue(match, after, asyncio.Event(), down)
        return self._cue.done

    def _fired(self, cue: _Cue) -> None:
        cue.done.set()
        if cue.down:
            self._refusing = True
            for sockets in list(self._open):
                for writer in sockets:
                    writer.close()

    def refuse(self, refusing: bool = True) -> None:
        """Turn new connections away (as a server that is down), or take them again."""
        self._refusing = refusing

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._links.add(task)
        try:
            if self._refusing:
                return
            up_reader, up_writer = await asyncio.open_connection(self._host, self._port)
            sockets = (writer, up_writer)
            self._open.add(sockets)
            try:
                await self._relay(reader, writer, up_reader, up_writer)
            finally:
                self._open.discard(sockets)
                up_writer.close()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()
            self._links.discard(task)

    async def _relay(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        up_reader: asyncio.StreamReader,
        up_writer: asyncio.StreamWriter,
    ) -> None:
        cut = asyncio.Event()
        waiting: list[_Cue] = []  # a cue armed on this connection, waiting for its answer

        async def upstream() -> None:
            # The startup message has no type byte: a length, then the rest.
            (length,) = struct.unpack("!I", await reader.readexactly(4))
            up_writer.write(struct.pack("!I", length) + await reader.readexactly(length - 4))
            sending: _Cue | None = None  # matched; cut once the statement is all sent
            while not cut.is_set():
                kind = await reader.readexactly(1)
                (length,) = struct.unpack("!I", await reader.readexactly(4))
                body = await reader.readexactly(length - 4)
                cue = self._cue
                if cue is not None and cue.match(kind, body):
                    self._cue = None
                    if cue.after == "unsent":
                        cut.set()
                        self._fired(cue)
                        return
                    sending = cue
                up_writer.write(kind + struct.pack("!I", length) + body)
                await up_writer.drain()
                # A simple query is whole; an extended one ends with its Sync.
                if sending is not None and kind in (b"Q", b"S"):
                    if sending.after == "sent":
                        cut.set()
                        self._fired(sending)
                        return
                    waiting.append(sending)
                    sending = None

        async def downstream() -> None:
            while not cut.is_set():
                kind = await up_reader.readexactly(1)
                (length,) = struct.unpack("!I", await up_reader.readexactly(4))
                body = await up_reader.readexactly(length - 4)
                if kind == b"Z" and waiting:  # ready for the next: the statement is over
                    cut.set()
                    self._fired(waiting.pop())
                    return
                writer.write(kind + struct.pack("!I", length) + body)
                await writer.drain()

        both = [asyncio.create_task(upstream()), asyncio.create_task(downstream())]
        try:
            await asyncio.wait(both, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in both:
                task.cancel()
            for task in both:
                with contextlib.suppress(BaseException):
                    await task
