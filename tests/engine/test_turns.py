"""Seats and turns: order, direction, extra and skipped turns, seat changes, absences, players
going out, and the mandatory chaos roll that stands between a turn and the next.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any, cast

import pytest

from bot.engine import (
    Action,
    Away,
    Back,
    Band,
    Begin,
    ChaosError,
    ChaosSource,
    Die,
    End,
    Entry,
    Event,
    ExtraTurn,
    Game,
    GameAlreadyStartedError,
    GameNotStartedError,
    GameOverError,
    Join,
    Leave,
    NextTurn,
    NotInGameError,
    NotYourTurnError,
    Phase,
    Reverse,
    RollChaos,
    RollRequiredError,
    RollTable,
    RulesError,
    Ruleset,
    Seats,
    SkipTurn,
    Status,
    fold,
)

PLAYERS = ("ann", "bob", "cat", "dan", "eve")


def plain_ruleset() -> Ruleset:
    """A d2 chaos list of two harmless entries, no start roll: only the turn order moves."""
    bands = tuple(
        Band(n, n, Entry(id=str(n), name=f"Calm {n}", text="Nothing happens.")) for n in (1, 2)
    )
    chaos = RollTable("chaos", "Chaos", Die(2), bands)
    return Ruleset(
        id="plain",
        name="Plain",
        chaos=ChaosSource.TABLE,
        chaos_table="chaos",
        tables={"chaos": chaos},
    )


def new_game(players: int = 3, order: tuple[str, ...] = ()) -> Game:
    """A game in play hosted by ann, with `players` players seated in `order` (or join order)."""
    game = Game.start(plain_ruleset(), seed=7, host="ann", name="Ann")
    for pid in PLAYERS[1:players]:
        game.act(Join(actor=pid, player_name=pid.title()))
    game.act(Begin(actor="ann", order=order))
    return game


def of_type(events: Iterable[Event], kind: str) -> list[dict[str, Any]]:
    return [cast(dict[str, Any], e) for e in events if e["type"] == kind]


def finish_turn(game: Game) -> list[Event]:
    """The active player (or the host, when nobody is active) rolls if needed and passes."""
    actor = game.state.active or game.state.host
    if game.state.active is not None:
        game.act(RollChaos(actor=actor))
    return game.act(NextTurn(actor=actor))


def owners(game: Game, turns: int) -> list[str | None]:
    """Whose turn it is now and after each of the next `turns` turn changes."""
    seen = [game.state.current]
    for _ in range(turns):
        finish_turn(game)
        seen.append(game.state.current)
    return seen


# -- order and direction ---------------------------------------------------------------------


def test_turns_follow_join_order_and_wrap_around():
    game = new_game(3)
    assert owners(game, 4) == ["ann", "bob", "cat", "ann", "bob"]


def test_turns_follow_the_seating_given_at_begin():
    game = new_game(3, order=("cat", "ann", "bob"))
    assert game.state.order == ["cat", "ann", "bob"]
    assert owners(game, 3) == ["cat", "ann", "bob", "cat"]


def test_turn_numbers_count_up_from_one():
    game = new_game(2)
    assert game.state.turn == 1
    numbers = [of_type(finish_turn(game), "turn_started")[0]["turn"] for _ in range(3)]
    assert numbers == [2, 3, 4]
    assert game.state.turn == 4


@pytest.mark.parametrize(
    "order",
    [("ann", "bob"), ("ann", "bob", "cat", "cat"), ("ann", "bob", "zed")],
    ids=["missing", "twice", "stranger"],
)
def test_begin_seating_must_name_every_player_once(order):
    game = Game.start(plain_ruleset(), seed=7, host="ann", name="Ann")
    for pid in ("bob", "cat"):
        game.act(Join(actor=pid, player_name=pid.title()))
    with pytest.raises(RulesError, match="every player once"):
        game.act(Begin(actor="ann", order=order))
    assert game.state.phase is Phase.LOBBY


def test_reverse_sends_play_the_other_way():
    game = new_game(4)
    events = game.act(Reverse(actor="ann"))
    assert of_type(events, "turn_order")[0]["direction"] == -1
    assert game.state.direction == -1
    assert owners(game, 3) == ["ann", "dan", "cat", "bob"]


def test_reversing_twice_restores_the_direction():
    game = new_game(4)
    finish_turn(game)  # bob's turn
    game.act(Reverse(actor="ann"))
    game.act(Reverse(actor="ann"))
    assert game.state.direction == 1
    assert owners(game, 2) == ["bob", "cat", "dan"]


def test_reverse_midway_turns_back_from_the_current_seat():
    game = new_game(4)
    finish_turn(game)
    finish_turn(game)  # cat's turn
    game.act(Reverse(actor="ann"))
    assert owners(game, 3) == ["cat", "bob", "ann", "dan"]


# -- extra and skipped turns -----------------------------------------------------------------


def test_extra_turn_is_taken_right_after_the_current_turn():
    game = new_game(3)
    game.act(ExtraTurn(actor="ann", player="ann"))
    events = finish_turn(game)
    started = of_type(events, "turn_started")[0]
    assert (started["player"], started["extra"], started["turn"]) == ("ann", True, 2)
    assert game.state.extra_turn
    assert owners(game, 2) == ["ann", "bob", "cat"]
    assert not game.state.extra_turn


def test_extra_turn_defaults_to_the_active_player():
    game = new_game(3)
    finish_turn(game)  # bob
    game.act(ExtraTurn(actor="ann"))
    assert game.state.extra_queue == ["bob"]
    assert owners(game, 2) == ["bob", "bob", "cat"]


def test_queued_extra_turns_are_taken_newest_first():
    game = new_game(4)
    game.act(ExtraTurn(actor="ann", player="bob"))
    game.act(ExtraTurn(actor="ann", player="cat"))
    game.act(ExtraTurn(actor="ann", player="dan"))
    taken = []
    for _ in range(3):
        started = of_type(finish_turn(game), "turn_started")[0]
        taken.append((started["player"], started["extra"]))
    assert taken == [("dan", True), ("cat", True), ("bob", True)]
    assert game.state.extra_queue == []


def test_extra_turn_of_a_player_who_went_away_is_dropped():
    game = new_game(3)
    game.act(ExtraTurn(actor="ann", player="bob"))
    game.act(Away(actor="bob"))
    events = finish_turn(game)
    skipped = of_type(events, "turn_skipped")
    assert [(e["player"], e["why"]) for e in skipped] == [("bob", "extra")]
    assert game.state.current == "cat"
    assert game.state.extra_queue == []


def test_skipped_turn_is_passed_over_once_and_logged():
    game = new_game(3)
    game.act(SkipTurn(actor="ann", player="bob"))
    events = finish_turn(game)
    assert [(e["player"], e["why"]) for e in of_type(events, "turn_skipped")] == [("bob", "skip")]
    assert game.state.current == "cat"
    assert game.state.skips["bob"] == 0
    assert owners(game, 2) == ["cat", "ann", "bob"]


def test_two_skips_pass_a_player_over_twice():
    game = new_game(3)
    game.act(SkipTurn(actor="ann", player="bob"))
    game.act(SkipTurn(actor="ann", player="bob"))
    assert owners(game, 4) == ["ann", "cat", "ann", "cat", "ann"]
    assert owners(game, 1) == ["ann", "bob"]


def test_skipping_your_own_next_turn_in_a_two_player_game():
    game = new_game(2)
    game.act(SkipTurn(actor="ann"))
    assert owners(game, 3) == ["ann", "bob", "bob", "ann"]


def test_skipped_turns_take_no_turn_number():
    game = new_game(3)
    game.act(SkipTurn(actor="ann", player="bob"))
    finish_turn(game)
    assert (game.state.current, game.state.turn) == ("cat", 2)


# -- seats -----------------------------------------------------------------------------------


def test_seats_reorders_the_table():
    game = new_game(4)
    events = game.act(Seats(actor="ann", order=("ann", "cat", "dan", "bob")))
    assert of_type(events, "turn_order")[0]["change"] == "seats"
    assert game.state.order == ["ann", "cat", "dan", "bob"]
    assert owners(game, 4) == ["ann", "cat", "dan", "bob", "ann"]


@pytest.mark.parametrize(
    "order",
    [("ann", "bob"), ("ann", "bob", "bob"), ("ann", "bob", "cat", "cat"), ("ann", "bob", "zed")],
    ids=["missing", "twice-instead-of-one", "extra-copy", "stranger"],
)
def test_seats_must_name_every_player_once(order):
    game = new_game(3)
    with pytest.raises(RulesError, match="every player once"):
        game.act(Seats(actor="ann", order=order))
    assert game.state.order == ["ann", "bob", "cat"]


def test_only_the_host_or_a_referee_changes_the_seating():
    game = new_game(3)
    finish_turn(game)  # bob is active, but seating isn't a turn action
    with pytest.raises(NotYourTurnError):
        game.act(Seats(actor="bob", order=("bob", "ann", "cat")))
    game.act(Seats(actor="cat", referee=True, order=("bob", "ann", "cat")))
    assert game.state.order == ["bob", "ann", "cat"]


# -- absences --------------------------------------------------------------------------------


def test_away_player_is_passed_over_and_neighbours_become_adjacent():
    game = new_game(4)
    game.act(Away(actor="cat"))
    assert game.state.players["cat"].status is Status.AWAY
    assert owners(game, 4) == ["ann", "bob", "dan", "ann", "bob"]


def test_back_returns_an_away_player_early():
    game = new_game(4)
    game.act(Away(actor="cat"))
    finish_turn(game)  # bob
    events = game.act(Back(actor="cat"))
    assert of_type(events, "player_back") == [{"type": "player_back", "player": "cat"}]
    assert game.state.players["cat"].status is Status.PLAYING
    assert owners(game, 1) == ["bob", "cat"]


def test_timed_absence_misses_that_many_of_the_players_own_turns():
    """Away for 1 turn: cat's next turn is passed over (logged), the one after is theirs."""
    game = new_game(4)
    game.act(Away(actor="cat", turns=1))
    assert game.state.players["cat"].away_turns == 1
    finish_turn(game)  # ann -> bob
    events = finish_turn(game)  # bob -> dan: cat's turn is missed
    skipped = of_type(events, "turn_skipped")
    assert [(e["player"], e["why"]) for e in skipped] == [("cat", "away")]
    assert game.state.current == "dan"
    finish_turn(game)  # dan -> ann
    finish_turn(game)  # ann -> bob
    events = finish_turn(game)  # bob -> cat, back in time for their seat
    assert of_type(events, "player_back") == [{"type": "player_back", "player": "cat"}]
    assert game.state.current == "cat"
    assert game.state.players["cat"].away_turns is None


