"""The live game pages, served by the bot itself with aiohttp (which discord.py brings).

Four routes under a link's token, and the page's two files::

    GET /g/TOKEN                  the page (the same static HTML for every game)
    GET /g/TOKEN/view             the view as JSON (bot.web.view), now
    GET /g/TOKEN/stream           server-sent events: the view, again after every change
    GET /static/page.css|page.js  how the page looks and draws the view
    GET /healthz                  the bot's health, for a container orchestrator (bot only)

``?layout=overlay`` asks for the compact layout on a transparent background, for a corner of
a stream (an OBS browser source); the page passes it on to its stream.

A stream sends the whole view as soon as it opens (so a page that reconnects, after a network
hiccup or a restart of the bot, is up to date at once), then again whenever the game changes.
Pages never wait on the game's lock: they read the versions the service publishes
(:mod:`bot.reading`), the streams on one link share one watch of its game, and one client may
hold only so many streams (:mod:`bot.web.streams`). A view is built once per version and
layout, on a thread, however many pages watch (:class:`Views`).

Nothing is served but what the bot makes: no CDN, font or script from elsewhere, and a
Content-Security-Policy says so to the browser. The referrer is never sent, so a link (a
capability) can't leak through a card picture's request.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from functools import partial
from importlib import resources

from aiohttp import web

from bot.errors import NoGameError
from bot.published import Outcome
from bot.service import GameService
from bot.web.links import Links, Target, token_hash
from bot.web.pacing import PacedSite, Pacer, listening_socket
from bot.web.streams import (
    GONE,
    HEARTBEAT_SECONDS,
    POLL_SECONDS,
    Slots,
    Watches,
    client_of,
    follow,
    sentence,
)
from bot.web.view import LAYOUTS, Layout, build_view

log = logging.getLogger(__name__)

VIEWS_KEPT = 64  # views by (game, version, layout): a few games watched at a time
VIEW_BYTES_KEPT = 16 * 1024 * 1024  # and at most this many bytes of them (a long log's is ~100 KB)
# A view's cost grows with its game's log (a 1,500-action game's takes 20-60 ms); a short
# game's costs less than the hop to a thread and back (and the wait for Python's lock there),
# so it is built on the loop: about a millisecond up to this many events.
VIEW_ON_LOOP_EVENTS = 200

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


class Views:
    """Views by (game, version, layout) as JSON bytes: each built once for every page that
    shows it; a long game's on a thread (a published game never changes, so it can be read
    off the loop)."""

    def __init__(self, *, kept: int = VIEWS_KEPT, kept_bytes: int = VIEW_BYTES_KEPT) -> None:
        self.kept = kept
        self.kept_bytes = kept_bytes
        self.builds = 0  # views built so far (tests count them)
        self._built: OrderedDict[tuple[int, int, str], bytes] = OrderedDict()
        self._bytes = 0
        self._building: dict[tuple[int, int, str], asyncio.Future[bytes]] = {}

    async def get(self, outcome: Outcome, layout: Layout) -> bytes:
        key = (outcome.game_id, outcome.version, layout)
        data = self._built.get(key)
        if data is not None:
            self._built.move_to_end(key)
            return data
        building = self._building.get(key)
        if building is None:
            self.builds += 1
            if outcome.game.event_count <= VIEW_ON_LOOP_EVENTS:
                data = _view_bytes(outcome, layout)
                self._keep(key, data)
                return data
            building = asyncio.ensure_future(asyncio.to_thread(_view_bytes, outcome, layout))
            self._building[key] = building
            building.add_done_callback(partial(self._built_one, key))
        return await asyncio.shield(building)  # a page that goes away leaves it to the others

    def _built_one(self, key: tuple[int, int, str], done: asyncio.Future[bytes]) -> None:
        del self._building[key]
        if done.cancelled() or done.exception() is not None:
            return  # every page that waited has the error
        self._keep(key, done.result())

    def _keep(self, key: tuple[int, int, str], data: bytes) -> None:
        self._built[key] = data
        self._bytes += len(data)
        while len(self._built) > 1 and (
            len(self._built) > self.kept or self._bytes > self.kept_bytes
        ):
            self._bytes -= len(self._built.popitem(last=False)[1])


def _view_bytes(outcome: Outcome, layout: Layout) -> bytes:
    view = build_view(outcome.game, game_id=outcome.game_id, version=outcome.version, layout=layout)
    return json.dumps(view, ensure_ascii=False, separators=(",", ":")).encode()


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
        slots: Slots | None = None,
        health: Callable[[], Awaitable[tuple[bool, str]]] | None = None,
    ) -> None:
        self.service = service
        self.health = health  # whether the bot is fit to answer, and a line saying why
        self.links = links
        self.host = host
        self.requested_port = port
        self.heartbeat = heartbeat
        self.views = Views()
        self.watches = Watches(service, links, poll=poll)
        self.slots = slots or Slots()
        self.pacer = Pacer()  # new connections, a few a turn of the loop (bot.web.pacing)
        self._runner: web.AppRunner | None = None
        self._port: int | None = None
        self._files = {name: _static(name) for name in STATIC}
        self._page = _static("page.html")
        self._stop_listening: Callable[[], None] | None = None

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

    @property
    def app(self) -> web.Application:
        """The aiohttp application (its router lists the routes)."""
        if self._runner is None:
            raise RuntimeError("the page server isn't running")
        return self._runner.app

    async def start(self) -> None:
        """Listen, and have the service tell of every change."""
        app = web.Application(middlewares=[_headers])
        app.router.add_get("/", self._root)
        app.router.add_get("/favicon.ico", self._no_icon)
        app.router.add_get("/static/{name}", self._file)
        app.router.add_get("/g/{token}", self._html)
        app.router.add_get("/g/{token}/view", self._json)
        app.router.add_get("/g/{token}/stream", self._stream)
        if self.health is not None:
            app.router.add_get("/healthz", self._healthz)
        # A page that goes away (closed, reloaded) ends its stream at once, and gives its
        # client's slot back (see bot.web.streams).
        runner = web.AppRunner(
            app, access_log=None, shutdown_timeout=1.0, handler_cancellation=True
        )
        await runner.setup()
        site = PacedSite(runner, listening_socket(self.host, self.requested_port), self.pacer)
        await site.start()
        self._runner = runner
        self._port = int(runner.addresses[0][1])  # the port the system gave, for port 0
        self._stop_listening = self.service.listen(self.changed)
        log.info("live game pages on %s", self.own_url)

    async def close(self) -> None:
        """End every stream and stop listening (again is fine)."""
        self.watches.close()
        if self._stop_listening is not None:
            self._stop_listening()
            self._stop_listening = None
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    def changed(self, scope: str, game_id: int, version: int) -> None:
        """The service committed a change to a game of `scope`: wake its watches."""
        self.watches.changed(scope)

    def revoked(self, scope: str) -> None:
        """Links to a game of `scope` were turned off: its watches check theirs at once (and
        tell their pages), after the answer to whoever turned them off."""
        self.watches.revoked(scope)

    # -- routes --------------------------------------------------------------------------------

    async def _root(self, request: web.Request) -> web.Response:
        return sentence(PAGE_MISSING, 404)

    async def _healthz(self, request: web.Request) -> web.Response:
        """200 when the bot can answer players (its gateway connected, its database
        answering), else 503; either way one line saying how each stands."""
        assert self.health is not None
        healthy, line = await self.health()
        return sentence(line, 200 if healthy else 503)

    async def _no_icon(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def _file(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in self._files:
            return sentence(PAGE_MISSING, 404)
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
            self.links.forget(request.match_info["token"])
            return sentence(GONE, 404)
        data = await self.views.get(outcome, layout)
        return web.Response(body=data, content_type="application/json")

    async def _target(self, request: web.Request) -> tuple[Target, Layout] | web.Response:
        """The link's target and the layout asked for, or the answer that says why not."""
        layout = request.query.get("layout", "full")
        if layout not in LAYOUTS:
            return sentence(BAD_LAYOUT, 400)
        target = await self.links.find(request.match_info["token"])
        if target is None:
            return sentence(GONE, 404)
        return target, layout

    async def _stream(self, request: web.Request) -> web.StreamResponse:
        client = client_of(request)
        refused = self.slots.take(client)  # before anything is looked up
        if refused is not None:
            return refused
        try:
            return await self._streaming(request)
        finally:
            self.slots.give_back(client)

    async def _streaming(self, request: web.Request) -> web.StreamResponse:
        found = await self._target(request)
        if isinstance(found, web.Response):
            return found
        target, layout = found
        token = request.match_info["token"]
        response = web.StreamResponse(
            headers={**SECURITY, "Content-Type": "text/event-stream", "X-Accel-Buffering": "no"}
        )
        await response.prepare(request)
        watch = self.watches.join(token_hash(token), token, target)
        try:
            render = partial(self.views.get, layout=layout)
            await follow(watch, render, response.write, self.heartbeat)
        except (ConnectionError, asyncio.CancelledError):
            pass  # the page went away, or the server is closing
        finally:
            watch.leave()
        return response


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
