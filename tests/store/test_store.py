"""The SQLite store on real files: games and events, snapshots, guild settings and tables."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from bot.engine import End, Game, Join
from bot.engine.house import HouseRules
from bot.errors import ConflictError, GameExistsError, StoreError
from bot.store import GameRecord, GameTable, GuildSettings, SQLiteStore, Store
from bot.tables import find_ruleset
from bot.tables.snapshot import Snapshot, take_snapshot
from tests.store.helpers import aio

NOW = 1_800_000_000.0


def new_game(seed: int = 1) -> tuple[Game, Snapshot]:
    snapshot, loaded = take_snapshot(find_ruleset("classic"))
    return Game.start(loaded.ruleset, seed=seed, host="ann", name="Ann"), snapshot


async def create(store: Store, scope: str, game: Game, snapshot: Snapshot) -> GameRecord:
    return await store.create_game(
        scope=scope, guild=None, snapshot=snapshot, events=game.events, now=NOW
    )


@aio
async def test_durability_settings_on_every_connection(tmp_path: Path) -> None:
    async with SQLiteStore.connect(tmp_path / "db") as store:
        assert isinstance(store, SQLiteStore)
        assert await store.pragmas() == {"journal_mode": "wal", "synchronous": 2, "foreign_keys": 1}


@aio
async def test_a_game_and_its_events_round_trip(database: Path | str) -> None:
    snapshot, loaded = take_snapshot(find_ruleset("classic"))
    game = Game.start(loaded.ruleset, seed=3, host="ann", name="Ann")
    async with Store.connect(database) as store:
        record = await store.create_game(
            scope="g:c", guild="g", snapshot=snapshot, events=game.events, now=NOW
        )
        assert (record.version, record.active, record.ruleset) == (1, True, "classic")
        first = len(game.events)
        events = game.act(Join(actor="bob", player_name="Bob"))
        record = await store.append_events(record, events, first=first, now=NOW + 5)
        assert (record.version, record.updated) == (2, NOW + 5)
    async with Store.connect(database) as store:
        stored = await store.active_game("g:c")
        assert stored is not None
        assert stored.record == record
        assert stored.events == game.events
        assert await store.recent_events(record.id, 2) == game.events[-2:]
        assert await store.snapshot(snapshot.hash) == snapshot
        assert await store.active_game("g:other") is None


@aio
async def test_one_game_in_progress_per_scope(database: Path | str) -> None:
    game, snapshot = new_game()
    async with Store.connect(database) as store:
        record = await create(store, "s", game, snapshot)
        with pytest.raises(GameExistsError):
            await create(store, "s", game, snapshot)
        # Another scope is free; so is this one once its game ends.
        await create(store, "t", game, snapshot)
        ending = game.act(End(actor="ann"))
        ended = await store.append_events(record, ending, first=2, now=NOW + 1)
        assert (ended.active, ended.ended) == (False, NOW + 1)
        assert await store.active_game("s") is None
        again = await create(store, "s", game, snapshot)
        latest = await store.latest_game("s")
        assert latest is not None
        assert latest.record.id == again.id != record.id


@aio
async def test_appending_checks_the_stored_version(database: Path | str) -> None:
    game, snapshot = new_game()
    async with Store.connect(database) as store:
        record = await create(store, "s", game, snapshot)
        first = len(game.events)
        events = game.act(Join(actor="bob", player_name="Bob"))
        await store.append_events(record, events, first=first, now=NOW)
        # A second writer still holding the old record must not extend the log again.
        with pytest.raises(ConflictError, match="try again"):
            await store.append_events(record, events, first=first, now=NOW)
        stored = await store.game(record.id)
        assert stored is not None
        assert stored.record.version == 2
        assert stored.events == game.events


@aio
async def test_an_action_is_saved_whole_on_the_connection_thread(tmp_path: Path) -> None:
    """SQLite: an action's statements run together on aiosqlite's thread, from BEGIN IMMEDIATE
    to COMMIT (rolled back to its savepoint on a conflict), and are on disk when the call
    returns."""
    game, snapshot = new_game()
    traced: list[tuple[str, int]] = []
    async with SQLiteStore.connect(tmp_path / "db") as store:
        assert isinstance(store, SQLiteStore)
        record = await create(store, "s", game, snapshot)
        await store._db.set_trace_callback(
            lambda sql: traced.append((" ".join(sql.split()[:3]), threading.get_ident()))
        )
        first = len(game.events)
        events = game.act(Join(actor="bob", player_name="Bob"))
        await store.append_events(record, events, first=first, now=NOW, interaction="i1")
        with pytest.raises(ConflictError):
            await store.append_events(record, events, first=first, now=NOW, interaction="i2")
        saves = traced[:]  # (and not the statements of closing)
        # Each save is a batch of its own here (one at a time), in a SAVEPOINT of the
        # writer's transaction: the conflict rolls back to it, and the empty batch commits.
        assert [sql for sql, _ in saves] == [
            "BEGIN IMMEDIATE",
            "SAVEPOINT save",
            "INSERT INTO interactions",
            "UPDATE games SET",
            *["INSERT INTO events"] * len(events),
            "RELEASE save",
            "COMMIT",
            "BEGIN IMMEDIATE",
            "SAVEPOINT save",
            "INSERT INTO interactions",
            "UPDATE games SET",
            "ROLLBACK TO save",
            "RELEASE save",
            "COMMIT",
        ]
        threads = {thread for _, thread in saves}
        assert threads == {store._db._thread.ident}
    # Another connection, after this one closed, reads what was acknowledged.
    async with Store.connect(tmp_path / "db") as again:
        stored = await again.game(record.id)
        assert stored is not None
        assert stored.events == game.events
        assert await again.applied("i1")
        assert not await again.applied("i2")


@aio
async def test_games_share_a_snapshot_and_record_their_tables(database: Path | str) -> None:
    game, snapshot = new_game()
    async with Store.connect(database) as store:
        one = await create(store, "a", game, snapshot)
        two = await create(store, "b", game, snapshot)
        assert one.snapshot == two.snapshot
        tables = await store.game_tables(two.id)
        assert tables[0] == GameTable("classic", "ruleset", "2026.3")
        revisions = {t.id: t.revision for t in tables}
        # Issue 9 changed the ruleset, the Chaos List and PersonaLand; issue 10 the ruleset's
        # rules texts again (see CHANGELOG.md)
        assert revisions == {
            "classic": "2026.3",
            "chaos": "2026.2",
            "ewl": "2026.1",
            "persona": "2026.2",
            "wacky": "2026.1",
        }


@aio
async def test_expiry_deletes_old_games_and_what_only_they_used(database: Path | str) -> None:
    game, snapshot = new_game()
    async with Store.connect(database) as store:
        old = await create(store, "old", game, snapshot)
        assert await store.expire(NOW) == []
        gone = await store.expire(NOW + 1)
        assert [g.id for g in gone] == [old.id]
        assert await store.game(old.id) is None
        assert await store.recent_events(old.id, 10) == []
        with pytest.raises(StoreError, match="missing"):
            await store.snapshot(snapshot.hash)
        # A new game brings the snapshot back.
        await store.create_game(
            scope="new", guild=None, snapshot=snapshot, events=game.events, now=NOW + 2
        )
        assert await store.snapshot(snapshot.hash) == snapshot


@aio
async def test_guild_settings_round_trip(database: Path | str) -> None:
    async with Store.connect(database) as store:
        assert await store.guild_settings("g") is None
        chosen = GuildSettings(
            referee_role=42,
            default_ruleset="lists",
            secret_rolls="never",
            house=HouseRules(chaos_from=3),
        )
        await store.put_guild_settings("g", chosen, now=NOW)
        await store.put_guild_settings("h", GuildSettings(auto_roll=True), now=NOW)
        pinged = GuildSettings(turn_mentions=True, quiet=("1234", "98765432109876543"))
        await store.put_guild_settings("i", pinged, now=NOW)
    async with Store.connect(database) as store:
        assert await store.guild_settings("g") == chosen
        assert await store.guild_settings("h") == GuildSettings(auto_roll=True)
        assert await store.guild_settings("i") == pinged


@aio
async def test_guild_tables_keep_every_revision(database: Path | str) -> None:
    async with Store.connect(database) as store:
        assert await store.put_table("g", "house", "v1", now=NOW) == 1
        assert await store.put_table("g", "house", "v2", now=NOW + 1) == 2
        assert await store.put_table("g", "other", "o1", now=NOW) == 1
        assert await store.put_table("h", "house", "h1", now=NOW) == 1
    async with Store.connect(database) as store:
        latest = await store.get_table("g", "house")
        assert latest is not None
        assert (latest.revision, latest.text, latest.created) == (2, "v2", NOW + 1)
        first = await store.get_table("g", "house", revision=1)
        assert first is not None
        assert first.text == "v1"
        assert await store.get_table("g", "house", revision=3) is None
        assert await store.get_table("g", "missing") is None
        listed = await store.list_tables("g")
        assert [(t.table_id, t.revision, t.text) for t in listed] == [
            ("house", 2, "v2"),
            ("other", 1, "o1"),
        ]
        assert await store.list_tables("nobody") == []
        # What an autocomplete reads on every keystroke: ids and revisions, no texts.
        assert await store.table_revisions("g") == [("house", 2), ("other", 1)]
        assert await store.table_revisions("nobody") == []


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(b"these are my notes, not a database\n" * 100)

    @aio
    async def check() -> None:
        with pytest.raises(StoreError, match="not a Chaos Referee database"):
            await Store.open(path)

    check()


@aio
async def test_a_closed_store_says_so(database: Path | str) -> None:
    store = await Store.open(database)
    await store.close()
    await store.close()  # again is fine
    with pytest.raises(StoreError, match="closed"):
        await store.active_game("s")


@aio
async def test_a_database_where_none_can_be_made_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="can't open the database"):
        await Store.open(tmp_path / "no such folder" / "db")


def test_a_refused_database_leaves_no_thread_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failed open used to leave aiosqlite's thread to call back into the event loop after
    it had closed ("Event loop is closed" in that thread, about one open in two)."""
    failures: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: failures.append(args.exc_value))
    before = set(threading.enumerate())

    async def refused() -> None:
        with pytest.raises(StoreError, match="can't open the database"):
            await Store.open(tmp_path / "no such folder" / "db")

    for _ in range(40):
        asyncio.run(refused())  # a loop that closes as soon as the open has failed
    for thread in set(threading.enumerate()) - before:
        thread.join(10)
    assert failures == []
    assert set(threading.enumerate()) <= before


@aio
async def test_a_ping_measures_the_database_latency(database: Path | str) -> None:
    async with Store.connect(database) as store:
        latency = await store.ping()
        assert 0 < latency < 5
