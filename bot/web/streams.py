"""The live pages' streams: what each one waits for, and how many one client may hold.

A page's stream used to ask the service for its game after every change, and the store for
the game's version every half second, each on its own: a thousand streams from one client
were two thousand lookups a second and a thousand looks at the game after every action, and
the game's players waited behind them. Now:

* One :class:`Watch` follows a link's game for every page open on that link: it learns of a
  change from the service (in memory, the moment it is published) or, for a change another
  process made, by asking the store for the version once every poll; it checks once in a
  while that the link still works. Its streams only wait for its news and write the view,
  built once for all of them (:class:`~bot.web.server.Views`).
* One client may hold :data:`CLIENT_STREAMS` streams, and the whole server
  :data:`MAX_STREAMS`; past either, a stream is refused at once with a sentence, before
  anything is looked up (:class:`Slots`).
* Turning a game's links off (`/game link revoke`) only wakes its watches: each looks its link
  up once and tells its pages, after the answer went out, however many pages are open.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import time
from collections.abc import Awaitable, Callable

from aiohttp import web

from bot.engine.state import Phase
from bot.errors import NoGameError
from bot.published import Outcome
from bot.service import GameService
from bot.web.links import Links, Target

log = logging.getLogger(__name__)

# Streams one client address may hold (an IPv6 client: its /64, which one machine usually
# has whole). A browser opens at most six connections to a site, and a table's screens are
# a few: a streamer's overlay and full page, a laptop at the table, a phone or two. 16 is
# that twice over; a spectator behind the same address as fifteen others is refused.
CLIENT_STREAMS = 16
# Streams the whole server may hold: each change of a game wakes its streams on the bot's
# one event loop (tens of microseconds each), and each open stream holds a connection and its
# buffers. bench/web.py measures what a thousand cost another channel.
MAX_STREAMS = 1000
POLL_SECONDS = 0.5  # how often a watch asks the store whether another process moved the game
LINK_CHECK_SECONDS = 5.0  # how often a watch checks that its link wasn't turned off elsewhere
HEARTBEAT_SECONDS = 15.0  # a comment line on a quiet stream, so proxies keep it open
RETRY_MS = 1000  # how soon a page's EventSource reconnects after losing its stream
RETRY_AFTER_SECONDS = 30  # told to a client refused because the server is full

TOO_MANY_HERE = (
    f"Too many live pages are open from your address ({CLIENT_STREAMS} at most): close one,"
    " then reload this one."
)
TOO_MANY = "The bot is showing as many live pages as it can right now: try again in a minute."
GONE = (
    "This link doesn't work (any more): its links were turned off, or its game is over and"
    " gone. Ask the host for a new one with /game link."
)


def client_of(request: web.Request) -> str:
    """Who a request comes from, as the stream bound counts clients: its address, an IPv6
    address by its /64. Behind a reverse proxy on the same machine (the request comes from a
    loopback address), the address the proxy appended to ``X-Forwarded-For``."""
    peer = request.remote or ""
    forwarded = request.headers.get("X-Forwarded-For")
    if forwarded is None and ":" not in peer:
        return peer  # an IPv4 address as the socket gives it (or none): nothing to parse
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return peer[:64]
    if address.is_loopback and forwarded:
        last = forwarded.rsplit(",", 1)[-1].strip()
        try:
            address = ipaddress.ip_address(last)
        except ValueError:
            return last[:64]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


class Slots:
    """How many streams are open, by client and in all."""

    def __init__(self, *, per_client: int = CLIENT_STREAMS, total: int = MAX_STREAMS) -> None:
        self.per_client = per_client
        self.total = total
        self.open = 0
        self._by_client: dict[str, int] = {}

    def take(self, client: str) -> web.Response | None:
        """A slot for a stream of `client`, or the answer that refuses it."""
        held = self._by_client.get(client, 0)
        if held >= self.per_client:
            refused = sentence(TOO_MANY_HERE, 429)
        elif self.open >= self.total:
            refused = sentence(TOO_MANY, 503)
            refused.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
        else:
            self._by_client[client] = held + 1
            self.open += 1
            return None
        refused.force_close()  # its connection isn't kept for another try
        return refused

    def give_back(self, client: str) -> None:
        self.open -= 1
        held = self._by_client[client] - 1
        if held:
            self._by_client[client] = held
        else:
            del self._by_client[client]

    def held(self, client: str) -> int:
        return self._by_client.get(client, 0)


class Watch:
    """One link's game, followed for every page open on the link (see the module's notes).

    `outcome` is the newest version known (None until the first look); `news` is a future
    that completes at the next change of it, or when the watch is over (`gone` if the link
    stopped working, else the server is closing or the look failed: the page reconnects).
    """

    def __init__(self, watches: Watches, digest: str, token: str, target: Target) -> None:
        self.watches = watches
        self.digest = digest
        self.token = token
        self.target = target
        self.outcome: Outcome | None = None
        self.gone = False
        self.over = False
        self.streams = 0
        self.news: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._wake = asyncio.Event()
        self._check_link = False
        self._task: asyncio.Task[None] | None = None

    def join(self) -> None:
        self.streams += 1
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"page watch {self.target.scope}")

    def leave(self) -> None:
        self.streams -= 1
        if not self.streams:
            self._wake.set()  # to end, unless a page joins first

    def wake(self, *, check_link: bool = False) -> None:
        self._check_link |= check_link
        self._wake.set()

    async def _run(self) -> None:
        watches = self.watches
        checked = time.monotonic()
        try:
            await self._look(woke=False)
            while self.streams and not watches.closing:
                woke = await self._sleep()
                if not self.streams or watches.closing:
                    break
                if self._check_link or time.monotonic() - checked >= LINK_CHECK_SECONDS:
                    self._check_link, checked = False, time.monotonic()
                    if not await watches.links.works(self.target, self.token):
                        self.gone = True
                        break
                if self._final():
                    continue  # its link is all that can change
                if woke or await self._moved():
                    await self._look(woke=woke)
        except NoGameError:
            self.gone = True
            watches.links.forget(self.token)
        except Exception:  # the store's trouble: the pages reconnect and try again
            log.exception("a live page's watch of %s failed", self.target.scope)
        finally:
            self.over = True
            watches.ended(self)
            self._announce()

    async def _sleep(self) -> bool:
        """Until the service or a revocation wakes the watch (True), or the poll is due."""
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.watches.poll):
                return await self._wake.wait()
        return False

    def _final(self) -> bool:
        """Whether the version shown is its game's last: an ended game, shown by its id (a
        console's link shows whatever game comes next at its table)."""
        shown = self.outcome
        return (
            shown is not None
            and self.target.game_id is not None
            and shown.game.state.phase is Phase.ENDED
        )

    async def _moved(self) -> bool:
        """Whether the store holds another version than the one shown (another process moved
        the game): one lookup by key."""
        shown = self.outcome
        if shown is None:
            return True
        return await self.watches.service.store.version(shown.game_id) != shown.version

    async def _look(self, *, woke: bool) -> None:
        """Take the newest version: the one this process published if it is news, else the
        one the service finds in the store."""
        target, service = self.target, self.watches.service
        outcome = service.published(target.scope, target.game_id) if woke else None
        if outcome is None or _key(outcome) == _key(self.outcome):
            outcome = await service.watched(target.scope, target.game_id)
        if _key(outcome) != _key(self.outcome):
            self.outcome = outcome
            self._announce()

    def _announce(self) -> None:
        news, self.news = self.news, asyncio.get_running_loop().create_future()
        news.set_result(None)


