"""The store's contract tests run once per backend: ``database`` is a SQLite file or the URL of a
fresh PostgreSQL database (see :mod:`tests.postgres`), and the test opens it like any other."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgres import fresh_database


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path | str]:
    """Where a test keeps its games: a new SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield tmp_path / "db"
        return
    with fresh_database() as url:
        yield url
