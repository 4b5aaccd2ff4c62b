"""The most seats a game has still fit on its board: Discord's limits, measured at the cap.

A description holds at most 4,096 characters and a field 1,024; the seat cap (MAX_SEATS) is
chosen so that a full table of players with the longest names a front end gives stays inside
both, in the lobby and in play, with life, tokens and absences shown.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.client.board import board_embed
from bot.commands import MAX_NAME
from bot.engine import Away, Begin, Game, Join, RollChaos, RulesError
from bot.engine.turns import MAX_SEATS
from bot.tables import find_ruleset

DESCRIPTION_LIMIT = 4096
FIELD_LIMIT = 1024


def full_table(ruleset: str, *, life: int | None = None) -> Game:
    """A lobby with every seat taken by a player whose name is as long as names get."""
    rules = find_ruleset(ruleset).ruleset
    names = [f"{n:02d}" + "W" * (MAX_NAME - 2) for n in range(MAX_SEATS)]
    game = Game.start(rules, seed=5, host="p0", name=names[0], life=life)
    for n, name in enumerate(names[1:], start=1):
        game.act(Join(actor=f"p{n}", player_name=name))
    return game


def sizes(game: Game) -> tuple[int, list[int]]:
    """The board's description length and each field's (name and value), measured."""
    data: dict[str, Any] = dict(board_embed(game).to_dict())
    fields = [len(field["value"]) + len(field["name"]) for field in data.get("fields", [])]
    return len(data.get("description", "")), fields


def shown(game: Game) -> str:
    """Where the board names the players: the description in the lobby, the seats in play."""
    data: dict[str, Any] = dict(board_embed(game).to_dict())
    return str(data.get("description", "")) + "".join(f["value"] for f in data.get("fields", []))


@pytest.mark.parametrize("ruleset", ["classic", "lists", "deck"])
def test_a_full_table_fits_on_the_board_in_the_lobby_and_in_play(ruleset: str) -> None:
    game = full_table(ruleset, life=20)
    description, fields = sizes(game)
    assert description <= DESCRIPTION_LIMIT
    assert all(size <= FIELD_LIMIT for size in fields)
    assert all(player.name in shown(game) for player in game.state.players.values())

    game.act(Begin(actor="p0"))
    game.act(RollChaos(actor="p0"))
    for n in range(1, MAX_SEATS, 2):
        game.act(Away(actor="p0", player=f"p{n}", turns=999))
    description, fields = sizes(game)
    assert description <= DESCRIPTION_LIMIT
    assert all(size <= FIELD_LIMIT for size in fields)
    assert all(player.name in shown(game) for player in game.state.players.values())


def test_no_one_joins_past_the_seat_cap() -> None:
    game = full_table("classic")
    with pytest.raises(RulesError, match=f"this game is full: a table has at most {MAX_SEATS}"):
        game.act(Join(actor="late", player_name="Late"))
    assert len(game.state.players) == MAX_SEATS
