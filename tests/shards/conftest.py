"""The fake Discord for the sharded bot's tests; PostgreSQL databases come from ``tests/conftest.py``
(``postgres_url``), as for every other test."""

from __future__ import annotations

from tests.fakediscord.plugin import fake_discord

__all__ = ["fake_discord"]
