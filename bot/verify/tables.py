"""Finding the tables a logged game was played with, on disk (the bundled ones, or a folder).

A log names its ruleset by id and, when the service started the game, the exact tables by the
hash of their snapshot (:mod:`bot.tables.snapshot`). Replaying with other tables would make
every result differ for a reason that has nothing to do with fairness, so other tables are
refused with a sentence.
"""

from __future__ import annotations

from pathlib import Path

from bot.engine.model import Ruleset
from bot.tables.folders import LoadedRuleset, load_ruleset
from bot.tables.registry import find_ruleset
from bot.tables.snapshot import Snapshot, load_snapshot, take_snapshot
from bot.verify.errors import UnreadableLogError
from bot.verify.replay import FindRuleset


def folder_finder(folder: Path | None = None) -> FindRuleset:
    """Tables from `folder` (a ruleset's folder), or else the bundled ruleset with the log's id."""

    def find(ruleset: str, tables: str | None) -> Ruleset:
        loaded = find_ruleset(ruleset) if folder is None else load_ruleset(folder)
        return matching(take_snapshot(loaded), ruleset, tables, str(folder or "the bundled"))

    return find


def matching(
    frozen: tuple[Snapshot, LoadedRuleset], ruleset: str, tables: str | None, where: str
) -> Ruleset:
    """The ruleset of `frozen` if it is the one the log names; UnreadableLogError if not."""
    snapshot, loaded = frozen
    if loaded.id != ruleset:
        raise UnreadableLogError(
            f"This log is of a {ruleset} game, and {where} tables are the {loaded.id} ruleset."
        )
    if tables is not None and snapshot.hash != tables:
        raise UnreadableLogError(
            f"This game was played with other {ruleset} tables than {where} ones (tables"
            f" {tables[:12]}, these are {snapshot.hash[:12]}): give the folder of the tables it"
            " was played with (`/table export` returns a server's own)."
        )
    return loaded.ruleset


def snapshot_ruleset(snapshot: Snapshot) -> tuple[Snapshot, LoadedRuleset]:
    """A stored snapshot with its ruleset, for :func:`matching`."""
    return snapshot, load_snapshot(snapshot)
