"""The direction of imports: the engine imports nothing of ours and no I/O; nothing imports cogs."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGINE = sorted((ROOT / "bot" / "engine").glob("*.py"))
FORBIDDEN_IN_ENGINE = {"discord", "aiosqlite", "yaml", "dotenv", "asyncio", "sqlite3", "os", "io"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


@pytest.mark.parametrize("path", ENGINE, ids=lambda p: p.name)
def test_engine_module_stays_pure(path: Path) -> None:
    """Engine modules import only the standard library's pure parts and other engine modules."""
    for module in imported_modules(path):
        top = module.split(".")[0]
        assert top not in FORBIDDEN_IN_ENGINE, f"{path.name} imports {module}"
        if top in {"bot", "cogs"}:
            assert module.startswith("bot.engine"), f"{path.name} imports {module}"


def test_nothing_imports_a_cog() -> None:
    for path in sorted((ROOT / "bot").rglob("*.py")):
        for module in imported_modules(path):
            assert not module.startswith("cogs"), f"{path.relative_to(ROOT)} imports {module}"


def test_engine_has_no_file_access() -> None:
    """No open() in the engine: it gets its data from its callers."""
    for path in ENGINE:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = [
            n
            for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "open"
        ]
        assert not calls, f"{path.name} opens a file"


def test_sql_lives_only_in_the_store() -> None:
    """Only bot/store/ talks to the database; everything else goes through its methods."""
    store = ROOT / "bot" / "store"
    for path in sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")]):
        if store in path.parents:
            continue
        for module in imported_modules(path):
            top = module.split(".")[0]
            assert top not in {"sqlite3", "aiosqlite"}, f"{path.relative_to(ROOT)} imports {module}"


COGS = sorted(p for p in (ROOT / "cogs").glob("*.py") if p.name != "__init__.py")
# What a cog may use of ours: the shared Discord flow, the text commands' helpers, the engine's
# actions (to say which action a command means), the renderer, errors, and the tables' loader
# (for /table). Rules, the service's internals and the store are out of reach.
COG_MAY_IMPORT = (
    "bot.client",
    "bot.commands",
    "bot.engine.actions",
    "bot.engine.errors",
    "bot.errors",
    "bot.render",
    "bot.store",  # GuildSettings and records only, as values
    "bot.tables",
)


def imported_names(path: Path) -> set[str]:
    """Like imported_modules, but ``from bot.engine import actions`` gives bot.engine.actions."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


@pytest.mark.parametrize("path", COGS, ids=lambda p: p.name)
def test_cogs_stay_thin(path: Path) -> None:
    """A cog parses options and calls the shared flow; it decides no rule and touches no SQL."""
    for name in imported_names(path):
        if name.split(".")[0] in {"bot", "cogs"}:
            assert name.startswith(COG_MAY_IMPORT), f"cogs/{path.name} imports {name}"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    state_reads = [
        n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr in {"rolled", "seq"}
    ]
    assert not state_reads, f"cogs/{path.name} reads the game's state to decide something"
