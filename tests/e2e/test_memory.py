"""The garbage collector set for a long-running bot (bot/memory.py)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import memory
from tests.e2e.table import Table
from tests.fakediscord.plugin import aio
from tests.fakediscord.server import FakeDiscord


@pytest.fixture
def collector() -> Iterator[None]:
    """The collector as the test found it, afterwards."""
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


@pytest.mark.usefixtures("collector")
def test_settle_makes_young_collections_rarer_and_keeps_the_rest() -> None:
    gc.set_threshold(700, 10, 10)
    memory.settle()
    assert gc.get_threshold() == (memory.YOUNG, 10, 10)


@pytest.mark.usefixtures("collector")
def test_freeze_takes_what_lives_now_out_of_sight() -> None:
    gc.unfreeze()
    kept = [{"n": n} for n in range(1000)]
    memory.freeze()
    assert gc.get_freeze_count() >= len(kept)
    assert not any(gc.is_tracked(k) and k in gc.get_objects(generation=2) for k in kept[:3])


@pytest.mark.usefixtures("collector")
@aio
async def test_a_bot_freezes_what_start_up_made_once_ready(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    gc.unfreeze()
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        assert t.bot.is_ready()
        assert gc.get_freeze_count() > 10_000  # modules, rulesets, commands: all of start-up
