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


# -- shards ----------------------------------------------------------------------------------


def test_without_shard_settings_one_process_runs_what_discord_recommends() -> None:
    settings = Settings.from_env({})
    assert (settings.shard_count, settings.shard_ids) == (None, None)
    assert settings.runs_shard_zero


@pytest.mark.parametrize(
    ("count", "shards", "ids"),
    [
        ("4", "", None),
        ("4", "0-3", (0, 1, 2, 3)),
        ("6", "2-3", (2, 3)),
        ("6", "5", (5,)),
        ("6", "4, 0,2", (0, 2, 4)),
        ("8", "0-1,6-7", (0, 1, 6, 7)),
    ],
)
def test_shard_ranges(count: str, shards: str, ids: tuple[int, ...] | None) -> None:
    shared = {"CHAOS_DATABASE_URL": "postgresql://db/chaos"}  # part of the shards needs it
    settings = Settings.from_env({"CHAOS_SHARD_COUNT": count, "CHAOS_SHARDS": shards, **shared})
    assert settings.shard_count == int(count)
    assert settings.shard_ids == ids
    assert settings.runs_shard_zero is (ids is None or 0 in ids)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"CHAOS_SHARD_COUNT": "0"}, "CHAOS_SHARD_COUNT must be a number of shards"),
        ({"CHAOS_SHARD_COUNT": "two"}, "CHAOS_SHARD_COUNT must be a number of shards"),
        ({"CHAOS_SHARDS": "0-1"}, "CHAOS_SHARDS needs CHAOS_SHARD_COUNT"),
        ({"CHAOS_SHARD_COUNT": "4", "CHAOS_SHARDS": "a-b"}, "CHAOS_SHARDS must be shard ids"),
        ({"CHAOS_SHARD_COUNT": "4", "CHAOS_SHARDS": "1-"}, "CHAOS_SHARDS must be shard ids"),
        ({"CHAOS_SHARD_COUNT": "4", "CHAOS_SHARDS": "0,,1"}, "CHAOS_SHARDS must be shard ids"),
        ({"CHAOS_SHARD_COUNT": "4", "CHAOS_SHARDS": "-1"}, "CHAOS_SHARDS must be shard ids"),
        ({"CHAOS_SHARD_COUNT": "4", "CHAOS_SHARDS": "3-1"}, "runs backwards"),
        ({"CHAOS_SHARD_COUNT": "4", "CHAOS_SHARDS": "2-5"}, "below CHAOS_SHARD_COUNT \\(4"),
        ({"CHAOS_SHARD_COUNT": "4", "CHAOS_SHARDS": "4"}, "not 4"),
        ({"CHAOS_SHARD_COUNT": "4", "CHAOS_SHARDS": "1,0-2"}, "names a shard twice"),
        ({"CHAOS_HEALTH_SECONDS": "soon"}, "CHAOS_HEALTH_SECONDS must be a number of seconds"),
    ],
)
def test_bad_shard_settings_are_one_line(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        Settings.from_env(env)
    assert "\n" not in str(caught.value)


def test_the_health_line_interval() -> None:
    assert Settings.from_env({}).health_seconds == 60.0
    assert Settings.from_env({"CHAOS_HEALTH_SECONDS": "2"}).health_seconds == 2.0


# -- the database ------------------------------------------------------------------------------


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


def test_settings_refuse_part_of_the_shards_on_sqlite() -> None:
    part = {"CHAOS_SHARD_COUNT": "4", "CHAOS_SHARDS": "0-1"}
    with pytest.raises(ConfigError) as caught:
        Settings.from_env(part)
    assert str(caught.value) == SHARED_SQLITE
    assert Settings.from_env({**part, "CHAOS_SHARDS": "0-3"}).shard_ids == (0, 1, 2, 3)
    assert Settings.from_env({**part, "CHAOS_DATABASE_URL": "postgresql://db/x"}).shard_ids == (
        0,
        1,
    )


def test_the_live_pages_are_off_unless_a_port_is_set() -> None:
    assert Settings.from_env({}).web_port is None
    settings = Settings.from_env(
        {
            "CHAOS_WEB_PORT": "8080",
            "CHAOS_WEB_HOST": "0.0.0.0",
            "CHAOS_WEB_URL": "https://chaos.example.org/",
        }
    )
    assert (settings.web_port, settings.web_host) == (8080, "0.0.0.0")
    assert settings.web_url == "https://chaos.example.org/"
    assert Settings.from_env({"CHAOS_WEB_PORT": "8080"}).web_host == "127.0.0.1"


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("CHAOS_WEB_PORT", "http", "CHAOS_WEB_PORT must be a port number"),
        ("CHAOS_WEB_PORT", "0", "CHAOS_WEB_PORT must be a port number"),
        ("CHAOS_WEB_PORT", "70000", "CHAOS_WEB_PORT must be a port number up to 65535"),
        ("CHAOS_WEB_URL", "chaos.example.org", "CHAOS_WEB_URL must be a URL starting with http"),
    ],
)
def test_bad_web_settings_are_named_in_one_line(name: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Settings.from_env({name: value})
