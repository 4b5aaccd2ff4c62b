"""How large one game may grow (bot.engine.limits): its log and its lasting effects in play."""

from __future__ import annotations

import pytest

from bench.store import next_play
from bot.engine import (
    Duration,
    End,
    EndEffect,
    Entry,
    Game,
    Lasts,
    NextTurn,
    RollChaos,
    Undo,
    fold,
)
from bot.engine.errors import GameTooLargeError
from bot.engine.limits import MAX_EFFECTS, MAX_GAME_EVENTS
from bot.engine.state import Phase
from bot.tables import find_ruleset
from tests.engine.tiny import fixed, new_game, ruleset

SIXTEEN = tuple(f"p{n}" for n in range(16))


def play_until(game: Game, events: int) -> None:
    while len(game.events) < events and game.state.phase is Phase.PLAYING:
        game.act(next_play(game))


@pytest.mark.parametrize("rules", ["classic", "lists", "deck"])
def test_a_long_evening_of_sixteen_stays_far_below_the_cap(rules: str) -> None:
    game = new_game(find_ruleset(rules).ruleset, players=SIXTEEN)
    while game.state.turn <= 200 and game.state.phase is Phase.PLAYING:
        game.act(next_play(game))
    assert game.state.turn > 200 or game.state.phase is Phase.ENDED
    assert len(game.events) < MAX_GAME_EVENTS / 10


def test_a_game_at_the_cap_refuses_every_action_but_its_end_and_loses_nothing() -> None:
    game = new_game(find_ruleset("classic").ruleset, players=("ann", "bob", "cy"))
    play_until(game, MAX_GAME_EVENTS)
    assert game.state.phase is Phase.PLAYING
    assert len(game.events) < MAX_GAME_EVENTS + 100  # the last action may cross it a little
    events, state, seq = list(game.events), game.state, game.seq

    for action in (next_play(game), Undo(actor="ann")):
        with pytest.raises(GameTooLargeError) as refused:
            game.act(action)
        assert f"{MAX_GAME_EVENTS:,}" in str(refused.value)
        assert "game end" in str(refused.value)
        assert (game.events, game.state, game.seq) == (events, state, seq)

    ended = game.act(End(actor="ann"))
    assert ended[-1]["type"] == "seed_revealed"
    assert fold(game.events).phase is Phase.ENDED
    assert game.events[: len(events)] == events


def lasting() -> Game:
    """Every chaos roll puts one more effect in play, until it is removed."""
    forever = Entry(id="1", name="Forever", text="A rule.", duration=Duration(Lasts.UNTIL_REMOVED))
    return new_game(ruleset(fixed("chaos", forever)))


def test_the_effect_past_the_cap_is_refused_whole_and_comes_again_once_one_ends() -> None:
    game = lasting()
    while len(game.state.effects) < MAX_EFFECTS:
        game.act(RollChaos(actor=game.state.active or "ann"))
        game.act(NextTurn(actor=game.state.active or "ann"))
    events, state, seq = list(game.events), game.state, game.seq
    roller = game.state.active or "ann"

    with pytest.raises(GameTooLargeError) as refused:
        game.act(RollChaos(actor=roller))
    assert str(refused.value) == (
        f"that would put {MAX_EFFECTS + 1} lasting effects in play, and a game may have at most"
        f" {MAX_EFFECTS} at once; end some first (`effects end ID`), then try again"
    )
    assert (game.events, game.state, game.seq) == (events, state, seq)
    assert not game.state.rolled

    game.act(EndEffect(actor="ann", effect=min(game.state.effects)))
    rolled = game.act(RollChaos(actor=roller))
    assert [e["type"] for e in rolled].count("effect_started") == 1
    assert len(game.state.effects) == MAX_EFFECTS
    assert fold(game.events) == game.state
