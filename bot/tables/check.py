"""``tables check``: check any mix of files and folders and gather every problem.

A folder holding table files is checked as one ruleset folder (references and cycles included),
and so is each folder inside it that holds table files (so ``tables/`` checks every ruleset).
A single table or deck file is checked on its own: its links are checked when its folder is.
A ruleset file stands for its folder.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.tables.files import FileKind, LoadedFile, inspect_file
from bot.tables.folders import load_folder, yaml_files
from bot.tables.problems import TableFileError, TableProblems


@dataclass
class CheckResult:
    """Every problem found, and what was checked."""

    problems: list[TableFileError] = field(default_factory=list)
    files: list[LoadedFile] = field(default_factory=list)
    checked: int = 0  # files looked at, valid or not

    @property
    def warnings(self) -> list[TableFileError]:
        """What the valid files may not mean (an entry that speaks of life but declares no
        change, say), in file and line order; they load anyway."""
        found = {(w.file, w.line, w.path): w for f in self.files for w in f.warnings}
        return sorted(found.values(), key=TableFileError.sort_key)

    def summary(self) -> str:
        """One line: what was checked (when valid) or how many problems were found."""
        if self.problems:
            files = len({p.file for p in self.problems})
            many = "s" if len(self.problems) != 1 else ""
            return f"{len(self.problems)} problem{many} in {files} file{'s' * (files != 1)}"
        kinds = {kind: [f for f in self.files if f.kind is kind] for kind in FileKind}
        entries = sum(len(f.table.bands) for f in kinds[FileKind.TABLE] if f.table)
        cards = sum(c.copies for f in kinds[FileKind.DECK] if f.deck for c in f.deck.cards)
        rulesets = ", ".join(f.id for f in kinds[FileKind.RULESET]) or "none"
        return (
            f"OK: {self.checked} files - rulesets: {rulesets}; {len(kinds[FileKind.TABLE])}"
            f" tables with {entries} entries; {len(kinds[FileKind.DECK])} decks with"
            f" {cards} cards"
        )


def check_paths(paths: Sequence[Path]) -> CheckResult:
    """Check every path; problems are collected, never raised."""
    result = CheckResult()
    done: set[Path] = set()
    for path in paths:
        if not path.exists():
            result.problems.append(TableFileError(str(path), 1, "", "no such file or folder"))
        elif path.is_dir():
            inside = [p for p in sorted(path.iterdir()) if p.is_dir() and yaml_files(p)]
            folders = [path, *inside] if yaml_files(path) else inside
            if not folders:
                message = "no table files (.yaml) here or in the folders inside"
                result.problems.append(TableFileError(str(path), 1, "", message))
            for folder in folders:
                _folder(result, folder, done)
        else:
            _file(result, path, done)
    return result


def _folder(result: CheckResult, folder: Path, done: set[Path]) -> None:
    if folder.resolve() in done:
        return
    done.add(folder.resolve())
    files = yaml_files(folder)
    done.update(f.resolve() for f in files)
    result.checked += len(files)
    try:
        result.files += load_folder(folder).files
    except TableProblems as error:
        result.problems += error.problems


def _file(result: CheckResult, path: Path, done: set[Path]) -> None:
    if path.resolve() in done:
        return
    checked = inspect_file(path)
    if checked.loaded is not None and checked.loaded.kind is FileKind.RULESET:
        _folder(result, path.parent, done)
        return
    done.add(path.resolve())
    result.checked += 1
    result.problems += checked.problems
    if checked.loaded is not None:
        result.files.append(checked.loaded)
