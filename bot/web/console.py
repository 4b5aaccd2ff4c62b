"""The live page of a console table (``chaos-referee play --web PORT``), on a thread of its own.

The console runs its event loop only while it answers a line (so Ctrl-C at the prompt drops
just that line; see :func:`bot.console.play`); a page must be served while the player types.
So the pages get a loop on a thread, with a service and a store of their own over the same
database file, as a second bot process would have. The console's service tells them of each
change across the threads (:meth:`ConsolePages.changed`), so a page shows it at once; the
stored version is asked for as well, as from any process.

The link is the console's own (:meth:`~bot.web.links.Links.fixed`): kept in memory for this
session, it shows whatever game the table plays.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Future
from pathlib import Path

from bot.errors import ConfigError
from bot.service import GameService
from bot.store import Store
from bot.web.links import Links
from bot.web.server import PageServer

READY_SECONDS = 30.0


class ConsolePages:
    """The pages of one console session: :meth:`start`, :meth:`link`, :meth:`close`."""

    def __init__(self, db: Path | str, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.db = db
        self.host = host
        self.port = port
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="live pages", daemon=True)
        self._ready: Future[None] = Future()
        self._stopped: asyncio.Event | None = None
        self.server: PageServer | None = None
        self.links: Links | None = None

    def start(self) -> None:
        """Serve the pages; returns once they listen (ConfigError if they can't)."""
        self._thread.start()
        self._ready.result(READY_SECONDS)

    def link(self, scope: str) -> str:
        """A link to whatever game `scope` plays, for this session."""
        assert self.links is not None, "start() first"
        links = self.links
        return asyncio.run_coroutine_threadsafe(_fixed(links, scope), self._loop).result()

    def changed(self, scope: str, game_id: int, version: int) -> None:
        """The console's service committed a change (a listener; called on its thread)."""
        server = self.server
        if server is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(server.changed, scope, game_id, version)

    def close(self) -> None:
        """Stop serving (once the streams have ended) and join the thread."""
        if self._stopped is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._stopped.set)
        self._thread.join(READY_SECONDS)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._serve())
        finally:
            self._loop.close()

    async def _serve(self) -> None:
        self._stopped = asyncio.Event()
        try:
            store = await Store.open(self.db)
        except BaseException as error:
            self._ready.set_exception(error)
            return
        service = GameService(store)
        try:
            self.links = Links(service, None)
            server = PageServer(service, self.links, host=self.host, port=self.port)
            try:
                await server.start()
            except OSError as error:
                raise ConfigError(
                    f"the live page can't listen on {self.host}:{self.port}"
                    f" ({error.strerror or error}): give --web a free port"
                ) from None
            self.server = server
            self.links.serve_at(server.own_url)
            self._ready.set_result(None)
            await self._stopped.wait()
            await server.close()
        except BaseException as error:
            if not self._ready.done():
                self._ready.set_exception(error)
            else:
                raise
        finally:
            await service.close()


async def _fixed(links: Links, scope: str) -> str:
    return links.url(links.fixed(scope))
