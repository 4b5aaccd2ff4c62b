"""One process asking for an IDENTIFY turn, as a bot process would: run by test_identify.

``python -m tests.shards.take_turn URL APPLICATION_ID BUCKET START [die]`` waits until the wall
clock reaches START (so every process asks at once), takes its turn through a PostgresGate,
prints when it asked and when it got it, and then stays alive while the turn is held (a bot
process lives on after identifying), unless ``die``: then it exits at once, as a process killed
while holding the lock would."""

from __future__ import annotations

import asyncio
import os
import sys
import time

from bot.client.identify import SPACING, PostgresGate


async def main(url: str, application_id: int, bucket: int, start: float, die: bool) -> None:
    gate = await PostgresGate.connect(url)
    await asyncio.sleep(max(0.0, start - time.time()))
    asked = time.time()
    await gate.turn(application_id, bucket)
    print(f"{asked:.3f} {time.time():.3f}", flush=True)
    if die:
        os._exit(0)  # no goodbye to PostgreSQL: the server notices the dropped connection
    await asyncio.sleep(SPACING + 0.5)
    await gate.close()


if __name__ == "__main__":
    url, app, bucket, start, *rest = sys.argv[1:]
    asyncio.run(main(url, int(app), int(bucket), float(start), rest == ["die"]))
