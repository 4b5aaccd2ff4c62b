"""Real ``python -m bot`` processes sharing one bot's shards on a fake Discord, for benchmarks.

A :class:`Cluster` is what a host runs (docs/scaling.md): N processes, each given its own range
of ``CHAOS_SHARDS`` out of one ``CHAOS_SHARD_COUNT``, on one database, against a fake Discord
served by this process's event loop (so its CPU is this process's). Its guilds are spread evenly
over the shards, each with several channels, and every channel gets a begun game.

The processes are the tests' (:class:`tests.cluster.BotProcess`): the same ``.env``, the same
readiness (the health line), the same stop; on Linux they die with this process, so not even a
SIGKILL of the benchmark leaves them running. Everything it starts, it stops on the way out:
the processes (SIGTERM, then SIGKILL), and the PostgreSQL database it made (dropped with its
connections).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
import socket
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg

from bench.discord_bench import quiet, refused
from tests.cluster import BotProcess, env_for, until_ready, until_stopped
from tests.fakediscord.server import FakeDiscord

SEED = 20_261_122
STARTED_WITHIN = 120.0  # seconds for every process to connect: a bound on hanging, not a goal
STOP_WITHIN = 15.0
# A health line only once, when ready: a periodic one would add database reads to the bursts.
HEALTH_SECONDS = 24 * 3600

JSON = dict[str, Any]


def shard_ranges(shards: int, processes: int) -> list[str]:
    """``CHAOS_SHARDS`` for each process: contiguous ranges, as even as they can be."""
    return [f"{r.start}-{r.stop - 1}" for r in _shard_split(shards, processes)]


def _shard_split(shards: int, processes: int) -> list[range]:
    return [range(n * shards // processes, (n + 1) * shards // processes) for n in range(processes)]


PREFIX = "chaos_bench_"
# Each database says which benchmark made it, so a later run can drop those a killed one left.
OWNER = "made by the scale benchmark, process {pid} on {host}"


async def admin(server: str, *statements: str) -> None:
    con = await asyncpg.connect(f"{server}/postgres", timeout=10)
    try:
        for statement in statements:
            await con.execute(statement)
    finally:
        await con.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's, and alive
        return True
    return True


async def drop_orphans(server: str) -> list[str]:
    """Drop the databases of benchmarks killed on this host (SIGKILL skips every clean-up):
    those whose owner, named in the database's comment, is no longer running."""
    con = await asyncpg.connect(f"{server}/postgres", timeout=10)
    try:
        rows = await con.fetch(
            "SELECT datname, shobj_description(oid, 'pg_database') AS owner FROM pg_database"
            " WHERE datname LIKE $1",
            PREFIX + "%",
        )
        host, dropped = socket.gethostname(), []
        for row in rows:
            found = re.fullmatch(
                OWNER.format(pid=r"(\d+)", host=re.escape(host)), row["owner"] or ""
            )
            if found and not _alive(int(found[1])):
                await con.execute(f"DROP DATABASE IF EXISTS {row['datname']} WITH (FORCE)")
                dropped.append(row["datname"])
    finally:
        await con.close()
    return dropped


