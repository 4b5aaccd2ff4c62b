"""Moving a server's games from one database to another (SQLite to PostgreSQL), and checking
the copy by playing every game again.

Rows are copied table by table exactly as they are, ids included: buttons on Discord name
their game by id, and boards point at games. The copy is one transaction on the target, so a
failure half-way leaves it empty. Then every game is read back from the target and checked
with the engine: its log folds to the same state as the source's, its actions replayed from
its seed give the very same events, and its version is its number of actions. Guild settings,
tables and boards are checked by their rows.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from bot.engine.fold import fold
from bot.engine.game import Game
from bot.engine.model import Ruleset
from bot.errors import StoreError
from bot.store.contract import TABLES, Store, dump_event, is_url
from bot.store.records import StoredGame
from bot.tables.snapshot import load_snapshot


@dataclass(frozen=True)
class Copied:
    """What a copy moved (rows by table) and how many games it replayed and found the same."""

    rows: dict[str, int]
    checked: int

    def sentence(self, source: str, target: str) -> str:
        rows = self.rows
        return (
            f"Copied {rows['games']} games ({rows['events']} events, {rows['snapshots']} ruleset"
            f" snapshots), {rows['guild_settings']} guild settings, {rows['guild_tables']} guild"
            f" table revisions and {rows['boards']} boards from {source} to {target}; replayed"
            f" all {self.checked} games there and each came out the same."
        )


async def copy_database(source: Path | str, target: str) -> tuple[Copied, str, str]:
    """Copy every row of `source` into the empty database `target`, then check every game.

    Returns what was copied, and both databases in words. Raises StoreError if the source
    doesn't exist, the target isn't PostgreSQL or already holds games or guild data, or a
    game comes out different.
    """
    if not is_url(target):
        raise StoreError(
            f"the target {target} is not a PostgreSQL URL: give --to postgresql://user@host/db"
            " (the copy is for moving a SQLite file's games to PostgreSQL)."
        )
    if not is_url(source) and not Path(source).is_file():
        raise StoreError(f"there is no database file at {source}: check the --from path.")
    async with Store.connect(source) as src, Store.connect(target) as dst:
        if await dst.game_ids() or await dst.dump("guild_settings") or await dst.dump("boards"):
            raise StoreError(
                f"{dst.where} already has games or guild settings, so nothing was copied: copy"
                " into a new, empty database (createdb), so no game is mixed with another."
            )
        if await dst.dump("guild_tables"):
            raise StoreError(
                f"{dst.where} already has guild tables, so nothing was copied: copy into a new,"
                " empty database (createdb)."
            )
        rows = {table: await src.dump(table) for table in TABLES}
        await dst.load(rows)
        for table, copied in rows.items():
            if table not in ("games", "events") and len(await dst.dump(table)) != len(copied):
                raise StoreError(f"the {table} of {src.where} didn't all reach {dst.where}")
        checked = await check_games(src, dst)
        return Copied({t: len(r) for t, r in rows.items()}, checked), src.where, dst.where


async def check_games(source: Store, target: Store) -> int:
    """Replay every game of `source` as `target` now has it; returns how many were checked."""
    rulesets: dict[str, Ruleset] = {}
    checked = 0
    for game_id in await source.game_ids():
        mine = await source.game(game_id)
        theirs = await target.game(game_id)
        if mine is None or theirs is None:
            raise StoreError(f"game {game_id} is missing from {target.where} after the copy")
        if theirs.record != mine.record:
            raise StoreError(f"game {game_id} has another row in {target.where} after the copy")
        snapshot = theirs.record.snapshot
        if snapshot not in rulesets:
            rulesets[snapshot] = load_snapshot(await target.snapshot(snapshot)).ruleset
        problem = await asyncio.to_thread(_replays_alike, rulesets[snapshot], mine, theirs)
        if problem:
            raise StoreError(f"game {game_id} came out different in {target.where}: {problem}")
        checked += 1
    return checked


def _replays_alike(ruleset: Ruleset, mine: StoredGame, theirs: StoredGame) -> str | None:
    """What differs between a game and its copy, played by the engine; None if nothing."""
    game = Game(ruleset, theirs.events)
    if game.seq != theirs.record.version:
        return f"its log has {game.seq} actions, not {theirs.record.version}"
    if game.state != fold(mine.events):
        return "its log folds to another state"
    again = Game.replay(ruleset, game.actions)
    if [dump_event(e) for e in again.events] != [dump_event(e) for e in theirs.events]:
        return "its actions, played again, give other events"
    return None
