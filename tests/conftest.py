"""What the whole test run shares: a fresh PostgreSQL database for a test that asks for one, one
line at the end for the PostgreSQL cases skipped, and the loop watchdog over every bot a test
runs (:mod:`tests.watchdog`, which says what start-up work is exempt, and why)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests import postgres

pytest_plugins = ["tests.watchdog"]


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """The URL of a new database at the newest schema, dropped (with its connections) afterwards.

    Without a server the test is skipped and counted for the run's one line; under
    ``CHAOS_REQUIRE_POSTGRES=1`` it fails instead (see :mod:`tests.postgres`).
    """
    with postgres.fresh_database() as url:
        yield url


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Without a PostgreSQL server, its cases are skipped; say so once, not once per case."""
    if postgres.skipped:
        terminalreporter.write_line(
            f"PostgreSQL: {len(postgres.skipped)} cases skipped: {postgres.UNREACHABLE}",
            yellow=True,
        )
