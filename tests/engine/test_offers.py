"""Offered rolls: a result that names other lists offers its roller a roll on them, to take once
this turn (or lapse), asked for by that result."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.engine import (
    Away,
    Back,
    ChaosError,
    Choose,
    Counter,
    Decline,
    Game,
    Kind,
    NextTurn,
    NotYourTurnError,
    Offer,
    OfferTo,
    RollChaos,
    RulesError,
    Ruleset,
    Spite,
    SpitePolicy,
    StartRoll,
    Token,
)
from bot.engine.offered import offered_to
from tests.engine.tiny import as_dicts, assert_consistent, entry, fixed, new_game, of_type, ruleset

PORTAL = entry(
    "portal",
    "Portal",
    text="You may roll on the Vortex, and on one of the creature lists.",
    offers=(Offer(("vortex",)), Offer(("mild", "strong"))),
)


def offering(**kw: object) -> Ruleset:
    """Every chaos roll is Portal; the Vortex and the creature lists each have one entry."""
    return ruleset(
        fixed("chaos", PORTAL),
        fixed("vortex", entry("v", "Vortex Jump")),
        fixed("mild", entry("m", "Squirrel")),
        fixed("strong", entry("s", "Dragon")),
        fixed("counters", entry("c", "A CounterRoll", kind=Kind.TOKEN, token=Token.COUNTER)),
        **kw,  # type: ignore[arg-type]
    )


def rolled(rules: Ruleset | None = None) -> Game:
    """Ann's first turn, just after her chaos roll came up Portal."""
    game = new_game(rules or offering())
    game.act(RollChaos(actor="ann"))
    return game


def pending(game: Game) -> list[tuple[str, tuple[str, ...]]]:
    return [(o.player, o.tables) for o in game.state.offers.values()]


def test_an_honoured_result_makes_its_offers_pending_for_its_roller() -> None:
    game = new_game(offering())
    events = game.act(RollChaos(actor="ann"))

    made = of_type(events, "offer_made")
    assert [(o["player"], o["tables"], o["name"]) for o in made] == [
        ("ann", ["vortex"], "Portal"),
        ("ann", ["mild", "strong"], "Portal"),
    ]
    [roll] = of_type(events, "roll")
    assert all(o["source"] == roll["id"] for o in made)
    assert pending(game) == [("ann", ("vortex",)), ("ann", ("mild", "strong"))]
    assert_consistent(game)


def test_the_roller_takes_an_offer_once_as_asked_for_by_that_result() -> None:
    game = rolled()
    portal = next(iter(game.state.offers.values())).source

    events = game.act(RollChaos(actor="ann", table="vortex"))

    [taken] = of_type(events, "offer_taken")
    assert (taken["table"], taken["by"], taken["withdrawn"]) == ("vortex", "ann", [])
    [roll] = of_type(events, "roll")
    assert (roll["player"], roll["table"]) == ("ann", "vortex")
    assert roll["reason"] == f"offered by Portal, roll {portal}"
    assert pending(game) == [("ann", ("mild", "strong"))]
    assert offered_to(game.state, "ann", "vortex") is None  # once only
    assert_consistent(game)


def test_taking_one_of_several_lists_withdraws_the_others() -> None:
    game = rolled()
    events = game.act(RollChaos(actor="ann", table="strong"))

    [taken] = of_type(events, "offer_taken")
    assert (taken["table"], taken["withdrawn"]) == ("strong", ["mild"])
    assert pending(game) == [("ann", ("vortex",))]
    assert offered_to(game.state, "ann", "mild") is None


def test_the_host_or_a_referee_may_take_the_rollers_offer_but_nobody_else() -> None:
    game = new_game(offering(), players=("ann", "bob", "cy"))
    game.act(NextTurn(actor="ann", override=True))
    game.act(RollChaos(actor="bob"))  # Bob's Portal

    assert offered_to(game.state, "cy", "vortex") is None
    assert offered_to(game.state, "cy", "vortex", referee=True) is not None
    with pytest.raises(NotYourTurnError):
        game.act(RollChaos(actor="cy", table="vortex"))

    events = game.act(RollChaos(actor="ann", table="vortex"))  # Ann hosts

    [taken] = of_type(events, "offer_taken")
    [roll] = of_type(events, "roll")
    assert (taken["by"], roll["player"]) == ("ann", "bob")  # still Bob's roll