def test_timed_absence_passes_the_seat_over_each_missed_turn():
    game = new_game(3)
    game.act(Away(actor="bob", turns=2))
    assert owners(game, 5) == ["ann", "cat", "ann", "cat", "ann", "bob"]


def test_absence_of_zero_turns_ends_when_the_players_turn_comes():
    """Leave until your next turn: away now, back in time for their own turn."""
    game = new_game(3)
    game.act(Away(actor="cat", player="cat", turns=0))
    away = game.state.players["cat"].status
    assert owners(game, 2) == ["ann", "bob", "cat"]
    assert (away, game.state.players["cat"].status) == (Status.AWAY, Status.PLAYING)


def test_going_away_on_your_own_turn_leaves_the_turn_without_an_active_player():
    game = new_game(3)
    finish_turn(game)  # bob's turn, no chaos roll made yet
    game.act(Away(actor="bob"))
    assert game.state.active is None
    assert game.state.current == "bob"
    with pytest.raises(NotYourTurnError, match="nobody"):
        game.act(RollChaos(actor="cat"))
    events = game.act(NextTurn(actor="ann"))  # no roll is demanded with nobody active
    assert of_type(events, "roll_waived") == []
    assert of_type(events, "turn_ended")[0]["player"] == "bob"
    assert game.state.current == game.state.active == "cat"


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Away(actor="bob", turns=-1), "how many of their turns"),
        (Away(actor="bob", player="cat"), "only Cat, the host or a referee"),
        (Back(actor="bob"), "isn't away"),
    ],
)
def test_absence_refusals(action, message):
    game = new_game(3)
    with pytest.raises(RulesError, match=message):
        game.act(action)


