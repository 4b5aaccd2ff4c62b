"""Titles that announce (issue 24, section 2): every action the log can hold has words a games
master would say ("Bob joined", "Turn 3 — Carol"), and none of them echoes the command as typed
("Bob: game join Bob"); a roll's title says what it came to ("Carnival Ride → Life Rotation")."""

from __future__ import annotations

import re
from dataclasses import fields
from typing import Any, cast

import pytest

from bot.engine.actions import ACTIONS, Action
from bot.engine.events import Event, Roll
from bot.render.announce import ANNOUNCED, announcement, roll_title
from bot.render.lines import describe_action
from bot.render.names import Names

NAMES = Names({"ann": "Ann", "bob": "Bob", "cy": "Cy"})
# A value for every field an action may have, as a player would give it.
SAMPLE: dict[str, Any] = {
    "player_name": "Bob",
    "order": ("bob", "ann"),
    "table": "vortex",
    "extra": False,
    "player": "bob",
    "reason": "life",
    "option": "12",
    "override": False,
    "effect": 2,
    "card": 1,
    "mode": "lose",
    "amount": 3,
    "turns": 2,
}


def sample(cls: type[Action]) -> Action:
    given = {f.name: SAMPLE[f.name] for f in fields(cls) if f.name in SAMPLE and f.init}
    return cls(actor="ann", **given)


def logged(action: dict[str, Any]) -> list[Event]:
    return [cast(Event, {"type": "action", "seq": 1, "action": action})]


def test_every_action_the_log_holds_has_words_of_its_own() -> None:
    assert {*ACTIONS, "game start"} == ANNOUNCED


@pytest.mark.parametrize("name", sorted(ACTIONS))
def test_no_title_echoes_the_command(name: str) -> None:
    action = sample(ACTIONS[name]).to_json()
    said = announcement(logged(action), NAMES)
    assert said is not None
    typed = describe_action(action, NAMES)
    assert typed not in said
    assert not re.match(r"^[^ ]+: ", said), said  # not "Ann: ..."
    if " " in name:  # the command's words, as words ("The game begins" doesn't echo them)
        assert not re.search(rf"\b{name}\b", said, re.IGNORECASE), said
    assert said[:1].isupper() or said.startswith(("E", "M")), said
    assert "`" not in said


def turn_started(turn: int, player: str, extra: bool = False) -> Event:
    return cast(Event, {"type": "turn_started", "turn": turn, "player": player, "extra": extra})


@pytest.mark.parametrize(
    ("action", "events", "said"),
    [
        ({"name": "game join", "actor": "bob", "player_name": "Bob"}, [], "Bob joined"),
        ({"name": "turn next", "actor": "ann"}, [turn_started(3, "cy")], "Turn 3 — Cy"),
        (
            {"name": "turn next", "actor": "ann"},
            [turn_started(4, "cy", extra=True)],
            "Turn 4 — Cy (extra turn)",
        ),
        ({"name": "chaos roll", "actor": "ann"}, [], "Ann rolls chaos"),
        ({"name": "chaos roll", "actor": "ann", "extra": True}, [], "An extra chaos roll for Ann"),
        (
            {"name": "life", "actor": "ann", "player": "bob", "mode": "gain", "amount": 2},
            [],
            "Bob gains 2 life",
        ),
        ({"name": "life", "actor": "ann", "mode": "set", "amount": 7}, [], "Ann is at 7 life"),
        ({"name": "player away", "actor": "cy"}, [], "Cy steps away"),
        (
            {"name": "chaos veto", "actor": "bob"},
            [{"type": "veto_vote", "item": 3, "player": "bob", "votes": 1, "needed": 2}],
            "Bob votes to veto R3 (1 of 2)",
        ),
        (
            {"name": "chaos veto", "actor": "cy"},
            [
                {"type": "veto_vote", "item": 3, "player": "cy", "votes": 2, "needed": 2},
                {"type": "vetoed", "item": 3, "voters": ["bob", "cy"]},
                {"type": "roll", "id": 5, "parent": None, "player": "ann"},
            ],
            "R3 is vetoed — Ann rolls again",
        ),
    ],
)
def test_announcements_read_aloud(action: dict[str, Any], events: list[Event], said: str) -> None:
    assert announcement([*logged(action), *events], NAMES) == said


def roll(roll_id: int, name: str, parent: int | None = None, ignored: bool = False) -> Roll:
    return cast(
        Roll,
        {
            "type": "roll",
            "id": roll_id,
            "parent": parent,
            "ignored": ignored,
            "entry": {"id": name, "name": name},
        },
    )


def test_a_chain_of_single_rolls_names_each_step() -> None:
    rolls = [roll(1, "Carnival Ride"), roll(2, "Life Rotation", parent=1)]
    assert roll_title(rolls, rolls[0]) == "Carnival Ride → Life Rotation"


def test_several_sub_rolls_are_counted_and_ignored_ones_dont_count() -> None:
    rolls = [roll(1, "Grand Tour"), *(roll(n, f"R{n}", parent=1) for n in (2, 3, 4))]
    assert roll_title(rolls, rolls[0]) == "Grand Tour → 3 rolls"
    rolls = [roll(1, "Twice"), roll(2, "Calm", parent=1), roll(3, "Again", 1, ignored=True)]
    assert roll_title(rolls, rolls[0]) == "Twice → Calm"
    assert roll_title(rolls[:1], rolls[0]) == "Twice"


def test_a_long_chain_keeps_its_start_and_end() -> None:
    rolls = [roll(1, "A"), *(roll(n, chr(64 + n), parent=n - 1) for n in range(2, 8))]
    assert roll_title(rolls, rolls[0]) == "A → … → F → G"
    # A chain that ends in several rolls ends with their count.
    rolls += [roll(8, "H", parent=7), roll(9, "I", parent=7)]
    assert roll_title(rolls, rolls[0]) == "A → … → G → 2 rolls"
