"""Every regular expression in the bot's code, found without anyone listing them.

Two searches that check each other:

* **The source**: every ``re.compile``, ``re.search``, ``re.sub``... call in ``bot/`` and
  ``cogs/``. Its pattern must be text the check can read before the bot runs: a string, a
  sum of strings, or a module's constant. A pattern built at run time can't be checked, and
  is reported with what to do instead.
* **The modules**: every ``re.Pattern`` a module holds once imported, at its top level, in
  its classes (discord.py compiles a ``DynamicItem``'s template there) and in its tables, so
  a pattern made by a library from our text is found too.

How each is run (search, match, fullmatch) is read from the calls made on it; a pattern used
any other way (handed to a function, say) is checked as run every way.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "cogs")
RUNS = frozenset({"search", "match", "fullmatch", "sub", "subn", "split", "findall", "finditer"})
EVERY_WAY = frozenset({"search", "match", "fullmatch"})
# Pattern attributes that only describe it: using them doesn't run it.
_DESCRIBES = frozenset({"pattern", "flags", "groups", "groupindex"})


@dataclass(frozen=True)
class Regex:
    """One pattern of ours: its text and flags, where it is, and the methods that run it."""

    where: str  # "bot/notation.py:106 _EXPLODE"
    pattern: str
    flags: int
    runs: frozenset[str]


def modules(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> list[tuple[str, Path]]:
    """Every module of ours (name, file), in a fixed order."""
    found = []
    for package in packages:
        for file in sorted((root / package).rglob("*.py")):
            if file.name == "__main__.py":  # runs the bot when imported; it holds no pattern
                continue
            parts = file.relative_to(root).with_suffix("").parts
            found.append((".".join(parts[:-1] if parts[-1] == "__init__" else parts), file))
    return found


def inventory(
    root: Path = ROOT, packages: tuple[str, ...] = PACKAGES
) -> tuple[list[Regex], list[str]]:
    """Every regular expression in our code, and a sentence for each one that can't be checked."""
    found: dict[tuple[str, int], Regex] = {}
    problems: list[str] = []
    runs = _runs(modules(root, packages))
    for name, file in modules(root, packages):
        module = importlib.import_module(name)
        tree = ast.parse(file.read_text(encoding="utf-8"), str(file))
        place = file.relative_to(root).as_posix()
        for regex in _calls(tree, module, place, problems):
            _add(found, regex)
        for label, pattern in _held(module):
            how = runs.get(name, {}).get(label, EVERY_WAY)
            _add(found, Regex(f"{place} {label}", pattern.pattern, pattern.flags, how))
    return sorted(found.values(), key=lambda r: r.where), problems


def _add(found: dict[tuple[str, int], Regex], regex: Regex) -> None:
    """One entry a pattern, run every way any of its finders says it is."""
    key = (regex.pattern, regex.flags)
    known = found.get(key)
    if known is None:
        found[key] = regex
    elif not regex.runs <= known.runs:
        found[key] = Regex(known.where, known.pattern, known.flags, known.runs | regex.runs)


def _held(module: Any) -> Iterator[tuple[str, re.Pattern[str]]]:
    """The patterns a module holds: at its top level, in its classes, in its tables."""
    for name, value in vars(module).items():
        if isinstance(value, type) and value.__module__ == module.__name__:
            for attr, held in vars(value).items():
                if isinstance(held, re.Pattern):
                    yield f"{name}.{attr}", held
        else:
            for held in _inside(value, 4):
                yield name, held


def _inside(value: Any, depth: int) -> Iterator[re.Pattern[str]]:
    if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
        yield value
    elif depth and isinstance(value, dict):
        for item in value.values():
            yield from _inside(item, depth - 1)
    elif depth and isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from _inside(item, depth - 1)


