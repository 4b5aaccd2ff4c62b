"""Every benchmark the README and docs/ show runs as written (`.venv/bin/python bench/X.py`).

The figures are the scripts' own business (measured on a quiet machine, never asserted here);
what this guards is that each script the docs send a reader to still starts, and that the ones
issue 22 measures with run end to end at a small size and print what the docs say they print.
`bench/hostile.py` once crashed as written after autocomplete began leaving outdated keystrokes
unanswered: this is the test that would have said so.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHOWN = re.compile(r"\bbench/(\w+)\.py\b")

# Issue 22's benches at a small size, and a line each must print.
SMALL = {
    "hostile": (
        ["--attacks", "10", "--streams", "20", "--guesses", "20"],
        "views of made-up links",
    ),
    "autocomplete": (["--repeat", "1", "--floods", "1"], "goal: at most 5 ms at p99"),
    "page_flood": (["--streams", "20", "--reloads", "2"], "/game link revoke answered in"),
    "hostile_text": (["--repeat", "1"], "as Ann: chaos roll"),
    "restart": (["--runs", "1", "--down", "1"], "acknowledged actions lost:                  0"),
    # Publishing against the action it follows, at the shortest length it measures.
    "publish": (["--actions", "200", "--repeat", "20"], "\n    200 "),  # its row at 200
    # What a roll's CPU is made of: every way runs (the bench stops if a part wasn't taken away).
    "roll_parts": (
        ["--bursts", "1", "--burst", "40", "--channels", "4"],
        "the service alone",
    ),
    # Issue 27's goal lines, in the form tools read: `goal NAME: VALUE (<= BOUND) PASS|FAIL`.
    "discord_bench": (
        ["--runs", "1", "--rounds", "20", "--burst", "40", "--channels", "4"],
        "goal cpu: ",
    ),
}


GOAL_LINE = r"^goal (own-work|burst|cpu): \d+\.\d\d \(<= [\d.]+\) (PASS|FAIL)$"


def shown() -> set[str]:
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return {name for text in texts for name in SHOWN.findall(text.read_text(encoding="utf-8"))}


def run(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, f"bench/{name}.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_every_bench_the_docs_show_is_there_and_starts() -> None:
    names = shown()
    assert set(SMALL) <= names
    for name in sorted(names):
        result = run(name, "--help")
        assert result.returncode == 0, f"bench/{name}.py --help: {result.stderr[-2000:]}"


@pytest.mark.parametrize("name", sorted(SMALL))
def test_issue_22s_benches_run_end_to_end(name: str) -> None:
    args, says = SMALL[name]
    result = run(name, *args)
    assert result.returncode == 0, f"bench/{name}.py {' '.join(args)}:\n{result.stderr[-3000:]}"
    assert says in result.stdout, result.stdout[-3000:]
    assert "Traceback" not in result.stderr
    if name == "discord_bench":
        goals = re.findall(GOAL_LINE, result.stdout, re.M)
        assert [g[0] for g in goals] == ["own-work", "burst", "cpu"], result.stdout[-3000:]
