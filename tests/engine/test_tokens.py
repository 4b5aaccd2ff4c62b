"""CounterRoll and RollFork: spending them on this turn's stack, what a counter takes back and
gives back, what a fork copies, and that the log still folds and replays afterwards."""

from __future__ import annotations

import pytest

from bot.engine import (
    Counter,
    Duration,
    Fork,
    Game,
    Kind,
    Lasts,
    NextTurn,
    RollChaos,
    RollTable,
    RulesError,
    Ruleset,
    Token,
)
from bot.engine.events import Event
from tests.engine.tiny import (
    as_dicts,
    assert_consistent,
    entry,
    fixed,
    new_game,
    of_type,
    ruleset,
    times,
)

FOG = entry(
    "fog",
    "Fog",
    text="No combat damage for {1d4} turns.",
    duration=Duration(Lasts.NEXT_TURN),
)
LETTERS = "ABCDEF"


def token_tables() -> list[RollTable]:
    return [
        fixed("counters", entry("c", "A CounterRoll", kind=Kind.TOKEN, token=Token.COUNTER)),
        fixed("forks", entry("f", "A RollFork", kind=Kind.TOKEN, token=Token.FORK)),
    ]


def classic_tokens(*, tokens: bool = True) -> Ruleset:
    """A chaos list that always gives Fog, a "roll twice" list, and lists that hand out tokens."""
    return ruleset(
        fixed("chaos", FOG),
        fixed("twice", entry("2", "Fog twice", kind=Kind.MULTI, multi=times(2, "chaos"))),
        *token_tables(),
        tokens=tokens,
    )


def lists_tokens() -> Ruleset:
    """Lists A-F with tokens: A moves on to C, E forces the next roll onto F."""
    tables = {letter: fixed(letter, entry(letter, f"List {letter}")) for letter in LETTERS}
    tables["A"] = fixed("A", entry("A>C", "On to C", kind=Kind.LINK, link="C"))
    tables["E"] = fixed("E", entry("E!F", "Straight to F", next_list="F"))
    return ruleset(*tables.values(), *token_tables(), lists=tuple(LETTERS), tokens=True)


def stocked(
    rules: Ruleset, *, ann: tuple[int, int] = (0, 0), bob: tuple[int, int] = (0, 0)
) -> Game:
    """A game on its third turn (Ann's, nothing on the stack) where each player holds
    (CounterRolls, RollForks) as given."""
    game = new_game(rules)
    for player, (counters, forks) in (("ann", ann), ("bob", bob)):
        for _ in range(counters):
            game.act(RollChaos(actor=player, referee=True, table="counters"))
        for _ in range(forks):
            game.act(RollChaos(actor=player, referee=True, table="forks"))
        game.act(NextTurn(actor="ann", override=True))  # the host waives the chaos roll
    assert game.state.stack == []
    assert game.state.active == "ann"
    return game


def tokens_of(game: Game, player: str) -> tuple[int, int]:
    held = game.state.players[player].tokens
    return held.get(Token.COUNTER.value, 0), held.get(Token.FORK.value, 0)


def root_id(events: list[Event]) -> int:
    [stack] = of_type(events, "stack")
    return int(stack["item"])


def live(game: Game) -> dict[int, bool]:
    return {item.id: item.live for item in game.state.stack}


def effect_names(game: Game) -> list[tuple[str, str | None]]:
    return sorted((e.name, e.owner) for e in game.state.effects.values())


# --- Spending a token -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "label"), [(Counter, "CounterRoll"), (Fork, "RollFork")], ids=["counter", "fork"]
)
def test_a_token_action_needs_a_held_token(action: type[Counter | Fork], label: str) -> None:
    game = stocked(classic_tokens())
    game.act(RollChaos(actor="ann"))
    logged = list(game.events)

    with pytest.raises(RulesError, match=f"Bob has no {label}"):
        game.act(action(actor="bob"))

    assert game.events == logged


@pytest.mark.parametrize(
    ("action", "label"), [(Counter, "CounterRoll"), (Fork, "RollFork")], ids=["counter", "fork"]
)
def test_a_token_action_needs_a_roll_on_this_turns_stack(
    action: type[Counter | Fork], label: str
) -> None:
    game = stocked(classic_tokens(), bob=(1, 1))

    with pytest.raises(RulesError, match=f"no roll on the stack this turn for a {label}"):
        game.act(action(actor="bob"))

    assert tokens_of(game, "bob") == (1, 1)


def test_a_ruleset_without_tokens_refuses_them() -> None:
    game = stocked(classic_tokens(tokens=False), bob=(1, 0))
    game.act(RollChaos(actor="ann"))

    with pytest.raises(RulesError, match="has no CounterRoll or RollFork tokens"):
        game.act(Counter(actor="bob"))


