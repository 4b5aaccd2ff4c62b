"""One health line per process in the log: what this process holds and how its database answers.

With several processes, each one's log says which shards it runs, how many servers and cached
games it holds and how long a trivial database read takes, so an operator reading the logs can
tell a process that fell behind (or lost its shards) from the others. The line is written once
the bot is ready and then every ``CHAOS_HEALTH_SECONDS``.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.client.bot import ChaosBot

log = logging.getLogger(__name__)


async def health_line(bot: ChaosBot) -> str:
    """``health: shards 0-1 of 4, servers 3, games cached 5, boards pending 1, gateway 41.0 ms,
    database 0.9 ms``: name-value pairs, so a log search can pick any of them out. The gateway
    figure is discord.py's last heartbeat round trip."""
    count = bot.shard_count or 1
    ids = sorted(bot.shards) or list(bot.shard_ids or range(count))
    gateway = _ms(bot.latency)
    started = time.perf_counter()
    try:
        await bot.service.store.guild_settings("0")  # a read of one row by its key
        database = f"database {_ms(time.perf_counter() - started)}"
    except Exception as error:  # the line must still be written: it's how a broken one shows
        database = f"database unavailable ({type(error).__name__})"
    return (
        f"health: shards {_ranges(ids)} of {count}, servers {len(bot.guilds)},"
        f" games cached {bot.service.cached_games}, boards pending {bot.boards.kept},"
        f" gateway {gateway}, {database}"
    )


HEALTHZ_DATABASE_SECONDS = 2.0  # a database slower than this to read one row is down for /healthz


async def healthz(bot: ChaosBot) -> tuple[bool, str]:
    """For ``GET /healthz``: whether every shard of this process is connected to the gateway
    and the database answers a read, with a line saying how each stands."""
    shards = list(bot.shards.values())
    connected = (
        bot.is_ready() and not bot.is_closed() and all(not shard.is_closed() for shard in shards)
    )
    gateway = "gateway connected" if connected else "gateway not connected"
    started = time.perf_counter()
    try:
        async with asyncio.timeout(HEALTHZ_DATABASE_SECONDS):
            await bot.service.store.guild_settings("0")
    except Exception as error:
        answers, database = False, f"database unavailable ({type(error).__name__})"
    else:
        answers, database = True, f"database {_ms(time.perf_counter() - started)}"
    healthy = connected and answers
    return healthy, f"{'ok' if healthy else 'unhealthy'}: {gateway}, {database}"


async def report_health(bot: ChaosBot, every: float) -> None:
    """Log the health line when the bot is ready, then every `every` seconds, until cancelled."""
    await bot.wait_until_ready()
    while True:
        try:
            log.info("%s", await health_line(bot))
        except Exception:
            log.exception("the health line failed")
        await asyncio.sleep(every)


def _ms(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "unknown"
    return f"{seconds * 1000:.1f} ms"


def _ranges(ids: list[int]) -> str:
    """``0-3,6`` for shards 0, 1, 2, 3 and 6."""
    parts: list[str] = []
    start = prev = None
    for shard in ids:
        if prev is not None and shard == prev + 1:
            prev = shard
            continue
        if start is not None:
            parts.append(f"{start}-{prev}" if start != prev else str(start))
        start = prev = shard
    if start is not None:
        parts.append(f"{start}-{prev}" if start != prev else str(start))
    return ",".join(parts) or "none"
