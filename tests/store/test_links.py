"""Links to live pages, on both backends: kept by the hash of their token, revoked together,
gone with their game when it expires, and kept across a restart (a reopened store)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import StoreError
from bot.store import LinkRecord, Store
from tests.store.helpers import aio
from tests.store.test_store import NOW, create, new_game


@aio
async def test_a_link_is_found_by_its_hash_until_revoked(database: Path | str) -> None:
    game, snapshot = new_game()
    async with Store.connect(database) as store:
        record = await create(store, "g:c", game, snapshot)
        other = await create(store, "g:d", game, snapshot)
        assert await store.put_link("a" * 64, record.id, now=NOW) == 1
        assert await store.put_link("b" * 64, record.id, now=NOW + 1) == 2
        assert await store.put_link("c" * 64, other.id, now=NOW) == 1
    async with Store.connect(database) as store:  # a restart keeps them
        assert await store.link("a" * 64) == LinkRecord(record.id, "g:c", NOW)
        assert await store.link("d" * 64) is None
        assert await store.links(record.id) == 2
        assert await store.revoke_links(record.id) == 2
        assert await store.link("a" * 64) is None
        assert await store.link("b" * 64) is None
        assert await store.links(record.id) == 0
        assert await store.revoke_links(record.id) == 0
        # Another game's links are untouched.
        assert await store.link("c" * 64) == LinkRecord(other.id, "g:d", NOW)


@aio
async def test_a_link_needs_a_game_and_dies_when_it_expires(database: Path | str) -> None:
    game, snapshot = new_game()
    async with Store.connect(database) as store:
        with pytest.raises(StoreError, match="no game 999"):
            await store.put_link("a" * 64, 999, now=NOW)
        record = await create(store, "g:c", game, snapshot)
        await store.put_link("a" * 64, record.id, now=NOW)
        await store.expire(NOW + 1)
        assert await store.link("a" * 64) is None
        assert await store.links(record.id) == 0


@aio
async def test_the_same_token_hash_twice_is_refused(database: Path | str) -> None:
    game, snapshot = new_game()
    async with Store.connect(database) as store:
        record = await create(store, "g:c", game, snapshot)
        await store.put_link("a" * 64, record.id, now=NOW)
        with pytest.raises(Exception):  # noqa: B017, PT011 - each database's own integrity error
            await store.put_link("a" * 64, record.id, now=NOW)
        assert await store.links(record.id) == 1
