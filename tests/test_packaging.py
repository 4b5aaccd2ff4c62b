"""Installing the project as `make` does prints no packaging warning: the license is an SPDX
string (PEP 639), and the editable install is a plain path entry."""

from __future__ import annotations

import os
import re
import subprocess
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# pip's note about an index in the machine's pip configuration that isn't there: not ours.
PIP_CONFIG_NOTE = re.compile(r"WARNING: Location '.*' is ignored: .*")


def test_an_editable_install_prints_no_warning(tmp_path: Path) -> None:
    venv.create(tmp_path / "venv", with_pip=True)
    python = tmp_path / "venv" / "bin" / "python"
    result = subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", "-e", str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    said = [
        line
        for line in (result.stdout + result.stderr).splitlines()
        if not PIP_CONFIG_NOTE.fullmatch(line.strip())
    ]
    text = "\n".join(said)
    assert "Successfully installed chaos-referee" in text
    assert "license" not in text.lower(), text
    assert "deprecat" not in text.lower(), text
    assert "Warning" not in text, text
    assert "WARNING" not in text, text
    (metadata,) = (tmp_path / "venv").glob("lib/python*/site-packages/chaos_referee-*/METADATA")
    assert "License-Expression: MIT" in metadata.read_text().splitlines()
