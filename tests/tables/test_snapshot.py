"""Rulesets from stored texts: the same loader and checks as a folder on disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.tables import TableProblems, find_ruleset, load_ruleset
from bot.tables.registry import ruleset_folders
from bot.tables.snapshot import (
    Snapshot,
    SnapshotFile,
    load_snapshot,
    load_texts,
    read_texts,
    take_snapshot,
)
from tests.tables.samples import MINI, write_folder

BUNDLED = [folder.name for folder in ruleset_folders()]


@pytest.mark.parametrize("name", BUNDLED)
def test_a_snapshot_loads_the_same_ruleset_as_its_folder(name: str) -> None:
    loaded = find_ruleset(name)
    snapshot, frozen = take_snapshot(loaded)
    assert frozen.ruleset == loaded.ruleset
    assert frozen.rules == loaded.rules
    again = load_snapshot(snapshot)
    assert again.ruleset == loaded.ruleset
    assert snapshot.files[0].name == f"{name}/ruleset.yaml"
    assert snapshot.tables()[0] == (name, "ruleset", loaded.ruleset.revision)
    assert {f.id for f in snapshot.files} == {f.id for f in loaded.files}


def test_the_hash_follows_the_texts_and_nothing_else(tmp_path: Path) -> None:
    snapshot, _ = take_snapshot(load_ruleset(write_folder(tmp_path / "a", MINI)))
    elsewhere, _ = take_snapshot(load_ruleset(write_folder(tmp_path / "b" / "a", MINI)))
    assert snapshot.hash == elsewhere.hash  # where the folder lies doesn't count
    bare = Snapshot(snapshot.ruleset, tuple(SnapshotFile(f.name, f.text) for f in snapshot.files))
    assert bare.hash == snapshot.hash  # what the files declare follows from their texts
    reordered = Snapshot(snapshot.ruleset, tuple(reversed(snapshot.files)))
    assert reordered.hash == snapshot.hash
    first = snapshot.files[0]
    changed = (SnapshotFile(first.name, first.text + "\n# a comment\n"), *snapshot.files[1:])
    assert Snapshot(snapshot.ruleset, changed).hash != snapshot.hash


def test_problems_in_texts_name_the_stored_file(tmp_path: Path) -> None:
    texts = read_texts(load_ruleset(write_folder(tmp_path / "mini", MINI)))
    assert sorted(texts) == sorted(f"mini/{name}" for name in MINI)
    broken = {**texts, "mini/wacky.yaml": "schema: 1\nkind: table\nid: wacky\n"}
    with pytest.raises(TableProblems) as caught:
        load_texts(broken, Path("mini"))
    assert caught.value.files == ("mini/wacky.yaml",)
    with pytest.raises(TableProblems, match="no file here has kind: ruleset"):
        load_snapshot(Snapshot("mini", (SnapshotFile("mini/ewl.yaml", texts["mini/ewl.yaml"]),)))
