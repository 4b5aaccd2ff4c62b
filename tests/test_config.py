"""Settings from the environment: defaults, every variable, and clear one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import SHARED_SQLITE, Settings, refuse_shared_sqlite
from bot.engine.errors import ChaosError
from bot.errors import ConfigError


def test_defaults_from_an_empty_environment() -> None:
    settings = Settings.from_env({})
    assert settings == Settings()
    assert settings.token is None
    assert settings.db_path == Path("chaos-referee.db")
    assert (settings.log_level, settings.idle_days, settings.dev_guild) == ("INFO", 30, None)


def test_every_variable() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": " abc.def ",
            "CHAOS_DB_PATH": "~/games.db",
            "CHAOS_DEV_GUILD_ID": "123456789012345678",
            "CHAOS_LOG_LEVEL": "debug",
            "CHAOS_IDLE_DAYS": "7",
            "DISCORD_API_BASE": "https://proxy.example/api/v10",
            "DISCORD_GATEWAY_URL": "wss://gateway.example",
        }
    )
    assert settings.token == "abc.def"
    assert settings.db_path == Path("~/games.db").expanduser()
    assert settings.dev_guild == 123456789012345678
    assert (settings.log_level, settings.idle_days) == ("DEBUG", 7)
    assert settings.api_base == "https://proxy.example/api/v10"
    assert settings.gateway_url == "wss://gateway.example"


def test_empty_values_count_as_unset() -> None:
    empty = dict.fromkeys(("DISCORD_TOKEN", "CHAOS_DB_PATH", "CHAOS_IDLE_DAYS"), "")
    assert Settings.from_env(empty) == Settings()


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("CHAOS_DEV_GUILD_ID", "my server", "CHAOS_DEV_GUILD_ID must be a Discord server id"),
        ("CHAOS_IDLE_DAYS", "0", "CHAOS_IDLE_DAYS must be a number of days"),
        ("CHAOS_IDLE_DAYS", "-3", "CHAOS_IDLE_DAYS must be a number of days"),
        ("CHAOS_IDLE_DAYS", "99999", "CHAOS_IDLE_DAYS must be at most 3650"),
        ("CHAOS_LOG_LEVEL", "loud", "CHAOS_LOG_LEVEL must be one of DEBUG, INFO"),
        ("DISCORD_API_BASE", "proxy:8080", "DISCORD_API_BASE must be a URL starting with http"),
        ("DISCORD_GATEWAY_URL", "https://x", "DISCORD_GATEWAY_URL must be a URL starting with ws"),
    ],
)
def test_bad_values_are_named_in_one_line(name: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        Settings.from_env({name: value})
    assert isinstance(caught.value, ChaosError)
    assert "\n" not in str(caught.value)
    assert repr(value) in str(caught.value)


def test_a_postgresql_url_chooses_postgresql() -> None:
    url = "postgresql://chaos:secret@db.example:5432/chaos"
    settings = Settings.from_env({"CHAOS_DATABASE_URL": url, "CHAOS_DB_PATH": "games.db"})
    assert settings.database_url == url
    assert settings.database == url
    assert Settings.from_env({"CHAOS_DB_PATH": "games.db"}).database == Path("games.db")


def test_a_database_url_that_is_not_postgresql_is_refused_without_repeating_it() -> None:
    with pytest.raises(ConfigError, match="CHAOS_DATABASE_URL must be a PostgreSQL URL") as caught:
        Settings.from_env({"CHAOS_DATABASE_URL": "mysql://root:hunter2@db/chaos"})
    assert "hunter2" not in str(caught.value)
    assert "'mysql'" in str(caught.value)


@pytest.mark.parametrize(
    ("url", "shards", "count", "refused"),
    [
        (None, None, None, False),  # one process, every shard: SQLite is right
        (None, [0, 1, 2, 3], 4, False),  # every shard named: still the whole bot
        (None, [0, 1], 4, True),
        (None, [2, 3], None, True),
        ("postgresql://db/chaos", [0, 1], 4, False),
    ],
)
def test_part_of_the_shards_on_sqlite_is_refused_with_the_reason(
    url: str | None, shards: list[int] | None, count: int | None, refused: bool
) -> None:
    if not refused:
        refuse_shared_sqlite(url, shards, count)
        return
    with pytest.raises(ConfigError, match="can't be shared between processes") as caught:
        refuse_shared_sqlite(url, shards, count)
    assert str(caught.value) == SHARED_SQLITE
    assert "\n" not in SHARED_SQLITE
