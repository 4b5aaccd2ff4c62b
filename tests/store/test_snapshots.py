"""A game keeps the tables it started with, whatever happens to the files afterwards."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from bot.engine import Event, RollChaos
from bot.tables import LoadedRuleset, TableProblems, bundled_dir, find_ruleset
from bot.tables.registry import clear_cache
from tests.store.helpers import aio, begun, open_service, play_turn


@pytest.fixture
def tables(tmp_path: Path) -> Path:
    """A copy of the bundled tables that the test may edit."""
    root = tmp_path / "tables"
    shutil.copytree(bundled_dir(), root)
    return root


def chaos_names(events: list[Event]) -> list[str]:
    return [e["entry"]["name"] for e in events if e["type"] == "roll" and e["table"] == "chaos"]


def edit_classic(root: Path) -> None:
    """Rename every entry of the Chaos List and change its revision, as an editor might."""
    path = root / "classic" / "chaos.yaml"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^    name: (.*)$", r"    name: Edited \1", text)
    text = re.sub(r'(?m)^revision: ".*"$', 'revision: "edited"', text, count=1)
    path.write_text(text, encoding="utf-8")
    clear_cache()


@aio
async def test_editing_a_table_never_changes_a_game_in_flight(
    database: Path | str, tables: Path
) -> None:
    def rulesets(name: str) -> LoadedRuleset:
        return find_ruleset(name, root=tables)

    db = database
    async with open_service(db, rulesets=rulesets) as service:
        old = await begun(service, "console:old", seed=5)
        edit_classic(tables)
        new = await begun(service, "console:new", seed=5)
        assert old.game.ruleset.tables["chaos"].revision == "2026.2"  # as bundled
        assert new.game.ruleset.tables["chaos"].revision == "edited"
        old_tables = await service.store.game_tables(old.game_id)
        new_tables = await service.store.game_tables(new.game_id)
        assert ("chaos", "2026.2") in [(t.id, t.revision) for t in old_tables]
        assert ("chaos", "edited") in [(t.id, t.revision) for t in new_tables]
    try:
        # A new process, after the edit: the old game is rebuilt from its own snapshot.
        async with open_service(db, rulesets=rulesets, cache_size=0) as service:
            for _ in range(3):
                await play_turn(service, "console:old")
                await play_turn(service, "console:new")
            old_game = (await service.current("console:old")).game
            new_game = (await service.current("console:new")).game
    finally:
        clear_cache()
    old_names, new_names = chaos_names(old_game.events), chaos_names(new_game.events)
    assert old_names
    assert new_names
    assert not any(name.startswith("Edited ") for name in old_names)
    assert all(name.startswith("Edited ") for name in new_names)
    # Same seed, same dice: the same entries came up, under their names of the time.
    assert [f"Edited {n}" for n in old_names] == new_names


@aio
async def test_a_broken_edit_stops_new_games_only(database: Path | str, tables: Path) -> None:
    def rulesets(name: str) -> LoadedRuleset:
        return find_ruleset(name, root=tables)

    async with open_service(database, rulesets=rulesets) as service:
        await begun(service, "console:old")
        # The folder was read when the game started; the file breaks afterwards.
        (tables / "classic" / "wacky.yaml").write_text("schema: 1\nkind: table\n", "utf-8")
        try:
            with pytest.raises(TableProblems, match=r"classic/wacky\.yaml"):
                await service.start("console:new", "classic", host="ann", host_name="Ann")
        finally:
            clear_cache()
        rolled = await service.act("console:old", RollChaos(actor="ann"))
        assert rolled.version == 5
