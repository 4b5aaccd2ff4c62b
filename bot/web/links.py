"""Links to a game's live page: capability URLs, made by the host or a referee.

Whoever holds a link may watch the game, and nobody else can find it: its token is 192 random
bits (``secrets.token_urlsafe(24)``), far past guessing. Only the SHA-256 of a token is stored,
so a copy of the database hands out no working links; a token from a request is hashed and
looked up by its hash (a lookup's timing tells nothing of a token), and the console's links,
kept in memory, are compared in constant time.

A link shows one game: it outlives restarts of the bot (it is in the database), and dies when
its links are turned off (`/game link revoke:True`) or its game expires. The console's link is
kept in memory only and follows whatever game its table plays (:meth:`Links.fixed`).

A link found is taken as working for :data:`FOUND_SECONDS` without asking the database again,
so a page's reloads and its stream cost one lookup, not one each; pages that ask at once for a
link not found yet share one lookup (a page's sixteen streams opening together asked the
database sixteen times, and a save in another channel waited behind them). Turning links off here
forgets them at once; turned off by another process sharing the database, a link stops
opening pages within that time (and its open pages within their next check).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from bot.engine.authority import check_page
from bot.engine.errors import ChaosError
from bot.service import GameService

TOKEN_BYTES = 24  # 192 random bits: the issue asks for 128 at least
MAX_LINKS = 10  # per game: one for each screen or stream a table could want, and a few over
FOUND_SECONDS = 5.0  # a link found is trusted this long (see the module's notes)
FOUND_KEPT = 1024  # links remembered as found: far more than are watched at once
# What a token looks like (token_urlsafe's alphabet); anything else is refused before a lookup.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{22,64}")
OFF = (
    "The live game page is off on this bot: whoever runs it turns it on with CHAOS_WEB_PORT"
    " (see docs/discord.md)."
)


class PageOffError(ChaosError):
    """The live pages aren't served here, so there is no link to give."""


class TooManyLinksError(ChaosError):
    """A game has as many links as it may; turning them off makes room."""


def new_token() -> str:
    """A fresh link token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """What the store keeps of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Target:
    """What a link shows: a game of a scope, or (`game_id` None) the scope's latest game."""

    scope: str
    game_id: int | None


class Links:
    """Making, finding and revoking links, over the service and its store.

    `base_url` is where the pages are found from outside (``CHAOS_WEB_URL``, or the server's
    own address); None when the pages are off, and then every link is refused with a sentence
    saying how to turn them on.
    """

    def __init__(
        self,
        service: GameService,
        base_url: str | None,
        *,
        tokens: Callable[[], str] = new_token,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.service = service
        self.base_url = None if base_url is None else base_url.rstrip("/") + "/"
        self._tokens = tokens
        self._clock = clock
        self._fixed: dict[str, Target] = {}
        self._found: OrderedDict[str, tuple[Target, float]] = OrderedDict()
        self._asking: dict[str, asyncio.Future[Target | None]] = {}  # lookups under way
        self._revokes = 0  # links turned off so far: a lookup from before one isn't kept
        self.on_revoke: Callable[[str], None] | None = None  # the page server's, to cut streams

    def serve_at(self, base_url: str) -> None:
        """The pages are served now, found from outside at `base_url`."""
        self.base_url = base_url.rstrip("/") + "/"

    def url(self, token: str) -> str:
        """The link for a token."""
        if self.base_url is None:
            raise PageOffError(OFF)
        return f"{self.base_url}g/{token}"

    async def make(self, scope: str, actor: str, *, referee: bool) -> str:
        """A new link to the game in progress in `scope`, for `actor` if they may (the host or
        a referee; see :func:`~bot.engine.authority.check_page`); returns its URL.
        NoGameError without a game, TooManyLinksError past :data:`MAX_LINKS`."""
        if self.base_url is None:
            raise PageOffError(OFF)
        outcome = await self.service.current(scope)
        check_page(outcome.game.state, actor, referee=referee)
        store = self.service.store
        if await store.links(outcome.game_id) >= MAX_LINKS:
            raise TooManyLinksError(
                f"This game has {MAX_LINKS} links to its live page already: turn them off with"
                " `/game link revoke:True`, then ask for a new one."
            )
        token = self._tokens()
        await store.put_link(token_hash(token), outcome.game_id, now=self._clock())
        return self.url(token)

    async def revoke(self, scope: str, actor: str, *, referee: bool) -> int:
        """Turn off every link to the game in progress in `scope`, if `actor` may; returns how
        many there were."""
        outcome = await self.service.current(scope)
        check_page(outcome.game.state, actor, referee=referee, revoke=True)
        count = await self.service.store.revoke_links(outcome.game_id)
        self._revokes += 1
        for digest in [d for d, (t, _) in self._found.items() if t.game_id == outcome.game_id]:
            del self._found[digest]
        if self.on_revoke is not None:
            self.on_revoke(scope)
        return count

    def fixed(self, scope: str) -> str:
        """A link kept in memory only, to whatever game `scope` plays (its latest): the
        console's, for a game played at one keyboard. Returns its token."""
        token = self._tokens()
        self._fixed[token_hash(token)] = Target(scope, None)
        return token

    async def find(self, token: str, *, fresh: bool = False) -> Target | None:
        """What a token shows, or None: not a token, never made, revoked, or its game gone.
        `fresh` asks the database even if the link was found a moment ago."""
        if not TOKEN_SHAPE.fullmatch(token):
            return None
        digest = token_hash(token)
        for kept, target in self._fixed.items():
            if hmac.compare_digest(kept, digest):
                return target
        found = self._found.get(digest)
        now = time.monotonic()
        if found is not None and not fresh and now - found[1] < FOUND_SECONDS:
            return found[0]
        if fresh:
            return await self._look_up(digest, now)
        asking = self._asking.get(digest)
        if asking is None:
            asking = asyncio.ensure_future(self._look_up(digest, now))
            self._asking[digest] = asking
            asking.add_done_callback(lambda _: self._asking.pop(digest, None))
        return await asyncio.shield(asking)  # a page that goes away leaves it to the others

    async def _look_up(self, digest: str, now: float) -> Target | None:
        revokes = self._revokes
        record = await self.service.store.link(digest)
        if record is None:
            self._found.pop(digest, None)
            return None
        target = Target(record.scope, record.game_id)
        if revokes != self._revokes:
            return target  # links were turned off meanwhile: the next look asks again
        self._found[digest] = (target, now)
        self._found.move_to_end(digest)
        while len(self._found) > FOUND_KEPT:
            self._found.popitem(last=False)
        return target

    def forget(self, token: str) -> None:
        """A link's game was found gone: the next look at the link asks the database."""
        self._found.pop(token_hash(token), None)

    async def works(self, target: Target, token: str) -> bool:
        """Whether a link found before still works (it may have been turned off since): asks
        the database."""
        return target.game_id is None or await self.find(token, fresh=True) is not None
