"""PostgreSQL's failures that aren't our bugs, as sentences for whoever hosts the bot.

A server that isn't running, a database or user that doesn't exist, a wrong password, a full
disk, a server in recovery: each is the host's setup, not a mistake in the code, so it becomes a
StoreError that says what happened and what to do, like SQLite's in :mod:`bot.store.failures`.
Anything else asyncpg raises stays an error of ours.

Messages name the database by its URL with the password left out (:func:`shown`): they end up
in logs and terminals.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.errors import StoreError

CONNECT_SECONDS = 10  # how long opening a connection may take before we say so
# How long one statement may take: ours take milliseconds, so this only ends a wait on a hung
# server or a lock held by hand, well before Discord's 15 minutes for a follow-up.
COMMAND_SECONDS = 30

_BUSY = (
    "The bot's database is busy or out of reach right now, so that wasn't saved; whoever runs"
    " the bot has been told. Try again in a minute."
)


def shown(url: str) -> str:
    """`url` without its password, fit for a log line or an error message."""
    try:
        parts = urlsplit(url)
        host = parts.netloc.rpartition("@")
    except ValueError:
        return "the PostgreSQL database (CHAOS_DATABASE_URL)"
    if not host[1]:
        return url
    user = host[0].partition(":")[0]
    return urlunsplit(parts._replace(netloc=f"{user}@{host[2]}" if user else host[2]))


def explain(error: BaseException, url: str) -> StoreError | None:
    """What `error` means for the database at `url`, or None if it is a bug of ours."""
    where = shown(url)
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        return StoreError(
            f"the database {where} doesn't exist: create it (`createdb` or CREATE DATABASE), or"
            " point CHAOS_DATABASE_URL at one that does."
        )
    if isinstance(
        error, asyncpg.InvalidPasswordError | asyncpg.InvalidAuthorizationSpecificationError
    ):
        return StoreError(
            f"PostgreSQL refused the bot's login to {where} ({error}): check the user and"
            " password in CHAOS_DATABASE_URL, and the server's pg_hba.conf."
        )
    if isinstance(error, asyncpg.InsufficientPrivilegeError):
        return StoreError(
            f"the database user may not do what the bot needs in {where} ({error}): grant it"
            " the right to create and change tables in that database.",
        )
    if isinstance(error, asyncpg.TooManyConnectionsError | asyncpg.CannotConnectNowError):
        return StoreError(
            f"the PostgreSQL server of {where} takes no more connections right now ({error}):"
            " it is starting, stopping, or at its max_connections. Try again shortly.",
            players=_BUSY,
        )
    if isinstance(error, asyncpg.DiskFullError):
        return StoreError(
            f"the PostgreSQL server of {where} has a full disk: the last action wasn't saved;"
            " free some space on it and try again.",
            players="The bot's database has no room left, so that wasn't saved; whoever runs"
            " the bot has been told. Try again later.",
        )
    if isinstance(error, asyncpg.OutOfMemoryError):
        return StoreError(
            f"the PostgreSQL server of {where} ran out of memory; try again.",
            players=_BUSY,
        )
    if isinstance(error, asyncpg.ReadOnlySQLTransactionError):
        return StoreError(
            f"{where} is read-only (a standby, or default_transaction_read_only): point"
            " CHAOS_DATABASE_URL at the primary server.",
            players="The bot can't write to its database right now, so that wasn't saved;"
            " whoever runs the bot has been told. Try again later.",
        )
    if isinstance(
        error,
        asyncpg.AdminShutdownError
        | asyncpg.CrashShutdownError
        | asyncpg.ConnectionDoesNotExistError
        | asyncpg.ConnectionFailureError,
    ):
        return StoreError(
            f"the connection to {where} was lost ({error}): the server stopped or restarted.",
            players=_BUSY,
        )
    if isinstance(error, asyncpg.InterfaceError) and "closed" in str(error):
        # asyncpg's word for a connection the server cut earlier ("connection is closed"):
        # found out on the next use, as the connection is gone by then.
        return StoreError(
            f"the connection to {where} was lost ({error}): the server stopped or restarted.",
            players=_BUSY,
        )
    if isinstance(error, socket.gaierror):
        return StoreError(
            f"can't find the PostgreSQL server of {where} ({error.strerror}): check the host"
            " name in CHAOS_DATABASE_URL."
        )
    if isinstance(error, TimeoutError):
        return StoreError(
            f"the PostgreSQL server of {where} didn't answer in time ({CONNECT_SECONDS} seconds"
            f" to connect, {COMMAND_SECONDS} for a statement): check that it is running, not"
            " overloaded, and that the network lets the bot reach it.",
            players=_BUSY,
        )
    if isinstance(error, OSError):  # refused, unreachable, reset
        return StoreError(
            f"can't reach the PostgreSQL server of {where} ({error.strerror or error}): check"
            " that it is running and listening where CHAOS_DATABASE_URL says.",
            players=_BUSY,
        )
    if isinstance(error, asyncpg.ClientConfigurationError | ValueError):
        return StoreError(
            f"CHAOS_DATABASE_URL can't be used ({error}): it should look like"
            " postgresql://user:password@host:5432/database."
        )
    return None


@contextmanager
def plainly(url: str) -> Iterator[None]:
    """Turn PostgreSQL's failures in the block into the StoreError that explains them."""
    try:
        yield
    except StoreError:
        raise
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as error:
        said = explain(error, url)
        if said is None:
            raise
        raise said from None