def test_going_away_twice_is_refused():
    game = new_game(3)
    game.act(Away(actor="bob"))
    with pytest.raises(RulesError, match="isn't at the table"):
        game.act(Away(actor="ann", player="bob"))


def test_everyone_away_is_a_clear_error_on_next_turn():
    game = new_game(2)
    game.act(Away(actor="bob"))
    game.act(Away(actor="ann"))
    before_events, before_state = copy.deepcopy(game.events), copy.deepcopy(game.state)
    with pytest.raises(RulesError, match="everyone left is away"):
        game.act(NextTurn(actor="a referee", referee=True))
    assert game.events == before_events
    assert game.state == before_state


# -- players out, and the end --------------------------------------------------------------


def test_player_who_leaves_during_play_is_out_and_passed_over():
    game = new_game(3)
    events = game.act(Leave(actor="bob"))
    assert of_type(events, "player_out")[0]["player"] == "bob"
    assert game.state.players["bob"].status is Status.OUT
    assert game.state.phase is Phase.PLAYING
    assert owners(game, 3) == ["ann", "cat", "ann", "cat"]


def test_leaving_on_your_own_turn_passes_the_turn_on_to_the_next_seat():
    game = new_game(3)
    finish_turn(game)  # bob
    game.act(Leave(actor="bob"))
    assert game.state.active is None
    finish_turn(game)  # the host finishes bob's turn
    assert game.state.current == "cat"


