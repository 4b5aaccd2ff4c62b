"""What the store keeps per guild: its settings, and the tables it uploaded, by revision."""

from __future__ import annotations

from bot.store.base import Database
from bot.store.records import GuildSettings, StoredTable
from bot.store.rows import settings_from, settings_row, stamp


class GuildStore(Database):
    """Guild settings and uploaded tables (mixed into :class:`~bot.store.sqlite.Store`)."""

    async def guild_settings(self, guild: str) -> GuildSettings | None:
        """The settings a guild saved; None if it never changed any."""
        rows = await self._rows(
            "SELECT referee_role, default_ruleset, auto_roll, secret_rolls, turn_powers,"
            " turn_mentions, quiet, house FROM guild_settings WHERE guild = ?",
            (guild,),
        )
        return settings_from(rows[0]) if rows else None

    async def put_guild_settings(
        self, guild: str, settings: GuildSettings, *, now: float | None = None
    ) -> None:
        """Save all of a guild's settings at once (`now`: the time to record, now by default)."""
        async with self._write() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild, referee_role, default_ruleset, auto_roll,"
                " secret_rolls, turn_powers, turn_mentions, quiet, updated, house)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild) DO UPDATE SET referee_role = excluded.referee_role,"
                " default_ruleset = excluded.default_ruleset, auto_roll = excluded.auto_roll,"
                " secret_rolls = excluded.secret_rolls, turn_powers = excluded.turn_powers,"
                " turn_mentions = excluded.turn_mentions, quiet = excluded.quiet,"
                " updated = excluded.updated, house = excluded.house",
                settings_row(guild, settings, now),
            )

    async def put_table(
        self, guild: str, table_id: str, text: str, *, now: float | None = None
    ) -> int:
        """Store a new revision of a guild's table (its YAML text); returns its number (1, 2...).

        Earlier revisions stay: games that use them keep their own snapshot anyway, and a
        guild can look back at what it changed.
        """
        async with self._write() as db:
            async with db.execute(
                "SELECT COALESCE(MAX(revision), 0) + 1 FROM guild_tables"
                " WHERE guild = ? AND table_id = ?",
                (guild, table_id),
            ) as cursor:
                row = await cursor.fetchone()
            revision = int(row[0]) if row else 1
            await db.execute(
                "INSERT INTO guild_tables (guild, table_id, revision, text, created)"
                " VALUES (?, ?, ?, ?, ?)",
                (guild, table_id, revision, text, stamp(now)),
            )
        return revision

    async def get_table(
        self, guild: str, table_id: str, revision: int | None = None
    ) -> StoredTable | None:
        """A revision of a guild's table (the newest by default); None if there's no such one."""
        if revision is None:
            rows = await self._rows(
                "SELECT guild, table_id, revision, text, created FROM guild_tables"
                " WHERE guild = ? AND table_id = ? ORDER BY revision DESC LIMIT 1",
                (guild, table_id),
            )
        else:
            rows = await self._rows(
                "SELECT guild, table_id, revision, text, created FROM guild_tables"
                " WHERE guild = ? AND table_id = ? AND revision = ?",
                (guild, table_id, revision),
            )
        return StoredTable(*rows[0]) if rows else None

    async def list_tables(self, guild: str) -> list[StoredTable]:
        """The newest revision of each of a guild's tables, by id."""
        rows = await self._rows(
            "SELECT t.guild, t.table_id, t.revision, t.text, t.created FROM guild_tables t"
            " WHERE t.guild = ? AND t.revision = (SELECT MAX(revision) FROM guild_tables"
            " WHERE guild = t.guild AND table_id = t.table_id) ORDER BY t.table_id",
            (guild,),
        )
        return [StoredTable(*row) for row in rows]

    async def table_revisions(self, guild: str) -> list[tuple[str, int]]:
        rows = await self._rows(
            "SELECT table_id, MAX(revision) FROM guild_tables WHERE guild = ?"
            " GROUP BY table_id ORDER BY table_id",
            (guild,),
        )
        return [(str(row[0]), int(row[1])) for row in rows]
