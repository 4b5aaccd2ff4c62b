"""What a restart of the PostgreSQL server costs a running cluster: the figures of issue 22.

Two real bot processes (four shards) play on the fake Discord over a PostgreSQL server of this
script's own (initdb into a temporary folder, a free port; never the shared server). A burst
of actions goes out in every channel at once; a third of the way through, the server is
crashed (``pg_ctl stop -m immediate``) and started again after ``--down`` seconds. Then
Discord ends every session (op 7, resume refused), so every shard must IDENTIFY again through
the turns kept in the database, and one more turn is played in every channel.

It prints, read straight from the database and the fake's record of every answer:

* processes that exited (goal 0);
* actions answered "not saved" that were saved (goal 0);
* acknowledged actions lost (goal 0);
* answers "can't tell yet" (the database didn't say in time whether an action was kept);
* seconds until every shard identified again once Discord ended the sessions.

``python bench/restart.py [--runs N] [--down SECONDS]``; it needs the PostgreSQL binaries
(``initdb``, ``pg_ctl``) and runs as root by running the server as the ``postgres`` user.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from bot.errors import InDoubtError  # noqa: E402
from tests.cluster import DONE, REFUSED, Cluster, add_channels  # noqa: E402
from tests.pgserver import own_server  # noqa: E402
from tests.shards.ledger import read_ledger  # noqa: E402
from tests.shards.test_cluster import BURST_WITHIN, burst, play_on, set_up  # noqa: E402
from tests.shards.test_db_restart import identified_again, read_answers  # noqa: E402

SHARDS = 4
LAYOUT = [(0, 1), (2, 3)]
NOT_SAVED = "wasn't saved"
IDENTIFY_WITHIN = 90.0  # seconds: past this, a shard is counted as never back
CANT_TELL = InDoubtError.PLAYERS[:40]


@dataclass
class Figures:
    exited: int
    not_saved_but_saved: int
    acknowledged_lost: int
    cant_tell: int
    reidentified: float | None  # None: some shard never identified again
    actions: int
    done: int
    refused: int


def one_run(folder: Path, down: float) -> Figures:
    with own_server() as server:
        url = server.create_database("chaos")
        with Cluster(folder, url) as cluster:
            fake = cluster.fake
            channels = add_channels(fake, SHARDS, guilds_per_shard=2, channels_per_guild=2)
            bots = cluster.launch(LAYOUT, SHARDS)
            cluster.call(set_up(fake, channels), BURST_WITHIN)
            before = set(fake.interactions)
            running = asyncio.run_coroutine_threadsafe(
                burst(fake, channels, gains=8), cluster.served.loop
            )
            third = len(channels) * 14 // 3

            async def a_third_answered() -> None:
                await fake.recorder.wait_until(
                    lambda: (
                        True
                        if sum(1 for i in list(fake.callbacks) if i not in before) >= third
                        else None
                    ),
                    BURST_WITHIN,
                )

            cluster.call(a_third_answered(), BURST_WITHIN)
            server.restart(down)
            running.result(BURST_WITHIN)
            identifies = len(fake.identifies)
            cluster.call(fake.gateway.invalidate_sessions())
            ended = time.monotonic()
            reidentified: float | None = None
            try:
                cluster.call(
                    fake.recorder.wait_until(
                        lambda: identified_again(fake, identifies, SHARDS), IDENTIFY_WITHIN
                    ),
                    IDENTIFY_WITHIN + 1,
                )
                reidentified = time.monotonic() - ended
                cluster.call(play_on(fake, channels), BURST_WITHIN)
            except TimeoutError:
                pass  # a shard never came back: the figures say so
            sent = cluster.call(read_answers(fake))
            exited = sum(1 for bot in bots if not bot.running)
            cluster.stop()
        ledger = asyncio.run(read_ledger(url))
    answered = [(i, answer, text) for i, (_, answer, text) in sent.items() if i not in before]
    return Figures(
        exited=exited,
        not_saved_but_saved=sum(
            1
            for i, answer, text in answered
            if answer == REFUSED and NOT_SAVED in text and i in ledger.interactions
        ),
        acknowledged_lost=sum(
            1 for i, answer, _ in answered if answer == DONE and i not in ledger.interactions
        ),
        cant_tell=sum(1 for _, _, text in answered if CANT_TELL in text),
        reidentified=reidentified,
        actions=len(answered),
        done=sum(1 for _, answer, _ in answered if answer == DONE),
        refused=sum(1 for _, answer, _ in answered if answer == REFUSED),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--down", type=float, default=1.5, help="seconds with no server")
    args = parser.parse_args()
    runs = []
    for n in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="chaos-restart-") as folder:
            figures = one_run(Path(folder), args.down)
        runs.append(figures)
        print(
            f"run {n + 1}: {figures.actions} actions ({figures.done} done, {figures.refused}"
            f" refused), server down {args.down:.1f} s mid-burst"
        )
    print(f"processes that exited:                      {sum(r.exited for r in runs)} (goal 0)")
    print(
        "actions answered 'not saved' that were saved:"
        f" {sum(r.not_saved_but_saved for r in runs)} (goal 0)"
    )
    print(
        f"acknowledged actions lost:                  {sum(r.acknowledged_lost for r in runs)}"
        " (goal 0)"
    )
    print(f"answers 'can't tell yet':                   {sum(r.cant_tell for r in runs)}")
    times = [r.reidentified for r in runs]
    if None in times:
        print(f"every shard identified again:               no (waited {IDENTIFY_WITHIN:.0f} s)")
    else:
        slowest = max(t for t in times if t is not None)
        print(f"every shard identified again within:        {slowest:.1f} s of the sessions' end")
    bad = sum(r.exited + r.not_saved_but_saved + r.acknowledged_lost for r in runs)
    return 1 if bad or None in times else 0


if __name__ == "__main__":
    sys.exit(main())