def test_last_one_standing_wins():
    game = new_game(3)
    game.act(Leave(actor="bob"))
    events = game.act(Leave(actor="cat"))
    ended = of_type(events, "game_ended")
    assert len(ended) == 1
    assert ended[0]["winner"] == "ann"
    assert "Ann" in ended[0]["reason"]
    assert game.state.phase is Phase.ENDED
    assert game.state.winner == "ann"
    assert events[-1]["type"] == "seed_revealed"  # however a game ends, its seed is revealed


def test_leaving_twice_is_refused():
    game = new_game(3)
    game.act(Leave(actor="bob"))
    with pytest.raises(RulesError, match="already out"):
        game.act(Leave(actor="bob"))


# -- the mandatory chaos roll ----------------------------------------------------------------


def test_next_turn_is_refused_before_the_chaos_roll():
    game = new_game(2)
    with pytest.raises(RollRequiredError, match="Ann hasn't made this turn's chaos roll"):
        game.act(NextTurn(actor="ann"))
    game.act(RollChaos(actor="ann"))
    game.act(NextTurn(actor="ann"))
    assert game.state.current == "bob"


def test_the_roll_requirement_comes_back_every_turn():
    game = new_game(2)
    finish_turn(game)
    assert not game.state.rolled
    with pytest.raises(RollRequiredError):
        game.act(NextTurn(actor="bob"))


@pytest.mark.parametrize(
    "action",
    [NextTurn(actor="ann", override=True), NextTurn(actor="cat", referee=True, override=True)],
    ids=["host", "referee"],
)
def test_host_or_referee_may_waive_the_roll_and_it_is_logged(action):
    game = new_game(3)
    finish_turn(game)  # bob's turn: the waiver comes from someone else
    events = game.act(action)
    waived = of_type(events, "roll_waived")
    assert waived == [{"type": "roll_waived", "turn": 2, "by": action.actor}]
    assert game.state.current == "cat"


def test_an_ordinary_player_cannot_waive_their_own_roll():
    game = new_game(3)
    finish_turn(game)  # bob
    with pytest.raises(NotYourTurnError, match="only the host or a referee"):
        game.act(NextTurn(actor="bob", override=True))
    assert game.state.current == "bob"


def test_a_host_without_override_is_still_held_to_the_roll():
    game = new_game(3)
    finish_turn(game)  # bob
    with pytest.raises(RollRequiredError):
        game.act(NextTurn(actor="ann"))


def test_override_after_the_roll_waives_nothing():
    game = new_game(2)
    game.act(RollChaos(actor="ann"))
    events = game.act(NextTurn(actor="ann", override=True))
    assert of_type(events, "roll_waived") == []


# -- the log rebuilds the same state ---------------------------------------------------------


def test_fold_rebuilds_state_after_a_busy_round():
    game = new_game(4)
    game.act(Reverse(actor="ann"))
    game.act(ExtraTurn(actor="ann"))
    game.act(SkipTurn(actor="ann", player="dan"))
    game.act(Away(actor="cat", turns=3))
    for _ in range(3):
        finish_turn(game)
    game.act(Leave(actor="bob"))
    finish_turn(game)
    assert fold(game.events) == game.state
    assert game.state.skips["dan"] == 0


def test_every_turn_error_is_a_readable_chaos_error():
    game = new_game(2)
    with pytest.raises(ChaosError) as caught:
        game.act(NextTurn(actor="ann"))
    text = str(caught.value)
    assert text
    assert "\n" not in text


# -- permissions and errors ------------------------------------------------------------------


def lobby() -> Game:
    game = Game.start(plain_ruleset(), seed=7, host="ann", name="Ann")
    for pid in ("bob", "cat"):
        game.act(Join(actor=pid, player_name=pid.title()))
    return game


def bobs_turn() -> Game:
    game = new_game(4)
    finish_turn(game)
    return game


def ended_game() -> Game:
    game = new_game(3)
    game.act(End(actor="ann"))
    return game


