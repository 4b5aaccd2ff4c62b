"""/game verify through discord.py and the fake Discord: the commitment shown from the start,
the seed revealed at the end, and anyone checking an uploaded export."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from bot.engine.fairness import commitment
from tests.e2e.table import Table, board_of, final_answer, is_ephemeral, text_of
from tests.fakediscord.plugin import aio
from tests.fakediscord.server import FakeDiscord

JSON = dict[str, Any]


async def export_of(t: Table, user: JSON) -> bytes:
    await t.slash("game export", user=user)
    (attachment,) = t.fake.ephemeral_messages(user)[-1]["attachments"]
    return t.fake.attachment_data(attachment)


async def verify(t: Table, data: bytes, options: JSON | None = None) -> JSON:
    """/game verify of `data`, as a plain player: what they finally read."""
    file = t.fake.attachment("game.jsonl", data, content_type="application/jsonl")
    return await final_answer(
        t, "game verify", {"file": file, **(options or {})}, user=t.fake.player
    )


async def finished(t: Table) -> tuple[str, bytes]:
    """A short game played and ended here; its commitment as the start message showed it (the
    board's footer shows its first 16 digits), and its export as a plain player gets it once
    the game is over."""
    await t.game("classic", players=2)
    start = text_of(t.answers[0])  # the start message
    found = re.search(r"Seed commitment \(SHA-256\): ([0-9a-f]{64})", start)
    assert found, start
    shown = found[1]
    board = (await board_of(t))["embeds"][0]
    assert f"Seed commitment {shown[:16]}…" in board["footer"]["text"]
    assert shown[:16] not in str(board["fields"])  # not beside the seats, every turn
    state = (await t.current()).game.state
    assert state.salt not in start  # the salt, like the seed, waits for the end
    assert state.salt not in board["footer"]["text"]
    for user in (t.fake.owner, t.fake.player):
        await t.slash("chaos roll", user=user)
        await t.slash("turn next", user=user)
    await t.slash("game end", user=t.fake.owner)
    return shown, await export_of(t, t.fake.player)


@aio
async def test_anyone_verifies_a_finished_games_export(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path, seed=2**90 + 1) as t:
        shown, data = await finished(t)
        events = [json.loads(line) for line in data.decode().splitlines()]
        revealed = events[-1]
        assert revealed["type"] == "seed_revealed"
        assert revealed["commitment"] == shown
        first, started = events[0]["action"], events[1]
        whole = commitment(
            revealed["seed"],
            revealed["salt"],
            dice=first["dice"],
            ruleset=started["ruleset"],
            revision=started["revision"],
            tables=first["tables"],
            host=first["actor"],
            name=first["host_name"],
            life=first["life"],
        )
        assert whole == shown  # the whole start, worked out by anyone from the export

        answer = await verify(t, data, {"commitment": shown[:16]})
        assert not is_ephemeral(answer)  # the table sees the verdict
        text = text_of(answer)
        assert "Verified" in text
        assert "It is the one you gave." in text
        assert revealed["salt"] in text


@aio
async def test_a_changed_die_fails_naming_the_event(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path, seed=2**90 + 2) as t:
        _, data = await finished(t)
        events = [json.loads(line) for line in data.decode().splitlines()]
        index = max(i for i, e in enumerate(events) if e["type"] == "roll")
        events[index]["dice"][0] = events[index]["dice"][0] % 20 + 1
        tampered = "".join(json.dumps(e) + "\n" for e in events).encode()
        answer = await verify(t, tampered)
        assert not is_ephemeral(answer)
        text = text_of(answer)
        assert "Verification failed" in text
        assert f"Event {index + 1} (roll, turn 2)" in text


@aio
async def test_a_log_that_cant_be_checked_gets_a_private_sentence(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        await t.game("classic", players=2)
        going_on = await export_of(t, t.fake.owner)  # the host may export it mid-game
        answer = await verify(t, going_on)
        assert is_ephemeral(answer)
        assert "isn't over yet" in text_of(answer)
        answer = await verify(t, b"\x89PNG\r\n\x1a\n not a log at all")
        assert is_ephemeral(answer)
        assert "isn't UTF-8 text" in text_of(answer)
        assert "went wrong" not in text_of(answer)


@aio
async def test_while_two_logs_are_checked_a_third_isnt_even_downloaded(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        _, data = await finished(t)
        verifier = t.bot.verifier
        verifier._running = verifier.at_once  # two checks under way
        answer = await verify(t, data)
        assert is_ephemeral(answer)
        assert "Other logs are being checked right now" in text_of(answer)
        assert not t.fake.calls_to("GET /attachments/*")
        verifier._running = 0
        assert "Verified" in text_of(await verify(t, data))
        assert t.fake.calls_to("GET /attachments/*")
