"""The database restarts under a running cluster: nothing stops, nothing is told wrong.

Real ``python -m bot`` processes play on the fake Discord over a PostgreSQL server of the
test's own (:mod:`tests.pgserver`), which the test crashes (``pg_ctl stop -m immediate``: every
connection drops at once, mid-statement) and starts again:

* **mid-burst**, while hundreds of actions are being saved: some commits are in flight when
  their connection drops. Each is answered with the truth, found out once the server is back:
  the result if it was stored, "not saved" only if it wasn't.
* **between bursts, then Discord ends every session** (op 7, resume refused), so every shard
  must IDENTIFY again, through the cross-process turns kept in the database: the connection
  that keeps them was cut by the restart.

Either way: no process exits, every shard identifies again, every action acknowledged before
or after the restart stands exactly once, and no process logs a task error nobody retrieved.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from tests.cluster import DONE, REFUSED, UNANSWERED, BotProcess, Cluster, add_channels
from tests.e2e.table import text_of
from tests.fakediscord.schema import JSON
from tests.fakediscord.server import FakeDiscord
from tests.pgserver import OwnServer, own_server_for_test
from tests.shards.ledger import check_ledger, command_of, read_ledger, replayed
from tests.shards.test_cluster import BURST_WITHIN, answers, burst, chains, play_on, set_up

SHARDS = 4
LAYOUT = [(0, 1), (2, 3)]
DOWN_FOR = 1.5  # seconds with no server between the crash and the start
# What must never appear in a process's log: a task's error that nobody awaited.
UNRETRIEVED = re.compile(r"exception was never retrieved|Task was destroyed but it is pending")


@pytest.fixture
def server() -> Iterator[OwnServer]:
    with own_server_for_test() as started:
        yield started


@pytest.fixture
def database(server: OwnServer) -> str:
    return server.create_database("chaos")


async def read_answers(fake: FakeDiscord) -> dict[str, tuple[JSON, str, str]]:
    """Every interaction sent, what its player read (DONE/REFUSED/UNANSWERED) and the text."""
    told: dict[str, tuple[JSON, str, str]] = {}
    for interaction, (payload, answer) in (await answers(fake)).items():
        shown = ""
        for message in fake.messages.values():
            if (message.get("interaction_metadata") or {}).get("id") == interaction:
                shown = text_of({"data": message})
        told[interaction] = (payload, answer, shown)
    return told


def identified_again(fake: FakeDiscord, before: int, shards: int) -> bool | None:
    """Whether every shard has a live session opened by an IDENTIFY after the first `before`."""
    fresh = {tuple(i["shard"]) for i in fake.identifies[before:]}
    live = fake.gateway.shards_open()
    wanted = {(s, shards) for s in range(shards)}
    return True if wanted <= fresh and wanted <= live else None


def check_processes(bots: Sequence[BotProcess]) -> None:
    for bot in bots:
        assert bot.running, f"{bot} exited:\n{bot.log()[-3000:]}"
        log = bot.log()
        assert not UNRETRIEVED.search(log), log[-5000:]
        assert "internal error" not in log, log[-5000:]


def check_stored(url: str, sent: dict[str, tuple[JSON, str, str]]) -> dict[str, int]:
    """Hold what was stored against what players read; a tally of the answers."""
    told = {i: (payload, answer) for i, (payload, answer, _) in sent.items()}
    ledger = asyncio.run(read_ledger(url))
    wrong = [
        (i, command_of(payload), text)
        for i, (payload, answer, text) in sent.items()
        if answer == REFUSED and i in ledger.interactions
    ]
    assert not wrong, f"refused, yet stored: {wrong}"
    # A refusal is "not saved" or the game's own rule: either way it must not be stored.
    check_ledger(ledger, told, in_order=chains(told))
    asyncio.run(replayed(url))
    tally = {DONE: 0, REFUSED: 0, UNANSWERED: 0}
    for _, answer, _ in sent.values():
        tally[answer] += 1
    return tally


def test_a_crash_of_the_database_mid_burst_is_answered_truly_and_loses_nothing(
    tmp_path: Path, server: OwnServer, database: str
) -> None:
    with Cluster(tmp_path, database) as cluster:
        fake = cluster.fake
        channels = add_channels(fake, SHARDS, guilds_per_shard=2, channels_per_guild=2)
        bots = cluster.launch(LAYOUT, SHARDS)
        cluster.call(set_up(fake, channels), BURST_WITHIN)
        loop = cluster.served.loop
        before = set(fake.interactions)
        running = asyncio.run_coroutine_threadsafe(burst(fake, channels, gains=8), loop)
        cluster.call(_some_answered(fake, before, len(channels) * 4), BURST_WITHIN)
        server.restart(DOWN_FOR)
        running.result(BURST_WITHIN)
        after = cluster.call(play_on(fake, channels), BURST_WITHIN)
        sent = cluster.call(read_answers(fake))
        check_processes(bots)
        cluster.stop()

    tally = check_stored(database, sent)
    assert all(sent[i][1] == DONE for i in after), [sent[i][2] for i in after]
    print(f"crashed mid-burst: {tally}")


async def _some_answered(fake: FakeDiscord, before: set[str], count: int) -> None:
    await fake.recorder.wait_until(
        lambda: True if sum(1 for i in list(fake.callbacks) if i not in before) >= count else None,
        BURST_WITHIN,
    )


def test_a_restart_then_sessions_ended_has_every_shard_identify_again(
    tmp_path: Path, server: OwnServer, database: str
) -> None:
    with Cluster(tmp_path, database) as cluster:
        fake = cluster.fake
        channels = add_channels(fake, SHARDS, guilds_per_shard=1, channels_per_guild=2)
        bots = cluster.launch(LAYOUT, SHARDS)
        cluster.call(set_up(fake, channels), BURST_WITHIN)
        cluster.call(burst(fake, channels, rounds=1, gains=2), BURST_WITHIN)
        server.restart(DOWN_FOR)
        before = len(fake.identifies)
        assert cluster.call(fake.gateway.invalidate_sessions()) == SHARDS
        cluster.call(
            fake.recorder.wait_until(lambda: identified_again(fake, before, SHARDS), BURST_WITHIN),
            BURST_WITHIN + 1,
        )
        after = cluster.call(play_on(fake, channels), BURST_WITHIN)
        sent = cluster.call(read_answers(fake))
        check_processes(bots)
        cluster.stop()

    tally = check_stored(database, sent)
    assert all(sent[i][1] == DONE for i in after), [sent[i][2] for i in after]
    print(f"restart, then sessions ended: {tally}")
