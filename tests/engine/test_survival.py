"""Spite decided right: a life-gaining result gains life (asking what the table can't know),
a loss that isn't about life is asked about, and results remove what they say they remove.

Each ruleset here is built from d2 lists whose every face gives the same entry, so whatever the
seed, the spite roll or card is the one under test.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.engine import (
    Begin,
    ChaosSource,
    Choose,
    Deck,
    DeckCard,
    Entry,
    Game,
    Join,
    Kind,
    Life,
    LifeGain,
    Reveal,
    RollChaos,
    RollGlobal,
    Ruleset,
    Spite,
    SpitePolicy,
    StartRoll,
    parse_expr,
)
from bot.engine.errors import RulesError
from bot.engine.state import Status
from bot.tables import load_bundled
from tests.engine.tiny import assert_consistent, fixed, of_type

PLAYERS = ("ann", "bob", "cy")


def classic(spite: Entry, *, life: int | None = 20) -> Ruleset:
    """A classic-like ruleset whose chaos list always gives `spite`, with a world at the start."""
    world = Entry(id="w", name="Old World", kind=Kind.WORLD, text="A world.")
    return Ruleset(
        id="tiny",
        name="Tiny classic",
        chaos=ChaosSource.TABLE,
        chaos_table="chaos",
        start=StartRoll.WORLD,
        start_table="ewl",
        spite=SpitePolicy.LIFE_GAIN_ROLL,
        spite_table="chaos",
        life=life,
        tables={"chaos": fixed("chaos", spite), "ewl": fixed("ewl", world)},
    )


def begin(ruleset: Ruleset, *, life: int | None = None) -> Game:
    game = Game.start(ruleset, seed=5, host="ann", name="Ann", life=life)
    for player in PLAYERS[1:]:
        game.act(Join(actor=player, player_name=player.title()))
    game.act(Begin(actor="ann"))
    return game


def gains(text: str, **life: Any) -> Entry:
    amount = life.pop("amount", None)
    return Entry(
        id="gain",
        name="Gain",
        text=text,
        gains_life=True,
        life=LifeGain(parse_expr(amount) if amount else None, **life),
    )


def lose_all(game: Game, player: str = "bob") -> list[Any]:
    return game.act(Life(actor="ann", player=player, mode="lose", amount=25))


def lives(game: Game) -> dict[str, int | None]:
    return {p: game.state.players[p].life for p in PLAYERS}


# -- classic: the spite roll gains life, or asks how much --------------------------------------


def test_each_player_gains_and_the_spiting_player_survives_with_the_gain() -> None:
    """Rain of Blessings: "each player gains 3 life" saved Bob at 0 life before; now at 3."""
    game = begin(classic(gains("Each player gains 3 life.", amount="3", each_player=True)))
    events = lose_all(game)
    assert lives(game) == {"ann": 23, "bob": 3, "cy": 23}
    assert of_type(events, "spite_ended") == [
        {"type": "spite_ended", "player": "bob", "survived": True}
    ]
    assert game.state.players["bob"].status is Status.PLAYING
    assert_consistent(game)


def test_a_gain_per_opponent_counts_the_opponents_still_in() -> None:
    game = begin(classic(gains("You gain 2 life per opponent.", amount="2", per_opponent=True)))
    game.act(Spite(actor="ann", player="cy"))
    assert game.state.players["cy"].life == 4  # two opponents: Ann and Bob


def test_a_gain_of_x_gains_the_cards_x() -> None:
    stream = Entry(
        id="stream",
        name="Stream of Life",
        kind=Kind.CARD,
        card="Stream of Life",
        x=parse_expr("1d6"),
        gains_life=True,
        life=LifeGain(x=True),
    )
    game = begin(classic(stream))
    events = lose_all(game)
    (roll,) = of_type(events, "roll")
    (x,) = [d["total"] for d in roll["inline"] if d["expr"].startswith("X=")]
    assert game.state.players["bob"].life == x >= 1
    assert of_type(events, "spite_ended")[0]["survived"] is True


def test_an_amount_the_table_does_not_give_is_asked_and_gained() -> None:
    game = begin(classic(gains("You gain 2 life for each card in your hand.")))
    events = lose_all(game)
    (offer,) = of_type(events, "choice_offered")
    assert (offer["player"], offer["kind"]) == ("bob", "life_amount")
    assert offer["options"][0] == {"id": "0 life", "name": "0 life"}
    assert len(offer["options"]) == 21
    assert "how much life does it give Bob" in offer["context"]["question"]
    assert game.state.players["bob"].spiting
    with pytest.raises(RulesError, match="Bob must choose first"):
        game.act(RollChaos(actor="ann"))
    with pytest.raises(RulesError, match="isn't one of the choices"):
        game.act(Choose(actor="bob", option="lots"))
    events = game.act(Choose(actor="bob", option="6 life"))
    assert of_type(events, "life")[0]["life"] == 6
    assert of_type(events, "spite_ended")[0]["survived"] is True
    assert game.state.players["bob"].life == 6
    assert_consistent(game)


def test_an_asked_amount_beyond_the_options_is_typed_with_life() -> None:
    game = begin(classic(gains("Congregate.")))
    lose_all(game)
    game.act(Choose(actor="ann", option="35 LIFE"))  # the host may answer for Bob
    assert game.state.players["bob"].life == 35


def test_answering_no_life_puts_the_spiting_player_out() -> None:
    game = begin(classic(gains("Biorhythm.")))
    lose_all(game)
    events = game.act(Choose(actor="bob", option="0 life"))
    assert of_type(events, "spite_ended")[0]["survived"] is False
    (out,) = of_type(events, "player_out")
    assert out["reason"] == "dropped below 1 life: the spite left them below 1 life"
    assert game.state.players["bob"].status is Status.OUT


@pytest.mark.parametrize(("answer", "life", "survives"), [("yes", 5, True), ("no", 0, False)])
def test_a_condition_is_asked_before_anything_is_gained(
    answer: str, life: int, survives: bool
) -> None:
    comeback = gains("If your life is the lowest, gain 5.", amount="5", condition="Lowest life?")
    game = begin(classic(comeback))
    events = lose_all(game)
    (offer,) = of_type(events, "choice_offered")
    assert (offer["kind"], offer["context"]["question"]) == ("life_if", "Gain: Lowest life?")
    assert [o["id"] for o in offer["options"]] == ["yes", "no"]
    assert game.state.players["bob"].life == 0  # nothing gained before the answer
    events = game.act(Choose(actor="bob", option=answer))
    assert game.state.players["bob"].life == life
    assert of_type(events, "spite_ended")[0]["survived"] is survives


def test_a_condition_then_an_asked_amount() -> None:
    """Biorhythm as the bundled table writes it: a creature? then how many."""
    game = begin(classic(gains("Biorhythm.", condition="Do you control a creature?")))
    lose_all(game)
    events = game.act(Choose(actor="bob", option="yes"))
    assert of_type(events, "choice_offered")[0]["kind"] == "life_amount"
    game.act(Choose(actor="bob", option="2 life"))
    assert game.state.players["bob"].life == 2
    assert_consistent(game)


def test_ordinary_rolls_gain_known_amounts_but_never_stop_to_ask() -> None:
    game = begin(classic(gains("Each player gains 3 life.", amount="3", each_player=True)))
    game.act(RollChaos(actor="ann"))
    assert lives(game) == {"ann": 23, "bob": 23, "cy": 23}
    asked = begin(classic(gains("Gain some life.")))
    asked.act(RollChaos(actor="ann"))
    assert asked.state.pending is None
    assert lives(asked) == {"ann": 20, "bob": 20, "cy": 20}


def test_a_spite_with_untracked_life_counts_it_from_0() -> None:
    game = begin(classic(gains("Gain 4.", amount="4"), life=None))
    events = game.act(Spite(actor="bob"))
    assert of_type(events, "life")[0] == {
        "type": "life",
        "player": "bob",
        "life": 0,
        "delta": 0,
        "reason": "healed to 0 before the spite roll",
    }
    assert game.state.players["bob"].life == 4
    assert game.state.players["bob"].status is Status.PLAYING


@pytest.mark.parametrize("reason", ["poison", "library", "card"])
def test_classic_loss_other_than_life_gets_no_spite_roll(reason: str) -> None:
    game = begin(classic(gains("Gain 4.", amount="4")))
    events = game.act(Spite(actor="ann", player="bob", reason=reason))
    assert not of_type(events, "roll")
    (out,) = of_type(events, "player_out")
    assert out["reason"].endswith("a spite roll only answers a loss of life")
    assert game.state.players["bob"].life == 20


def test_classic_spite_without_a_reason_is_a_loss_of_life() -> None:
    game = begin(classic(gains("Gain 4.", amount="4")))
    game.act(Spite(actor="ann", player="bob"))
    assert game.state.players["bob"].life == 4


def test_an_unknown_reason_is_refused() -> None:
    game = begin(classic(gains("Gain 4.", amount="4")))
    with pytest.raises(RulesError, match="'mana' isn't a reason to lose: say life, poison"):
        game.act(Spite(actor="ann", player="bob", reason="mana"))


# -- deck: a loss that isn't about life is asked about -----------------------------------------


def deck(card: Entry) -> Ruleset:
    glob = Entry(id="g", name="A Global", text="Global.")
    return Ruleset(
        id="tinydeck",
        name="Tiny deck",
        chaos=ChaosSource.DECK,
        chaos_table="chaos",
        start=StartRoll.GLOBAL_DECK,
        start_table="globals",
        spite=SpitePolicy.DECK_LOOK,
        decks={
            "chaos": Deck("chaos", "Chaos", (DeckCard(card, 10),)),
            "globals": Deck("globals", "Globals", (DeckCard(glob, 3),)),
        },
    )


HEAL = gains("Gain 5 life.", amount="5")


@pytest.mark.parametrize(
    ("reason", "question"),
    [
        ("poison", "Does Bob still have 10 or more poison counters?"),
        ("library", "Does Bob still lose for drawing from an empty library?"),
        ("card", "Does the card's effect still make Bob lose?"),
        (None, "Does the reason Bob would lose still hold?"),
    ],
)
@pytest.mark.parametrize(("answer", "survives"), [("yes", False), ("no", True)])
def test_deck_loss_not_about_life_asks_whether_it_still_holds(
    reason: str | None, question: str, answer: str, survives: bool
) -> None:
    game = begin(deck(HEAL), life=20)
    game.act(Spite(actor="ann", player="bob", reason=reason))
    events = game.act(Choose(actor="bob", option="gain"))
    assert game.state.players["bob"].life == 25  # life is no answer to poison
    (offer,) = of_type(events, "choice_offered")
    assert (offer["kind"], offer["player"], offer["context"]["question"]) == (
        "loss",
        "bob",
        question,
    )
    events = game.act(Choose(actor="bob", option=answer))
    assert of_type(events, "spite_ended")[0]["survived"] is survives
    assert (game.state.players["bob"].status is Status.OUT) is not survives
    assert_consistent(game)


def test_deck_life_loss_with_untracked_life_is_asked() -> None:
    game = begin(deck(HEAL))
    game.act(Spite(actor="ann", player="bob", reason="life"))
    events = game.act(Choose(actor="bob", option="gain"))
    (offer,) = of_type(events, "choice_offered")
    assert offer["context"]["question"] == "Is Bob still below 1 life?"


def test_deck_life_loss_with_an_asked_gain_counts_the_answer() -> None:
    game = begin(deck(gains("Vampiric Tide.")), life=20)
    game.act(Life(actor="ann", player="bob", mode="lose", amount=23))  # -3: a spite
    events = game.act(Choose(actor="bob", option="gain"))
    assert of_type(events, "choice_offered")[0]["kind"] == "life_amount"
    events = game.act(Choose(actor="bob", option="4 life"))
    assert game.state.players["bob"].life == 1
    assert of_type(events, "spite_ended")[0]["survived"] is True


def test_deck_spite_without_a_reason_below_1_life_is_judged_by_life() -> None:
    game = begin(deck(HEAL), life=20)
    game.act(Life(actor="ann", player="bob", mode="set", amount=0))
    game.act(Choose(actor="bob", option="gain"))
    assert game.state.players["bob"].life == 5
    assert game.state.pending is None
    assert not game.state.players["bob"].spiting


# -- removes: worlds, globals, effects by name -------------------------------------------------


def test_tranquility_removes_every_world_in_play() -> None:
    tranquility = Entry(
        id="t", name="Tranquility", text="Destroy all enchantments.", removes=("worlds",)
    )
    game = begin(classic(tranquility))
    game.act(RollGlobal(actor="ann"))  # a second world joins the first
    assert [e.kind for e in game.state.effects.values()] == ["world", "world"]
    events = game.act(RollChaos(actor="ann"))
    ended = of_type(events, "effect_ended")
    assert [e["reason"] for e in ended] == ["removed by Tranquility"] * 2
    assert game.state.effects == {}
    assert_consistent(game)


def test_an_effect_can_be_removed_by_name_and_others_stay() -> None:
    anthem = Entry(id="a", name="Anthem", text="+1/+1.", duration=None, kind=Kind.WORLD)
    purge = Entry(id="p", name="Purge", text="End the Old World.", removes=("old world",))
    rules = classic(purge)
    rules = replace(rules, tables={**rules.tables, "extra": fixed("extra", anthem)})
    game = begin(rules)
    game.act(RollChaos(actor="ann", table="extra"))
    game.act(RollChaos(actor="ann"))
    assert [e.name for e in game.state.effects.values()] == ["Anthem"]


def test_a_card_that_removes_the_global_brings_the_next_one() -> None:
    shift = Entry(id="shift", name="Global Shift", text="Next Global.", removes=("globals",))
    game = begin(deck(shift))
    (old,) = game.state.effects
    game.act(RollChaos(actor="ann"))
    events = game.act(Reveal(actor="ann"))
    assert [e["id"] for e in of_type(events, "effect_ended")] == [old]
    (new,) = game.state.effects.values()
    assert (new.kind, new.id != old) == ("global", True)
    assert_consistent(game)


# -- the bundled classic entries the issue names ----------------------------------------------


def bundled(name: str) -> Entry:
    chaos = load_bundled()["classic"].ruleset.tables["chaos"]
    return next(e for e in chaos.entries if e.name == name)


def test_bundled_rain_of_blessings_saves_with_3_life_and_heals_everyone() -> None:
    game = begin(classic(bundled("Rain of Blessings")))
    lose_all(game)
    assert lives(game) == {"ann": 23, "bob": 3, "cy": 23}
    assert game.state.players["bob"].status is Status.PLAYING


def test_bundled_biorhythm_with_no_creature_does_not_save() -> None:
    game = begin(classic(bundled("Biorhythm")))
    events = lose_all(game)
    (offer,) = of_type(events, "choice_offered")
    assert offer["context"]["question"].startswith("Biorhythm: Do you control a creature?")
    game.act(Choose(actor="bob", option="no"))
    assert game.state.players["bob"].status is Status.OUT


def test_bundled_tranquility_destroys_the_worlds() -> None:
    game = begin(classic(bundled("Tranquility")))
    assert [e.kind for e in game.state.effects.values()] == ["world"]
    game.act(RollChaos(actor="ann"))
    assert game.state.effects == {}


def test_deck_asked_gain_with_untracked_life_only_asks_whether_the_loss_holds() -> None:
    game = begin(deck(gains("Vampiric Tide.")))
    game.act(Spite(actor="ann", player="bob", reason="life"))
    events = game.act(Choose(actor="bob", option="gain"))
    (offer,) = of_type(events, "choice_offered")
    assert (offer["kind"], offer["context"]["question"]) == ("loss", "Is Bob still below 1 life?")
