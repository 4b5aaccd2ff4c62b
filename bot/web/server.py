"""The live game pages, served by the bot itself with aiohttp (which discord.py brings).

Four routes under a link's token, and the page's two files::

    GET /g/TOKEN                  the page (the same static HTML for every game)
    GET /g/TOKEN/view             the view as JSON (bot.web.view), now
    GET /g/TOKEN/stream           server-sent events: the view, again after every change
    GET /static/page.css|page.js  how the page looks and draws the view

``?layout=overlay`` asks for the compact layout on a transparent background, for a corner of
a stream (an OBS browser source); the page passes it on to its stream.

A stream sends the whole view as soon as it opens (so a page that reconnects, after a network
hiccup or a restart of the bot, is up to date at once), then again whenever the game changes:
the service tells this server of each change it commits (:meth:`GameService.listen`), and a
page is drawn within milliseconds. Several bot processes may share one PostgreSQL database;
an action saved by another process is seen by each stream asking the store for the game's
version every :data:`POLL_SECONDS`. A view is built once per version and layout, however many
pages watch.

Nothing is served but what the bot makes: no CDN, font or script from elsewhere, and a
Content-Security-Policy says so to the browser. The referrer is never sent, so a link (a
capability) can't leak through a card picture's request.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from importlib import resources

from aiohttp import web

from bot.errors import NoGameError
from bot.service import GameService, Outcome
from bot.web.links import Links, Target
from bot.web.view import LAYOUTS, Layout, build_view

log = logging.getLogger(__name__)

POLL_SECONDS = 0.5  # how often a stream asks the store whether another process moved the game
HEARTBEAT_SECONDS = 15.0  # a comment line on a quiet stream, so proxies keep it open
LINK_CHECK_SECONDS = 5.0  # how often a stream checks that its link wasn't turned off
RETRY_MS = 1000  # how soon a page's EventSource reconnects after losing its stream
VIEWS_KEPT = 64  # views by (game, version, layout): a few games watched at a time

GONE = (
    "This link doesn't work (any more): its links were turned off, or its game is over and"
    " gone. Ask the host for a new one with /game link."
)
PAGE_MISSING = "There's nothing here. A live game page's link comes from /game link."
BAD_LAYOUT = "layout must be full or overlay"
# The page's own files only; card pictures come from Scryfall (issue 13's card pictures).
SECURITY = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self';"
        " img-src 'self' https://api.scryfall.com https://cards.scryfall.io;"
        " base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}
STATIC = {"page.css": "text/css", "page.js": "text/javascript"}


def _static(name: str) -> str:
    return resources.files("bot.web").joinpath("static", name).read_text(encoding="utf-8")


class PageServer:
    """The live pages of the games of one service, on one address."""

    def __init__(
        self,
        service: GameService,
        links: Links,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        poll: float = POLL_SECONDS,
        heartbeat: float = HEARTBEAT_SECONDS,
    ) -> None:
        self.service = service
        self.links = links
        self.host = host
        self.requested_port = port
        self.poll = poll
        self.heartbeat = heartbeat
        self._runner: web.AppRunner | None = None
        self._port: int | None = None
        self._views: OrderedDict[tuple[int, int, str], bytes] = OrderedDict()
        self._wakes: dict[str, set[asyncio.Event]] = {}
        self._closing = asyncio.Event()
        self._files = {name: _static(name) for name in STATIC}
        self._page = _static("page.html")
        self._stop_listening: Callable[[], None] | None = None
        self.revocations = 0  # links turned off here: streams look at their own link again

    # -- running -------------------------------------------------------------------------------

    @property
    def port(self) -> int:
        """The port it listens on (the one asked for, or the one the system gave for 0)."""
        if self._port is None:
            raise RuntimeError("the page server isn't running")
        return self._port

    @property
    def own_url(self) -> str:
        """Its own base URL, for links when no public one is configured."""
        shown = "127.0.0.1" if self.host in ("0.0.0.0", "", "::") else self.host
        if ":" in shown:
            shown = f"[{shown}]"
        return f"http://{shown}:{self.port}/"

    async def start(self) -> None:
        """Listen, and have the service tell of every change."""
        app = web.Application(middlewares=[_headers])
        app.router.add_get("/", self._root)
        app.router.add_get("/favicon.ico", self._no_icon)
        app.router.add_get("/static/{name}", self._file)
        app.router.add_get("/g/{token}", self._html)
        app.router.add_get("/g/{token}/view", self._json)
        app.router.add_get("/g/{token}/stream", self._stream)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.requested_port)
        await site.start()
        self._runner = runner
        self._port = int(runner.addresses[0][1])  # the port the system gave, for port 0
        self._stop_listening = self.service.listen(self.changed)
        log.info("live game pages on %s", self.own_url)

    async def close(self) -> None:
        """End every stream and stop listening (again is fine)."""
        self._closing.set()
        for wakes in self._wakes.values():
            for wake in wakes:
                wake.set()
        if self._stop_listening is not None:
            self._stop_listening()
            self._stop_listening = None
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    def changed(self, scope: str, game_id: int, version: int) -> None:
        """The service committed a change to a game of `scope`: wake its streams."""
        for wake in self._wakes.get(scope, ()):
            wake.set()

    def revoked(self, scope: str) -> None:
        """Links to a game of `scope` were turned off: its streams check theirs at once."""
        self.revocations += 1
        self.changed(scope, 0, 0)

    # -- building views ------------------------------------------------------------------------

    def view_bytes(self, outcome: Outcome, layout: Layout) -> bytes:
        """The view of a game at its version, as JSON, built once for every page that watches.

        Built here on the event loop, right after the game was fetched: no action can change
        the game in between, so a view is never half of two versions."""
        key = (outcome.game_id, outcome.version, layout)
        data = self._views.get(key)
        if data is None:
            view = build_view(
                outcome.game, game_id=outcome.game_id, version=outcome.version, layout=layout
            )
            data = json.dumps(view, ensure_ascii=False, separators=(",", ":")).encode()
            self._views[key] = data
            while len(self._views) > VIEWS_KEPT:
                self._views.popitem(last=False)
        else:
            self._views.move_to_end(key)
        return data

    # -- routes --------------------------------------------------------------------------------

    async def _root(self, request: web.Request) -> web.Response:
        return _sentence(PAGE_MISSING, 404)

    async def _no_icon(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def _file(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in self._files:
            return _sentence(PAGE_MISSING, 404)
        return web.Response(text=self._files[name], content_type=STATIC[name], charset="utf-8")

    async def _html(self, request: web.Request) -> web.Response:
        found = await self._target(request)
        if isinstance(found, web.Response):
            return found
        return web.Response(text=self._page, content_type="text/html", charset="utf-8")

    async def _json(self, request: web.Request) -> web.Response:
        found = await self._target(request)
        if isinstance(found, web.Response):
            return found
        target, layout = found
        try:
            outcome = await self.service.watched(target.scope, target.game_id)
        except NoGameError:
            return _sentence(GONE, 404)
        return web.Response(body=self.view_bytes(outcome, layout), content_type="application/json")

    async def _target(self, request: web.Request) -> tuple[Target, Layout] | web.Response:
        """The link's target and the layout asked for, or the answer that says why not."""
        layout = request.query.get("layout", "full")
        if layout not in LAYOUTS:
            return _sentence(BAD_LAYOUT, 400)
        target = await self.links.find(request.match_info["token"])
        if target is None:
            return _sentence(GONE, 404)
        return target, layout

    async def _stream(self, request: web.Request) -> web.StreamResponse:
        found = await self._target(request)
        if isinstance(found, web.Response):
            return found
        target, layout = found
        response = web.StreamResponse(
            headers={**SECURITY, "Content-Type": "text/event-stream", "X-Accel-Buffering": "no"}
        )
        await response.prepare(request)
        wake = asyncio.Event()
        self._wakes.setdefault(target.scope, set()).add(wake)
        stream = _Stream(self, request, response, target, layout, wake)
        try:
            await stream.run()
        except (ConnectionError, asyncio.CancelledError):
            pass  # the page went away, or the server is closing
        finally:
            wakes = self._wakes.get(target.scope)
            if wakes is not None:
                wakes.discard(wake)
                if not wakes:
                    del self._wakes[target.scope]
        return response


