"""The names the game gives its callers (bot.client.interactions.player_name)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from bot.client.interactions import player_name
from bot.commands import MAX_NAME


@dataclass
class Member:
    display_name: str
    name: str
    id: int


def name_of(display_name: str, name: str = "user", id: int = 123456789) -> str:
    return player_name(cast(Any, Member(display_name, name, id)))


def test_names_lose_what_the_game_reads_as_syntax_and_what_doesnt_print() -> None:
    assert name_of("Ann, the #1: Great") == "Ann the 1 Great"
    assert name_of("Bo\u0000b\u200b") == "Bob"
    assert name_of("x" * 200) == "x" * MAX_NAME
    assert name_of(",,, ::", name="fallback") == "fallback"
    assert name_of("\u0007", name="\u0007", id=987654321) == "Player 4321"


def test_a_member_who_changes_their_name_is_called_by_the_new_one() -> None:
    """Names are cleaned once per name (a cache): a new display name is a new name."""
    assert name_of("Carol", id=1) == "Carol"
    assert name_of("Caz", id=1) == "Caz"
    assert name_of("Carol", id=1) == "Carol"
