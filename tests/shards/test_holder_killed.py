"""A process SIGKILLed during a shard hand-over doesn't silence the one that holds the shard on.

Two real processes hold shard 1 (the old one and the new one of a hand-over), so each receives
every interaction of its servers, and the first to claim one answers it. The new one is
SIGKILLed in the middle of a burst. What it had claimed and not answered may go unanswered
(its claims die with its lease, see :mod:`bot.store.pgleases`); everything after is the
survivor's to answer, and it answers all of it: a claim of the dead process's never keeps it
quiet. Nothing is lost or applied twice either way (the ledger).
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

from tests.cluster import DONE, Cluster, add_channels, finished
from tests.fakediscord.payloads import shard_of
from tests.fakediscord.server import FakeDiscord
from tests.shards.ledger import check_ledger, read_ledger, replayed
from tests.shards.test_cluster import (
    BURST_WITHIN,
    answers,
    burst,
    chains,
    play_on,
    set_up,
)


async def kill_after(fake: FakeDiscord, pid: int, before: set[str], answered: int) -> None:
    """SIGKILL `pid` once `answered` interactions sent since `before` are answered, from the
    fake's own loop (so no answer slips in between)."""
    await fake.recorder.wait_until(
        lambda: (
            True if sum(1 for i in list(fake.callbacks) if i not in before) >= answered else None
        ),
        BURST_WITHIN,
    )
    os.kill(pid, signal.SIGKILL)


def test_a_holder_killed_mid_burst_leaves_the_other_holder_answering(
    tmp_path: Path, postgres_url: str
) -> None:
    with Cluster(tmp_path, postgres_url) as cluster:
        fake = cluster.fake
        channels = add_channels(fake, 2, guilds_per_shard=2, channels_per_guild=2)
        moving = [c for c in channels if shard_of(c.guild, 2) == 1]
        old = cluster.add([0, 1], 2)
        new = cluster.add([1], 2)
        sync = cluster.publish_commands()
        old.start()
        finished(sync)
        cluster.wait_ready(old)
        cluster.call(set_up(fake, channels), BURST_WITHIN)
        new.start()
        cluster.wait_ready(new)
        loop = cluster.served.loop
        before = set(fake.interactions)
        running = asyncio.run_coroutine_threadsafe(burst(fake, moving, gains=16), loop)
        cluster.call(kill_after(fake, new.pid, before, len(moving) * 4), BURST_WITHIN)
        new.kill()  # reaps it
        cluster.wait_gone(new)
        # What the dead process had claimed may never be answered: stop waiting for it.
        running.cancel()
        after = cluster.call(play_on(fake, moving), BURST_WITHIN)
        sent = cluster.call(answers(fake))
        survivor = old.stop()

    told = [sent[i] for i in after]
    assert all(answer == DONE for _, answer in told), told
    ledger = asyncio.run(read_ledger(postgres_url))
    check_ledger(ledger, sent, in_order=chains(sent), may_go_unanswered={c.guild for c in moving})
    asyncio.run(replayed(postgres_url))
    assert "Traceback" not in survivor, survivor
    during = [i for i in sent if i not in before and i not in after]
    print(f"{len(during)} interactions in the burst; all {len(after)} after the kill answered")
