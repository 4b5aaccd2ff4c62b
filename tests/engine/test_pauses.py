"""A multi-roll that waits for its slot's offer: counters, declines, who may, and the turn's end.

List A's every result rolls on Offerer, then on List B; Offerer's every result offers a roll on
List C. List T grants CounterRolls, List G offers a roll without any multi-roll around it.
"""

from __future__ import annotations

import pytest

from bot.engine import (
    Away,
    Begin,
    ChaosError,
    ChaosSource,
    Counter,
    Decline,
    Die,
    Game,
    Join,
    Kind,
    MultiMode,
    MultiRoll,
    NextTurn,
    RollChaos,
    RollTable,
    Ruleset,
    StartRoll,
    Token,
    Undo,
    parse_expr,
)
from bot.engine.entries import Offer
from bot.engine.events import Event
from tests.engine.rulesets import entry, table


def ruleset() -> Ruleset:
    tables: list[RollTable] = [
        table(
            "a",
            Die(6),
            lambda n: entry(
                n,
                "Two Stops",
                kind=Kind.MULTI,
                multi=MultiRoll(MultiMode.EACH, parse_expr("1"), ("offerer", "b")),
            ),
            "List A",
        ),
        table("offerer", Die(6), lambda n: entry(n, "Open Door", offers=(Offer(("c",)),))),
        table("b", Die(6), lambda n: entry(n, f"B{n}"), "List B"),
        table("c", Die(6), lambda n: entry(n, f"C{n}"), "List C"),
        table(
            "t", Die(2), lambda n: entry(n, "Stash", kind=Kind.TOKEN, token=Token.COUNTER, count=3)
        ),
        table("g", Die(2), lambda n: entry(n, "Lone Gift", offers=(Offer(("c",)),))),
    ]
    return Ruleset(
        id="pauses",
        name="Pauses",
        chaos=ChaosSource.PROGRESSION,
        lists=("a", "b", "c"),
        start=StartRoll.NONE,
        tokens=True,
        tables={t.id: t for t in tables},
    )


def begun(seed: int = 5) -> Game:
    game = Game.start(ruleset(), seed=seed, host="ann", name="Ann", life=20)
    game.act(Join(actor="bob", player_name="Bob"))
    game.act(Join(actor="cy", player_name="Cy"))
    game.act(Begin(actor="ann"))
    return game


def rolls(events: list[Event]) -> list[tuple[str, list[int], str | None]]:
    return [(e["table"], e["dice"], e["slot"]) for e in events if e["type"] == "roll"]


def test_the_later_slot_waits_and_rolls_the_same_dice_when_the_offer_is_declined() -> None:
    game = begun()
    first = game.act(RollChaos(actor="ann"))
    assert [t for t, _, _ in rolls(first)] == ["a", "offerer"]  # B waits
    assert game.state.paused
    assert game.state.offers
    declined = game.copy()
    after_decline = declined.act(Decline(actor="ann"))
    taken = game.copy()
    after_take = taken.act(RollChaos(actor="ann", table="c"))
    assert [t for t, _, _ in rolls(after_take)] == ["c", "b"]  # C first, then B
    assert rolls(after_take)[1] == rolls(after_decline)[0]  # the same dice for B either way
    assert declined.state.current_list == taken.state.current_list == "b"
    assert not declined.state.paused
    assert not taken.state.paused


def test_the_turn_does_not_end_while_a_roll_waits_and_no_other_roll_comes_first() -> None:
    game = begun()
    game.act(RollChaos(actor="ann"))
    for refused in (
        NextTurn(actor="ann"),
        NextTurn(actor="ann", referee=True, override=True),
        RollChaos(actor="ann", referee=True, extra=True),
        RollChaos(actor="ann", referee=True, table="b"),
    ):
        with pytest.raises(ChaosError, match=r"R1 isn't finished: Ann takes the roll Open Door"):
            game.act(refused)
    with pytest.raises(ChaosError, match=r"its roll 2/2 on List B is made"):
        game.act(NextTurn(actor="ann"))
    game.act(Decline(actor="ann", table="c"))
    game.act(NextTurn(actor="ann"))
    assert game.state.current == "bob"


def test_an_offer_outside_a_multi_roll_holds_nothing_and_lapses_at_turn_end() -> None:
    game = begun()
    game.act(RollChaos(actor="ann"))
    game.act(Decline(actor="ann"))
    game.act(RollChaos(actor="ann", referee=True, table="g"))
    assert game.state.offers
    assert not game.state.paused
    ended = game.act(NextTurn(actor="ann"))
    assert [e["reason"] for e in ended if e["type"] == "offer_lapsed"] == ["the turn ended"]


def test_only_its_player_or_an_official_declines_an_offer_even_for_a_player_who_is_away() -> None:
    game = begun()
    game.act(NextTurn(actor="ann", referee=True, override=True))
    game.act(RollChaos(actor="bob"))  # Bob's turn roll waits for Bob's offer
    with pytest.raises(ChaosError, match="only Bob, the host or a referee can decline"):
        game.act(Decline(actor="cy"))
    game.act(Away(actor="bob"))
    with pytest.raises(ChaosError, match="Bob is away"):
        game.act(NextTurn(actor="ann", referee=True))
    declined = game.act(Decline(actor="ann", table="c"))  # the host declines it for Bob
    assert not game.state.paused
    assert rolls(declined)[0][0] == "b"


def test_decline_says_what_is_on_offer() -> None:
    game = begun()
    with pytest.raises(ChaosError, match="no roll is on offer to decline"):
        game.act(Decline(actor="ann"))
    game.act(RollChaos(actor="ann"))
    with pytest.raises(ChaosError, match=r"no open offer names List B: .* List C \(Ann\)"):
        game.act(Decline(actor="ann", table="b"))


def test_a_counter_drops_the_later_slots_and_its_counter_brings_the_wait_back() -> None:
    game = begun()
    game.act(RollChaos(actor="ann", referee=True, table="t"))  # three CounterRolls for Ann
    reference = game.copy()
    game.act(RollChaos(actor="ann"))
    countered = game.act(Counter(actor="ann"))
    assert [e["type"] for e in countered if e["type"] in ("roll_resumed", "offer_lapsed")] == [
        "roll_resumed",
        "offer_lapsed",
    ]
    assert not game.state.paused
    assert not game.state.offers
    assert not rolls(countered)  # the later slot is never rolled
    game.act(Counter(actor="ann"))  # the roll stands again, waiting for its offer again
    assert game.state.paused
    assert game.state.offers
    with pytest.raises(ChaosError, match="isn't finished"):
        game.act(NextTurn(actor="ann"))
    later = rolls(game.act(Decline(actor="ann")))
    reference.act(RollChaos(actor="ann"))
    assert later == rolls(reference.act(Decline(actor="ann")))
    game.act(NextTurn(actor="ann"))


def test_undo_across_a_pause_and_replay() -> None:
    game = begun()
    game.act(RollChaos(actor="ann"))
    taken = game.act(RollChaos(actor="ann", table="c"))
    game.act(Undo(actor="ann"))
    assert game.state.paused
    assert game.state.offers
    assert game.act(RollChaos(actor="ann", table="c")) == [
        e if e["type"] != "action" else {**e, "seq": e["seq"] + 2} for e in taken
    ]
    game.act(NextTurn(actor="ann"))
    again = Game.replay(ruleset(), game.actions)
    assert again.events == game.events
    assert Game.from_export(ruleset(), game.export()).state == game.state
