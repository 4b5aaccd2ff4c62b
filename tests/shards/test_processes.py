"""Real ``python -m bot`` processes sharing the shards of one bot on the fake Discord.

Three processes, one shard each, all in one ``max_concurrency`` bucket, started at the same
moment: with ``CHAOS_DATABASE_URL`` naming PostgreSQL they take turns, so Discord (the fake,
which refuses an IDENTIFY that comes within 5 s of another in its bucket) never refuses one.
Only the process with shard 0 publishes the commands, and each one logs its health line.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.cluster import HEALTH, Cluster
from tests.e2e.test_bot_cli import assert_one_line, run, write_env
from tests.fakediscord.plugin import assert_contract_kept, assert_no_unknown_routes

SHARDS = 3
# Three IDENTIFYs of one bucket take 2 x 5.25 s; each process needs seconds to import discord.py
# on a loaded 2-core machine. A bound on hanging, not a speed goal.
ALL_CONNECTED_WITHIN = 60.0
HEALTHY_WITHIN = 10.0


def test_three_processes_share_the_shards_and_never_trip_the_identify_limit(
    tmp_path: Path, postgres_url: str
) -> None:
    with Cluster(tmp_path, postgres_url, shards=SHARDS, max_concurrency=1) as cluster:
        fake = cluster.fake
        homes = [fake.add_guild(f"table {n}", shard=(n, SHARDS)) for n in range(SHARDS)]
        bots = [cluster.add([n], SHARDS, CHAOS_DEV_GUILD_ID=fake.guild_id) for n in range(SHARDS)]
        for bot in bots:
            bot.start()
        began = time.monotonic()
        cluster.call(fake.wait_for_shards(SHARDS, timeout=ALL_CONNECTED_WITHIN), 65)
        took = time.monotonic() - began
        cluster.wait_ready(*bots, within=HEALTHY_WITHIN)
        logs = cluster.stop()
        assert fake.refused == [], f"Discord refused IDENTIFYs after {took:.1f} s: {fake.refused}"
        assert sorted(i["shard"] for i in fake.identifies) == [[n, SHARDS] for n in range(SHARDS)]
        published = fake.calls_to(f"PUT /applications/*/guilds/{fake.guild_id}/commands")
        assert len(published) == 1
        assert_no_unknown_routes(fake)
        assert_contract_kept(fake)
        home_shard = fake.shard_of(fake.guild_id, SHARDS)

    for shard, log in enumerate(logs):
        assert "Traceback" not in log, log
        assert "behind" not in log, log  # no socket sat unread while its shard waited a turn
        lines = HEALTH.findall(log)
        assert lines, log
        shards, count, servers, *_ = lines[-1]
        assert (shards, count) == (str(shard), str(SHARDS))
        assert int(servers) == 1 + (home_shard == shard), (homes, log)
    assert "publishes the commands, not this one" in logs[1]
    assert "publishes the commands" not in logs[0]


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"CHAOS_SHARD_COUNT": "4", "CHAOS_SHARDS": "2-5"}, ["CHAOS_SHARDS", "below", "4"]),
        ({"CHAOS_SHARDS": "0-1"}, ["CHAOS_SHARDS needs CHAOS_SHARD_COUNT"]),
        ({"CHAOS_SHARD_COUNT": "many"}, ["CHAOS_SHARD_COUNT must be a number of shards"]),
        (
            {"CHAOS_DATABASE_URL": "postgresql://postgres@127.0.0.1:1/nowhere"},
            ["CHAOS_DATABASE_URL", "can't reach the PostgreSQL server"],
        ),
    ],
    ids=["beyond-the-count", "no-count", "not-a-number", "database-unreachable"],
)
def test_a_bad_shard_setting_is_one_line_and_exit_1(
    tmp_path: Path, settings: dict[str, str], words: list[str]
) -> None:
    write_env(
        tmp_path,
        DISCORD_TOKEN="some-token",
        CHAOS_DB_PATH=str(tmp_path / "bot.db"),
        **settings,
    )
    result = run(tmp_path)
    assert result.returncode == 1, result.stderr
    assert_one_line(result.stderr, *words)