class _Stream:
    """One page's stream of views, from its first to its last."""

    def __init__(
        self,
        server: PageServer,
        request: web.Request,
        response: web.StreamResponse,
        target: Target,
        layout: Layout,
        wake: asyncio.Event,
    ) -> None:
        self.server = server
        self.request = request
        self.response = response
        self.target = target
        self.layout = layout
        self.wake = wake
        self.sent: tuple[int, int] | None = None  # (game, version) the page has
        self.written = time.monotonic()
        self.checked = time.monotonic()
        self.revocations = server.revocations

    async def run(self) -> None:
        await self._write(f"retry: {RETRY_MS}\n\n".encode())
        while await self._send_view() and await self._until_changed():
            pass

    async def _send_view(self) -> bool:
        """Send the view if the page doesn't have this version yet; False once it is gone."""
        if self._over():
            return False
        server, target = self.server, self.target
        try:
            outcome = await server.service.watched(target.scope, target.game_id)
        except NoGameError:
            await self._gone()
            return False
        if (outcome.game_id, outcome.version) != self.sent:
            data = server.view_bytes(outcome, self.layout)
            await self._write(b"event: view\nid: %d\ndata: %b\n\n" % (outcome.version, data))
            self.sent = (outcome.game_id, outcome.version)
        return True

    async def _until_changed(self) -> bool:
        """Wait until the game has changed: the service says something changed in its scope,
        or the poll finds it moved in the store (another process). Either way the stored
        version says whether this game did (one lookup by key): an ended game's page isn't
        rebuilt for every action of the next game in its channel. A console's link follows
        its table, where a new game is news too. False if the link stopped working meanwhile
        (the page is told so) or the stream is over."""
        server = self.server
        while not self._over():
            self.wake.clear()
            woke = False
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(server.poll):
                    woke = await self.wake.wait()
            if not await self._link_works(force=server.revocations != self.revocations):
                return False
            if self.sent is None or (woke and self.target.game_id is None):
                return True
            stored = await server.service.store.version(self.sent[0])
            if stored != self.sent[1]:
                return True
            if time.monotonic() - self.written >= server.heartbeat:
                await self._write(b": still here\n\n")
        return False

    async def _link_works(self, *, force: bool = False) -> bool:
        """Whether the link still works, looked up every :data:`LINK_CHECK_SECONDS` (and
        at once when links were turned off here); tells the page when it doesn't."""
        now = time.monotonic()
        if not force and now - self.checked < LINK_CHECK_SECONDS:
            return True
        self.checked, self.revocations = now, self.server.revocations
        if await self.server.links.works(self.target, self.request.match_info["token"]):
            return True
        await self._gone()
        return False

    async def _gone(self) -> None:
        data = json.dumps({"message": GONE}).encode()
        await self._write(b"event: gone\ndata: %b\n\n" % data)

    def _over(self) -> bool:
        """The server is closing, or the page has gone away."""
        transport = self.request.transport
        return self.server._closing.is_set() or transport is None or transport.is_closing()

    async def _write(self, data: bytes) -> None:
        await self.response.write(data)
        self.written = time.monotonic()


def _sentence(text: str, status: int) -> web.Response:
    return web.Response(text=text + "\n", status=status, content_type="text/plain")


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def _headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every answer carries the security headers (see the module's notes)."""
    try:
        response = await handler(request)
    except web.HTTPException as refused:  # aiohttp's own answers: no such route, and so on
        refused.headers.update(SECURITY)
        raise
    if not response.prepared:
        response.headers.update(SECURITY)
    return response
