"""Whole games through Discord, one per ruleset: only what players press and type.

Three players sit down, begin, and play turn after turn with the buttons under the bot's newest
answer (roll or draw, reveal, a split half, a spite pick, next turn), losing life or spiting on
the way, and the host ends the game. The exported log must replay to the very game the bot
saved, and the board must show the ended game with no buttons left. Fixed seeds make every run
the same game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.engine.events import Event
from bot.engine.game import Game
from bot.engine.state import Phase, Status
from tests.e2e.table import JSON, Table, components, is_ephemeral, labels, text_of
from tests.fakediscord.plugin import aio
from tests.fakediscord.server import FakeDiscord

TURNS_BEFORE = 6  # turns played before someone loses life or spites
TURNS_AFTER = 8  # and after
MAX_PRESSES = 120  # a runaway guard: fourteen turns need far fewer
SELECT = 3  # a string select menu


class Players:
    """The three people at the table, found by the id the game knows them by."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.host = fake.owner
        self.people = [fake.owner, fake.player, fake.add_user("Guest Three")]
        self.by_id = {str(u["id"]): u for u in self.people}

    def __getitem__(self, player_id: str) -> JSON:
        return self.by_id[player_id]


async def public(t: Table, path: str, options: dict[str, Any] | None = None, *, user: JSON) -> JSON:
    """A slash command that must be answered in the open: an action that happened."""
    body = await t.slash(path, options, user=user)
    assert_public(body)
    return body


def assert_public(body: JSON) -> None:
    assert body["type"] == 4, body
    assert not is_ephemeral(body), text_of(body)


def newest_answer(t: Table) -> JSON:
    """The bot's newest public answer to someone; its buttons are what comes next."""
    for message in reversed(t.fake.channel_messages()):
        if message.get("interaction_metadata"):
            return message
    raise AssertionError("the bot hasn't answered anyone yet")


async def step(t: Table, players: Players) -> str:
    """Do what the newest answer asks for, as the player it asks; returns what was pressed."""
    state = (await t.current()).game.state
    message = newest_answer(t)
    offered = labels(message)
    if state.pending is not None:
        chooser = players[state.pending.player]
        if offered == ["Choose…"]:
            await pick_from_menu(t, message, chooser)
            return "Choose…"
        assert offered, text_of(message)
        assert_public(await t.press(offered[0], user=chooser, message=message))
        return f"choose {offered[0]}"
    assert state.active is not None
    for wanted in ("Reveal", "Roll chaos", "Draw chaos card", "Next turn"):
        if wanted in offered:
            assert_public(await t.press(wanted, user=players[state.active], message=message))
            return wanted
    raise AssertionError(f"nothing to press under {text_of(message)!r}: {offered}")


async def pick_from_menu(t: Table, message: JSON, chooser: JSON) -> None:
    """ "Choose…" opens a menu only the chooser sees; they take its first option."""
    button = next(c for c in components(message) if c.get("label") == "Choose…")
    _, opened = await t.fake.click(button["custom_id"], message=message, user=chooser)
    assert is_ephemeral(opened), text_of(opened)
    menu = t.fake.ephemeral_messages(chooser)[-1]
    select = next(c for c in components(menu) if c.get("type") == SELECT)
    assert len(select["options"]) > 1
    first = select["options"][0]["value"]
    _, body = await t.fake.select(select["custom_id"], [first], message=menu, user=chooser)
    assert_public(body)


async def play_turns(t: Table, players: Players, turns: int) -> list[str]:
    pressed: list[str] = []
    until = (await t.current()).game.state.turn + turns
    while (await t.current()).game.state.turn < until:
        pressed.append(await step(t, players))
        assert len(pressed) < MAX_PRESSES, pressed[-20:]
    return pressed


async def exported(t: Table, user: JSON) -> list[Event]:
    """The log /game export hands over, read from the file it attaches."""
    body = await t.slash("game export", user=user)
    assert is_ephemeral(body), text_of(body)
    (attachment,) = t.fake.ephemeral_messages(user)[-1]["attachments"]
    text = t.fake.attachment_data(attachment).decode()
    return [json.loads(line) for line in text.splitlines() if line]


async def lose_or_spite(t: Table, ruleset: str, players: Players) -> JSON:
    """The third player would lose, the way each ruleset's group would say so."""
    guest = players.people[2]
    if ruleset == "classic":  # damage past 0 life: healed to 0, then a spite roll
        return await public(t, "life lose", {"amount": 25}, user=guest)
    if ruleset == "lists":  # out, with a roll on the Spite list (two opponents remain)
        return await public(t, "chaos spite", {"player": "Guest Three"}, user=players.host)
    return await public(t, "chaos spite", user=guest)  # deck: a look at the top seven


@pytest.mark.parametrize(
    ("ruleset", "seed", "life"),
    [("classic", 11, 20), ("lists", 102, None), ("deck", 13, None)],
)
@aio
async def test_a_whole_game_through_discord(
    fake_discord: FakeDiscord, tmp_path: Path, ruleset: str, seed: int, life: int | None
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        players = Players(fake_discord)
        start: dict[str, Any] = {"ruleset": ruleset, "seed": seed}
        if life is not None:
            start["life"] = life
        await public(t, "game start", start, user=players.host)
        for user in players.people[1:]:
            await public(t, "game join", user=user)
        await public(t, "game begin", user=players.host)

        pressed = await play_turns(t, players, TURNS_BEFORE)
        spite = await lose_or_spite(t, ruleset, players)
        assert "Guest Three" in text_of(spite)
        pressed += await play_turns(t, players, TURNS_AFTER)
        before_end = (await t.current()).game
        ruleset_played = before_end.ruleset
        turn = before_end.state.turn
        assert turn == 1 + TURNS_BEFORE + TURNS_AFTER
        await public(t, "game end", user=players.host)
        await t.settle()
        scope = f"{fake_discord.guild_id}:{fake_discord.channel_id}"

        # What each ruleset is about happened, through buttons alone.
        assert pressed.count("Next turn") == TURNS_BEFORE + TURNS_AFTER
        if ruleset == "deck":
            assert "Reveal" in pressed
            assert "Draw chaos card" in pressed
            assert "Choose…" in pressed  # the spite look, answered in the private menu
        else:
            assert "Roll chaos" in pressed
        if ruleset == "lists":
            assert any(p.startswith("choose ") for p in pressed)  # this seed offers a keep-one

        # The export is the saved log, and replaying its actions gives the same game.
        log = await exported(t, players.people[1])
        stored = await t.service.store.latest_game(scope)
        assert stored is not None
        assert not stored.record.active
        assert log == stored.events
        saved = Game(ruleset_played, stored.events)
        assert saved.state.phase is Phase.ENDED
        replayed = Game.replay(ruleset_played, [e["action"] for e in log if e["type"] == "action"])
        assert replayed.events == log
        assert replayed.state == saved.state
        types = {e["type"] for e in log}
        assert {"spite_started", "spite_ended", "turn_started"} <= types
        guest = saved.state.players[str(players.people[2]["id"])]
        if ruleset == "lists":
            assert guest.status is Status.OUT
        if ruleset == "deck":
            assert guest.spited

        # The board shows the ended game, and nothing to press.
        board = await t.service.board(scope)
        assert board is not None
        assert board.game_id == stored.record.id
        shown = fake_discord.messages[board.message]
        assert components(shown) == []
        assert "**Game over after " in text_of(shown), text_of(shown)
        assert f"turn {turn}" in text_of(shown)
        assert len([m for m in fake_discord.channel_messages() if m is shown]) == 1