@contextlib.asynccontextmanager
async def fresh_database(server: str) -> AsyncIterator[str]:
    """The URL of a new, empty database on `server`, dropped (with its connections) afterwards,
    however the block ends but SIGKILL: then the next run drops it (:func:`drop_orphans`)."""
    name = f"{PREFIX}{secrets.token_hex(6)}"
    owner = OWNER.format(pid=os.getpid(), host=socket.gethostname())
    await admin(server, f"CREATE DATABASE {name}", f"COMMENT ON DATABASE {name} IS '{owner}'")
    try:
        yield f"{server}/{name}"
    finally:
        # Shielded: a second Ctrl-C during the clean-up must not leave the database behind.
        await asyncio.shield(admin(server, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


async def backends(cluster: Cluster) -> list[int]:
    """The process ids of the PostgreSQL backends serving the cluster's database (none on
    SQLite)."""
    if cluster.database_url is None:
        return []
    server, _, name = cluster.database_url.rpartition("/")
    con = await asyncpg.connect(f"{server}/postgres", timeout=10)
    try:
        rows = await con.fetch("SELECT pid FROM pg_stat_activity WHERE datname = $1", name)
    finally:
        await con.close()
    return [int(row["pid"]) for row in rows]


async def server_version(server: str) -> str:
    con = await asyncpg.connect(f"{server}/postgres", timeout=10)
    try:
        return str(await con.fetchval("SHOW server_version"))
    finally:
        await con.close()


async def stored(cluster: Cluster) -> int:
    """Interactions the cluster's database holds: one for each action applied."""
    if cluster.database_url is None:
        with contextlib.closing(sqlite3.connect(cluster.folder / "p0" / "bot.db")) as db:
            return int(db.execute("SELECT count(*) FROM interactions").fetchone()[0])
    con = await asyncpg.connect(cluster.database_url, timeout=10)
    try:
        return int(await con.fetchval("SELECT count(*) FROM interactions"))
    finally:
        await con.close()


class Cluster:
    """N bot processes on `fake`, sharing `shards` shards and one database."""

    def __init__(
        self,
        fake: FakeDiscord,
        folder: Path,
        *,
        processes: int,
        shards: int,
        database_url: str | None,
    ) -> None:
        self.fake = fake
        self.folder = folder
        self.shards = shards
        self.database_url = database_url
        self.processes = [
            BotProcess(folder / f"p{n}", each, shards, self._env(folder / f"p{n}"))
            for n, each in enumerate(_shard_split(shards, processes))
        ]
        self.channels: list[str] = []

    @property
    def pids(self) -> list[int]:
        return [bot.pid for bot in self.processes]

    def _env(self, home: Path) -> dict[str, str]:
        """The shard 0 process publishes the commands to the development guild (see
        :meth:`start`); the SQLite file, if any, is the process's own."""
        return env_for(
            self.fake,
            self.database_url,
            CHAOS_DEV_GUILD_ID=self.fake.guild_id,
            CHAOS_HEALTH_SECONDS=str(HEALTH_SECONDS),
            CHAOS_DB_PATH=str(home / "bot.db"),
        )

    def add_tables(self, guilds: int, channels: int) -> None:
        """`guilds` guilds spread over the shards round the clock, `channels` channels each."""
        for g in range(guilds):
            guild = self.fake.add_guild(f"night {g}", shard=(g % self.shards, self.shards))
            self.channels += [
                self.fake.add_channel(f"table-{c}", guild=guild) for c in range(channels)
            ]

    async def start(self) -> None:
        """Start every process; return once each is ready (each shard has its guilds)."""
        for bot in self.processes:
            bot.start()
        await until_ready(*self.processes, within=STARTED_WITHIN)
        # The commands go to the development guild only; Discord would show globally published
        # ones in every guild, which is what the fake does with these.
        fake = self.fake
        fake.global_commands = list(fake.guild_commands[fake.guild_id])

    async def open_games(self, parallel: int = 16) -> None:
        """A begun classic game in every channel (the owner hosts; a player joins)."""
        fake, gate = self.fake, asyncio.Semaphore(parallel)

        async def one(n: int, channel: str) -> None:
            async with gate:
                start = {"ruleset": "classic", "seed": SEED + n}
                await fake.slash("game start", start, user=fake.owner, channel=channel)
                await fake.slash("game join", user=fake.player, channel=channel)
                await fake.slash("game begin", user=fake.owner, channel=channel)

        await asyncio.gather(*(one(n, c) for n, c in enumerate(self.channels)))
        await quiet(fake)

    async def answer_choices(self, passes: int = 5) -> None:
        """Answer, as the host, every choice a roll left waiting (an answer may ask another).

        Until it is answered, every roll in that channel is refused, which costs next to
        nothing: left alone, such channels would make each round cheaper than the one before.
        """
        fake, waiting = self.fake, list(self.channels)
        for _ in range(passes):

            async def answer(channel: str) -> bool:
                _, body = await fake.slash(
                    "chaos choose", {"option": "1"}, user=fake.owner, channel=channel, timeout=30
                )
                return not refused(body)  # nothing was waiting: an ephemeral refusal

            answered = await asyncio.gather(*(answer(c) for c in waiting))
            waiting = [c for c, yes in zip(waiting, answered, strict=True) if yes]
            if not waiting:
                break
        await quiet(fake, 0.6)

    async def stop(self) -> None:
        """SIGTERM (a normal stop) to every process; SIGKILL what outlives STOP_WITHIN."""
        await until_stopped(self.processes, STOP_WITHIN)


@contextlib.asynccontextmanager
async def running_cluster(
    folder: Path,
    *,
    processes: int,
    shards: int,
    guilds: int,
    channels: int,
    database_url: str | None,
) -> AsyncIterator[Cluster]:
    """A started cluster with its games open, on a fake Discord of its own; stopped afterwards."""
    # Every shard in a bucket of its own: the processes identify at once, not 5 s apart.
    async with FakeDiscord(shards=shards, max_concurrency=shards) as fake:
        cluster = Cluster(
            fake, folder, processes=processes, shards=shards, database_url=database_url
        )
        cluster.add_tables(guilds, channels)
        try:
            await cluster.start()
            await cluster.open_games()
            yield cluster
        finally:
            await asyncio.shield(cluster.stop())
