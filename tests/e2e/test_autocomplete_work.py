"""Every autocomplete of the command tree does no more work on the event loop for the largest
upload the limits allow than for a bundled ruleset (issue 22's guard: "autocomplete answers in
at most 5 ms of loop time").

The autocompletes are found in the bot's own command tree, so one added later is covered
without anyone listing it. Each gets hostile text (the 100 characters of the flood, a table's
own words, nothing at all) in a `lists` game, then in a `lists` game that plays the largest
upload too (tests/search/maximal.py). The work is counted, not timed (a shared machine makes
times unreliable): every Python and C function call the event loop's thread makes from the
moment the request is sent to its answer, Discord's side included. The ranked searches, index
building and long lists run on the searches' thread, which isn't counted; so the count must not
grow with the tables. bench/autocomplete.py measures the times.
"""

from __future__ import annotations

import string
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from discord import app_commands

from bot.client.choices import LATEST_ONLY
from tests.e2e.table import Table
from tests.e2e.test_web_flood import aio  # a longer bound than a plain test's
from tests.fakediscord.server import FakeDiscord
from tests.search.maximal import maximal_table

TEXTS = [" ".join(string.ascii_lowercase * 2)[:100], "fog", ""]
GROWTH = 1.5  # the count for the largest upload may be this much the bundled one's, plus SLACK
SLACK = 3000  # calls: a few more suggestions to encode and send


def autocompletes(tree: app_commands.CommandTree[Any]) -> list[tuple[str, str, Any, set[str]]]:
    """(command path, option, callback, every option's name) for each option with an
    autocomplete."""
    found = []
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Command):
            # The public Parameter says only whether there is one; the callback is kept here.
            for name, parameter in command._params.items():
                if parameter.autocomplete is not None:
                    where = (command.qualified_name, name, parameter.autocomplete)
                    found.append((*where, set(command._params)))
    return found


@contextmanager
def counted() -> Iterator[list[int]]:
    """Counts the calls this thread makes meanwhile (other threads aren't counted)."""
    count = [0]

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event in ("call", "c_call"):
            count[0] += 1

    sys.setprofile(profile)
    try:
        yield count
    finally:
        sys.setprofile(None)


async def work(t: Table, others: dict[str, str]) -> dict[tuple[str, str, str], int]:
    """The calls on the loop's thread for each autocomplete and text (the most of two tries:
    the first builds what is kept)."""
    found = {}
    for path, option, _, names in autocompletes(t.bot.tree):
        for text in TEXTS:
            options = {n: value for n, value in others.items() if n in names and n != option}
            options[option] = text
            most = 0
            for _ in range(2):
                with counted() as count:
                    await t.fake.autocomplete(path, options, focused=option, user=t.fake.owner)
                most = max(most, count[0])
            found[(path, option, text)] = most
    return found


@aio
async def test_no_autocomplete_works_harder_on_the_loop_for_the_largest_upload(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        found = autocompletes(t.bot.tree)
        assert {path for path, *_ in found} >= {"table lookup", "rules", "game start", "house deny"}
        for path, option, callback, _ in found:  # else a flood queues every keystroke
            assert getattr(callback, LATEST_ONLY, False), f"/{path} {option}: not latest_only"
        await t.game("lists")
        bundled = await work(t, {"table": "a", "list": "a", "ruleset": "lists"})
        for shape in ("many", "wordy"):
            # stored as /table import stores it (its check through Discord is tested elsewhere)
            await t.service.import_table(
                t.fake.guild_id, f"{shape}.yaml", maximal_table(shape, shape)
            )
        await t.slash("game end", user=t.fake.owner)
        await t.game("lists", tables="many, wordy")
        game = (await t.current()).game.ruleset
        assert len(game.tables["many"].bands) > 7000
        largest = await work(
            t, {"table": "many", "list": "many", "tables": "many, ", "ruleset": "lists"}
        )
        wordy = await work(
            t, {"table": "wordy", "list": "wordy", "tables": "wordy, ", "ruleset": "lists"}
        )
    for key, base in bundled.items():
        for counts in (largest, wordy):
            assert counts[key] <= base * GROWTH + SLACK, (key, base, counts[key])
