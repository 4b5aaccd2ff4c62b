"""A hostile member, and a machine in trouble, met through discord.py and the fake Discord.

Each finding of the red team that is a Discord matter has its test here: what a member can do
to the bot gets a sentence, loses nothing, and slows nobody else down.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import logging
import re
import time
from pathlib import Path
from typing import Any

import pytest

from bot.client.errors import APOLOGY
from bot.tables.registry import find_ruleset
from bot.uploadlimits import UploadLimits
from tests.e2e.probe import Probe
from tests.e2e.table import JSON, Table, board_of, final_answer, is_ephemeral, text_of
from tests.e2e.test_flood import answer_of
from tests.e2e.test_resilience import sends_a_message
from tests.engine import rulesets
from tests.fakediscord.plugin import aio
from tests.fakediscord.server import FakeDiscord
from tests.store.helpers import on_sqlite
from tests.verify.test_verify import finished


@aio
async def test_a_full_disk_during_play_tells_the_player_in_a_sentence(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The database can't grow (SQLite's answer when the disk is full, simulated with
    ``max_page_count``): the player reads what happened, not the apology for a bug; the host's
    log gets the store's sentence, with no traceback, and the game is whole."""
    fake = fake_discord
    async with fake, Table.open(fake, tmp_path) as t:
        await t.game("classic", players=2, seed=9)
        version = (await t.current()).version
        db = on_sqlite(t.service.store)._db
        async with db.execute("PRAGMA page_count") as cursor:
            row = await cursor.fetchone()
        assert row is not None
        await db.execute(f"PRAGMA max_page_count = {row[0]}")
        body: JSON = {}
        turns = [(fake.owner, "chaos roll"), (fake.owner, "turn next")]
        turns += [(fake.player, "chaos roll"), (fake.player, "turn next")]
        for n in range(400):  # until an action no longer fits
            user, command = turns[n % 4]
            body = await t.slash(command, user=user)
            if is_ephemeral(body):
                break
        text = text_of(body)
        assert is_ephemeral(body), text
        assert text != APOLOGY
        assert "disk is full" in text
        assert "wasn't saved" in text
        assert str(tmp_path) not in text  # the host's path is for the host
        failed = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert failed, "the host is told"
        assert all(r.exc_info is None for r in failed)  # not a bug: no traceback
        assert "internal error" not in caplog.text
        assert "can't grow" in caplog.text
        assert (await t.current()).version > version
        await db.execute("PRAGMA max_page_count = 1073741823")


# -- /game verify flooded ----------------------------------------------------------------------

VERIFIERS = 20
FLOOD_TIMEOUT = 120.0


def long_export(monkeypatch: pytest.MonkeyPatch, turns: int = 3000) -> bytes:
    """The export of a long finished game of the bundled deck ruleset (thousands of turns),
    gzip-compressed: a few hundred KB to upload, MBs and a second or two of replay to verify."""
    monkeypatch.setitem(rulesets.RULESETS, "deck", lambda: find_ruleset("deck").ruleset)
    game = finished("deck", turns=turns)
    return gzip.compress(game.export().encode())


