"""The bot's settings, read from the environment.

The entry point loads ``.env`` into the environment first (python-dotenv); this module only reads
variables, so tests pass a plain mapping instead. An empty variable counts as unset. A value the
bot can't use raises :class:`~bot.errors.ConfigError` naming the variable and what it expects.

=======================  ============================================  ========================
variable                 meaning                                       default
=======================  ============================================  ========================
``DISCORD_TOKEN``        the bot's token; without it, the console      none
``CHAOS_DB_PATH``        the SQLite database file                      ``./chaos-referee.db``
``CHAOS_DATABASE_URL``   a PostgreSQL database instead of the file:    none (SQLite)
                         ``postgresql://user:password@host/db``
``CHAOS_DEV_GUILD_ID``   a server to sync commands to while developing none
``CHAOS_LOG_LEVEL``      DEBUG, INFO, WARNING, ERROR or CRITICAL       INFO
``CHAOS_IDLE_DAYS``      days without an action before a game expires  30
``DISCORD_API_BASE``     another REST base URL (a proxy)               Discord's
``DISCORD_GATEWAY_URL``  another gateway URL                           Discord's
``CHAOS_SHARD_COUNT``    shards across all processes (a whole number)  Discord's recommendation
``CHAOS_SHARDS``         this process's shards: ``0-3``, ``5``, ``0,2``  all of them
``CHAOS_HEALTH_SECONDS`` seconds between two health lines in the log   60
``CHAOS_WEB_PORT``       the port of the live game pages               none (no pages)
``CHAOS_WEB_HOST``       the address the pages listen on               ``127.0.0.1``
``CHAOS_WEB_URL``        the pages' public base URL (a reverse proxy)  ``http://HOST:PORT/``
``CHAOS_STALL_WARN_MS``  log a line whenever the event loop was        none (no watchdog)
                         blocked longer than this (milliseconds)
=======================  ============================================  ========================

Sharding: with neither shard variable, one process runs as many shards as Discord recommends.
Several processes share the shards by each naming its own with ``CHAOS_SHARDS`` and the same
``CHAOS_SHARD_COUNT``; only the process with shard 0 publishes the slash commands.

The watchdog (:mod:`bot.watchdog`) starts once the bot is ready: start-up's one-off work (imports,
loading the bundled tables, the first connection) is not what it watches for.

The live game pages (:mod:`bot.web`) are off unless ``CHAOS_WEB_PORT`` is set. They listen on
the loopback address by default: put a reverse proxy (with TLS) in front of them, and give its
address as ``CHAOS_WEB_URL`` so the links the bot hands out point there.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.errors import ConfigError

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
DEFAULT_DB = Path("chaos-referee.db")
MAX_IDLE_DAYS = 3650
HEALTH_SECONDS = 60.0
WEB_HOST = "127.0.0.1"
MAX_PORT = 65535
# What bot.store.contract.is_url takes for PostgreSQL (spelt out: settings import no store).
URL_SCHEMES = ("postgresql://", "postgres://")


@dataclass(frozen=True)
class Settings:
    """Everything the process is configured with; see the module's table."""

    token: str | None = None
    db_path: Path = DEFAULT_DB
    dev_guild: int | None = None
    log_level: str = "INFO"
    idle_days: int = 30
    api_base: str | None = None
    gateway_url: str | None = None
    shard_count: int | None = None  # None: as many as Discord recommends
    shard_ids: tuple[int, ...] | None = None  # None: every shard of shard_count
    health_seconds: float = HEALTH_SECONDS
    database_url: str | None = None
    web_port: int | None = None  # None: no live pages; 0 (tests only): any free port
    web_host: str = WEB_HOST
    web_url: str | None = None  # None: http://web_host:web_port/
    stall_warn_ms: int | None = None  # None: no loop watchdog

    @property
    def runs_shard_zero(self) -> bool:
        """Whether this process holds shard 0, the one that publishes the commands."""
        return self.shard_ids is None or 0 in self.shard_ids

    @property
    def database(self) -> Path | str:
        """Where the games are kept, as ``Store.open`` takes it: the URL if set, else the file."""
        return self.database_url or self.db_path

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Settings from `env` (``os.environ`` by default); raises ConfigError on a bad value."""
        source = os.environ if env is None else env

        def get(name: str) -> str | None:
            value = source.get(name, "").strip()
            return value or None

        db = get("CHAOS_DB_PATH")
        given = get("CHAOS_LOG_LEVEL")
        level = (given or "INFO").upper()
        if level not in LOG_LEVELS:
            choices = ", ".join(LOG_LEVELS)
            raise ConfigError(f"CHAOS_LOG_LEVEL must be one of {choices}, not {given!r}")
        guild = _integer(get("CHAOS_DEV_GUILD_ID"), "CHAOS_DEV_GUILD_ID", "a Discord server id")
        idle = _integer(get("CHAOS_IDLE_DAYS"), "CHAOS_IDLE_DAYS", "a number of days")
        count = _integer(get("CHAOS_SHARD_COUNT"), "CHAOS_SHARD_COUNT", "a number of shards")
        shards = _shards(get("CHAOS_SHARDS"), count)
        health = _integer(
            get("CHAOS_HEALTH_SECONDS"), "CHAOS_HEALTH_SECONDS", "a number of seconds"
        )
        if idle is not None and idle > MAX_IDLE_DAYS:
            raise ConfigError(f"CHAOS_IDLE_DAYS must be at most {MAX_IDLE_DAYS}, not {str(idle)!r}")
        database_url = _database_url(get("CHAOS_DATABASE_URL"))
        refuse_shared_sqlite(database_url, shards, count)
        port = _integer(get("CHAOS_WEB_PORT"), "CHAOS_WEB_PORT", "a port number")
        if port is not None and port > MAX_PORT:
            raise ConfigError(f"CHAOS_WEB_PORT must be a port number up to {MAX_PORT}, not {port}")
        return cls(
            token=get("DISCORD_TOKEN"),
            db_path=Path(db).expanduser() if db else DEFAULT_DB,
            dev_guild=guild,
            log_level=level,
            idle_days=30 if idle is None else idle,
            api_base=_url(get("DISCORD_API_BASE"), "DISCORD_API_BASE", ("http://", "https://")),
            gateway_url=_url(
                get("DISCORD_GATEWAY_URL"), "DISCORD_GATEWAY_URL", ("ws://", "wss://")
            ),
            shard_count=count,
            shard_ids=shards,
            health_seconds=HEALTH_SECONDS if health is None else float(health),
            database_url=database_url,
            web_port=port,
            web_host=get("CHAOS_WEB_HOST") or WEB_HOST,
            web_url=_url(get("CHAOS_WEB_URL"), "CHAOS_WEB_URL", ("http://", "https://")),
            stall_warn_ms=_integer(
                get("CHAOS_STALL_WARN_MS"), "CHAOS_STALL_WARN_MS", "a number of milliseconds"
            ),
        )


SHARED_SQLITE = (
    "CHAOS_SHARDS gives this process only part of the bot's shards, so other processes run the"
    " rest, and they must share one database; a SQLite file can't be shared between processes on"
    " different machines (nor safely over a network disk), so set CHAOS_DATABASE_URL to a"
    " PostgreSQL database, or leave CHAOS_SHARDS unset to run every shard here."
)


def refuse_shared_sqlite(
    database_url: str | None, shards: Sequence[int] | None, shard_count: int | None
) -> None:
    """Refuse to run part of the bot's shards on SQLite (ConfigError, with the reason).

    `shards` are the shard ids this process runs (None: all of them) out of `shard_count`
    (None: Discord's recommendation). A process that runs only some of them has siblings that
    run the rest, and they must all see the same games: that takes PostgreSQL.
    """
    if database_url is not None or shards is None:
        return
    if shard_count is not None and set(shards) >= set(range(shard_count)):
        return  # the whole bot after all
    raise ConfigError(SHARED_SQLITE)


def _database_url(value: str | None) -> str | None:
    """The PostgreSQL URL, checked without repeating it: it may hold a password."""
    if value is not None and not value.lower().startswith(URL_SCHEMES):
        scheme = value.partition("://")[0] if "://" in value else "no scheme"
        raise ConfigError(
            "CHAOS_DATABASE_URL must be a PostgreSQL URL starting with postgresql:// (like"
            f" postgresql://user:password@host:5432/database), not one with {scheme!r}"
        )
    return value


def _integer(value: str | None, name: str, what: str) -> int | None:
    if value is None:
        return None
    if not value.isascii() or not value.isdigit() or int(value) < 1:
        raise ConfigError(f"{name} must be {what} (a whole number above 0), not {value!r}")
    return int(value)


def _shards(value: str | None, count: int | None) -> tuple[int, ...] | None:
    """``CHAOS_SHARDS``: shard ids as ``0-3``, ``5`` or ``0,2,4`` (or a mix), each below the
    count. Without a count the ids would mean nothing, so they need one."""
    if value is None:
        return None
    expects = "shard ids like 0-3, 5 or 0,2,4"
    if count is None:
        raise ConfigError(
            f"CHAOS_SHARDS needs CHAOS_SHARD_COUNT, the number of shards across all processes"
            f" (CHAOS_SHARDS is {value!r})"
        )
    ids: list[int] = []
    for part in value.split(","):
        low, dash, high = part.strip().partition("-")
        numbers = [low.strip(), high.strip()] if dash else [low.strip()]
        if not all(n.isascii() and n.isdigit() for n in numbers):
            raise ConfigError(f"CHAOS_SHARDS must be {expects}, not {value!r}")
        first, last = int(numbers[0]), int(numbers[-1])
        if first > last:
            raise ConfigError(f"CHAOS_SHARDS has a range that runs backwards: {part.strip()!r}")
        ids.extend(range(first, last + 1))
    too_big = sorted({i for i in ids if i >= count})
    if too_big:
        raise ConfigError(
            f"CHAOS_SHARDS must name shards below CHAOS_SHARD_COUNT ({count}; shards are numbered"
            f" from 0), not {', '.join(map(str, too_big))}"
        )
    if len(set(ids)) != len(ids):
        raise ConfigError(f"CHAOS_SHARDS names a shard twice: {value!r}")
    return tuple(sorted(ids))


def _url(value: str | None, name: str, schemes: tuple[str, ...]) -> str | None:
    if value is not None and not value.lower().startswith(schemes):
        raise ConfigError(
            f"{name} must be a URL starting with {' or '.join(schemes)}, not {value!r}"
        )
    return value