def test_nobody_takes_an_offer_while_its_player_is_away_and_it_waits_for_them() -> None:
    """Nobody rolls for a player who is away, an offered roll included: the referee is told
    whose it is and that it waits, and once the player is back they take it themselves."""
    game = new_game(offering(), players=("ann", "bob", "cy"))
    game.act(NextTurn(actor="ann", override=True))
    game.act(RollChaos(actor="bob"))  # Bob's Portal
    game.act(Away(actor="bob"))

    assert offered_to(game.state, "ann", "vortex") is None
    with pytest.raises(RulesError, match="Bob is away: nobody rolls for a player who is away"):
        game.act(RollChaos(actor="cy", referee=True, table="vortex"))
    with pytest.raises(NotYourTurnError, match=r"\(Bob is away for now\)"):
        game.act(RollChaos(actor="cy", table="vortex"))
    assert not of_type(game.events, "offer_taken")

    game.act(Back(actor="bob"))
    events = game.act(RollChaos(actor="bob", table="vortex"))
    [roll] = of_type(events, "roll")
    assert (roll["player"], roll["table"]) == ("bob", "vortex")


def test_a_spiting_player_may_take_their_spite_rolls_offer_off_turn() -> None:
    spite = entry("sp", "Parting Gift", offers=(Offer(("mild",)),))
    rules = replace(
        offering(),
        tables={**offering().tables, "spite": fixed("spite", spite)},
        spite=SpitePolicy.SPITE_TABLE,
        spite_table="spite",
    )
    game = new_game(rules, players=("ann", "bob", "cy"))
    game.act(Spite(actor="bob"))  # on Ann's turn: Bob is out and rolls on Spite

    assert pending(game) == [("bob", ("mild",))]
    assert offered_to(game.state, "cy", "mild") is None
    events = game.act(RollChaos(actor="bob", table="mild"))
    [roll] = of_type(events, "roll")
    assert (roll["player"], roll["table"]) == ("bob", "mild")


def test_offers_lapse_when_the_turn_ends() -> None:
    game = rolled()
    game.act(RollChaos(actor="ann", table="mild"))

    events = game.act(NextTurn(actor="ann"))

    kinds = [e["type"] for e in as_dicts(events)]
    [lapsed] = of_type(events, "offer_lapsed")
    assert lapsed["reason"] == "the turn ended"
    assert kinds.index("offer_lapsed") < kinds.index("turn_ended")
    assert game.state.offers == {}
    assert offered_to(game.state, "ann", "vortex") is None
    assert_consistent(game)


def test_an_offered_roll_is_not_the_turns_chaos_roll() -> None:
    skies = entry("g", "Open Skies", offers=(Offer(("vortex",)),))
    rules = replace(
        offering(),
        tables={**offering().tables, "global": fixed("global", skies)},
        start=StartRoll.GLOBAL,
        start_table="global",
    )
    game = new_game(rules)  # the start roll, before Ann's turn roll, offers the Vortex
    assert pending(game) == [("ann", ("vortex",))]

    events = game.act(RollChaos(actor="ann", table="vortex"))

    assert of_type(events, "chaos_done") == []
    assert not game.state.rolled


def test_an_offered_roll_that_lands_on_a_list_from_a_to_f_moves_the_current_list() -> None:
    """Unlike a named-list roll no result offered (tests/engine/test_one_roll.py)."""
    letters = {x: fixed(x, entry(x, f"List {x}")) for x in "BCDEF"}
    crossroads = entry("a", "Crossroads", offers=(Offer(("C",)),))
    rules = ruleset(fixed("A", crossroads), *letters.values(), lists=tuple("ABCDEF"), tokens=False)
    game = new_game(rules)
    game.act(RollChaos(actor="ann"))
    assert game.state.current_list == "A"

    events = game.act(RollChaos(actor="ann", table="C"))  # no referee: the result asked for it

    assert [e["table"] for e in of_type(events, "roll")] == ["C"]
    assert game.state.current_list == "C"
    game.act(NextTurn(actor="ann"))
    events = game.act(RollChaos(actor="bob"))
    assert [e["table"] for e in of_type(events, "roll")] == ["C"]
    assert_consistent(game)


def with_counters(ann: int, bob: int) -> Game:
    """Ann's third turn, Ann and Bob holding that many CounterRolls, nothing rolled yet."""
    game = new_game(offering())
    for player, count in (("ann", ann), ("bob", bob)):
        for _ in range(count):
            game.act(RollChaos(actor=player, table="counters", referee=True))
        game.act(NextTurn(actor="ann", override=True))
    return game


def test_a_countered_roll_withdraws_its_offers_and_a_countered_counter_restores_them() -> None:
    game = with_counters(ann=1, bob=1)
    game.act(RollChaos(actor="ann"))

    events = game.act(Counter(actor="bob"))
    assert len(of_type(events, "offer_lapsed")) == 2
    assert all(e["reason"] == "its roll was countered" for e in of_type(events, "offer_lapsed"))
    assert game.state.offers == {}

    events = game.act(Counter(actor="ann"))  # on Bob's counter: Portal stands again
    assert [e["tables"] for e in of_type(events, "offer_made")] == [["vortex"], ["mild", "strong"]]
    assert pending(game) == [("ann", ("vortex",)), ("ann", ("mild", "strong"))]
    assert_consistent(game)


