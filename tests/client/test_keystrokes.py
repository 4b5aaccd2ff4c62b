"""Autocomplete's two bounds, each on its own: a member's newest keystroke only
(bot/client/keystrokes.py), and the searches' thread (bot/client/searches.py)."""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace

import discord
import pytest

from bot.client import searches as searches_module
from bot.client.choices import leave_unanswered
from bot.client.keystrokes import Keystrokes
from bot.client.searches import KEPT_INDEXES, Searches
from bot.tables import find_ruleset, load_bundled
from bot.tables.snapshot import freeze, read_texts
from tests.fakediscord.plugin import aio

LISTS = find_ruleset("lists")
NO_INTS: list[int] = []
NO_TEXTS: list[str] = []


@aio
async def test_a_flood_from_one_member_is_worked_on_twice_the_rest_answered_empty() -> None:
    keys = Keystrokes()
    worked: list[int] = []

    async def search(n: int) -> list[int]:
        worked.append(n)
        await asyncio.sleep(0.05)  # the search, on its thread
        return [n]

    answers = await asyncio.gather(
        *(keys.latest("ann", lambda n=n: search(n), NO_INTS) for n in range(100))  # type: ignore[misc]
    )
    assert worked == [99]  # all arrived together: the newest alone
    assert answers[-1] == [99]
    assert answers[:-1] == [[]] * 99
    assert keys.superseded == 99
    assert keys.typing() == 0  # nothing is kept once answered


@aio
async def test_a_keystroke_waits_for_the_one_being_worked_on_and_a_newer_one_replaces_it() -> None:
    keys = Keystrokes()
    worked: list[str] = []
    release = asyncio.Event()

    async def search(text: str) -> list[str]:
        worked.append(text)
        if text == "t":
            await release.wait()
        return [text]

    first = asyncio.create_task(keys.latest("ann", lambda: search("t"), NO_TEXTS))
    await asyncio.sleep(0.01)  # "t" is being worked on
    waiting = [
        asyncio.create_task(keys.latest("ann", lambda t=t: search(t), NO_TEXTS))  # type: ignore[misc]
        for t in ("ts", "tsu", "tsun")
    ]
    other = asyncio.create_task(keys.latest("bob", lambda: search("bob"), NO_TEXTS))
    await asyncio.sleep(0.01)
    assert [task.done() for task in waiting] == [True, True, False]  # replaced: answered at once
    assert [await task for task in waiting[:2]] == [[], []]
    assert await other == ["bob"]  # another member doesn't wait for Ann
    release.set()
    assert await first == ["t"]
    assert await waiting[2] == ["tsun"]
    assert worked == ["t", "bob", "tsun"]
    assert keys.typing() == 0


@aio
async def test_members_typing_at_once_are_bounded() -> None:
    keys = Keystrokes(limit=2)
    gate = asyncio.Event()

    async def search() -> list[str]:
        await gate.wait()
        return ["x"]

    held = [asyncio.create_task(keys.latest(n, search, NO_TEXTS)) for n in ("a", "b")]
    await asyncio.sleep(0.01)
    assert await keys.latest("c", search, ["none"]) == ["none"]
    gate.set()
    assert [await task for task in held] == [["x"], ["x"]]


@aio
async def test_searches_run_off_the_loop_and_keep_one_index_per_ruleset() -> None:
    searches = Searches()
    try:
        ruleset = LISTS.ruleset
        threads: list[str] = []

        def where() -> str:
            threads.append(threading.current_thread().name)
            return "done"

        assert await searches.run(where, "") == "done"
        assert threads[0].startswith("autocomplete")
        first = await searches.entries(ruleset, "fog")
        assert first
        assert first[0].entry.name == "Fog"
        assert await searches.entries(ruleset, "fog of")
        assert searches.builds == 1
        other = freeze(read_texts(LISTS), LISTS.folder)[1].ruleset  # same tables, new object
        assert await searches.entries(other, "fog") == first
        assert searches.builds == 2
        topics = await searches.topics(LISTS.rules, "middle")
        assert topics
        assert "middle" in topics[0].id
    finally:
        searches.close()


@aio
async def test_searches_answer_empty_when_slow_or_busy_and_forget_old_rulesets() -> None:
    searches = Searches(queue_limit=2, answer_within=0.05)
    gate = threading.Event()
    try:
        slow = asyncio.create_task(
            searches.run(lambda: "late" if gate.wait(5) else "never", "empty")
        )
        queued = asyncio.create_task(searches.run(lambda: "queued", "empty"))
        await asyncio.sleep(0)
        assert await searches.run(lambda: "more", "busy") == "busy"  # two already wait
        assert await slow == "empty"  # past answer_within
        assert await queued == "empty"  # so is the one behind it
        gate.set()
        await asyncio.sleep(0.2)  # the thread finishes what it was given
        assert await searches.run(lambda: "next", "empty") == "next"
        deck = load_bundled()["deck"]
        for _ in range(KEPT_INDEXES + 3):  # deck: a few entries each, so the count bounds
            loaded = freeze(read_texts(deck), deck.folder)[1]
            await searches.entries(loaded.ruleset, "a")
        assert len(searches._indexes) == KEPT_INDEXES
    finally:
        searches.close()
    assert await searches.run(lambda: "after", "closed") == "closed"


@aio
async def test_large_indexes_are_kept_by_their_entries_the_newest_always(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(searches_module, "KEPT_PLACES", 500)  # lists has about 400 entries
    searches = Searches()
    try:
        kept = [freeze(read_texts(LISTS), LISTS.folder)[1].ruleset for _ in range(3)]
        for ruleset in kept:
            await searches.entries(ruleset, "fog")
        assert [ref() for ref, _ in searches._indexes.values()] == [kept[-1]]
        await searches.entries(kept[-1], "fog")
        assert searches.builds == 3
    finally:
        searches.close()


def test_discord_py_still_reads_the_mark_that_leaves_a_request_unanswered() -> None:
    """latest_only leaves an outdated request unanswered by setting discord.py's own mark (it
    has no public way): were the mark renamed, every outdated request would be answered."""
    response = discord.InteractionResponse(SimpleNamespace())  # type: ignore[arg-type]
    assert not response.is_done()
    leave_unanswered(SimpleNamespace(response=response))  # type: ignore[arg-type]
    assert response.is_done()
