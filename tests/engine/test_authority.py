"""Who may do what (bot.engine.authority), from both sides: every row of the table is tried by
someone it allows and by someone it refuses, and each refusal says who may.

The table is Ann's (the host); it is Bob's turn; Cy sits at the table; "ref" is a referee
without a seat and "zed" a stranger.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from bot.engine import (
    Action,
    Away,
    Back,
    ChaosError,
    End,
    ExtraTurn,
    Game,
    Kind,
    Leave,
    Life,
    NextTurn,
    NotInGameError,
    NotYourTurnError,
    Reverse,
    RollChaos,
    RollGlobal,
    Ruleset,
    Seats,
    SkipTurn,
    Spite,
    StartRoll,
    Undo,
)
from bot.engine.authority import ABILITIES, Who, ability, check_page
from tests.engine.tiny import entry, fixed, new_game, ruleset

LETTERS = "ABCDEF"


def lists_rules() -> Ruleset:
    """Lists A-F (each gives one plain result), a Vortex, and a Global list."""
    tables = [fixed(letter, entry(letter, f"List {letter}")) for letter in LETTERS]
    tables.append(fixed("vortex", entry("v", "Vortex")))
    tables.append(fixed("global", entry("g", "A Global", kind=Kind.GLOBAL, text="Rule.")))
    rules = ruleset(*tables, lists=tuple(LETTERS), tokens=True)
    return replace(rules, start=StartRoll.GLOBAL, start_table="global")


def bobs_turn() -> Game:
    """Ann hosts; Ann's turn 1 is over and Bob's turn 2 has begun, its roll not made yet."""
    game = new_game(lists_rules(), players=("ann", "bob", "cy"))
    game.act(RollChaos(actor="ann"))
    game.act(NextTurn(actor="ann"))
    assert game.state.active == "bob"
    return game


def rolled(game: Game) -> Game:
    game.act(RollChaos(actor="bob"))
    return game


Make = Callable[[str, bool, bool], Action]  # actor, referee, turn_powers -> the action

# (what, the action, the game it is tried in, who may, who may not and what they are told)
# A "who" is a name, "name+" for that name with the guild's turn powers on, or "ref" (referee).
CASES: list[tuple[str, Make, Callable[[], Game], list[str], list[tuple[str, str]]]] = [
    (
        "the turn's roll",
        lambda who, ref, tp: RollChaos(actor=who, referee=ref, turn_powers=tp),
        bobs_turn,
        ["bob", "ann", "ref"],
        [("cy", "it's Bob's turn: only they, the host or a referee"), ("zed", "not in this game")],
    ),
    (
        "an extra roll",
        lambda who, ref, tp: RollChaos(actor=who, referee=ref, turn_powers=tp, extra=True),
        bobs_turn,
        ["ann", "ref"],
        [
            ("bob", "only the host or a referee can ask for an extra roll"),
            ("bob+", "only the host or a referee can ask for an extra roll"),
        ],
    ),
    (
        "a named-list roll",
        lambda who, ref, tp: RollChaos(actor=who, referee=ref, turn_powers=tp, table="vortex"),
        bobs_turn,
        ["ann", "ref", "bob+"],
        [
            ("bob", "only the host or a referee can roll on a named list"),
            ("cy+", "only the active player, the host or a referee can roll on a named list"),
        ],
    ),
    (
        "a new Global",
        lambda who, ref, tp: RollGlobal(actor=who, referee=ref, turn_powers=tp),
        bobs_turn,
        ["ann", "ref", "bob+"],
        [("bob", "only the host or a referee can roll a new Global"), ("cy+", "active player")],
    ),
    (
        "an extra turn",
        lambda who, ref, tp: ExtraTurn(actor=who, referee=ref, turn_powers=tp),
        bobs_turn,
        ["ann", "ref", "bob+"],
        [("bob", "only the host or a referee can give an extra turn"), ("zed", "host or a ref")],
    ),
    (
        "a skip",
        lambda who, ref, tp: SkipTurn(actor=who, referee=ref, turn_powers=tp, player="cy"),
        bobs_turn,
        ["ann", "ref", "bob+"],
        [("bob", "only the host or a referee can make a player skip a turn")],
    ),
    (
        "a reversal",
        lambda who, ref, tp: Reverse(actor=who, referee=ref, turn_powers=tp),
        bobs_turn,
        ["ann", "ref", "bob+"],
        [("bob", "only the host or a referee can reverse the turn order")],
    ),
    (
        "new seats",
        lambda who, ref, tp: Seats(
            actor=who, referee=ref, turn_powers=tp, order=("cy", "bob", "ann")
        ),
        bobs_turn,
        ["ann", "ref"],
        [("bob+", "only the host or a referee can change the seating")],
    ),
    (
        "ending the turn",
        lambda who, ref, tp: NextTurn(actor=who, referee=ref, turn_powers=tp),
        lambda: rolled(bobs_turn()),
        ["bob", "ann", "ref"],
        [("cy", "it's Bob's turn: only they, the host or a referee can end the turn")],
    ),
    (
        "waiving the roll",
        lambda who, ref, tp: NextTurn(actor=who, referee=ref, turn_powers=tp, override=True),
        bobs_turn,
        ["ann", "ref"],
        [("bob", "only the host or a referee can end a turn without its chaos roll")],
    ),
    (
        "an undo",
        lambda who, ref, tp: Undo(actor=who, referee=ref, turn_powers=tp),
        bobs_turn,
        ["ann", "ref"],
        [("bob+", "only the host or a referee can undo"), ("zed", "only the host or a referee")],
    ),
    (
        "ending the game",
        lambda who, ref, tp: End(actor=who, referee=ref, turn_powers=tp),
        bobs_turn,
        ["ann", "ref"],
        [("bob", "only the host or a referee can end the game")],
    ),
    (
        "sending someone away",
        lambda who, ref, tp: Away(actor=who, referee=ref, turn_powers=tp, player="cy"),
        bobs_turn,
        ["cy", "ann", "ref"],
        [("bob+", "only Cy, the host or a referee can send that player away")],
    ),
    (
        "a spite",
        lambda who, ref, tp: Spite(actor=who, referee=ref, turn_powers=tp, player="cy"),
        bobs_turn,
        ["cy", "ann", "ref"],
        [("bob", "only Cy, the host or a referee can apply the spite rule")],
    ),
    (
        "a life change",
        lambda who, ref, tp: Life(actor=who, referee=ref, turn_powers=tp, player="cy", amount=7),
        bobs_turn,
        ["cy", "bob", "ann", "ref"],
        [("zed", "you're not in this game: only its players can change life totals")],
    ),
]


def _action(make: Make, who: str) -> Action:
    name = who.rstrip("+")
    return make(name, name == "ref", who.endswith("+"))


@pytest.mark.parametrize(
    ("make", "setup", "who"),
    [(make, setup, who) for _, make, setup, allowed, _ in CASES for who in allowed],
    ids=[f"{what}: {who}" for what, _, _, allowed, _ in CASES for who in allowed],
)
def test_the_table_allows(make: Make, setup: Callable[[], Game], who: str) -> None:
    game = setup()
    game.act(_action(make, who))


@pytest.mark.parametrize(
    ("make", "setup", "who", "message"),
    [
        (make, setup, who, message)
        for _, make, setup, _, refused in CASES
        for who, message in refused
    ],
    ids=[f"{what}: {who}" for what, _, _, _, refused in CASES for who, _ in refused],
)
def test_the_table_refuses_with_a_sentence_saying_who_may(
    make: Make, setup: Callable[[], Game], who: str, message: str
) -> None:
    game = setup()
    before = list(game.events)
    with pytest.raises((NotYourTurnError, NotInGameError), match=message):
        game.act(_action(make, who))
    assert game.events == before


def test_every_ability_in_the_table_is_reachable_and_says_what_it_is() -> None:
    game = bobs_turn()
    seen = {ability(game.state, _action(make, "ann")).what for _, make, _, _, _ in CASES}
    assert seen <= set(ABILITIES)
    assert all(can.what and isinstance(can.who, Who) for can in ABILITIES.values())


# -- absent players (item 4) ------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        RollChaos(actor="ann"),
        RollChaos(actor="ann", extra=True),
        RollGlobal(actor="ann"),
        NextTurn(actor="ann"),
        Undo(actor="ann"),
        End(actor="ann"),
        Life(actor="ann", player="cy", mode="lose", amount=1),
        Back(actor="ann", player="cy"),
        RollChaos(actor="ann", referee=True),  # a referee role doesn't bring them back
    ],
    ids=lambda action: action.name,
)
def test_a_player_who_is_away_takes_no_action_but_coming_back(action: Action) -> None:
    game = bobs_turn()
    game.act(Away(actor="cy"))
    game.act(Away(actor="ann"))  # the host steps away on Bob's turn
    with pytest.raises(NotYourTurnError, match="Ann is away: the one thing"):
        game.act(action)
    game.act(Back(actor="ann"))
    assert game.state.players["ann"].status.value == "playing"


def test_nobody_rolls_for_a_player_who_is_away_and_their_turn_ends_without_a_roll() -> None:
    game = bobs_turn()
    game.act(Away(actor="bob"))  # on his own turn
    assert game.state.active is None
    for action in (RollChaos(actor="ann"), RollChaos(actor="ann", extra=True)):
        with pytest.raises(ChaosError, match="nobody is active this turn"):
            game.act(action)
    # Cy isn't told a host or referee could roll instead: nobody can, and she may move on.
    with pytest.raises(NotYourTurnError) as refusal:
        game.act(RollChaos(actor="cy"))
    assert "Bob isn't at the table" in str(refusal.value)
    assert "`turn next`" in str(refusal.value)
    assert "host" not in str(refusal.value)
    events = game.act(NextTurn(actor="cy"))  # anyone at the table may end it
    kinds = [e["type"] for e in events]
    assert "roll_waived" not in kinds
    assert "chaos_done" not in kinds
    assert not any(e["type"] == "roll" for e in game.events if e.get("player") == "bob")
    assert game.state.active == "cy"


def test_a_turn_whose_player_left_ends_with_no_active_player_and_no_roll() -> None:
    game = bobs_turn()
    game.act(Leave(actor="bob"))  # Bob concedes on his own turn
    assert game.state.active is None
    with pytest.raises(ChaosError, match="nobody is active this turn"):
        game.act(RollChaos(actor="ann"))
    events = game.act(NextTurn(actor="ann"))
    assert not any(e["type"] in ("roll_waived", "chaos_done", "roll") for e in events)


# -- the live page's links (issue 13) ------------------------------------------------------


@pytest.mark.parametrize("revoke", [False, True], ids=["hand out", "turn off"])
@pytest.mark.parametrize(
    ("who", "referee"), [("ann", False), ("ref", True), ("bob", True)], ids=["host", "ref", "bob+"]
)
def test_the_host_and_referees_may_share_the_live_page(
    who: str, referee: bool, revoke: bool
) -> None:
    lobby = Game.start(lists_rules(), seed=7, host="ann", name="Ann")
    over = bobs_turn()
    over.act(End(actor="ann"))
    for game in (lobby, bobs_turn(), over):
        check_page(game.state, who, referee=referee, revoke=revoke)


@pytest.mark.parametrize(
    ("revoke", "message"),
    [
        (False, "only the host or a referee can hand out a link to the game's live page"),
        (True, "only the host or a referee can turn off the links to the game's live page"),
    ],
)
@pytest.mark.parametrize("who", ["bob", "cy", "zed"])
def test_players_and_strangers_may_not_share_the_live_page(
    who: str, revoke: bool, message: str
) -> None:
    game = bobs_turn()  # Bob is even the active player: the page is still not his to share
    with pytest.raises(NotYourTurnError, match=message):
        check_page(game.state, who, referee=False, revoke=revoke)
    assert ABILITIES[message.removeprefix("only the host or a referee can ")].who is Who.OFFICIAL
