"""`make run` on a fresh clone installs only what the bot needs: requirements.lock, checked
against its hashes, a line per step, and a `.venv` well under 100 MB (the development tools
made it 342 MB). The copy of the repository is the files a clone has (and any not committed
yet); the install is real, from the package index pip is configured with. The bot itself on
this install is run by tests/test_hosting.py, whose image installs the same lock alone.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.container import ROOT, run

LEAN_MB = 100  # the goal of issue 25


def size_mb(folder: Path) -> float:
    total = sum(path.lstat().st_size for path in folder.rglob("*") if not path.is_symlink())
    return total / 1_000_000


def test_make_install_on_a_fresh_clone_is_the_runtime_lock_alone() -> None:
    # Not under tmp_path, whose files the loop watchdog reads as logs (tests/watchdog.py): the
    # docs' example stall lines are not this test's.
    with tempfile.TemporaryDirectory() as work:
        installed_and_run(Path(work) / "clone")


def installed_and_run(clone: Path) -> None:
    listed = run("git", "ls-files", "--cached", "--others", "--exclude-standard", cwd=ROOT)
    for name in listed.stdout.splitlines():
        if (ROOT / name).is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            (clone / name).write_bytes((ROOT / name).read_bytes())
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CHAOS_", "DISCORD_"))}
    started = time.monotonic()
    made = subprocess.run(
        ["make", "install", f"PYTHON={sys.executable}"],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    took = time.monotonic() - started
    assert made.returncode == 0, made.stdout[-3000:] + made.stderr[-3000:]
    venv = clone / ".venv"
    mb = size_mb(venv)
    print(f"\nlean install: {took:.1f} s, .venv {mb:.0f} MB")
    # A line per step, and pip's own per package.
    packages = sum(
        1 for line in (ROOT / "requirements.lock").read_text().splitlines() if line[:1].isalnum()
    )
    assert f"== the bot: installing {packages} packages from requirements.lock" in made.stdout
    assert "Successfully installed" in made.stdout
    assert mb < LEAN_MB, f".venv is {mb:.0f} MB"
    installed = run(str(venv / "bin" / "python"), "-m", "pip", "list", "--format=freeze").stdout
    names = {line.split("==")[0].lower() for line in installed.splitlines()}
    assert {"discord.py", "aiohttp", "asyncpg", "pyyaml"} <= names
    assert not names & {"pytest", "mypy", "ruff", "playwright", "hypothesis"}, names
    # And the offline console runs on it.
    console = subprocess.run(
        [str(venv / "bin" / "chaos-referee"), "play", "--players", "Ann,Bob"],
        input="help\n",
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert console.returncode == 0, console.stderr
    assert "Commands (type `help GROUP` for details):" in console.stdout
