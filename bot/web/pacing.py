"""New connections to the live pages, taken a few per turn of the event loop.

The pages share the bot's one event loop with every server's games. Reading a request, and
answering or refusing it, costs that loop about a tenth of a millisecond; a client that opens
a thousand connections at once made it a hundred milliseconds of work in a few turns of the
loop, and a game's action in another channel, which needs several turns, waited behind each
(bench/page_flood.py). Now:

* asyncio accepts at most :data:`ACCEPTS_PER_TURN` waiting connections a turn (it takes them
  in a loop up to the listening socket's ``backlog``, aiohttp's 128); the others wait in the
  kernel's queue, which is :data:`LISTEN_QUEUE` long so that a burst isn't turned away;
* a new connection's first request is handed to aiohttp when the :class:`Pacer` lets it: at
  most :data:`READS_PER_TURN` a turn, the rest (not read further meanwhile) in the turns after,
  in the order they came.

A connection already open (a page's stream) is never held back; a new one waits a turn of the
loop when nobody is flooding.
"""

from __future__ import annotations

import asyncio
import socket
from collections import deque
from collections.abc import Callable
from functools import partial

from aiohttp import web

ACCEPTS_PER_TURN = 16
READS_PER_TURN = 16
LISTEN_QUEUE = 1024  # the kernel caps it at net.core.somaxconn


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket listening on `host` (an address or a name; "" or 0.0.0.0 for every IPv4
    address, "::" for every address) and `port` (0: one the system picks)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    dual = host == "::" and socket.has_dualstack_ipv6()
    return socket.create_server(
        (host, port), family=family, backlog=LISTEN_QUEUE, dualstack_ipv6=dual
    )


class Pacer:
    """Hands new connections' first bytes to aiohttp, :data:`READS_PER_TURN` a turn of the loop;
    the others wait, not read, for a later turn, in the order they came."""

    def __init__(self, per_turn: int = READS_PER_TURN) -> None:
        self.per_turn = per_turn
        self.held = 0  # first requests that had to wait a turn or more (tests look)
        self.busiest = 0  # the most first requests started in one turn (tests look)
        self._left = per_turn  # first requests this turn may still start
        self._waiting: deque[tuple[_Paced, bytes]] = deque()
        self._turn_ahead = False

    def first(self, connection: _Paced, data: bytes) -> None:
        """A new connection's first bytes came: start it now, or in a later turn."""
        if self._left > 0 and not self._waiting:
            self._left -= 1
            self.busiest = max(self.busiest, self.per_turn - self._left)
            self._next_turn()
            connection.start(data)
            return
        connection.hold()
        self._waiting.append((connection, data))
        self.held += 1
        self._next_turn()

    def _next_turn(self) -> None:
        if not self._turn_ahead:
            self._turn_ahead = True
            asyncio.get_running_loop().call_soon(self._turn)

    def _turn(self) -> None:
        self._turn_ahead = False
        self._left = self.per_turn
        while self._waiting and self._left > 0:
            connection, data = self._waiting.popleft()
            if connection.open:
                self._left -= 1
                connection.start(data)
        self.busiest = max(self.busiest, self.per_turn - self._left)
        if self._waiting or self._left < self.per_turn:
            self._next_turn()


class _Paced(asyncio.Protocol):
    """aiohttp's protocol for one connection, which gets its first request when the pacer
    says."""

    def __init__(self, inner: asyncio.Protocol, pacer: Pacer) -> None:
        self._inner = inner
        self._pacer = pacer
        self._transport: asyncio.Transport | None = None
        self._started = False
        self.open = True

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        self._inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self._started:
            self._inner.data_received(data)
        else:
            self._pacer.first(self, data)

    def hold(self) -> None:
        """Read nothing more until started (what came is kept by the pacer)."""
        assert self._transport is not None
        self._transport.pause_reading()

    def start(self, data: bytes) -> None:
        """Hand aiohttp the first bytes, and read on."""
        assert self._transport is not None
        self._started = True
        self._inner.data_received(data)
        self._transport.resume_reading()  # nothing, if it wasn't held

    def eof_received(self) -> bool | None:
        return self._inner.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        self.open = False
        self._inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self._inner.pause_writing()

    def resume_writing(self) -> None:
        self._inner.resume_writing()


class PacedSite(web.SockSite):
    """aiohttp's site on a socket of ours, its connections accepted and read as above."""

    def __init__(self, runner: web.AppRunner, sock: socket.socket, pacer: Pacer) -> None:
        super().__init__(runner, sock, backlog=ACCEPTS_PER_TURN)
        self.pacer = pacer

    async def start(self) -> None:
        await web.BaseSite.start(self)  # registers the site with its runner
        server = self._runner.server
        assert server is not None
        protocol: Callable[[], asyncio.Protocol] = partial(_paced, server, self.pacer)
        self._server = await asyncio.get_running_loop().create_server(
            protocol, sock=self._sock, backlog=ACCEPTS_PER_TURN
        )
        # asyncio set the kernel's queue to ACCEPTS_PER_TURN as it began to listen: make it
        # long again, so that connections past a turn's wait there rather than being dropped.
        self._sock.listen(LISTEN_QUEUE)


def _paced(server: web.Server, pacer: Pacer) -> asyncio.Protocol:
    return _Paced(server(), pacer)