def _calls(tree: ast.Module, module: Any, place: str, problems: list[str]) -> Iterator[Regex]:
    """The ``re.<function>(...)`` calls in one module, with their patterns read."""
    held = {  # `_P = re.compile(...)` at the top: checked as the module holds it once imported
        id(node.value): node.targets[0].id
        for node in tree.body
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and isinstance(getattr(module, node.targets[0].id, None), re.Pattern)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom) and _hides_re(node):
            problems.append(
                f"{place}:{node.lineno}: import re and call re.compile(...) or re.search(...),"
                " so the regex guard can find every pattern"
            )
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
            and (node.func.attr in RUNS or node.func.attr == "compile")
        ):
            continue
        where = f"{place}:{node.lineno}"
        if id(node) in held:
            continue
        text = _argument(node, 0, "pattern")
        pattern = _constant(text, module) if text is not None else None
        flags = _flags(_argument(node, _FLAGS_AT[node.func.attr], "flags"), module)
        if not isinstance(pattern, str) or flags is None:
            shown = ast.unparse(text) if text is not None else "nothing"
            problems.append(
                f"{where}: re.{node.func.attr} is given {shown}, a pattern (or flags) built"
                " while the bot runs, which the regex guard can't check. Write the pattern out"
                " (a string, or a module constant), or read the text without a regular"
                " expression."
            )
            continue
        how = EVERY_WAY if node.func.attr == "compile" else frozenset({node.func.attr})
        yield Regex(f"{where} re.{node.func.attr}", pattern, flags, how)


def _hides_re(node: ast.Import | ast.ImportFrom) -> bool:
    """`from re import search` or `import re as rx`: calls the scan wouldn't see as re's."""
    if isinstance(node, ast.ImportFrom):
        return node.module == "re"
    return any(alias.name == "re" and alias.asname for alias in node.names)


_FLAGS_AT = {
    "compile": 1,
    "search": 2,
    "match": 2,
    "fullmatch": 2,
    "findall": 2,
    "finditer": 2,
    "split": 3,
    "sub": 4,
    "subn": 4,
}


def _argument(call: ast.Call, at: int, keyword: str) -> ast.expr | None:
    if len(call.args) > at:
        return call.args[at]
    return next((k.value for k in call.keywords if k.arg == keyword), None)


def _constant(node: ast.expr, module: Any) -> object:
    """The value of a constant expression: strings, sums of them, and module constants."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return getattr(module, node.id, None)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.BitOr):
        left, right = _constant(node.left, module), _constant(node.right, module)
        if isinstance(left, str) and isinstance(right, str) and isinstance(node.op, ast.Add):
            return left + right
        if isinstance(left, int) and isinstance(right, int) and isinstance(node.op, ast.BitOr):
            return left | right
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "re"
    ):
        flag = getattr(re, node.attr, None)
        return int(flag) if isinstance(flag, int) else None
    if isinstance(node, ast.JoinedStr):
        parts = [
            _constant(v.value if isinstance(v, ast.FormattedValue) else v, module)
            for v in node.values
        ]
        if all(isinstance(p, str) for p in parts) and all(
            not isinstance(v, ast.FormattedValue) or (v.conversion == -1 and v.format_spec is None)
            for v in node.values
        ):
            return "".join(str(p) for p in parts)
    return None


def _flags(node: ast.expr | None, module: Any) -> int | None:
    if node is None:
        return 0
    value = _constant(node, module)
    return value if isinstance(value, int) else None


def _runs(files: list[tuple[str, Path]]) -> dict[str, dict[str, frozenset[str]]]:
    """How each module-level pattern is run: module -> name -> methods, from every call on
    it in our code (``_X.fullmatch(...)``, or ``module._X.search(...)`` from elsewhere)."""
    seen: dict[tuple[str, str], set[str]] = {}
    for name, file in files:
        tree = ast.parse(file.read_text(encoding="utf-8"), str(file))
        imported = {  # local name -> (module, name) for `from bot.x import _P`
            alias.asname or alias.name: (node.module, alias.name)
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module
            for alias in node.names
        }
        parents = {
            child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                owner = imported.get(node.id, (name, node.id))
                parent = parents.get(node)
                how = "*"
                if isinstance(parent, ast.Attribute) and parent.value is node:
                    how = parent.attr
                    if how in _DESCRIBES:
                        continue
                    called = parents.get(parent)
                    if (
                        how not in RUNS
                        or not isinstance(called, ast.Call)
                        or called.func is not parent
                    ):
                        how = "*"
                seen.setdefault(owner, set()).add(how)
    runs: dict[str, dict[str, frozenset[str]]] = {}
    for (module, attr), hows in seen.items():
        runs.setdefault(module, {})[attr] = EVERY_WAY if "*" in hows else frozenset(hows)
    return runs
