"""Keeping each game's status board up to date: one message per game, edited after every action.

Refreshes run in the background so an answer to a player never waits for the board. A refresh
starts `delay` seconds after the action that asked for it, and while it waits or is in flight,
further actions only mark it dirty; one more refresh follows with the latest state. A roll, its
choice and the next turn pressed in quick succession cost one edit, not three: Discord
rate-limits edits per channel, and every edit costs the bot some work. While players are being
answered, boards wait for them (at most MAX_LAG seconds). A board shows the newest version of
its game that was published (:mod:`bot.reading`), never one whose save is still under way. A
redraw that would send what this process last sent to the same message sends nothing. If
the message is gone (deleted by someone), a new board is posted and remembered in the
database, so a restarted bot keeps editing the same message.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord.http import handle_message_parameters

from bot.client.board import board_embed
from bot.client.buttons import steps_view
from bot.engine.game import Game
from bot.errors import StoreError
from bot.store import BoardRecord

if TYPE_CHECKING:
    from bot.client.bot import ChaosBot

log = logging.getLogger(__name__)

_NO_MENTIONS = discord.AllowedMentions.none()  # a board names players; it never pings them

# While players are being answered, boards wait, but never longer than this (seconds).
MAX_LAG = 2.0


@dataclass
class _Latest:
    channel: int
    game_id: int
    game: Game


class BoardKeeper:
    """Posts and edits the status boards of one bot's games."""

    def __init__(self, bot: ChaosBot, *, delay: float = 0.0) -> None:
        self.bot = bot
        self.delay = delay
        self._latest: dict[str, _Latest] = {}
        self._running: dict[str, asyncio.Task[None]] = {}
        # What each scope's board message shows, as far as this process knows: the message's
        # id and a digest of the payload last sent to it.
        self._shown: dict[str, tuple[str, bytes]] = {}
        self._expected = 0
        self._idle = asyncio.Event()
        self._idle.set()

    def expect(self) -> None:
        """A game changed, and :meth:`touch` follows once its answer is sent: until then the
        boards aren't settled."""
        self._expected += 1
        self._idle.clear()

    def forget_expected(self) -> None:
        """An expected :meth:`touch` won't come."""
        self._expected -= 1
        self._check_idle()

    def touch(self, scope: str, channel: int, game_id: int, game: Game) -> None:
        """The game in `scope` changed: bring its board up to date soon. Ends one
        :meth:`expect`, if any is outstanding."""
        self._expected = max(0, self._expected - 1)
        self._latest[scope] = _Latest(channel, game_id, game)
        if scope not in self._running:
            self._idle.clear()
            self._running[scope] = asyncio.create_task(self._keep(scope), name=f"board {scope}")

    async def settle(self) -> None:
        """Wait until every board is up to date (tests, and a clean shutdown)."""
        await self._idle.wait()

    def _check_idle(self) -> None:
        if not self._running and self._expected <= 0:
            self._idle.set()

    @property
    def kept(self) -> int:
        """Boards waiting to be redrawn or being redrawn now."""
        return len(self._running)

    def forget_guild(self, guild: str) -> int:
        """Stop keeping the boards of one guild's games (the process no longer holds it);
        returns how many were being kept."""
        prefix = f"{guild}:"
        scopes = {s for s in (*self._latest, *self._running) if s.startswith(prefix)}
        for scope in scopes:
            self._latest.pop(scope, None)
            self._shown.pop(scope, None)
            task = self._running.get(scope)
            if task is not None:
                task.cancel()  # its finally drops it from _running
        return len(scopes)

    async def close(self) -> None:
        for task in list(self._running.values()):
            task.cancel()
        await asyncio.gather(*self._running.values(), return_exceptions=True)

    async def adopt(self, scope: str, game_id: int, channel: int, message: int) -> None:
        """Make `message` (a fresh board, posted by `/game status`) the scope's board, and
        delete the one it replaces."""
        old = await self.bot.service.board(scope)
        await self.bot.service.set_board(BoardRecord(scope, game_id, str(channel), str(message)))
        if old is not None and old.message != str(message):
            partial = self.bot.get_partial_messageable(int(old.channel))
            # Already gone, or no longer ours to delete: either way it isn't shown any more.
            with contextlib.suppress(discord.HTTPException):
                await partial.get_partial_message(int(old.message)).delete()

    async def _keep(self, scope: str) -> None:
        try:
            while True:
                if self.delay:
                    await asyncio.sleep(self.delay)  # let the actions of a moment come together
                await self.bot.play.until_quiet(MAX_LAG)
                latest = self._latest.pop(scope, None)
                if latest is None:
                    break
                # The newest committed version, as published: the game the service plays may
                # be in the middle of an action whose save could still fail.
                shown = self.bot.service.published(scope, latest.game_id)
                if shown is not None:
                    latest = _Latest(latest.channel, latest.game_id, shown.game)
                try:
                    await self._refresh(scope, latest)
                except discord.HTTPException as error:
                    log.warning("couldn't update the board in %s: %s", scope, error)
                except StoreError as error:  # the database's trouble, not a bug: no traceback
                    log.warning("couldn't update the board in %s: %s", scope, error)
                except Exception:
                    log.exception("the board of %s failed to update", scope)
        finally:
            del self._running[scope]
            self._check_idle()

    async def _refresh(self, scope: str, latest: _Latest) -> None:
        tried: set[str] = set()
        while (board := await self.bot.service.board(scope)) is not None:
            if board.game_id != latest.game_id or board.message in tried:
                break
            tried.add(board.message)
            embed, view = self.draw(latest.game_id, latest.game)
            # PartialMessage.edit would build a Message from Discord's reply, which nothing
            # here reads: a board's embed is the largest thing the bot sends. Its view is
            # components only (steps_view): discord.py has nothing to keep for it.
            with handle_message_parameters(
                embed=embed, view=view, allowed_mentions=_NO_MENTIONS
            ) as params:
                shown = (board.message, _digest(params.payload))
                if self._shown.get(scope) == shown:
                    return  # the message shows this already: an edit would change nothing
                self._shown.pop(scope, None)  # until the edit is known to have been made
                try:
                    await self.bot.http.edit_message(board.channel, board.message, params=params)
                except discord.NotFound:
                    # Deleted by someone, or replaced by /game status meanwhile: in that case
                    # the record now names the new board, which is the one to edit.
                    log.info("the board of %s is gone", scope)
                    continue
            self._shown[scope] = shown
            return
        await self._post(scope, latest.channel, latest.game_id, latest.game)

    async def _post(self, scope: str, channel: int, game_id: int, game: Game) -> None:
        embed, view = self.draw(game_id, game)
        partial = self.bot.get_partial_messageable(channel)
        message = await partial.send(embed=embed, view=view, allowed_mentions=_NO_MENTIONS)
        await self.bot.service.set_board(BoardRecord(scope, game_id, str(channel), str(message.id)))

    @staticmethod
    def draw(game_id: int, game: Game) -> tuple[discord.Embed, discord.ui.View]:
        """The board of a game: its embed, and the buttons for what comes next."""
        return board_embed(game, game_id), steps_view(game_id, game)


def _digest(payload: dict[str, Any] | None) -> bytes:
    """A short fingerprint of a message's payload (one is kept for every game's board)."""
    return hashlib.blake2b(json.dumps(payload).encode(), digest_size=16).digest()
