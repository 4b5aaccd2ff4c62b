"""The end-of-game recap (bot/render/recap.py) over real games of the bundled rulesets.

Random games: whatever was played, the recap's counts agree with the log read another way
(the final state, the events counted directly), an undone action never shows in it, and the
recap of the game replayed from its actions is the same recap. Scripted games: a player out by
life with a spite that failed, a spite survived, a game ended by its host.
"""

from __future__ import annotations

import random

import pytest

from bot.engine import actions as a
from bot.engine.errors import ChaosError
from bot.engine.fold import fold
from bot.engine.game import Game
from bot.engine.state import Phase, Status
from bot.render import Names
from bot.render.recap import recap, recap_lines, standing_events
from bot.tables import find_ruleset

PLAYERS = ("ann", "bob", "cy")


def begun(ruleset: str, seed: int, life: int | None = 20) -> Game:
    game = Game.start(
        find_ruleset(ruleset).ruleset, seed=seed, host="ann", name="Ann", life=life, salt="5a17"
    )
    for pid in PLAYERS[1:]:
        game.act(a.Join(actor=pid, player_name=pid.capitalize()))
    game.act(a.Begin(actor="ann"))
    return game


def random_step(game: Game, dice: random.Random) -> None:
    """One thing a table might do next; a refusal is part of play."""
    state = game.state
    active = state.active or "ann"
    pending = state.pending
    try:
        if pending is not None:
            option = dice.choice(pending.options)[0]
            game.act(a.Choose(actor=pending.player, referee=True, option=option))
            return
        if state.face_down is not None:
            game.act(a.Reveal(actor=active))
            return
        pick = dice.random()
        if pick < 0.45 and not state.rolled:
            game.act(a.RollChaos(actor=active))
        elif pick < 0.55:
            game.act(a.RollChaos(actor=active, referee=True, extra=True))
        elif pick < 0.65:
            victim = dice.choice([p.id for p in state.seated()])
            game.act(a.Life(actor="ann", referee=True, player=victim, mode="lose", amount=7))
        elif pick < 0.72:
            game.act(a.Counter(actor=active))
        elif pick < 0.78 and state.turn > 1:  # not back into the lobby
            game.act(a.Undo(actor="ann", referee=True))
        else:
            game.act(a.NextTurn(actor=active, referee=True))
    except ChaosError:
        pass


def random_game(ruleset: str, seed: int, steps: int) -> Game:
    game = begun(ruleset, seed)
    dice = random.Random(seed)
    for _ in range(steps):
        if game.state.phase is Phase.ENDED:
            break
        random_step(game, dice)
    if game.state.phase is not Phase.ENDED:
        game.act(a.End(actor="ref", referee=True))
    return game


@pytest.mark.parametrize("ruleset", ["classic", "lists", "deck"])
@pytest.mark.parametrize("seed", range(8))
def test_the_recap_agrees_with_the_log_of_any_game(ruleset: str, seed: int) -> None:
    game = random_game(ruleset, 1000 + seed, steps=120)
    summary = recap(game.events)
    assert summary is not None
    state = game.state
    standing = standing_events(game.events)
    assert summary.turns == state.turn
    assert summary.rolls == sum(1 for e in standing if e["type"] == "roll")
    assert summary.counters == sum(
        1 for e in standing if e["type"] == "stack" and e["kind"] == "counter"
    )
    gone = [p for p in state.order if state.players[p].status is Status.OUT]
    assert sorted(d.player for d in summary.out) == sorted(gone)
    assert list(summary.left) == [p.id for p in state.seated()]
    assert summary.winner == state.winner
    assert summary.seed == state.seed
    assert summary.salt == state.salt
    # Nothing undone is told: the standing events fold to the same state as the whole log.
    assert fold(standing) == state
    if summary.swing is not None:
        biggest = max(abs(e["delta"]) for e in standing if e["type"] == "life")
        assert abs(summary.swing.delta) == biggest
    if summary.chain is not None:
        deepest = max(e["depth"] for e in standing if e["type"] == "roll")
        assert len(summary.chain.entries) == deepest + 1
    # A game replayed from its actions tells the same story.
    again = Game.replay(game.ruleset, game.actions)
    assert recap(again.events) == summary
    lines = recap_lines(summary, Names.of(game))
    assert any(f"{summary.rolls} roll" in line for line in lines)
    assert lines[-1].startswith(f"Seed {state.seed}, salt 5a17: ")
    assert "`game verify`" in lines[-1]


def test_no_recap_while_the_game_goes_on() -> None:
    game = begun("classic", 7)
    game.act(a.RollChaos(actor="ann"))
    assert recap(game.events) is None


def test_two_players_out_by_life_and_the_last_one_standing() -> None:
    game = begun("lists", 11)  # no spite in this ruleset: below 1 life is out
    game.act(a.NextTurn(actor="ann", referee=True, override=True))
    game.act(a.Life(actor="ann", referee=True, player="cy", mode="lose", amount=20))
    game.act(a.NextTurn(actor="bob", referee=True, override=True))
    game.act(a.Life(actor="ann", referee=True, player="bob", mode="lose", amount=25))
    summary = recap(game.events)
    assert summary is not None
    assert summary.winner == "ann"
    assert summary.left == ("ann",)
    told = [(d.player, d.turn, d.spite) for d in summary.out]
    assert told == [("cy", 2, None), ("bob", 3, None)]
    assert recap_lines(summary, Names.of(game))[:4] == [
        "Recap: Ann wins: Ann is the last one standing.",
        "  Ann: winner",
        "  Bob: out on turn 3: dropped below 1 life",
        "  Cy: out on turn 2: dropped below 1 life",
    ]
    assert summary.swing is not None
    assert summary.swing.delta == -25


def test_a_spite_that_failed_is_told() -> None:
    game = begun("classic", 3)  # a spite roll where only life gain counts
    game.act(a.Life(actor="ann", referee=True, player="cy", mode="lose", amount=20))
    while game.state.pending is not None:
        pending = game.state.pending
        game.act(a.Choose(actor=pending.player, referee=True, option=pending.options[0][0]))
    summary = recap(game.events) or recap(game.events + game.act(a.End(actor="ref", referee=True)))
    assert summary is not None
    cy = game.state.players["cy"]
    if cy.status is Status.OUT:
        assert [d.spite for d in summary.out] == [False]
        lines = recap_lines(summary, Names.of(game))
        assert any(line.endswith("(the spite failed)") for line in lines), lines
    else:
        assert summary.survived == (("cy", 1),)


def test_a_game_its_host_ended_tells_who_was_left() -> None:
    game = begun("classic", 5)
    game.act(a.RollChaos(actor="ann"))
    while game.state.pending is not None:
        pending = game.state.pending
        game.act(a.Choose(actor=pending.player, referee=True, option=pending.options[0][0]))
    game.act(a.End(actor="ann"))
    summary = recap(game.events)
    assert summary is not None
    lines = recap_lines(summary, Names.of(game))
    assert lines[0] == "Recap: Game over (ended by Ann). Still in at the end: Ann, Bob, Cy."
    assert lines[1:4] == [
        "  Ann: still in at the end",
        "  Bob: still in at the end",
        "  Cy: still in at the end",
    ]
    assert lines[4].startswith("1 turn played, ")
    assert lines[-1].startswith(f"Seed 5, salt {game.state.salt}: ")
