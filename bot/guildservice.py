"""The service's side that belongs to a guild rather than a game: its settings, the tables it
uploaded, and where each game's status board is posted.

Settings and board locations are read on every action of the Discord bot, so they are kept in
memory once read (and written through to the database). One process owns a guild's games
today; several processes sharing a database would need these caches to expire.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.engine.house import HouseRuleError, HouseRules
from bot.engine.model import Deck, RollTable
from bot.errors import NoTableError, SettingsError
from bot.guilds import check_settings
from bot.locks import KeyedLocks
from bot.store import BoardRecord, GuildSettings, Store, StoredTable
from bot.tables import LoadedRuleset
from bot.tables.uploads import CheckedUpload, check_any_upload, stored_table

CACHE_LIMIT = 10_000  # guilds and boards remembered; past this, the cache starts over


class GuildService:
    """Settings, uploaded tables and boards (mixed into :class:`~bot.service.GameService`)."""

    store: Store
    _clock: Callable[[], float]
    _rulesets: Callable[[str], LoadedRuleset]
    _every_ruleset: Callable[[], Mapping[str, LoadedRuleset]]
    _locks: KeyedLocks
    _settings: dict[str, GuildSettings]
    _boards: dict[str, BoardRecord | None]

    # -- settings --------------------------------------------------------------------------

    async def settings(self, guild: str) -> GuildSettings:
        """A guild's settings; the defaults for a guild that never changed any."""
        known = self._settings.get(guild)
        if known is None:
            known = await self.store.guild_settings(guild) or GuildSettings()
            _keep(self._settings, guild, known)
        return known

    async def update_settings(self, guild: str, **changes: Any) -> GuildSettings:
        """Change some of a guild's settings; returns all of them.

        Raises SettingsError for a setting that doesn't exist or a value it can't take, and the
        tables' UnknownRulesetError for a default ruleset that doesn't exist.
        """
        check_settings(changes, self._rulesets)
        async with self._locks.hold(f"settings\0{guild}"):
            settings = replace(await self.settings(guild), **changes)
            await self.store.put_guild_settings(guild, settings, now=self._clock())
            _keep(self._settings, guild, settings)
        return settings

    async def mention(self, guild: str, member: str, on: bool) -> GuildSettings:
        """Whether `member` (a Discord id) is mentioned when their turn starts, where the guild
        mentions players at all (``turn_mentions``); returns all of the guild's settings."""
        async with self._locks.hold(f"settings\0{guild}"):
            current = await self.settings(guild)
            quiet = set(current.quiet)
            if on:
                quiet.discard(member)
            else:
                quiet.add(member)
            members = tuple(sorted(quiet))
            check_settings({"quiet": members}, self._rulesets)
            settings = replace(current, quiet=members)
            if settings != current:
                await self.store.put_guild_settings(guild, settings, now=self._clock())
                _keep(self._settings, guild, settings)
        return settings

    async def change_house(
        self,
        guild: str,
        change: Callable[[HouseRules], HouseRules],
        *,
        scope: str | None = None,
        next_game: bool = False,
    ) -> tuple[HouseRules, bool]:
        """Change a guild's house rules with `change` (which raises to refuse); returns them,
        and whether a game is running in `scope` (it keeps the rules it started with).

        A game keeps the house rules it started with, so while one is running in `scope` a
        change waits for the next game, and is refused (SettingsError) unless whoever made it
        said it applies from the next game (`next_game`)."""
        running = scope is not None and await self.store.active_game(scope) is not None
        if running and not next_game:
            raise SettingsError(
                "A game is running here, and it keeps the house rules it started with: a"
                " change applies from the next game. Say so to make it anyway (on Discord"
                " `next_game:True`; at the console, end the command with `next game`)."
            )
        async with self._locks.hold(f"settings\0{guild}"):
            current = await self.settings(guild)
            try:
                settings = replace(current, house=change(current.house))
            except HouseRuleError as error:  # the engine's limits, as a sentence
                raise SettingsError(f"{str(error)[:1].upper()}{str(error)[1:]}.") from None
            await self.store.put_guild_settings(guild, settings, now=self._clock())
            _keep(self._settings, guild, settings)
        return settings.house, running

    # -- status boards ---------------------------------------------------------------------

    async def board(self, scope: str) -> BoardRecord | None:
        """Where the latest board of the scope was posted (for whichever game), if anywhere."""
        if scope not in self._boards:
            _keep(self._boards, scope, await self.store.board(scope))
        return self._boards[scope]

    async def set_board(self, board: BoardRecord) -> None:
        """Remember the message showing a game's board."""
        await self.store.put_board(board, now=self._clock())
        _keep(self._boards, board.scope, board)

    # -- uploaded tables -------------------------------------------------------------------

    def check_table(self, name: str, data: bytes) -> CheckedUpload:
        """Check a table or deck file as an upload is checked, storing nothing: what it holds,
        or the tables' TableProblems (every problem, with file, line and key). The Discord bot
        runs the same check in a worker process (bot.workers); the console runs it here."""
        return check_any_upload(name, data, self._every_ruleset().values())

    async def import_table(self, guild: str, name: str, data: bytes) -> tuple[CheckedUpload, int]:
        """Check an uploaded table or deck and store it as the guild's newest revision of it.

        Returns what it holds and its revision number. Raises the tables' TableProblems (every
        problem, with file, line and key) and stores nothing unless the file is valid.
        """
        # Reading a file as large as the limits allow takes about half a second: on a thread,
        # so that every other server's commands don't wait for it.
        rulesets = list(self._every_ruleset().values())
        checked = await asyncio.to_thread(check_any_upload, name, data, rulesets)
        return checked, await self.store_upload(guild, checked, data)

    async def store_upload(self, guild: str, checked: CheckedUpload, data: bytes) -> int:
        """Store an upload that was checked (by :func:`~bot.tables.uploads.check_upload`, in a
        worker process, say) as the guild's newest revision of its table; returns the revision.
        """
        text = checked.converted if checked.converted is not None else data.decode("utf-8-sig")
        return await self.store.put_table(guild, checked.id, text, now=self._clock())

    async def guild_tables(self, guild: str) -> list[StoredTable]:
        """The newest revision of each table the guild uploaded, by id."""
        return await self.store.list_tables(guild)

    async def uploaded_tables(self, guild: str) -> list[RollTable | Deck]:
        """The lists and decks the guild uploaded, each read alone (on a thread): a game may
        play any of them, so a house rule that would empty one is refused."""
        stored = await self.guild_tables(guild)

        def read() -> list[RollTable | Deck]:
            tables = (stored_table(t.table_id, t.text) for t in stored)
            return [table for table in tables if table is not None]

        return await asyncio.to_thread(read) if stored else []

    async def guild_table_revisions(self, guild: str) -> list[tuple[str, int]]:
        """The id and newest revision of each table the guild uploaded, by id (no texts)."""
        return await self.store.table_revisions(guild)

    async def guild_table(self, guild: str, table_id: str) -> StoredTable:
        """The newest revision of one of the guild's tables; NoTableError if there's none."""
        table = await self.store.get_table(guild, table_id)
        if table is None:
            known = ", ".join(t for t, _ in await self.store.table_revisions(guild))
            raise NoTableError(
                f"This server has no table {table_id!r}"
                + (f" (its tables: {known})." if known else "; `/table import` uploads one.")
            )
        return table

    async def _uploads(self, guild: str | None, tables: Sequence[str]) -> dict[str, str]:
        """The texts of the guild's uploads named `tables`, by id."""
        if not tables:
            return {}
        if guild is None:
            raise NoTableError("Uploaded tables belong to a server; there's none here.")
        return {t: (await self.guild_table(guild, t)).text for t in dict.fromkeys(tables)}


def _keep(cache: dict[str, Any], key: str, value: Any) -> None:
    if len(cache) >= CACHE_LIMIT and key not in cache:
        cache.clear()
    cache[key] = value
