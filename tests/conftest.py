"""What the whole test run shares: one line at the end for the PostgreSQL cases skipped."""

from __future__ import annotations

import pytest

from tests import postgres


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Without a PostgreSQL server, its cases are skipped; say so once, not once per case."""
    if postgres.skipped:
        terminalreporter.write_line(
            f"PostgreSQL: {len(postgres.skipped)} cases skipped: {postgres.UNREACHABLE}",
            yellow=True,
        )