def test_the_stack_clears_when_the_turn_ends() -> None:
    game = stocked(classic_tokens(), bob=(1, 0))
    game.act(RollChaos(actor="ann"))
    assert len(game.state.stack) == 1

    game.act(NextTurn(actor="ann"))

    assert game.state.stack == []
    with pytest.raises(RulesError, match="no roll on the stack this turn"):
        game.act(Counter(actor="bob"))


# --- Counter ----------------------------------------------------------------------------------


def test_counter_ends_the_lasting_effects_of_the_roll() -> None:
    game = stocked(classic_tokens(), bob=(1, 0))
    rolled = root_id(game.act(RollChaos(actor="ann")))
    [fog] = game.state.effects

    events = as_dicts(game.act(Counter(actor="bob")))

    assert [e["type"] for e in events] == ["action", "tokens", "stack", "countered", "effect_ended"]
    spent, pushed, countered, ended = events[1:]
    assert spent == {
        "type": "tokens",
        "player": "bob",
        "token": "counter_roll",
        "delta": -1,
        "reason": f"spent on item {rolled}",
        "source": None,
        "item": None,
    }
    assert (pushed["kind"], pushed["player"], pushed["target"]) == ("counter", "bob", rolled)
    assert countered == {
        "type": "countered",
        "item": rolled,
        "by": pushed["item"],
        "countered": True,
    }
    assert ended == {"type": "effect_ended", "id": fog, "reason": "countered", "undoes": rolled}
    assert game.state.effects == {}
    assert live(game) == {rolled: False, pushed["item"]: True}
    assert tokens_of(game, "bob") == (0, 0)
    assert_consistent(game)


def test_counter_ends_every_effect_of_a_multi_roll() -> None:
    game = stocked(classic_tokens(), bob=(1, 0))
    game.act(RollChaos(actor="ann", table="twice"))
    assert len(game.state.effects) == 2

    events = game.act(Counter(actor="bob"))

    assert len(of_type(events, "effect_ended")) == 2
    assert game.state.effects == {}
    assert_consistent(game)


def test_counter_takes_back_the_tokens_the_roll_granted() -> None:
    game = stocked(classic_tokens(), ann=(0, 1), bob=(1, 0))
    game.act(RollChaos(actor="ann", table="forks"))
    assert tokens_of(game, "ann") == (0, 2)

    events = game.act(Counter(actor="bob"))

    [spent, taken] = of_type(events, "tokens")
    assert spent["player"] == "bob"
    assert (taken["player"], taken["token"], taken["delta"]) == ("ann", "roll_fork", -1)
    assert taken["reason"] == "countered"
    assert tokens_of(game, "ann") == (0, 1)
    assert_consistent(game)


def test_counter_reverts_the_list_change_the_roll_made() -> None:
    game = stocked(lists_tokens(), bob=(1, 0))
    game.act(RollChaos(actor="ann"))  # the game's first chaos roll: A, which moves on to C
    assert game.state.current_list == "C"

    events = game.act(Counter(actor="bob"))

    [reverted] = of_type(events, "list_changed")
    assert (reverted["current"], reverted["forced"], reverted["reason"]) == (
        None,
        None,
        "countered",
    )
    assert game.state.forced_list is None
    assert not game.state.current_list
    assert_consistent(game)


def test_counter_lifts_the_forced_list_the_roll_set() -> None:
    game = stocked(lists_tokens(), bob=(1, 0))
    game.act(RollChaos(actor="ann"))  # A, which moves on to C
    game.act(RollChaos(actor="ann", table="E"))  # a named list: E still forces the next roll
    assert (game.state.current_list, game.state.forced_list) == ("C", "F")

    game.act(Counter(actor="bob"))

    assert (game.state.current_list, game.state.forced_list) == ("C", None)
    game.act(NextTurn(actor="ann"))
    events = game.act(RollChaos(actor="bob"))
    assert [r["table"] for r in of_type(events, "roll")] == ["C"]
    assert_consistent(game)


def test_countering_a_counter_restores_the_roll_and_its_effects() -> None:
    game = stocked(classic_tokens(), ann=(1, 0), bob=(1, 0))
    rolled = root_id(game.act(RollChaos(actor="ann")))
    [(fog, original)] = game.state.effects.items()
    first = root_id(game.act(Counter(actor="bob")))

    events = game.act(Counter(actor="ann"))

    second = root_id(events)
    countered = of_type(events, "countered")
    assert [(c["item"], c["countered"]) for c in countered] == [(first, True), (rolled, False)]
    [back] = of_type(events, "effect_started")
    assert (back["name"], back["source"], back["owner"], back["item"]) == (
        "Fog",
        original.source,
        "ann",
        rolled,
    )
    assert back["text"] == original.text
    assert back["id"] != fog  # a new effect, with a fresh id
    assert effect_names(game) == [("Fog", "ann")]
    assert live(game) == {rolled: True, first: False, second: True}
    assert_consistent(game)


