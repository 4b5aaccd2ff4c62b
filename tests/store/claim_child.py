"""A process that claims interactions and then lives on, as a bot process does, until killed.

``python -m tests.store.claim_child URL ID...`` opens the store at URL, claims each ID, prints
``claimed`` once it has them all, and then waits (its lease renewed meanwhile) until it is
killed: run by ``test_leases``.
"""

from __future__ import annotations

import asyncio
import sys

from bot.store import Store


async def main(url: str, interactions: list[str]) -> None:
    async with Store.connect(url) as store:
        for interaction in interactions:
            assert await store.claim(interaction)
        print("claimed", flush=True)
        await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2:]))
