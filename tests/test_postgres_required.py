"""CI can't skip the PostgreSQL tests: `.ci/run` sets ``CHAOS_REQUIRE_POSTGRES=1``, and with it a
server out of reach fails the run instead of skipping its cases. Without it (a developer's machine
with no server) the cases are skipped, and the run says so in one line.

Each case runs one real PostgreSQL test in a child pytest pointed at a port nothing listens on.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ONE_CASE = "tests/store/test_store.py::test_a_ping_measures_the_database_latency[postgres]"
DEAD = "postgresql://postgres@127.0.0.1:9"


def run_one(required: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CHAOS_REQUIRE_POSTGRES"}
    env["CHAOS_TEST_POSTGRES"] = DEAD
    if required:
        env["CHAOS_REQUIRE_POSTGRES"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", ONE_CASE],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=env,
    )


def test_ci_sets_the_requirement() -> None:
    assert "export CHAOS_REQUIRE_POSTGRES=1" in (ROOT / ".ci" / "run").read_text()


@pytest.mark.parametrize("required", [True, False], ids=["required", "optional"])
def test_a_missing_server_fails_when_required_and_is_one_line_otherwise(required: bool) -> None:
    result = run_one(required)
    if required:
        assert result.returncode != 0, result.stdout
        assert "CHAOS_REQUIRE_POSTGRES=1, but no PostgreSQL server answers" in result.stdout
        assert " skipped" not in result.stdout
    else:
        assert result.returncode == 0, result.stdout
        lines = [line for line in result.stdout.splitlines() if "cases skipped" in line]
        assert lines == [
            f"PostgreSQL: 1 cases skipped: no PostgreSQL server answers at {DEAD}"
            " (start it, or set CHAOS_REQUIRE_POSTGRES=1 to make this a failure)"
        ]