REFUSALS: list[tuple[str, Callable[[], Game], Action, type[ChaosError]]] = [
    # turn actions belong to the active player (bob), the host or a referee
    ("roll", bobs_turn, RollChaos(actor="cat"), NotYourTurnError),
    ("next", bobs_turn, NextTurn(actor="cat"), NotYourTurnError),
    ("extra", bobs_turn, ExtraTurn(actor="cat"), NotYourTurnError),
    ("skip", bobs_turn, SkipTurn(actor="cat", player="bob"), NotYourTurnError),
    ("reverse", bobs_turn, Reverse(actor="cat"), NotYourTurnError),
    ("begin-by-guest", lobby, Begin(actor="bob"), NotYourTurnError),
    ("end-by-guest", bobs_turn, End(actor="bob"), NotYourTurnError),
    # nothing happens before the game begins
    ("lobby-roll", lobby, RollChaos(actor="ann"), GameNotStartedError),
    ("lobby-next", lobby, NextTurn(actor="ann", override=True), GameNotStartedError),
    ("lobby-extra", lobby, ExtraTurn(actor="ann"), GameNotStartedError),
    ("lobby-skip", lobby, SkipTurn(actor="ann", player="bob"), GameNotStartedError),
    ("lobby-reverse", lobby, Reverse(actor="ann"), GameNotStartedError),
    ("lobby-seats", lobby, Seats(actor="ann", order=("ann", "bob", "cat")), GameNotStartedError),
    ("lobby-away", lobby, Away(actor="bob"), GameNotStartedError),
    ("lobby-back", lobby, Back(actor="bob"), GameNotStartedError),
    # seats lock at begin
    ("late-join", bobs_turn, Join(actor="zed", player_name="Zed"), GameAlreadyStartedError),
    ("begin-twice", bobs_turn, Begin(actor="ann"), GameAlreadyStartedError),
    # strangers
    ("stranger-roll", bobs_turn, RollChaos(actor="zed"), NotInGameError),
    ("stranger-leave", bobs_turn, Leave(actor="zed"), NotInGameError),
    ("stranger-away", bobs_turn, Away(actor="zed"), NotInGameError),
    ("extra-for-stranger", bobs_turn, ExtraTurn(actor="ann", player="zed"), NotInGameError),
    ("skip-for-stranger", bobs_turn, SkipTurn(actor="ann", player="zed"), NotInGameError),
    ("back-for-stranger", bobs_turn, Back(actor="ann", player="zed"), NotInGameError),
    # after the end
    ("over-roll", ended_game, RollChaos(actor="ann"), GameOverError),
    ("over-next", ended_game, NextTurn(actor="ann", override=True), GameOverError),
    ("over-join", ended_game, Join(actor="zed", player_name="Zed"), GameOverError),
    ("over-end", ended_game, End(actor="ann"), GameOverError),
    ("over-away", ended_game, Away(actor="bob"), GameOverError),
]


@pytest.mark.parametrize(
    ("make", "action", "error"),
    [r[1:] for r in REFUSALS],
    ids=[r[0] for r in REFUSALS],
)
def test_refused_actions_raise_a_readable_error_and_change_nothing(make, action, error):
    game = make()
    before_events, before_state = copy.deepcopy(game.events), copy.deepcopy(game.state)
    with pytest.raises(error) as caught:
        game.act(action)
    assert isinstance(caught.value, ChaosError)
    text = str(caught.value)
    assert text.strip()
    assert "\n" not in text
    assert game.events == before_events
    assert game.state == before_state


def test_not_your_turn_names_whose_turn_it_is():
    game = bobs_turn()
    with pytest.raises(NotYourTurnError, match="it's Bob's turn"):
        game.act(RollChaos(actor="cat"))


@pytest.mark.parametrize(
    "actor", [{"actor": "ann"}, {"actor": "dan", "referee": True}], ids=["host", "referee"]
)
def test_host_and_referee_may_take_turn_actions_for_the_active_player(actor):
    game = bobs_turn()
    events = game.act(RollChaos(**actor))
    assert of_type(events, "roll")[0]["player"] == "bob"  # the roll is the active player's
    assert game.state.rolled
    game.act(Reverse(**actor))
    game.act(NextTurn(**actor))
    assert game.state.current == "ann"


def test_game_over_after_the_host_ends_it():
    game = new_game(3)
    events = game.act(End(actor="ann"))
    assert of_type(events, "game_ended") == [
        {"type": "game_ended", "reason": "ended by Ann", "winner": None}
    ]
    assert game.state.phase is Phase.ENDED


def test_a_refused_action_does_not_use_up_the_dice():
    """The next roll after a refusal is the same as if the refusal never happened."""
    refused, clean = new_game(3), new_game(3)
    with pytest.raises(RollRequiredError):
        refused.act(NextTurn(actor="ann"))
    with pytest.raises(NotYourTurnError):
        refused.act(RollChaos(actor="bob"))
    for game in (refused, clean):
        for _ in range(3):
            finish_turn(game)
    assert refused.events == clean.events
    assert refused.state == clean.state
