"""Files the bot writes for a person: only regular files, and never half of one.

`game export FIFO` used to hang the console (opening a named pipe for writing waits for a reader);
`table export` and `tables import -o DIR` wrote the same way. Each writer is run here for real (the
console and the CLI as subprocesses) against a pipe, a device and a folder, and one check keeps
every other write in ``bot/`` and ``cogs/`` going through :func:`bot.writing.write_regular`.
"""

from __future__ import annotations

import ast
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from bot.writing import NotAFileError, write_regular

ROOT = Path(__file__).resolve().parent.parent
SMALL = ROOT / "tests" / "data" / "dealpete" / "small.yaml"
BOT = (sys.executable, "-m", "bot")
TIMEOUT = 30  # a hang is what failed: every run here ends in seconds or fails


def console(folder: Path, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "play", "--db", str(folder / "games.db"), "--seed", "3"],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=folder,
        env={k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"},
    )


def not_files(folder: Path) -> dict[Path, str]:
    """A named pipe, a link to a device and a folder, with what the refusal calls each."""
    os.mkfifo(folder / "pipe.jsonl")
    (folder / "full.jsonl").symlink_to("/dev/full")
    (folder / "dir.jsonl").mkdir()
    return {
        folder / "pipe.jsonl": "it is a named pipe (FIFO), not a file",
        folder / "full.jsonl": "it is a device, not a file",
        folder / "dir.jsonl": "it is a folder, not a file",
    }


def test_game_export_refuses_a_pipe_a_device_and_a_folder(tmp_path: Path) -> None:
    targets = not_files(tmp_path)
    commands = "".join(f"game export {path}\n" for path in targets)
    result = console(tmp_path, f"game start classic\n{commands}game export {tmp_path / 'ok'}\n")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    for path, words in targets.items():
        assert f"can't write {path}: {words}" in result.stdout
    assert stat.S_ISFIFO((tmp_path / "pipe.jsonl").lstat().st_mode)  # left as it was
    assert (tmp_path / "ok").read_text().count("\n") >= 1  # a file is still written


def test_table_export_refuses_a_pipe(tmp_path: Path) -> None:
    targets = not_files(tmp_path)
    table = ROOT / "tables" / "classic" / "wacky.yaml"
    commands = "".join(f"table export wacky {path}\n" for path in targets)
    result = console(tmp_path, f"table import {table}\n{commands}")
    assert result.returncode == 0, result.stderr
    for path, words in targets.items():
        assert f"can't write {path}: {words}" in result.stdout


def test_tables_import_refuses_a_pipe_in_the_output_folder(tmp_path: Path) -> None:
    def run(out: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [
                *BOT,
                "tables",
                "import",
                str(SMALL),
                "--from",
                "dealpete",
                "-o",
                str(out),
                "--overwrite",
            ],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )

    first = run(tmp_path / "first")
    assert first.returncode == 0, first.stderr
    name = sorted(p.name for p in (tmp_path / "first").iterdir())[0]
    (tmp_path / "second").mkdir()
    os.mkfifo(tmp_path / "second" / name)
    second = run(tmp_path / "second")
    assert second.returncode != 0
    assert "Traceback" not in second.stderr
    assert "it is a named pipe (FIFO), not a file" in second.stderr


def test_a_failed_write_leaves_the_old_file_whole(tmp_path: Path) -> None:
    """The text goes in beside the target and replaces it only when whole: text that can't be
    encoded (a lone surrogate) fails before the target changes, and leaves no stray file."""
    target = tmp_path / "log.jsonl"
    target.write_text("old\n")
    target.chmod(0o640)
    with pytest.raises(UnicodeEncodeError):
        write_regular(target, "new\n" * 1000 + "\udc80")
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.jsonl"]
    write_regular(target, "new\n")
    assert target.read_text() == "new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # a replaced file keeps its permissions


def test_a_link_is_written_through(tmp_path: Path) -> None:
    (tmp_path / "real.jsonl").write_text("old\n")
    (tmp_path / "link.jsonl").symlink_to(tmp_path / "real.jsonl")
    write_regular(tmp_path / "link.jsonl", "new\n")
    assert (tmp_path / "link.jsonl").is_symlink()
    assert (tmp_path / "real.jsonl").read_text() == "new\n"
    (tmp_path / "null").symlink_to(os.devnull)
    with pytest.raises(NotAFileError, match="it is a device, not a file"):
        write_regular(tmp_path / "null", "x")


# -- the class: nothing else writes files --------------------------------------------------------

WRITERS = {"write_text", "write_bytes", "mkfifo"}
WRITE_FLAGS = {"O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"}
# Where a write is the point and no person names the file.
ALLOWED = {
    "bot/writing.py": "the one writer of files people name",
    "bot/cli.py": "points stdout at os.devnull when the console runs detached",
}


def _writes(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in WRITERS:
            lines.append(node.lineno)
        elif name in ("open", "fdopen"):
            modes = [a for a in node.args[1:2] if isinstance(a, ast.Constant)]
            modes += [k.value for k in node.keywords if k.arg == "mode"]  # type: ignore[misc]
            flags = {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
            written = any(
                isinstance(m, ast.Constant) and set(str(m.value)) & set("wax+") for m in modes
            )
            if written or flags & WRITE_FLAGS:
                lines.append(node.lineno)
        elif getattr(getattr(func, "value", None), "id", "") == "shutil" and name.startswith(
            ("copy", "move")
        ):
            lines.append(node.lineno)
    return lines


def test_every_file_written_goes_through_write_regular() -> None:
    found = []
    for path in sorted([*ROOT.glob("bot/**/*.py"), *ROOT.glob("cogs/**/*.py")]):
        name = path.relative_to(ROOT).as_posix()
        if name in ALLOWED:
            continue
        found += [f"{name}:{line}" for line in _writes(ast.parse(path.read_text()))]
    assert not found, (
        "these write files directly; write files a person names with bot.writing.write_regular"
        f" (it refuses pipes and devices and never leaves half a file): {found}"
    )


def test_the_check_sees_a_direct_write() -> None:
    planted = ast.parse(
        "Path(x).write_text(t)\nopen(x, 'w')\nos.open(x, os.O_WRONLY)\nshutil.copyfile(a, b)\n"
        "open(x)\nos.open(x, os.O_RDONLY)\n"
    )
    assert _writes(planted) == [1, 2, 3, 4]
