"""What a rules lawyer or a cheating player found in the integrated build (issue 9, red team):
players who are out acting on, a spite claimed at full life, an absence that dodged the turn's
roll, a concession in the middle of a spite, and a loss that overwrote an open choice.

The tables are the d2 lists of the counter and spite tests: every face gives the same entry.
"""

from __future__ import annotations

import pytest

from bot.engine import (
    Away,
    Back,
    ChaosError,
    Choose,
    Counter,
    EndEffect,
    ExtraTurn,
    Leave,
    Life,
    NextTurn,
    RollChaos,
    SkipTurn,
    Spite,
)
from bot.engine.errors import ChoicePendingError, NotYourTurnError, RollRequiredError, RulesError
from bot.engine.state import Status
from tests.engine.test_counters import game, give_counters, host_rolls, tokens
from tests.engine.test_offers import offering
from tests.engine.test_survival import HEAL, begin, classic, deck, gains
from tests.engine.tiny import assert_consistent, new_game, of_type

# -- a player who is out takes no part ----------------------------------------------------------


def test_a_player_who_is_out_spends_no_tokens_and_changes_nothing() -> None:
    g = game()
    give_counters(g, "bob")
    host_rolls(g, "g1")  # a Global (nobody's) that a seated player could remove
    g.act(Leave(actor="bob"))
    assert (g.state.players["bob"].status, tokens(g, "bob")) == (Status.OUT, 1)

    host_rolls(g, "grant3")
    for move in (
        Counter(actor="bob"),  # found: an out player countered Ann's roll
        Life(actor="bob", player="cy", mode="set", amount=0),  # ... and knocked Cy out
        EndEffect(actor="bob", effect=next(iter(g.state.effects))),
    ):
        with pytest.raises(NotYourTurnError, match="Bob is already out of the game"):
            g.act(move)
    assert (tokens(g, "ann"), g.state.players["cy"].life) == (3, 20)
    assert_consistent(g)


def test_a_player_who_is_out_does_not_end_a_turn_nobody_plays() -> None:
    g = game()
    g.act(Leave(actor="bob"))
    g.act(Away(actor="ann"))  # Ann steps away on her own turn: nobody is active
    with pytest.raises(NotYourTurnError, match="Bob is already out"):
        g.act(NextTurn(actor="bob"))
    g.act(NextTurn(actor="cy"))  # someone still at the table may


def test_a_host_who_is_out_still_runs_the_game_but_spends_no_tokens() -> None:
    g = game()
    give_counters(g, "ann")
    g.act(RollChaos(actor="ann"))
    g.act(NextTurn(actor="ann"))
    g.act(Leave(actor="ann"))  # the host concedes on Bob's turn
    assert g.state.active == "bob"

    host_rolls(g, "grant3")  # still the host: may roll a named list for Bob
    with pytest.raises(NotYourTurnError, match="Ann is already out of the game: they still run"):
        g.act(Counter(actor="ann"))
    assert tokens(g, "bob") == 3
    assert_consistent(g)


def test_a_player_who_goes_out_loses_their_open_offers() -> None:
    g = new_game(offering(), players=("ann", "bob", "cy"))
    g.act(RollChaos(actor="ann"))
    g.act(NextTurn(actor="ann"))
    g.act(RollChaos(actor="bob"))  # Portal: Bob may roll on the Vortex and a creature list
    assert {o.player for o in g.state.offers.values()} == {"bob"}

    events = g.act(Leave(actor="bob"))

    assert g.state.offers == {}
    assert {e["reason"] for e in of_type(events, "offer_lapsed")} == {"Bob is out of the game"}
    with pytest.raises(ChaosError):  # the host can't roll one "for" Bob any more
        g.act(RollChaos(actor="ann", table="vortex"))
    assert not of_type(g.events, "offer_taken")
    assert_consistent(g)


# -- deck: a spite for a loss of life at full life --------------------------------------------


def test_deck_a_loss_of_life_at_20_life_is_refused_not_a_free_look() -> None:
    """Found: `chaos spite Bob life` at 20 life showed Bob seven chaos cards to pick from, and
    judged him to survive by that same 20 life."""
    g = begin(deck(HEAL), life=20)
    with pytest.raises(RulesError, match="Bob has 20 life: a loss of life comes when"):
        g.act(Spite(actor="bob", player="bob", reason="life"))
    assert (g.state.pending, g.state.players["bob"].spited) == (None, False)

    g.act(Life(actor="bob", player="bob", mode="lose", amount=20))  # the honest way
    assert g.state.pending is not None
    assert g.state.pending.kind == "spite"


# -- an absence in one's own turn -------------------------------------------------------------


def test_coming_back_in_the_turn_one_stepped_away_from_owes_its_chaos_roll() -> None:
    """Found: `player away` then `player back` on one's own turn made the turn one with no
    active player, so it ended without its chaos roll while its player played on."""
    g = game()
    g.act(Away(actor="ann"))
    assert [g.state.active] == [None]

    events = g.act(Back(actor="ann"))

    assert of_type(events, "player_back")[0].get("active") is True
    assert g.state.active == "ann"
    with pytest.raises(RollRequiredError):
        g.act(NextTurn(actor="ann"))
    g.act(RollChaos(actor="ann"))
    g.act(NextTurn(actor="ann"))
    assert g.state.active == "bob"
    assert_consistent(g)


# -- one choice at a time ----------------------------------------------------------------------


def test_a_player_cannot_concede_in_the_middle_of_their_spite() -> None:
    """Found: Bob left while picking his spite card; the card was played for him anyway, and he
    went out a second time when the question came."""
    g = begin(deck(HEAL), life=20)
    g.act(Spite(actor="bob", player="bob", reason="poison"))
    with pytest.raises(ChoicePendingError, match="Bob must choose first"):
        g.act(Leave(actor="bob"))
    g.act(Choose(actor="bob", option="gain"))
    g.act(Choose(actor="bob", option="yes"))
    assert len(of_type(g.events, "player_out")) == 1
    assert_consistent(g)


def test_a_loss_waits_while_another_players_spite_asks_its_question() -> None:
    """Found: Cy dropping below 1 life while Bob's spite asked how much life he gained started
    Cy's spite, whose question replaced Bob's: Bob's spite was never settled."""
    g = begin(classic(gains("Gain some life.")))
    g.act(Life(actor="ann", player="bob", mode="set", amount=0))
    assert g.state.pending is not None
    assert g.state.pending.player == "bob"

    with pytest.raises(ChoicePendingError, match="Bob must choose first"):
        g.act(Life(actor="ann", player="cy", mode="set", amount=0))

    g.act(Choose(actor="bob", option="4 life"))
    assert (g.state.players["bob"].life, g.state.players["bob"].status) == (4, Status.PLAYING)
    g.act(Life(actor="ann", player="cy", mode="set", amount=0))
    assert g.state.pending is not None
    assert g.state.pending.player == "cy"
    assert_consistent(g)


def test_a_player_who_is_out_is_given_no_extra_turn_or_skip() -> None:
    g = game()
    g.act(Leave(actor="bob"))
    for move in (ExtraTurn(actor="ann", player="bob"), SkipTurn(actor="ann", player="bob")):
        with pytest.raises(RulesError, match="Bob is out of the game: no more turns"):
            g.act(move)
