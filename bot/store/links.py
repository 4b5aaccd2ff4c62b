"""Links to games' live pages, by the hash of their token (see :mod:`bot.web.links`)."""

from __future__ import annotations

from bot.errors import StoreError
from bot.store.base import Database
from bot.store.records import LinkRecord
from bot.store.rows import stamp


class LinkStore(Database):
    """Live page links (mixed into :class:`~bot.store.sqlite.SQLiteStore`)."""

    async def put_link(self, token_hash: str, game_id: int, *, now: float | None = None) -> int:
        async with self._write() as db:
            cursor = await db.execute(
                "INSERT INTO web_links (token_hash, game_id, created)"
                " SELECT ?, id, ? FROM games WHERE id = ?",
                (token_hash, stamp(now), game_id),
            )
            if cursor.rowcount != 1:
                raise StoreError(f"there is no game {game_id} to link to")
            async with db.execute(
                "SELECT COUNT(*) FROM web_links WHERE game_id = ?", (game_id,)
            ) as counted:
                row = await counted.fetchone()
        return int(row[0]) if row else 0

    async def link(self, token_hash: str) -> LinkRecord | None:
        rows = await self._rows(
            "SELECT l.game_id, g.scope, l.created FROM web_links l"
            " JOIN games g ON g.id = l.game_id WHERE l.token_hash = ?",
            (token_hash,),
        )
        return LinkRecord(int(rows[0][0]), str(rows[0][1]), float(rows[0][2])) if rows else None

    async def links(self, game_id: int) -> int:
        rows = await self._rows("SELECT COUNT(*) FROM web_links WHERE game_id = ?", (game_id,))
        return int(rows[0][0])

    async def revoke_links(self, game_id: int) -> int:
        async with self._write() as db:
            cursor = await db.execute("DELETE FROM web_links WHERE game_id = ?", (game_id,))
            return cursor.rowcount
