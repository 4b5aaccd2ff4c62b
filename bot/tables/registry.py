"""Rulesets found by name, the way python-chess finds a variant: ``find_ruleset("classic")``.

The bundled rulesets are the folders ``tables/<ruleset>/`` holding a ``ruleset.yaml``, next to
the ``bot`` package in the repository (the project is installed in editable mode). Any other
folder laid out the same way can be passed instead. Loaded folders are cached per path: files
are read once per process.
"""

from __future__ import annotations

import functools
from pathlib import Path

from bot.tables.folders import LoadedRuleset, load_ruleset
from bot.tables.problems import TableFileError, TableProblems, UnknownRulesetError

RULESET_FILE = "ruleset.yaml"


def bundled_dir() -> Path:
    """The repository's ``tables/`` folder."""
    return Path(__file__).resolve().parents[2] / "tables"


def ruleset_folders(root: Path | None = None) -> list[Path]:
    """Every ``<root>/<name>/`` that holds a ruleset.yaml, in name order."""
    base = bundled_dir() if root is None else root
    if not base.is_dir():
        return []
    return sorted(p.parent for p in base.glob(f"*/{RULESET_FILE}") if p.is_file())


def load_bundled(root: Path | None = None) -> dict[str, LoadedRuleset]:
    """Every ruleset under `root` (the bundled tables by default), by id.

    Raises TableProblems listing the problems of every folder that doesn't load.
    """
    base = bundled_dir() if root is None else root
    return dict(_load_root(str(base.resolve())))


@functools.cache
def _load_root(root: str) -> tuple[tuple[str, LoadedRuleset], ...]:
    problems: list[TableFileError] = []
    found: dict[str, LoadedRuleset] = {}
    for folder in ruleset_folders(Path(root)):
        try:
            loaded = load_ruleset(folder)
        except TableProblems as error:
            problems.extend(error.problems)
            continue
        if loaded.id in found:
            other = found[loaded.id].folder
            message = f"the ruleset id {loaded.id!r} is also used in {other}"
            problems.append(loaded.files[0].doc.error(("id",), message))
        found[loaded.id] = loaded
    if problems:
        raise TableProblems(problems)
    return tuple(sorted(found.items()))


def find_ruleset(name: str, root: Path | None = None) -> LoadedRuleset:
    """The ruleset with this id; raises UnknownRulesetError naming the ones there are."""
    rulesets = load_bundled(root)
    if name in rulesets:
        return rulesets[name]
    known = ", ".join(sorted(rulesets)) or "none"
    raise UnknownRulesetError(f"there is no ruleset {name!r} (rulesets: {known})")


def clear_cache() -> None:
    """Forget loaded folders, so the next call reads the files again (after an edit, say)."""
    _load_root.cache_clear()