def test_a_third_counter_counters_the_roll_again() -> None:
    game = stocked(classic_tokens(), ann=(1, 0), bob=(2, 0))
    rolled = root_id(game.act(RollChaos(actor="ann")))
    game.act(Counter(actor="bob"))
    game.act(Counter(actor="ann"))

    events = game.act(Counter(actor="bob"))

    assert [(c["item"], c["countered"]) for c in of_type(events, "countered")][-1] == (
        rolled,
        True,
    )
    assert game.state.effects == {}
    assert not live(game)[rolled]
    assert_consistent(game)


def test_a_restored_roll_gives_its_tokens_back() -> None:
    game = stocked(classic_tokens(), ann=(1, 0), bob=(1, 0))
    game.act(RollChaos(actor="ann", table="forks"))
    game.act(Counter(actor="bob"))
    assert tokens_of(game, "ann") == (1, 0)

    game.act(Counter(actor="ann"))

    assert tokens_of(game, "ann") == (0, 1)
    assert_consistent(game)


# --- Fork -------------------------------------------------------------------------------------


def test_fork_copies_the_most_recent_roll_under_the_forkers_control() -> None:
    game = stocked(classic_tokens(), bob=(0, 1))
    original = of_type(game.act(RollChaos(actor="ann")), "roll")[0]

    events = game.act(Fork(actor="bob"))

    [pushed] = of_type(events, "stack")
    [copy] = of_type(events, "roll")
    assert (pushed["kind"], pushed["player"], pushed["target"]) == ("fork", "bob", original["id"])
    assert copy["id"] == pushed["item"] != original["id"]
    assert copy["reason"] == f"copy of roll {original['id']} (RollFork)"
    assert (copy["player"], copy["table"], copy["dice"], copy["result"]) == (
        "bob",
        original["table"],
        original["dice"],
        original["result"],
    )
    assert (copy["parent"], copy["depth"], copy["ignored"]) == (None, 0, False)
    [started] = of_type(events, "effect_started")
    assert (started["owner"], started["source"], started["item"]) == ("bob", copy["id"], copy["id"])
    assert effect_names(game) == [("Fog", "ann"), ("Fog", "bob")]
    assert tokens_of(game, "bob") == (0, 0)
    assert_consistent(game)


def test_a_fork_of_a_multi_roll_makes_a_new_roll_tree() -> None:
    game = stocked(classic_tokens(), bob=(0, 1))
    game.act(RollChaos(actor="ann", table="twice"))

    events = game.act(Fork(actor="bob"))

    copy, *children = of_type(events, "roll")
    assert [(c["parent"], c["depth"], c["slot"], c["player"]) for c in children] == [
        (copy["id"], 1, "1/2", "bob"),
        (copy["id"], 1, "2/2", "bob"),
    ]
    assert effect_names(game) == [("Fog", "ann")] * 2 + [("Fog", "bob")] * 2
    assert_consistent(game)


def test_a_fork_copy_can_itself_be_countered() -> None:
    game = stocked(classic_tokens(), ann=(1, 0), bob=(0, 1))
    rolled = root_id(game.act(RollChaos(actor="ann")))
    copied = root_id(game.act(Fork(actor="bob")))

    events = game.act(Counter(actor="ann"))

    [countered] = of_type(events, "countered")
    assert countered["item"] == copied
    assert effect_names(game) == [("Fog", "ann")]
    assert live(game)[rolled]
    assert not live(game)[copied]
    assert_consistent(game)


def test_a_fork_can_copy_a_fork() -> None:
    game = stocked(classic_tokens(), ann=(0, 1), bob=(0, 1))
    game.act(RollChaos(actor="ann"))
    copied = root_id(game.act(Fork(actor="bob")))

    events = game.act(Fork(actor="ann"))

    [copy] = of_type(events, "roll")
    assert copy["reason"] == f"copy of roll {copied} (RollFork)"
    assert effect_names(game) == [("Fog", "ann"), ("Fog", "ann"), ("Fog", "bob")]
    assert_consistent(game)


def test_forking_a_counter_counters_the_next_live_roll_beneath_it() -> None:
    game = stocked(classic_tokens(), ann=(0, 1), bob=(1, 0))
    first = root_id(game.act(RollChaos(actor="ann")))
    second = root_id(game.act(RollChaos(actor="ann", extra=True)))
    game.act(Counter(actor="bob"))  # counters the second roll

    events = game.act(Fork(actor="ann"))

    [pushed] = of_type(events, "stack")
    assert (pushed["kind"], pushed["target"]) == ("counter", first)
    assert not live(game)[first]
    assert not live(game)[second]
    assert game.state.effects == {}
    assert_consistent(game)