def killer_game(players: tuple[str, ...]) -> Game:
    """Bob is out on Ann's turn, and his Spite result gives his killer a roll on the Vortex."""
    spite = entry(
        "k",
        "Vengeance",
        text="Your killer rolls on the Vortex.",
        offers=(Offer(("vortex",), OfferTo.KILLER),),
    )
    rules = replace(
        offering(),
        tables={**offering().tables, "spite": fixed("spite", spite)},
        spite=SpitePolicy.SPITE_TABLE,
        spite_table="spite",
    )
    game = new_game(rules, players=players)
    game.act(Spite(actor="bob"))
    return game


def test_your_killer_rolls_goes_to_the_killer_the_spiting_player_names() -> None:
    game = killer_game(("ann", "bob", "cy", "dee"))
    assert pending(game) == []  # nobody has it until Bob says who it was
    choice = game.state.pending
    assert choice is not None
    assert (choice.player, choice.kind) == ("bob", "killer")
    assert [who for who, _ in choice.options] == ["ann", "cy", "dee"]  # the players still in
    game.act(Choose(actor="bob", option="Cy"))
    assert pending(game) == [("cy", ("vortex",))]
    # The player out is refused it now, and so is anyone else but Cy (and the host).
    assert offered_to(game.state, "bob", "vortex") is None
    assert offered_to(game.state, "dee", "vortex") is None
    events = game.act(RollChaos(actor="cy", table="vortex"))
    [roll] = of_type(events, "roll")
    assert (roll["player"], roll["table"]) == ("cy", "vortex")
    assert_consistent(game)


def test_the_host_may_name_the_killer_for_the_player_out_and_others_may_not() -> None:
    game = killer_game(("ann", "bob", "cy"))
    assert game.state.pending is not None
    with pytest.raises(ChaosError):
        game.act(Choose(actor="cy", option="Cy"))  # a suspect doesn't get to say
    game.act(Choose(actor="ann", option="Ann"))  # the host answers for the player out
    assert pending(game) == [("ann", ("vortex",))]


def two_offers_on_the_vortex() -> Game:
    """Ann's turn: Bob is out and names Cy his killer (Cy's roll on the Vortex, the older
    offer), then Ann's own chaos roll offers her the Vortex too."""
    game = killer_game(("ann", "bob", "cy", "dee"))
    game.act(Choose(actor="bob", option="Cy"))
    game.act(RollChaos(actor="ann"))  # Portal
    assert [who for who, lists in pending(game) if lists == ("vortex",)] == ["cy", "ann"]
    return game


def test_an_official_offered_the_list_too_takes_their_own_offer_not_anothers() -> None:
    """The host rolling on the Vortex she was offered rolls for herself: the older offer is
    Cy's, to take or pass up, and taking it would decide that for Cy."""
    game = two_offers_on_the_vortex()
    events = game.act(RollChaos(actor="ann", table="vortex"))

    [roll] = of_type(events, "roll")
    assert roll["player"] == "ann"
    assert [who for who, lists in pending(game) if lists == ("vortex",)] == ["cy"]
    # With no offer of her own left there, the host may still take Cy's for Cy.
    events = game.act(RollChaos(actor="ann", table="vortex"))
    [roll] = of_type(events, "roll")
    assert roll["player"] == "cy"


def test_an_official_declines_their_own_offer_when_offered_the_list_too() -> None:
    game = two_offers_on_the_vortex()
    game.act(Decline(actor="ann", table="vortex"))
    assert [who for who, lists in pending(game) if lists == ("vortex",)] == ["cy"]


def test_another_players_offer_doesnt_take_the_active_players_turn_power_away() -> None:
    """With the turn powers, the active player may roll on any list: another player's open
    offer on it stays theirs, and the roll is a roll on a named list, not a refusal."""
    game = new_game(
        killer_game(("ann", "bob", "cy", "dee")).ruleset, players=("ann", "bob", "cy", "dee")
    )
    game.act(NextTurn(actor="ann", override=True))  # Bob's turn
    game.act(Spite(actor="cy"))
    game.act(Choose(actor="cy", option="Dee"))
    assert pending(game) == [("dee", ("vortex",))]

    with pytest.raises(NotYourTurnError, match="only Dee, the host or a referee"):
        game.act(RollChaos(actor="bob", table="vortex"))  # no turn powers: Dee's to take
    events = game.act(RollChaos(actor="bob", table="vortex", turn_powers=True))

    [roll] = of_type(events, "roll")
    assert (roll["player"], roll["table"], roll["reason"]) == ("bob", "vortex", None)
    assert not of_type(events, "offer_taken")
    assert pending(game) == [("dee", ("vortex",))]