def test_a_verify_flood_leaves_another_channel_answered_within_a_second(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = long_export(monkeypatch)
    asyncio.run(asyncio.wait_for(_verify_flood(fake_discord, tmp_path, data), FLOOD_TIMEOUT + 30))


async def _verify_flood(fake: FakeDiscord, tmp_path: Path, data: bytes) -> None:
    lobby = fake.add_channel("lobby")
    async with fake, Table.open(fake, tmp_path) as t:
        users = [fake.add_user(f"verifier{n}") for n in range(VERIFIERS)]

        async def member(user: JSON) -> list[JSON]:
            """Each member sends the file again as soon as they are answered, three times."""
            answers = []
            for _ in range(3):
                file = fake.attachment("game.jsonl.gz", data, content_type="application/gzip")
                answers.append(await answer_of(t, "game verify", {"file": file}, user))
            return answers

        started = time.perf_counter()
        async with Probe(fake, lobby) as probe:
            answers = [a for each in await asyncio.gather(*map(member, users)) for a in each]
        flood_time = time.perf_counter() - started

        verified = [a for a in answers if "Verified" in text_of(a)]
        print(
            f"\n{len(answers)} verifies of {len(data) // 1024} KB ({len(verified)} verified)"
            f" answered in {flood_time:.1f} s; {probe.summary()}"
        )
        for body in answers:  # each a verdict or a sentence, never the apology
            assert APOLOGY not in text_of(body)
            assert body in verified or is_ephemeral(body), text_of(body)
        assert verified
        # A member told the bot is busy had their file left where it was: downloaded are only
        # the files that were checked (twenty 8 MB uploads don't sit in memory to hear "busy").
        busy = [a for a in answers if "being checked right now" in text_of(a)]
        assert busy
        assert len(fake.calls_to("GET /attachments/*")) == len(answers) - len(busy)
        probe.check()


@aio
async def test_a_member_verifies_one_log_at_a_time_counted_with_their_table_checks(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a limit per member, two members sending slow logs again and again kept both of
    the bot's verify slots busy: everyone else's /game verify was refused as busy."""
    now = [1000.0]
    data = long_export(monkeypatch, turns=300)
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        t.bot.upload_limits = UploadLimits(clock=lambda: now[0])

        async def verify(user: JSON) -> JSON:
            file = t.fake.attachment("game.jsonl.gz", data, content_type="application/gzip")
            return await answer_of(t, "game verify", {"file": file}, user)

        # The first log is held in its check until the second has its answer: however fast
        # the machine verifies, the second comes while the first is still being checked.
        checked = t.bot.verifier.verify_in_slot
        second_answered = asyncio.Event()

        async def held(*args: Any, **kwargs: Any) -> Any:
            await second_answered.wait()
            return await checked(*args, **kwargs)

        t.bot.verifier.verify_in_slot = held  # type: ignore[method-assign]
        first_sent = asyncio.create_task(verify(t.fake.player))
        await asyncio.sleep(0.05)
        second = await verify(t.fake.player)
        second_answered.set()
        first = await first_sent
        t.bot.verifier.verify_in_slot = checked  # type: ignore[method-assign]
        assert "Verified" in text_of(first)
        assert is_ephemeral(second)
        assert "Your last file is still being checked" in text_of(second)

        house = (Path(__file__).resolve().parents[1] / "data" / "house.yaml").read_bytes()
        table = {"file": t.fake.attachment("house.yaml", house)}
        for _ in range(4):  # table checks and logs count together: ten in all
            body = await answer_of(t, "table validate", table, t.fake.player)
            assert "No problems" in text_of(body)
            assert "Verified" in text_of(await verify(t.fake.player))
        assert "No problems" in text_of(await answer_of(t, "table validate", table, t.fake.player))
        body = await verify(t.fake.player)
        assert is_ephemeral(body)
        assert "You had 10 files checked in the last 10 minutes" in text_of(body)
        assert "Verified" in text_of(await verify(t.fake.owner))  # one member's count is theirs

        now[0] += 601
        assert "Verified" in text_of(await verify(t.fake.player))


# -- hostile names: mentions, markdown, lengths ---------------------------------------------

MASKED_LINK = re.compile(r"(?<!\\)\[[^\]]*\]\(https://evil")
CODE_BLOCK = re.compile(r"```.*?```", re.S)
PING = "@everyone @here <@&{role}> <@{user}> "
LINK = "[free nitro](https://evil.example) "


def hostile_text(length: int, role: str, user: str) -> str:
    """`length` characters of pings, a masked link, markdown, a newline and zero-width
    characters, as a hostile table author writes them."""
    seed = PING.format(role=role, user=user) + LINK + "**# big** ||x|| `c` \n\u200b\u202e "
    return (seed * (length // len(seed) + 1))[:length].strip() or "x"


def hostile_chaos(role: str, user: str) -> bytes:
    """A chaos table whose every name and text is as long as the format allows and hostile:
    each result lasts, so the board lists them all."""
    name = hostile_text(200, role, user).replace("\n", " ")
    entries = []
    for at, lasts in ((1, "permanent"), (2, "until_removed")):
        entries.append(
            {
                "at": at,
                "name": f"{at}{name}"[:200],
                "text": hostile_text(2000, role, user),
                "lasts": lasts,
            }
        )
    table = {
        "schema": 1,
        "kind": "table",
        "id": "chaos",
        "name": name,
        "revision": "1",
        "dice": "d2",
        "directions": hostile_text(2000, role, user),
        "entries": entries,
    }
    return json.dumps(table).encode()  # JSON is YAML


def hostile_world(role: str, user: str) -> bytes:
    name = hostile_text(200, role, user).replace("\n", " ")
    table = {
        "schema": 1,
        "kind": "table",
        "id": "ewl",
        "name": name,
        "revision": "1",
        "dice": "d2",
        "entries": [
            {"at": at, "name": f"{at}{name}"[:200], "text": hostile_text(2000, role, user)}
            for at in (1, 2)
        ],
    }
    return json.dumps(table).encode()


@aio
async def test_sixteen_hostile_players_at_a_hostile_table_ping_nobody_and_fit_discord(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Names made of pings, masked links and markdown, as long as Discord and the table format
    allow, at a full table of 16: every message the bot sends fits Discord's limits (the fake
    refuses what Discord would), pings nobody, and shows no link or markdown of theirs."""
    fake = fake_discord
    role = fake.referee_role_id
    async with fake, Table.open(fake, tmp_path) as t:
        for name, data in (
            ("chaos.yaml", hostile_chaos(role, fake.owner["id"])),
            ("ewl.yaml", hostile_world(role, fake.owner["id"])),
        ):
            file = fake.attachment(name, data)
            body = await final_answer(t, "table import", {"file": file}, user=fake.owner)
            assert "Table stored" in text_of(body), text_of(body)
        names = ["@everyone", "@here", f"<@&{role}>", "[nitro](https://evil.example)"]
        names += ["**bold** __u__", "||spoiler||", "# Heading", "> quote", "`code`"]
        names += ["a\u200bb\u202ec", "line\nbreak", "x" * 32]
        names += [f"{'@' * 30}{n}" for n in range(2)]
        await t.slash("game start", {"ruleset": "classic", "tables": "chaos"}, user=fake.owner)
        seated = [fake.owner, fake.player, *map(fake.add_user, names)]
        assert len(seated) == 16
        for user in seated[1:]:
            assert not is_ephemeral(await t.slash("game join", user=user))
        assert not is_ephemeral(await t.slash("game begin", user=fake.owner))
        for _ in range(3):  # three rounds: every hostile effect lands on the board
            for user in seated:
                body = await t.slash("chaos roll", user=user)
                assert not is_ephemeral(body), text_of(body)
                body = await t.slash("turn next", user=user)
                assert not is_ephemeral(body), text_of(body)
        for command, options in (
            ("game status", {}),
            ("effects list", {}),
            ("chaos log", {"count": 200}),
            ("table show", {"table": "chaos"}),
            ("table lookup", {"table": "chaos", "result": "1"}),
        ):
            body = await t.slash(command, options, user=fake.player)
            assert APOLOGY not in text_of(body)
        board = await board_of(t)
        await t.settle()

        assert not [c for c in fake.calls if c.status == 400], "Discord would refuse these"
        sent = [c for c in fake.calls if sends_a_message(c)]
        for call in sent:
            data = call.json.get("data", call.json) if "type" in call.json else call.json
            mentions = data.get("allowed_mentions")
            assert mentions in (None, {"parse": []}), mentions
            if mentions is None:  # an edit that keeps its text: embeds never ping
                assert not data.get("content")
            # An embed's author line (who rolled) shows as typed: Discord renders no markdown
            # there, so a name in it needs no escaping, as in a code block.
            embeds = [
                {k: v for k, v in e.items() if k != "author"} for e in data.get("embeds") or []
            ]
            rendered = {**data, "embeds": embeds}
            text = CODE_BLOCK.sub("", text_of({"data": rendered}))  # markdown shows as typed there
            assert not MASKED_LINK.search(text), text  # shown as text, never as a link
            assert "**bold**" not in text
            assert "||spoiler||" not in text
        shown = text_of({"data": board})
        assert all(n in shown for n in ("[nitro]", "bold", "spoiler", "@everyone", "x" * 32))


# -- commands any member can flood ----------------------------------------------------------

FLOODERS = 25


@aio
async def test_a_command_flood_is_each_answered_and_leaves_another_channel_fast(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Twenty-five members each sending the largest dice, the longest rules and card queries,
    autocompletes and button presses at once: every one is answered (a result or a sentence,
    never the apology), and a /roll in another channel stays under a second."""
    fake = fake_discord
    lobby = fake.add_channel("lobby")
    async with fake, Table.open(fake, tmp_path) as t:
        await t.game("classic", players=2, seed=5)
        button = t.newest_with("Roll chaos")
        users = [fake.add_user(f"flood{n}") for n in range(FLOODERS)]
        longest = "x" * 100
        # 200 dice (the most), each raised to 999 and shown as "123 -> 999": too long to show
        # die by die in one message, so it is summed up rather than refused by Discord.
        dice = "200d1000mi999"

        async def member(user: JSON) -> list[JSON]:
            answers = [
                await t.slash("roll dice", {"expr": dice}, user=user),
                await t.slash("roll dice", {"expr": "1000d1000"}, user=user),
                await t.slash("rules", {"topic": longest}, user=user),
                await t.slash("card", {"name": longest}, user=user),
                await t.slash("table lookup", {"table": "x" * 60, "result": longest}, user=user),
                await t.press("Roll chaos", user=user, message=button),
            ]
            for path, options, focused in (
                ("rules", {"topic": longest}, "topic"),
                ("table lookup", {"table": "chaos", "result": longest}, "result"),
                ("chaos roll", {"list": longest[:60]}, "list"),
            ):
                _, body = await fake.autocomplete(path, options, focused=focused, user=user)
                answers.append(body)
            return answers

        answers: list[JSON] = []
        async with Probe(fake, lobby) as probe:
            for _ in range(3):
                answers += [a for each in await asyncio.gather(*map(member, users)) for a in each]
        print(f"\n{len(answers)} flood commands; {probe.summary()}")
        for body in answers:
            assert body["type"] in (4, 8), body  # answered at once, or choices
            assert APOLOGY not in text_of(body)
        assert not [c for c in fake.calls if c.status == 400]
        probe.check(answers=1)
        assert (await t.current()).version == 3  # nobody but the active player rolled


@aio
async def test_hostile_logs_for_verify_each_get_a_private_sentence(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A gzip bomb, JSON nested past Python's recursion limit, one 8 MB line of JSON, and a
    file too big to download: each a private sentence, never the apology."""
    bomb = gzip.compress(b" " * (64 * 2**20))  # 64 MB of spaces in about 64 KB
    deep = b"[" * 200_000 + b"]" * 200_000 + b"\n"
    wide = b'{"type":"x","a":[' + b",".join([b"{}"] * 2_700_000) + b"]}\n"  # under 8 MB
    huge = b" " * (8 * 2**20 + 1)
    said = {
        "bomb.jsonl.gz": (bomb, "larger than 8 MB"),
        "deep.jsonl": (deep, "Line 1 isn't a JSON object"),
        "wide.jsonl.gz": (gzip.compress(wide), "which no game's log holds"),
        "huge.jsonl": (huge, "a game's log is at most 8 MB"),
    }
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        for name, (data, words) in said.items():
            file = t.fake.attachment(name, data, content_type="application/octet-stream")
            body = await answer_of(t, "game verify", {"file": file}, t.fake.player)
            assert is_ephemeral(body), text_of(body)
            assert words in text_of(body), text_of(body)
        downloads = t.fake.calls_to("GET /attachments/*")
        assert len(downloads) == 3  # the one too big was refused by its size, unread
