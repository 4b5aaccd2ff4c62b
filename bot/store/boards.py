"""Where each game's status board lives: the channel and message a front end keeps up to date."""

from __future__ import annotations

from bot.store.base import Database
from bot.store.records import BoardRecord
from bot.store.rows import board_from, board_row


class BoardStore(Database):
    """Status board messages by scope (mixed into :class:`~bot.store.sqlite.Store`)."""

    async def board(self, scope: str) -> BoardRecord | None:
        """The board posted for the scope's game, if one was; None otherwise."""
        rows = await self._rows(
            "SELECT scope, game_id, channel, message FROM boards WHERE scope = ?", (scope,)
        )
        return board_from(rows[0]) if rows else None

    async def put_board(self, board: BoardRecord, *, now: float | None = None) -> None:
        """Remember the scope's board message (replacing the one it had)."""
        async with self._write() as db:
            await db.execute(
                "INSERT INTO boards (scope, game_id, channel, message, updated)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (scope) DO UPDATE SET"
                " game_id = excluded.game_id, channel = excluded.channel,"
                " message = excluded.message, updated = excluded.updated",
                board_row(board, now),
            )
