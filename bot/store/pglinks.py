"""Links to games' live pages in PostgreSQL: the same contract as :mod:`bot.store.links`."""

from __future__ import annotations

from bot.errors import StoreError
from bot.store.pgbase import PgDatabase
from bot.store.records import LinkRecord
from bot.store.rows import stamp


class PgLinkStore(PgDatabase):
    """Live page links (mixed into :class:`~bot.store.postgres.PostgresStore`)."""

    async def put_link(self, token_hash: str, game_id: int, *, now: float | None = None) -> int:
        async with self._write() as con:
            made = await con.execute(
                "INSERT INTO web_links (token_hash, game_id, created)"
                " SELECT $1, id, $2 FROM games WHERE id = $3",
                token_hash,
                stamp(now),
                game_id,
            )
            if made != "INSERT 0 1":
                raise StoreError(f"there is no game {game_id} to link to")
            count = await con.fetchval("SELECT COUNT(*) FROM web_links WHERE game_id = $1", game_id)
        return int(count)

    async def link(self, token_hash: str) -> LinkRecord | None:
        rows = await self._rows(
            "SELECT l.game_id, g.scope, l.created FROM web_links l"
            " JOIN games g ON g.id = l.game_id WHERE l.token_hash = $1",
            token_hash,
        )
        return LinkRecord(int(rows[0][0]), str(rows[0][1]), float(rows[0][2])) if rows else None

    async def links(self, game_id: int) -> int:
        rows = await self._rows("SELECT COUNT(*) FROM web_links WHERE game_id = $1", game_id)
        return int(rows[0][0])

    async def revoke_links(self, game_id: int) -> int:
        async with self._connection() as con:
            done = await con.execute("DELETE FROM web_links WHERE game_id = $1", game_id)
        return int(done.split()[-1])
