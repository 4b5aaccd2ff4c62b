"""Rulesets frozen as text, so a game keeps the tables it started with.

A game doesn't point at ``tables/classic/`` (which an editor may change tomorrow) but at a
:class:`Snapshot`: the exact YAML text of every file of its ruleset, named by a hash of that
text. Editing a table, or uploading a new revision of a guild's table, makes a new snapshot for
new games; a game already in flight is rebuilt from its own snapshot with the same loader and
checks as a folder on disk (:func:`load_snapshot`).

* :func:`take_snapshot`: the snapshot of a loaded ruleset, read from the files it came from
  (:func:`read_texts`, then :func:`freeze`).
* :func:`load_snapshot`: the playable ruleset again, from a snapshot's texts.
* :func:`load_texts`: any set of files given as texts, checked like a folder.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bot.tables.files import FileResult, inspect_document
from bot.tables.folders import Folder, LoadedRuleset, check_folder
from bot.tables.problems import TableFileError, TableProblems
from bot.tables.yamlnodes import parse_document


def text_hash(text: str) -> str:
    """The SHA-256 of a text's UTF-8 bytes, in hex: the name a file's content is stored under."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class SnapshotFile:
    """One file of a snapshot: its name (``classic/chaos.yaml``), its text, and what it declared.

    `id`, `kind` and `revision` are what the file says about itself, kept beside the text so a
    stored game can list the tables it uses without parsing them; the text is the truth.
    """

    name: str
    text: str
    id: str = ""
    kind: str = ""
    revision: str = ""

    @property
    def hash(self) -> str:
        return text_hash(self.text)


@dataclass(frozen=True)
class Snapshot:
    """Every file of one ruleset as text; :attr:`hash` names the whole."""

    ruleset: str
    files: tuple[SnapshotFile, ...]
    hash: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "hash", snapshot_hash(self.ruleset, self.files))

    def tables(self) -> list[tuple[str, str, str]]:
        """``(id, kind, revision)`` of every file, the ruleset first."""
        return [(f.id, f.kind, f.revision) for f in self.files]


def snapshot_hash(ruleset: str, files: Iterable[SnapshotFile]) -> str:
    """The name of a snapshot: a hash of its ruleset id and its files' names and texts.

    What a file declares (id, kind, revision) follows from its text, so it doesn't count.
    """
    manifest = [ruleset, sorted([f.name, f.hash] for f in files)]
    return hashlib.sha256(json.dumps(manifest, separators=(",", ":")).encode()).hexdigest()


def load_texts(texts: Mapping[str, str | bytes], folder: Path) -> Folder:
    """Check files given as ``{name: text}`` exactly as :func:`load_folder` checks a folder.

    Names are how problems call the files; `folder` is where they are said to be. Raises
    TableProblems naming every problem.
    """
    results = [_inspect(name, texts[name]) for name in sorted(texts)]
    return check_folder(folder, results)


def load_snapshot(snapshot: Snapshot) -> LoadedRuleset:
    """The ruleset a snapshot holds, loaded and checked from its texts.

    Raises TableProblems if the texts don't make a ruleset (they did when the snapshot was
    taken, so that means a bot update made the format stricter).
    """
    folder = Path(_folder_name(f.name for f in snapshot.files) or snapshot.ruleset)
    return freeze({f.name: f.text for f in snapshot.files}, folder)[1]


def take_snapshot(loaded: LoadedRuleset) -> tuple[Snapshot, LoadedRuleset]:
    """Read the files `loaded` came from and freeze them; returns the snapshot and the ruleset
    built from it.

    The ruleset is loaded again from the texts just read, so a game starts on exactly what its
    snapshot holds, even if a file changed since `loaded` was read.
    """
    return freeze(read_texts(loaded), loaded.folder)


def read_texts(loaded: LoadedRuleset) -> dict[str, str]:
    """The current text of every file `loaded` came from, by snapshot name (``classic/x.yaml``)."""
    texts: dict[str, str] = {}
    for file in loaded.files:
        path = Path(file.name)
        name = f"{loaded.folder.name}/{path.name}" if loaded.folder.name else path.name
        texts[name] = _read(path, file.name)
    return texts


def freeze(texts: Mapping[str, str], folder: Path) -> tuple[Snapshot, LoadedRuleset]:
    """Load a ruleset from `texts` and make the snapshot of it; TableProblems if they don't
    make a ruleset.
    """
    ruleset = load_texts(texts, folder).ruleset
    if ruleset is None:
        problem = TableFileError(str(folder), 1, "", "no file here has kind: ruleset")
        raise TableProblems([problem])
    return snapshot_of(ruleset, texts), ruleset


def snapshot_of(ruleset: LoadedRuleset, texts: Mapping[str, str]) -> Snapshot:
    """The snapshot of `ruleset`, which was loaded from `texts` (so its files bear those names)."""
    files = tuple(
        SnapshotFile(f.name, texts[f.name], f.id, f.kind.value, f.revision) for f in ruleset.files
    )
    return Snapshot(ruleset.id, files)


def _inspect(name: str, text: str | bytes) -> FileResult:
    try:
        doc = parse_document(text, name)
    except TableFileError as error:
        return FileResult(error.file, None, (error,), None, ())
    return inspect_document(doc)


def _read(path: Path, shown: str) -> str:
    try:
        return path.read_bytes().decode("utf-8-sig")
    except OSError as error:
        problem = TableFileError(shown, 1, "", f"can't read this file: {error.strerror}")
        raise TableProblems([problem]) from None
    except UnicodeDecodeError:
        raise TableProblems([TableFileError(shown, 1, "", "this file is not UTF-8 text")]) from None


def _folder_name(names: Iterable[str]) -> str | None:
    """The folder part shared by the names (``classic`` for ``classic/chaos.yaml``), if any."""
    parents = {str(Path(name).parent) for name in names}
    if len(parents) == 1:
        parent = parents.pop()
        return None if parent == "." else parent
    return None
