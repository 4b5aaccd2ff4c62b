"""A folder of files: every file loads, then references, cycles and the engine's Ruleset.

A ruleset lives in its own folder, ``tables/<ruleset>/``: one file of ``kind: ruleset`` and the
table and deck files it lists. :func:`load_ruleset` loads such a folder or raises
:class:`TableProblems` listing every problem in every file.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.engine.errors import TableError
from bot.engine.model import Budget, ChaosSource, Deck, RollTable, Ruleset
from bot.tables.bounds import check_bounds
from bot.tables.files import FileKind, FileResult, LoadedFile, inspect_file
from bot.tables.graph import cycles, describe_cycle
from bot.tables.problems import TableFileError, TableProblems, format_path
from bot.tables.rulesets import Rule, RulesetSpec
from bot.tables.schema import Reference, Wants


@dataclass(frozen=True)
class LoadedRuleset:
    """A ruleset ready to play, its rules text, and the files it came from (ruleset first)."""

    ruleset: Ruleset
    rules: tuple[Rule, ...]
    files: tuple[LoadedFile, ...]
    folder: Path

    @property
    def id(self) -> str:
        return self.ruleset.id

    def source(self, table_id: str) -> LoadedFile:
        """The file a table or deck came from."""
        return next(f for f in self.files if f.id == table_id and f.kind is not FileKind.RULESET)


@dataclass(frozen=True)
class Folder:
    """Every file of a folder, and its ruleset when it has one."""

    path: Path
    files: tuple[LoadedFile, ...]
    ruleset: LoadedRuleset | None


def yaml_files(folder: Path) -> list[Path]:
    """The table files of a folder, in name order."""
    return sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())


def load_ruleset(folder: Path) -> LoadedRuleset:
    """Load a ruleset folder; raises TableProblems naming every problem it has."""
    loaded = load_folder(folder)
    if loaded.ruleset is None:
        problem = TableFileError(str(folder), 1, "", "no file here has kind: ruleset")
        raise TableProblems([problem])
    return loaded.ruleset


def load_folder(folder: Path) -> Folder:
    """Load every file of `folder` and check how they fit together."""
    return check_folder(folder, [inspect_file(path) for path in yaml_files(folder)])


def check_folder(folder: Path, results: list[FileResult]) -> Folder:
    """Check how the files of one folder fit together, once each has been inspected.

    :func:`load_folder` reads them from disk; :mod:`bot.tables.snapshot` from stored texts.
    """
    problems: list[TableFileError] = []
    files = [r.loaded for r in results if r.loaded is not None]
    for result in results:
        problems.extend(result.problems)
    by_id: dict[str, LoadedFile] = {}
    for file in files:
        if file.id in by_id:
            message = f"the id {file.id!r} is also used by {by_id[file.id].name}"
            problems.append(file.doc.error(("id",), f"{message}; ids must be unique in a folder"))
        else:
            by_id[file.id] = file
    rulesets = [f for f in files if f.kind is FileKind.RULESET]
    for extra in rulesets[1:]:
        message = f"a folder holds one ruleset, and {rulesets[0].name} is already one"
        problems.append(extra.doc.error((), message))
    head = rulesets[0] if rulesets else None
    spec = head.ruleset if head else None
    scope = [f for f in files if f.kind is not FileKind.RULESET]
    # Files that failed still count as existing, so one broken list isn't also reported as
    # missing by everything that links to it; their own references are checked all the same.
    broken = {r.declared_id: r for r in results if r.loaded is None and r.declared_id}
    if head is not None and spec is not None:
        for file in scope:
            if file.id not in spec.tables:
                message = (
                    f"{file.id!r} is in the folder of ruleset {head.id!r} but not in its"
                    f" tables: add it there ({head.name}) or move this file out"
                )
                problems.append(file.doc.error(("id",), message))
        scope = [f for f in scope if f.id in spec.tables]
        broken = {k: r for k, r in broken.items() if k in spec.tables}
    refs = [ref for f in [*rulesets[:1], *scope] for ref in f.refs]
    refs += [ref for r in broken.values() for ref in r.refs]
    problems += _check_refs(refs, {f.id: f for f in scope}, set(broken), spec)
    if head is not None and spec is not None and spec.budget is None:
        known = {f.id for f in scope} | set(broken)
        edges = [r for r in refs if r.source is not None and r.target in known]
        for loop in cycles(edges):
            problems.append(
                head.doc.error(
                    ("budget",),
                    f"{describe_cycle(loop)}; give the ruleset a budget to bound it,"
                    " like budget: {rolls: 60, depth: 10}",
                )
            )
    if problems:
        raise TableProblems(problems)
    ruleset = _build(rulesets[0], scope, folder) if rulesets else None
    if ruleset is not None:
        sources = {f.id: f for f in scope if f.table is not None}
        problems += check_bounds(ruleset.ruleset, sources)
        if problems:
            raise TableProblems(problems)
    return Folder(folder, tuple(files), ruleset)


def _check_refs(
    refs: list[Reference],
    files: Mapping[str, LoadedFile],
    broken: set[str],
    spec: RulesetSpec | None,
) -> list[TableFileError]:
    """Each reference must lead to a file of the right kind."""
    problems = []
    for ref in refs:
        target = files.get(ref.target)
        message = None
        if target is None:
            if ref.target not in broken:
                message = _missing(ref, files)
        elif ref.wants in (Wants.LIST, Wants.CHAOS_LIST) and target.kind is not FileKind.TABLE:
            message = f"{ref.target!r} is a deck ({_called(target)}); this needs a list"
        elif ref.wants is Wants.DECK and target.kind is not FileKind.DECK:
            message = f"{ref.target!r} is a list ({_called(target)}); this needs a deck"
        elif ref.wants is Wants.CHAOS_LIST and spec is not None:
            if spec.chaos is not ChaosSource.PROGRESSION:
                message = "next_list only works in a ruleset whose chaos is {from: lists}"
            elif ref.target not in spec.lists:
                message = f"{ref.target!r} is not one of the chaos lists ({', '.join(spec.lists)})"
        if message:
            problems.append(TableFileError(ref.file, ref.line, format_path(ref.path), message))
    return problems


def _called(file: LoadedFile) -> str:
    return f"{file.title} in {Path(file.name).name}"


def _missing(ref: Reference, files: Mapping[str, LoadedFile]) -> str:
    wanted = {Wants.DECK: FileKind.DECK, Wants.ANY: None}.get(ref.wants, FileKind.TABLE)
    known = sorted(f.id for f in files.values() if wanted is None or f.kind is wanted)
    close = difflib.get_close_matches(ref.target, known, n=1) or [
        k for k in known if k.casefold() == ref.target.casefold()
    ]
    hint = f"; did you mean {close[0]!r}?" if close else ""
    what = "deck" if ref.wants is Wants.DECK else "list or deck" if wanted is None else "list"
    return f"there is no {what} {ref.target!r} here (there are: {', '.join(known) or 'none'}){hint}"


def _build(file: LoadedFile, scope: list[LoadedFile], folder: Path) -> LoadedRuleset:
    """The engine's Ruleset; its constructor checks the policies fit together once more."""
    spec = file.ruleset
    assert spec is not None
    tables: dict[str, RollTable] = {f.id: f.table for f in scope if f.table is not None}
    decks: dict[str, Deck] = {f.id: f.deck for f in scope if f.deck is not None}
    try:
        ruleset = Ruleset(
            id=file.id,
            name=file.title,
            chaos=spec.chaos,
            chaos_table=spec.chaos_table,
            lists=spec.lists,
            start=spec.start,
            start_table=spec.start_table,
            nesting=spec.nesting,
            spite=spec.spite,
            spite_table=spec.spite_table,
            spite_look=spec.spite_look,
            zone=spec.zone,
            zone_plays=spec.zone_plays,
            tokens=spec.tokens,
            budget=spec.budget or Budget(),
            life=spec.life,
            tables=tables,
            decks=decks,
            revision=file.revision,
        )
    except TableError as error:
        raise TableProblems([file.doc.error((), str(error))]) from None
    ordered = (file, *sorted(scope, key=lambda f: f.name))
    return LoadedRuleset(ruleset, spec.rules, ordered, folder)