def _key(outcome: Outcome | None) -> tuple[int, int] | None:
    return None if outcome is None else (outcome.game_id, outcome.version)


class Watches:
    """The watches of one page server, by link and by scope."""

    def __init__(self, service: GameService, links: Links, *, poll: float = POLL_SECONDS) -> None:
        self.service = service
        self.links = links
        self.poll = poll
        self.closing = False
        self._by_link: dict[str, Watch] = {}
        self._by_scope: dict[str, set[Watch]] = {}

    def join(self, digest: str, token: str, target: Target) -> Watch:
        """The watch of a link (started if none), with one more page on it."""
        watch = self._by_link.get(digest)
        if watch is None:
            watch = Watch(self, digest, token, target)
            self._by_link[digest] = watch
            self._by_scope.setdefault(target.scope, set()).add(watch)
        watch.join()
        return watch

    def ended(self, watch: Watch) -> None:
        if self._by_link.get(watch.digest) is watch:
            del self._by_link[watch.digest]
        watches = self._by_scope.get(watch.target.scope)
        if watches is not None:
            watches.discard(watch)
            if not watches:
                del self._by_scope[watch.target.scope]

    def changed(self, scope: str) -> None:
        """The service published a change in `scope`."""
        for watch in self._by_scope.get(scope, ()):
            watch.wake()

    def revoked(self, scope: str) -> None:
        """Links to a game of `scope` were turned off: its watches check their links now."""
        for watch in self._by_scope.get(scope, ()):
            watch.wake(check_link=True)

    def close(self) -> None:
        self.closing = True
        for watch in list(self._by_link.values()):
            watch.wake()

    def __len__(self) -> int:
        return len(self._by_link)


Write = Callable[[bytes], Awaitable[None]]
Render = Callable[[Outcome], Awaitable[bytes]]


async def follow(watch: Watch, render: Render, write: Write, heartbeat: float) -> None:
    """One page's stream: the view now, then again after each change, until the link stops
    working (the page is told) or the watch is over."""
    await write(f"retry: {RETRY_MS}\n\n".encode())
    sent: tuple[int, int] | None = None
    while True:
        news = watch.news
        outcome = watch.outcome
        if outcome is not None and _key(outcome) != sent:
            data = await render(outcome)
            await write(b"event: view\nid: %d\ndata: %b\n\n" % (outcome.version, data))
            sent = _key(outcome)
            continue
        if watch.gone:
            await write(b"event: gone\ndata: %b\n\n" % json.dumps({"message": GONE}).encode())
            return
        if watch.over:
            return
        done, _ = await asyncio.wait((news,), timeout=heartbeat)
        if not done:
            await write(b": still here\n\n")


def sentence(text: str, status: int) -> web.Response:
    """A refusal anyone can read: one sentence of plain text."""
    return web.Response(text=text + "\n", status=status, content_type="text/plain")
