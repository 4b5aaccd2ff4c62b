"""Environments for running the console under a given locale, for tests.

`C.UTF-8` is present everywhere Python runs; Python reads stdin under it with escapes for bad
bytes. A strict UTF-8 locale such as `en_US.UTF-8` makes Python decode stdin strictly, which is
where a stray byte used to end the session. Machines without it get one built with `localedef`
into a folder of the test's, found through LOCPATH, so the test always runs.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

PROBE = "import sys; print(sys.stdin.encoding, sys.stdin.errors)"


def stdin_decoding(env: dict[str, str]) -> str:
    """How a Python started with `env` decodes stdin: ``"utf-8 strict"``, say."""
    found = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=30,
        check=True,
    )
    return found.stdout.strip()


def strict_utf8(base: dict[str, str], folder: Path) -> dict[str, str]:
    """`base` with a strict UTF-8 locale: en_US.UTF-8, built into `folder` if it is missing."""
    env = {**base, "LC_ALL": "en_US.UTF-8"}
    env.pop("PYTHONUTF8", None)
    env.pop("PYTHONIOENCODING", None)
    if stdin_decoding(env) == "utf-8 strict":
        return env
    localedef = shutil.which("localedef")
    assert localedef, "no en_US.UTF-8 locale here, and no localedef to build one"
    # localedef exits 1 for mere warnings, so its result is judged by the probe below.
    subprocess.run(
        [localedef, "-i", "en_US", "-f", "UTF-8", str(folder / "en_US.UTF-8")],
        capture_output=True,
        timeout=120,
        check=False,
    )
    env["LOCPATH"] = str(folder)
    decoding = stdin_decoding(env)
    assert decoding == "utf-8 strict", f"built en_US.UTF-8, but Python reads stdin as {decoding}"
    return env


def c_utf8(base: dict[str, str]) -> dict[str, str]:
    """`base` with the C.UTF-8 locale."""
    env = {**base, "LC_ALL": "C.UTF-8"}
    env.pop("PYTHONUTF8", None)
    env.pop("PYTHONIOENCODING", None)
    return env
