"""The errors a table author meets: one located problem, and all the problems of one load.

Every message names the file, the line and the key path, e.g.::

    tables/classic/chaos.yaml:214 entries[153].roll.times: expected a positive integer or dice
    like 1d3, got 'three'

Both classes derive from the engine's :class:`TableError`, so every front end already shows them.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.engine.errors import TableError

Key = str | int
KeyPath = tuple[Key, ...]


def format_path(path: KeyPath) -> str:
    """``("entries", 153, "roll", "times")`` as ``entries[153].roll.times``."""
    out = ""
    for key in path:
        if isinstance(key, int):
            out += f"[{key}]"
        else:
            out += f".{key}" if out else key
    return out


class TableFileError(TableError):
    """One problem in one file, at a line and a key path."""

    def __init__(self, file: str, line: int, path: str, message: str) -> None:
        self.file = file
        self.line = line
        self.path = path
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}"
        return f"{where} {self.path}: {self.message}" if self.path else f"{where}: {self.message}"

    def sort_key(self) -> tuple[str, int, str]:
        return (self.file, self.line, self.path)


class TableProblems(TableError):
    """Every problem found while loading some files; ``str()`` gives one line per problem."""

    def __init__(self, problems: Iterable[TableFileError]) -> None:
        self.problems = tuple(sorted(problems, key=TableFileError.sort_key))
        super().__init__(str(self))

    def __str__(self) -> str:
        return "\n".join(str(problem) for problem in self.problems)

    @property
    def files(self) -> tuple[str, ...]:
        """The files that have problems, each once, in order."""
        return tuple(dict.fromkeys(problem.file for problem in self.problems))


class UnknownRulesetError(TableError, LookupError):
    """No ruleset by that name among the ones found."""
