"""The veto vote, a house rule (issue 26): a strict majority of the players at the table takes a
result back as a counter would, with everything it did, and it is rolled again from the
committed seed. Votes are actions: who may vote is checked from both sides."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import (
    Action,
    Away,
    Begin,
    Choose,
    Counter,
    Duration,
    Game,
    Join,
    Kind,
    Lasts,
    Leave,
    Life,
    MultiMode,
    NextTurn,
    RollChaos,
    Ruleset,
    Token,
    TurnChange,
    Undo,
    Veto,
    parse_expr,
)
from bot.engine.errors import ChaosError, NotInGameError, NotYourTurnError
from bot.engine.house import HouseRules
from bot.engine.lifegain import LifeGain
from bot.engine.veto import ballot, needed
from bot.render import Names
from bot.render.events import render_lines
from tests.engine.tiny import (
    assert_consistent,
    each,
    entry,
    faces,
    fixed,
    of_type,
    ruleset,
    times,
)

VETO = HouseRules(veto=True)
PLAYERS = ("ann", "bob", "cy")
FOG = entry("fog", "Fog", text="No combat damage.", duration=Duration(Lasts.NEXT_TURN))
GAIN = entry("gain", "Gain 5 life", gains_life=True, life=LifeGain(parse_expr("5")))
EXTRA = entry("extra", "Take an extra turn", turn=TurnChange.EXTRA)


def tables() -> Ruleset:
    """`bundle` rolls once on each of three lists, each doing one thing whatever the dice;
    `mixed` gives one of eight things by a d8."""
    return ruleset(
        fixed("chaos", entry("calm", "Calm", text="Nothing happens.")),
        fixed("fog", FOG),
        fixed("gain", GAIN),
        fixed("extra", EXTRA),
        fixed("counter", entry("c1", "A CounterRoll", kind=Kind.TOKEN, token=Token.COUNTER)),
        fixed(
            "bundle",
            entry("b", "Fog, life and a turn", kind=Kind.MULTI, multi=each("fog", "gain", "extra")),
        ),
        fixed(
            "keep",
            entry(
                "k",
                "Two, keep one",
                kind=Kind.MULTI,
                multi=times(2, "mixed", mode=MultiMode.KEEP),
            ),
        ),
        faces("mixed", *(entry(str(n), f"Result {n}", text=f"Thing {n}.") for n in range(1, 9))),
        life=20,
    )


def game(house: HouseRules = VETO, players: tuple[str, ...] = PLAYERS, seed: int = 7) -> Game:
    host, *others = players
    g = Game.start(tables(), seed=seed, host=host, name=host.title(), house=house)
    for player in others:
        g.act(Join(actor=player, player_name=player.title()))
    g.act(Begin(actor=host))
    return g


def roll(g: Game, table: str) -> int:
    """The host rolls on `table` for the active player (Ann's turn: Ann's roll)."""
    [stack] = of_type(g.act(RollChaos(actor="ann", table=table, referee=True)), "stack")
    return int(stack["item"])


def test_a_majority_takes_back_everything_the_roll_did_and_rolls_it_again() -> None:
    g = game()
    item = roll(g, "bundle")
    assert len(g.state.effects) == 1
    assert g.state.players["ann"].life == 25
    assert g.state.extra_queue == ["ann"]
    assert ballot(g.state, g.ruleset) is not None

    first = g.act(Veto(actor="bob"))
    assert of_type(first, "veto_vote") == [
        {"type": "veto_vote", "item": item, "player": "bob", "votes": 1, "needed": 2}
    ]
    assert not of_type(first, "vetoed")
    assert g.state.votes == ("bob",)

    events = g.act(Veto(actor="cy", item=item))
    [vetoed] = of_type(events, "vetoed")
    assert vetoed == {"type": "vetoed", "item": item, "voters": ["bob", "cy"]}
    # Taken back as a counter takes a roll back: the effect, the life, the extra turn.
    assert [e["id"] for e in of_type(events, "effect_ended")] == [item + 4]
    assert all(e["undoes"] == item for e in of_type(events, "effect_ended"))
    assert [e["delta"] for e in of_type(events, "life")] == [-5, 5]
    assert [e["change"] for e in of_type(events, "turn_order")] == ["cancel_extra", "extra"]
    # ... and rolled again on the same list, with the veto's own dice, for the same purpose.
    [dice] = of_type(events, "dice")
    assert (dice["purpose"], dice["n"]) == ("veto", 0)
    [stack] = of_type(events, "stack")
    assert (stack["player"], stack["table"], stack["purpose"]) == ("ann", "bundle", "list")
    again = of_type(events, "roll")
    assert again[0]["reason"] == f"rolled again: R{item} was vetoed"
    assert len(again) == 4  # the bundle and its three nested rolls
    # Once again what the roll does, once.
    assert len(g.state.effects) == 1
    assert g.state.players["ann"].life == 25
    assert g.state.extra_queue == ["ann"]
    assert not g.state.item(item).live
    assert g.state.vetoed == item
    assert ballot(g.state, g.ruleset) is None  # one veto a turn: the roll made again stands
    lines = render_lines(events, Names.of(g))
    assert lines[:2] == [
        f"✕ Cy votes to veto R{item} Fog, life and a turn (2 of 2 votes).",
        f"✕ R{item} Fog, life and a turn is vetoed by Bob and Cy: taken back, and rolled again.",
    ]
    # The game's first effect was voted away: its number goes to the roll made again's.
    shown = [line.strip() for line in lines]
    assert "− Fog ends: vetoed." in shown
    assert any(
        line.endswith("+ E1 Fog (effect, Ann's) lasts until Ann's next turn.") for line in shown
    )
    assert_consistent(g)


def test_a_vetoed_turn_roll_stays_the_turn_s_roll_and_the_reroll_verifies() -> None:
    g = game(seed=3)
    g.act(RollChaos(actor="ann"))
    g.act(Veto(actor="bob"))
    g.act(Veto(actor="cy"))
    assert g.state.rolled
    [first, second] = [i for i in g.state.stack if i.kind == "roll"]
    assert (first.live, second.live) == (False, True)
    assert second.purpose == "turn"
    g.act(NextTurn(actor="ann"))
    assert_consistent(g)


def test_undoing_the_deciding_vote_and_voting_again_throws_the_same_dice() -> None:
    g = game(seed=11)
    item = roll(g, "mixed")
    g.act(Veto(actor="bob"))
    made = g.act(Veto(actor="cy"))
    g.act(Undo(actor="ann", referee=True))
    # The vote stands as it stood before the undone vote: open, with Bob's vote in.
    assert (g.state.vetoed, g.state.veto_item, g.state.votes) == (None, item, ("bob",))
    again = g.act(Veto(actor="cy"))
    assert of_type(again, "roll") == of_type(made, "roll")
    assert_consistent(g)


@pytest.mark.parametrize(("seated", "votes"), [(3, 2), (4, 3), (5, 3), (6, 4), (7, 4)])
def test_a_strict_majority_of_the_table_the_roller_counted(seated: int, votes: int) -> None:
    players = tuple(f"p{n}" for n in range(seated))
    g = game(players=players)
    [stack] = of_type(g.act(RollChaos(actor="p0")), "stack")
    assert needed(g.state) == votes
    for n in range(1, votes):
        g.act(Veto(actor=f"p{n}"))
        assert g.state.vetoed is None
    events = g.act(Veto(actor=f"p{votes}"))
    assert of_type(events, "vetoed")[0]["voters"] == [f"p{n}" for n in range(1, votes + 1)]
    assert g.state.vetoed == stack["item"]


def test_a_table_of_two_can_t_veto() -> None:
    g = game(players=("ann", "bob"))
    g.act(RollChaos(actor="ann"))
    assert ballot(g.state, g.ruleset) is None
    with pytest.raises(ChaosError, match=r"\(2 votes\), and Ann, who rolled it, doesn't vote"):
        g.act(Veto(actor="bob"))


def test_a_player_who_is_away_is_not_counted_and_can_t_vote() -> None:
    g = game(players=("ann", "bob", "cy", "dan"))
    g.act(Away(actor="dan"))
    roll(g, "mixed")
    assert needed(g.state) == 2  # three at the table
    with pytest.raises(NotYourTurnError, match="Dan is away"):
        g.act(Veto(actor="dan"))
    g.act(Veto(actor="bob"))
    g.act(Veto(actor="cy"))
    assert g.state.vetoed is not None


# -- who may vote, from both sides ---------------------------------------------------------


def test_the_players_but_the_roller_may_vote_officials_too() -> None:
    g = game()
    g.act(NextTurn(actor="ann", referee=True, override=True))  # Bob's turn: he rolls
    g.act(RollChaos(actor="bob"))
    g.act(Veto(actor="ann"))  # the host votes as a player
    g.act(Veto(actor="cy"))
    assert g.state.vetoed is not None


def test_the_roller_can_t_vote() -> None:
    g = game()
    item = roll(g, "mixed")
    with pytest.raises(NotYourTurnError, match=f"Ann rolled R{item}: a veto is the other"):
        g.act(Veto(actor="ann"))
    with pytest.raises(NotYourTurnError, match="not the roller's"):
        g.act(Veto(actor="ann", referee=True))


@pytest.mark.parametrize("referee", [False, True])
def test_a_member_without_a_seat_can_t_vote(referee: bool) -> None:
    g = game()
    roll(g, "mixed")
    with pytest.raises(NotInGameError, match="only its players can vote to veto a result"):
        g.act(Veto(actor="zed", referee=referee))


def test_a_player_who_is_out_can_t_vote() -> None:
    g = game(players=("ann", "bob", "cy", "dan"))
    g.act(Leave(actor="dan"))
    roll(g, "mixed")
    with pytest.raises(NotYourTurnError, match="Dan is already out"):
        g.act(Veto(actor="dan"))


def test_a_second_vote_by_the_same_player_is_refused() -> None:
    g = game(players=("ann", "bob", "cy", "dan"))
    item = roll(g, "mixed")
    g.act(Veto(actor="bob"))
    with pytest.raises(ChaosError, match=f"Bob has voted to veto R{item} already"):
        g.act(Veto(actor="bob"))
    assert g.state.votes == ("bob",)


def test_a_vote_after_the_next_action_is_refused() -> None:
    g = game()
    item = roll(g, "mixed")
    g.act(Veto(actor="bob"))
    g.act(Life(actor="ann", player="cy", mode="lose", amount=1))
    assert g.state.votes == ()
    with pytest.raises(ChaosError, match=f"the vote on R{item} is closed"):
        g.act(Veto(actor="cy", item=item))
    with pytest.raises(ChaosError, match="there is no result to veto"):
        g.act(Veto(actor="cy"))


def test_a_stale_vote_is_not_counted_for_a_newer_result() -> None:
    g = game()
    old = roll(g, "mixed")
    roll(g, "mixed")
    with pytest.raises(ChaosError, match=f"the vote on R{old} is closed"):
        g.act(Veto(actor="bob", item=old))


def test_a_second_veto_in_the_same_turn_is_refused() -> None:
    g = game()
    roll(g, "mixed")
    g.act(Veto(actor="bob"))
    [vetoed] = of_type(g.act(Veto(actor="cy")), "vetoed")
    roll(g, "mixed")
    with pytest.raises(ChaosError, match=f"R{vetoed['item']} was vetoed this turn"):
        g.act(Veto(actor="bob"))
    g.act(NextTurn(actor="ann", referee=True, override=True))  # the next has a veto of its own
    g.act(RollChaos(actor="bob"))
    g.act(Veto(actor="ann"))
    g.act(Veto(actor="cy"))
    assert g.state.vetoed is not None


def test_with_the_veto_off_votes_are_refused() -> None:
    g = game(HouseRules())
    roll(g, "mixed")
    assert ballot(g.state, g.ruleset) is None
    with pytest.raises(ChaosError, match="this game has no veto"):
        g.act(Veto(actor="bob"))


def test_a_counter_closes_the_vote_and_the_counter_itself_is_no_result() -> None:
    g = game()
    g.act(NextTurn(actor="ann", referee=True, override=True))
    roll(g, "counter")  # Bob gets a CounterRoll
    g.act(NextTurn(actor="bob", referee=True, override=True))
    g.act(RollChaos(actor="cy"))
    g.act(Counter(actor="bob"))
    with pytest.raises(ChaosError, match="no result to veto"):
        g.act(Veto(actor="ann"))


def test_a_keep_one_result_is_voted_on_once_it_is_picked() -> None:
    g = game()
    item = roll(g, "keep")
    pending = g.state.pending
    assert pending is not None
    with pytest.raises(ChaosError, match="must choose first"):
        g.act(Veto(actor="bob"))
    g.act(Choose(actor="ann", option=pending.options[0][0]))
    g.act(Veto(actor="bob"))
    events = g.act(Veto(actor="cy", item=item))
    assert of_type(events, "vetoed")
    assert_consistent(g)


# -- a vetoed game replays: any game, any votes ----------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), moves=st.lists(st.integers(0, 9), min_size=5, max_size=40))
def test_any_game_with_vetoes_replays_to_the_same_log(seed: int, moves: list[int]) -> None:
    """Rolls, votes (one by one, or the whole table at once), counters, choices, life, undos
    and turns in any order: whatever was vetoed, the state is the fold of the log and the
    actions replay to the very same log (every die of every roll made again included)."""
    players = ("ann", "bob", "cy", "dan")
    g = game(seed=seed, players=players)
    rng = random.Random(seed)
    for move in moves:
        actor = rng.choice(players)
        pending = g.state.pending
        menu: dict[int, list[Action]] = {
            0: [RollChaos(actor=g.state.active or "ann")],
            1: [
                RollChaos(actor="ann", referee=True, table=rng.choice(["bundle", "mixed", "keep"]))
            ],
            2: [Veto(actor=actor)],
            3: [Veto(actor=p) for p in players],  # the whole table votes
            4: [Veto(actor=p) for p in players],
            5: [NextTurn(actor="ann", referee=True, override=True)],
            6: [Undo(actor="ann", referee=True)],
            7: [Counter(actor=actor)],
            8: [Choose(actor=pending.player, option=pending.options[0][0])] if pending else [],
            9: [Life(actor="ann", player=actor, mode="lose", amount=3)],
        }
        for action in menu[move]:
            with contextlib.suppress(ChaosError):
                g.act(action)
    for vetoed in of_type(g.events, "vetoed"):
        # A majority of the players at the table, each once (the roller: see the tests above).
        assert len(set(vetoed["voters"])) == len(vetoed["voters"]) >= 2
    assert_consistent(g)
