"""What the PostgreSQL store keeps per guild (settings, uploaded tables) and per scope (the
status board): the same contract as :mod:`bot.store.guilds` and :mod:`bot.store.boards`."""

from __future__ import annotations

from bot.store.pgbase import PgDatabase
from bot.store.records import BoardRecord, GuildSettings, StoredTable
from bot.store.rows import board_from, board_row, settings_from, settings_row, stamp

TABLE_LOCK = 0x63686174  # "chat": with a hash of (guild, table) as the second key


class PgGuildStore(PgDatabase):
    """Guild settings, guild tables and boards (mixed into
    :class:`~bot.store.postgres.PostgresStore`)."""

    # -- guilds ----------------------------------------------------------------------------

    async def guild_settings(self, guild: str) -> GuildSettings | None:
        rows = await self._rows(
            "SELECT referee_role, default_ruleset, auto_roll, secret_rolls, turn_powers,"
            " turn_mentions, quiet, house FROM guild_settings WHERE guild = $1",
            guild,
        )
        return settings_from(rows[0]) if rows else None

    async def put_guild_settings(
        self, guild: str, settings: GuildSettings, *, now: float | None = None
    ) -> None:
        async with self._connection() as con:
            await con.execute(
                "INSERT INTO guild_settings (guild, referee_role, default_ruleset, auto_roll,"
                " secret_rolls, turn_powers, turn_mentions, quiet, updated, house)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
                " ON CONFLICT (guild) DO UPDATE SET referee_role = excluded.referee_role,"
                " default_ruleset = excluded.default_ruleset, auto_roll = excluded.auto_roll,"
                " secret_rolls = excluded.secret_rolls, turn_powers = excluded.turn_powers,"
                " turn_mentions = excluded.turn_mentions, quiet = excluded.quiet,"
                " updated = excluded.updated, house = excluded.house",
                *settings_row(guild, settings, now),
            )

    async def put_table(
        self, guild: str, table_id: str, text: str, *, now: float | None = None
    ) -> int:
        async with self._write() as con:
            # Two processes uploading the same table at once: one waits, then numbers after.
            await con.execute(
                "SELECT pg_advisory_xact_lock($1, hashtext($2 || '/' || $3))",
                TABLE_LOCK,
                guild,
                table_id,
            )
            revision = await con.fetchval(
                "INSERT INTO guild_tables (guild, table_id, revision, text, created)"
                " SELECT $1, $2, COALESCE(MAX(revision), 0) + 1, $3, $4 FROM guild_tables"
                " WHERE guild = $1 AND table_id = $2 RETURNING revision",
                guild,
                table_id,
                text,
                stamp(now),
            )
        return int(revision)

    async def get_table(
        self, guild: str, table_id: str, revision: int | None = None
    ) -> StoredTable | None:
        if revision is None:
            rows = await self._rows(
                "SELECT guild, table_id, revision, text, created FROM guild_tables"
                " WHERE guild = $1 AND table_id = $2 ORDER BY revision DESC LIMIT 1",
                guild,
                table_id,
            )
        else:
            rows = await self._rows(
                "SELECT guild, table_id, revision, text, created FROM guild_tables"
                " WHERE guild = $1 AND table_id = $2 AND revision = $3",
                guild,
                table_id,
                revision,
            )
        return StoredTable(*rows[0]) if rows else None

    async def list_tables(self, guild: str) -> list[StoredTable]:
        rows = await self._rows(
            "SELECT DISTINCT ON (table_id) guild, table_id, revision, text, created"
            " FROM guild_tables WHERE guild = $1 ORDER BY table_id, revision DESC",
            guild,
        )
        return [StoredTable(*row) for row in rows]

    async def table_revisions(self, guild: str) -> list[tuple[str, int]]:
        rows = await self._rows(
            "SELECT table_id, MAX(revision) FROM guild_tables WHERE guild = $1"
            " GROUP BY table_id ORDER BY table_id",
            guild,
        )
        return [(str(row[0]), int(row[1])) for row in rows]

    # -- boards ----------------------------------------------------------------------------

    async def board(self, scope: str) -> BoardRecord | None:
        rows = await self._rows(
            "SELECT scope, game_id, channel, message FROM boards WHERE scope = $1", scope
        )
        return board_from(rows[0]) if rows else None

    async def put_board(self, board: BoardRecord, *, now: float | None = None) -> None:
        async with self._connection() as con:
            await con.execute(
                "INSERT INTO boards (scope, game_id, channel, message, updated)"
                " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (scope) DO UPDATE SET"
                " game_id = excluded.game_id, channel = excluded.channel,"
                " message = excluded.message, updated = excluded.updated",
                *board_row(board, now),
            )
