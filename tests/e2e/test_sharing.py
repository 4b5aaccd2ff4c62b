""" "Show everyone" on a private /rules answer, through Discord: the post names who asked and
pings nobody, leads with the one-line answer and keeps the detail one click away; it survives a
restart, and a flood of presses posts it once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.client.errors import APOLOGY
from bot.client.sharing import DETAILS, SHOW, ShownOnce, shared_text
from bot.tables import load_bundled
from tests.e2e.table import JSON, Table, components, is_ephemeral, text_of
from tests.fakediscord.plugin import aio
from tests.fakediscord.server import FakeDiscord

SPITE = next(r for r in load_bundled()["classic"].rules if r.id == "spite-roll")
FLOOD = 100


def show_button(message: JSON) -> JSON:
    (button,) = [c for c in components(message) if c.get("custom_id") == SHOW]
    return button


def public_posts(fake: FakeDiscord) -> list[JSON]:
    return [m for m in fake.channel_messages() if "asked /rules" in (m["content"] or "")]


async def posted(fake: FakeDiscord, count: int) -> list[JSON]:
    """The public posts, once there are `count` (the post follows the press's answer)."""
    await fake.wait_for_message(lambda m: len(public_posts(fake)) >= count)
    return public_posts(fake)


def test_the_post_leads_with_the_answer_and_hides_the_detail_behind_one_spoiler() -> None:
    body = "**Roll once.**\n\nWhen you would lose.\n\nSee also: Life (life)."
    assert shared_text(body) == (
        f"**Roll once.**\n\n{DETAILS} ||When you would lose.\n\nSee also: Life (life).||"
    )
    assert shared_text("**Only an answer.**") == "**Only an answer.**"
    assert "||x|\u200b|y||" in shared_text("lead\n\nx||y")  # no early end to the spoiler
    long = shared_text("lead\n\n" + "word " * 2000)
    assert len(long) <= 4096
    assert long.endswith("…||")


def test_an_answer_is_shown_once_and_the_memory_is_bounded() -> None:
    shown = ShownOnce(size=3)
    assert [shown.first(n) for n in (1, 1, 2, 3, 4)] == [True, False, True, True, True]
    assert len(shown) == 3
    assert shown.first(1)  # forgotten: the oldest went first


# The bot restarts at once on the same fake; the 5 s between IDENTIFYs is tested in test_shards.
@pytest.mark.parametrize("fake_discord", [{"identify_interval": 0}], indirect=True)
@aio
async def test_show_everyone_posts_the_ruling_for_the_table_naming_who_asked(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with fake:
        async with Table.open(fake, tmp_path, db="games.db") as t:
            body = await t.slash("rules", {"topic": "spite-roll"})
            assert is_ephemeral(body)
            (asked,) = fake.ephemeral_messages(user=fake.player)
            assert show_button(asked)["label"] == "Show everyone"

            _, pressed = await fake.click(SHOW, message=asked)
            assert pressed["type"] == 7  # the private answer, updated: its button is gone
            assert not components(fake.messages[asked["id"]])
            (post,) = await posted(fake, 1)
            assert not post["flags"] & 64
            assert post["content"] == f"<@{fake.player['id']}> asked /rules:"
            (embed,) = post["embeds"]
            assert embed["title"] == "The Spite Roll (spite-roll)"
            lead, _, detail = embed["description"].partition("\n\n")
            assert lead == f"**{SPITE.answer}**"
            assert detail.startswith(DETAILS + " ||")
            assert detail.endswith("||")
            assert "`/chaos spite`" in detail  # the slash command, as the private answer says
            # The mention names the asker and pings nobody.
            (sent,) = [
                c.json
                for c in fake.calls_to("POST /webhooks/*")
                if "asked /rules" in (c.json or {}).get("content", "")
            ]
            assert sent["allowed_mentions"]["parse"] == []
            assert not sent["allowed_mentions"].get("users")

            # A topic picked from the menu of several can be shown too; the list of every
            # topic has nothing to settle a dispute with and no button.
            await t.slash("rules", {"topic": "life"})
            menu = next(c for c in components(fake.ephemeral_messages()[-1]) if c["type"] == 3)
            _, picked = await fake.select(
                menu["custom_id"], ["spite-roll"], message=fake.ephemeral_messages()[-1]
            )
            assert [c["custom_id"] for c in components(picked["data"])] == [SHOW]
            every = await t.slash("rules")
            assert not components(every["data"])

            await t.slash("rules", {"topic": "spite-roll"}, user=fake.referee)
            (later,) = fake.ephemeral_messages(user=fake.referee)

        # A button drawn before a restart still posts: it needs nothing but its message.
        async with Table.open(fake, tmp_path, db="games.db"):
            await fake.click(SHOW, message=later, user=fake.referee)
            posts = await posted(fake, 2)
            assert [p["content"] for p in posts] == [
                f"<@{fake.player['id']}> asked /rules:",
                f"<@{fake.referee['id']}> asked /rules:",
            ]


@aio
async def test_a_flood_of_presses_posts_the_ruling_once_and_each_is_answered(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with fake, Table.open(fake, tmp_path) as t:
        await t.slash("rules", {"topic": "spite-roll"})
        (asked,) = fake.ephemeral_messages(user=fake.player)
        data = {"custom_id": SHOW, "component_type": 2}
        presses = [
            fake._interaction(3, data, None, asked["channel_id"], asked) for _ in range(FLOOD)
        ]
        answers = await asyncio.wait_for(
            asyncio.gather(*(fake.send_interaction(p, timeout=60) for p in presses)), 120
        )
        assert len(answers) == FLOOD
        for _, answer in answers:
            assert APOLOGY not in text_of(answer)
        await posted(fake, 1)
        await asyncio.sleep(0.2)  # a second post would be on its way by now
        assert len(public_posts(fake)) == 1

        # A press on a message that holds no answer (hand-made) gets a sentence.
        _, gone = await fake.click(SHOW)
        assert is_ephemeral(gone)
        assert text_of(gone) == "that answer is gone: ask /rules again"
