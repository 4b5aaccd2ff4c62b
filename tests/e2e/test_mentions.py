"""The opt-in "your turn" mention through the fake Discord: off by default; with
``/settings turn_mentions:True`` the answer that starts a turn mentions its player, and its
allowed_mentions let that one member alone be pinged; ``/player notify on:False`` keeps a player
from being pinged; a turn is pinged once, even when an undo and a redo start it again."""

from __future__ import annotations

from typing import Any

from tests.e2e.table import Table, is_ephemeral, text_of
from tests.fakediscord.plugin import aio

NOBODY: dict[str, Any] = {"parse": []}


def mentioned(answer: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """The answer's text above its embeds, and whom it lets Discord ping (ids as strings:
    discord.py sends numbers, Discord takes either)."""
    data = answer["data"]
    allowed = dict(data.get("allowed_mentions") or {})
    if "users" in allowed:
        allowed["users"] = [str(user) for user in allowed["users"]]
    return data.get("content"), allowed


@aio
async def test_the_turn_mention_pings_only_its_player_once_a_turn(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("lists", life=20)
        await t.slash("chaos roll", user=owner)
        off = await t.slash("turn next", user=owner)
        assert mentioned(off) == (None, NOBODY)  # off until the server turns it on

        saved = await t.slash("settings", {"turn_mentions": True}, user=owner)
        assert "Turn mentions: on" in text_of(saved)
        await t.slash("chaos roll", user=player)
        turn3 = await t.slash("turn next", user=player)  # the owner's turn: they are pinged
        assert mentioned(turn3) == (
            f"<@{owner['id']}>, it's your turn (turn 3).",
            {"parse": [], "users": [owner["id"]]},
        )
        await t.slash("chaos roll", user=owner)
        turn4 = await t.slash("turn next", user=owner)
        assert mentioned(turn4) == (
            f"<@{player['id']}>, it's your turn (turn 4).",
            {"parse": [], "users": [player["id"]]},
        )
        # Taken back and done again: turn 4 was pinged already.
        await t.slash("chaos undo", user=owner)
        again = await t.slash("turn next", user=owner)
        assert mentioned(again) == (None, NOBODY)

        quiet = await t.slash("player notify", {"on": False}, user=player)
        assert is_ephemeral(quiet)
        assert text_of(quiet) == "You won't be pinged when your turn starts on this server."
        await t.slash("chaos roll", user=player)
        await t.slash("turn next", user=player)  # turn 5: the owner's, pinged
        await t.slash("chaos roll", user=owner)
        turn6 = await t.slash("turn next", user=owner)  # the player's: they said no
        assert mentioned(turn6) == (None, NOBODY)
        assert player["id"] not in str(turn6)

        back = await t.slash("player notify", {"on": True}, user=player)
        assert text_of(back) == "You'll be pinged when your turn starts on this server."


@aio
async def test_notify_before_the_server_turns_mentions_on_says_so(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        said = await t.slash("player notify", {"on": True}, user=t.fake.player)
        assert is_ephemeral(said)
        assert "once this server turns turn mentions on" in text_of(said)
        settings = await t.service.settings(str(t.fake.guild_id))
        assert settings.quiet == ()
        await t.slash("player notify", {"on": False}, user=t.fake.player)
        settings = await t.service.settings(str(t.fake.guild_id))
        assert settings.quiet == (t.fake.player["id"],)
