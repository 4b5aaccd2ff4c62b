"""The fake Discord for the sharded bot's tests; their PostgreSQL databases come from
``tests/conftest.py`` (``postgres_url``), as every other test's do."""

from __future__ import annotations

from tests.fakediscord.plugin import fake_discord

__all__ = ["fake_discord"]
