"""An autocomplete flood from one member can't stall the bot (issue 22, failure 2).

A member sent 100 `/table lookup result:` autocompletes at once in a `lists` game, each typing
`a b c … z a b c …` (100 characters): another channel waited 4.3 to 7.7 s, and 98 of the 100
answers were late. Here the same flood runs against the real bot: another channel's `/roll`
stays prompt, and the member's newest keystroke gets the real suggestions before Discord's
deadline (the older ones are left unanswered, or get what was worked out for them).

Run with ``-s`` to read the latencies.
"""

from __future__ import annotations

import asyncio
import string
import time
from pathlib import Path

from bot.entry_search import complete, places
from tests.e2e.probe import Probe
from tests.e2e.table import Table
from tests.e2e.test_web_flood import aio  # a longer bound: on the old code the flood takes ~20 s
from tests.fakediscord.server import FakeDiscord

FLOOD = 100
TYPED = " ".join(string.ascii_lowercase * 2)[:100]


@aio
async def test_a_hundred_autocompletes_from_one_member_leave_another_channel_prompt(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    lobby = fake.add_channel("lobby")
    assert len(TYPED) == 100
    async with fake, Table.open(fake, tmp_path) as t:
        await t.game("lists", players=2)
        ruleset = (await t.current()).game.ruleset
        attacker = fake.add_user("attacker")

        async def keystroke() -> list[str] | None:
            """The suggestions, or None when none came within Discord's 3 s."""
            try:
                _, body = await fake.autocomplete(
                    "table lookup", {"result": TYPED}, focused="result", user=attacker
                )
            except TimeoutError:
                return None
            return [c["name"] for c in body["data"]["choices"]]

        started = time.perf_counter()
        async with Probe(fake, lobby) as probe:
            await asyncio.sleep(0.2)  # the probe answers before the flood, too
            given_up = t.bot.keystrokes.superseded
            flood = [asyncio.create_task(keystroke()) for _ in range(FLOOD)]
            await t.keystrokes_done(flood, given_up)
            answers = [None if k.cancelled() else k.result() for k in flood]
            await asyncio.sleep(0.3)
        took = time.perf_counter() - started

        expected = [p.title for p in complete(places(ruleset), TYPED)]
        assert expected
        assert answers[-1] == expected  # the newest keystroke: the real suggestions, in time
        assert all(a in (None, [], expected) for a in answers)
        unanswered = sum(1 for a in answers if a is None)
        assert unanswered >= FLOOD - 3  # outdated ones cost no answer
        print(
            f"\n{FLOOD} autocompletes of {len(TYPED)} characters in {took:.2f} s:"
            f" {sum(1 for a in answers if a)} with suggestions, {unanswered} left unanswered;"
            f" {probe.summary()}"
        )
        probe.check()
