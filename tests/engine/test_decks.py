"""Chaos and Global decks (deck ruleset): shuffling, drawing face down, revealing, split cards,
reshuffles, lasting cards, and the seven-card spite look.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from bot.engine import (
    Begin,
    ChoicePendingError,
    Choose,
    Deck,
    DeckCard,
    Duration,
    EndEffect,
    Entry,
    Event,
    Game,
    Join,
    Kind,
    Lasts,
    Life,
    LifeGain,
    NextTurn,
    NotYourTurnError,
    Reveal,
    RollChaos,
    RollGlobal,
    RulesError,
    Ruleset,
    Spite,
    Status,
    Token,
    parse_expr,
)
from bot.engine import Counter as CounterRoll
from tests.engine.rulesets import deck

PLAYERS = ("ann", "bob", "cy")
PLAIN = Entry("p1", "Plain one", text="Nothing lasts.")
PLAIN_2 = Entry("p2", "Plain two", text="Nothing lasts either.")
STAYS = Entry("stay", "Stays", text="Lasts all game.", duration=Duration(Lasts.PERMANENT))
NEXT_TURN = Entry("next", "Until next turn", text="A while.", duration=Duration(Lasts.NEXT_TURN))
HEAL = Entry(
    "heal", "Healing card", text="Gain 5 life.", gains_life=True, life=LifeGain(parse_expr("5"))
)
SPLIT = Entry(
    "split",
    "Fire // Ice",
    halves=(
        Entry("split-fire", "Fire", text="Deal 2 damage."),
        Entry("split-ice", "Ice", text="Tap a creature."),
    ),
)


def tiny(*cards: Entry | DeckCard) -> Ruleset:
    """The deck ruleset with a Chaos deck of just these cards (the Global deck as usual)."""
    chaos = Deck(
        "chaos", "Chaos deck", tuple(c if isinstance(c, DeckCard) else DeckCard(c) for c in cards)
    )
    base = deck()
    return replace(base, decks={**base.decks, "chaos": chaos})


def begin(
    ruleset: Ruleset | None = None, *, seed: int = 7, life: int | None = None, **kw: Any
) -> Game:
    game = Game.start(ruleset or deck(**kw), seed=seed, host="ann", name="Ann", life=life)
    for player in PLAYERS[1:]:
        game.act(Join(actor=player, player_name=player.title()))
    game.act(Begin(actor="ann"))
    return game


def of_type(events: list[Event], kind: str) -> list[Any]:
    return [e for e in events if e["type"] == kind]


def play_card(game: Game) -> list[Event]:
    """Draw and reveal the active player's chaos card, picking the first half of a split."""
    active = game.state.active
    assert active is not None
    events = game.act(RollChaos(actor=active)) + game.act(Reveal(actor=active))
    if game.state.pending is not None:
        events += game.act(Choose(actor=active, option=game.state.pending.options[0][0]))
    return events


def full_turn(game: Game) -> list[Event]:
    events = play_card(game)
    assert game.state.active is not None
    return events + game.act(NextTurn(actor=game.state.active))


def cards_everywhere(game: Game, deck_id: str = "chaos") -> Counter[str]:
    """Every copy of every card of a deck, wherever it is now."""
    pile = game.state.decks[deck_id]
    where = Counter(pile.draw + pile.discard + pile.looking)
    if game.state.face_down is not None and game.state.face_down[0] == deck_id:
        where[game.state.face_down[1]] += 1
    for effect in game.state.effects.values():
        if effect.card is not None and (effect.kind == "global") == (deck_id == "globals"):
            where[effect.card] += 1
    return where


# -- shuffling and drawing ----------------------------------------------------------------------


def test_begin_shuffles_both_decks_into_the_draw_piles() -> None:
    ruleset = deck()
    game = Game.start(ruleset, seed=7, host="ann", name="Ann")
    events = game.act(Begin(actor="ann"))
    shuffles = {e["deck"]: e for e in of_type(events, "deck_shuffled")}
    assert set(shuffles) == {"chaos", "globals"}
    for deck_id, shuffle in shuffles.items():
        assert not shuffle["reshuffle"]
        assert sorted(shuffle["order"]) == sorted(ruleset.deck(deck_id).fresh_order())
    assert game.state.decks["chaos"].draw == shuffles["chaos"]["order"]
    # The Global deck's top card is already in play.
    assert game.state.decks["globals"].draw == shuffles["globals"]["order"][1:]


def test_the_shuffle_depends_on_the_seed_and_only_on_it() -> None:
    def order(seed: int) -> list[str]:
        return begin(seed=seed).state.decks["chaos"].draw

    assert order(7) == order(7)
    assert len({tuple(order(seed)) for seed in range(5)}) > 1
    assert any(order(seed) != deck().deck("chaos").fresh_order() for seed in range(5))


def test_cards_are_drawn_from_the_top_without_replacement() -> None:
    game = begin()
    shuffled = list(game.state.decks["chaos"].draw)
    drawn = []
    for turn in range(len(shuffled)):
        pile_before = list(game.state.decks["chaos"].draw)
        events = full_turn(game)
        (card,) = [e["card"] for e in of_type(events, "card_drawn") if e["deck"] == "chaos"]
        assert card == pile_before[0]
        assert len(game.state.decks["chaos"].draw) == len(shuffled) - turn - 1
        drawn.append(card)
    assert drawn == shuffled
    assert not of_type(game.events, "deck_shuffled")[2:], "no reshuffle before the deck ran out"


def test_a_chaos_roll_draws_the_top_card_face_down() -> None:
    game = begin()
    top = game.state.decks["chaos"].draw[0]
    events = game.act(RollChaos(actor="ann"))
    (drawn,) = of_type(events, "card_drawn")
    assert drawn == {
        "type": "card_drawn",
        "deck": "chaos",
        "card": top,
        "face_down": True,
        "player": "ann",
    }
    assert game.state.face_down == ("chaos", top, "ann", "turn")
    assert not of_type(events, "roll"), "nothing is played until the card is turned face up"
    assert of_type(events, "chaos_done"), "drawing the card is the turn's chaos roll"


@pytest.mark.parametrize(
    "action",
    [NextTurn(actor="ann"), RollChaos(actor="ann")],
    ids=["next turn", "second draw"],
)
def test_a_face_down_card_must_be_revealed_before_the_game_goes_on(action: Any) -> None:
    game = begin()
    game.act(RollChaos(actor="ann"))
    with pytest.raises(RulesError, match="reveal"):
        game.act(action)
    game.act(Reveal(actor="ann"))
    game.act(NextTurn(actor="ann"))
    assert game.state.active == "bob"


def test_reveal_turns_the_card_face_up_and_plays_it() -> None:
    game = begin(tiny(PLAIN))
    game.act(RollChaos(actor="ann"))
    events = game.act(Reveal(actor="ann"))
    assert [e["type"] for e in events[1:]] == [
        "card_revealed",
        "dice",  # the card's own dice (its inline dice, X and life), named before it is played
        "stack",
        "roll",
        "card_discarded",
    ]
    roll = of_type(events, "roll")[0]
    assert roll["entry"] == {"id": "p1", "name": "Plain one"}
    assert roll["player"] == "ann"
    assert roll["text"] == "Nothing lasts."
    assert game.state.face_down is None
    assert game.state.decks["chaos"].discard == ["p1"]


def test_reveal_without_a_face_down_card_is_refused() -> None:
    game = begin()
    with pytest.raises(RulesError, match="no face-down"):
        game.act(Reveal(actor="ann"))


def test_the_turn_waits_for_the_chaos_card_and_says_it_is_drawn() -> None:
    """A deck's chaos roll is a card drawn: the refusal speaks of the card, not of a roll."""
    game = begin()
    with pytest.raises(RulesError) as refused:
        game.act(NextTurn(actor="ann"))
    assert str(refused.value) == (
        "Ann hasn't drawn this turn's chaos card yet: draw it first with `chaos roll`"
        " (a referee may end the turn without it: `turn next override`)"
    )


def test_only_the_active_player_or_an_official_reveals() -> None:
    game = begin()
    game.act(RollChaos(actor="ann"))
    with pytest.raises(NotYourTurnError):
        game.act(Reveal(actor="bob"))
    game.act(Reveal(actor="bob", referee=True))
    assert game.state.face_down is None


# -- split cards --------------------------------------------------------------------------------


def test_a_split_card_offers_its_controller_a_half() -> None:
    game = begin(tiny(SPLIT))
    game.act(RollChaos(actor="ann"))
    events = game.act(Reveal(actor="ann"))
    (offer,) = of_type(events, "choice_offered")
    assert offer["player"] == "ann"
    assert offer["kind"] == "half"
    assert offer["options"] == [
        {"id": "split-fire", "name": "Fire"},
        {"id": "split-ice", "name": "Ice"},
    ]
    assert not of_type(events, "roll"), "no half is played before the pick"
    with pytest.raises(RulesError, match="must choose first"):
        game.act(NextTurn(actor="ann"))


@pytest.mark.parametrize(
    ("option", "half"),
    [
        ("split-ice", "split-ice"),
        ("Ice", "split-ice"),
        ("ICE", "split-ice"),
        ("fire", "split-fire"),
    ],
)
def test_choose_plays_the_picked_half_by_id_or_name(option: str, half: str) -> None:
    game = begin(tiny(SPLIT))
    game.act(RollChaos(actor="ann"))
    game.act(Reveal(actor="ann"))
    events = game.act(Choose(actor="ann", option=option))
    assert of_type(events, "choice_made")[0]["option"] == half
    (roll,) = of_type(events, "roll")
    assert roll["entry"]["id"] == half
    assert game.state.pending is None
    assert game.state.decks["chaos"].discard == ["split"]
    game.act(NextTurn(actor="ann"))


def test_a_wrong_half_is_refused_with_the_choices_listed() -> None:
    game = begin(tiny(SPLIT))
    game.act(RollChaos(actor="ann"))
    game.act(Reveal(actor="ann"))
    with pytest.raises(RulesError) as error:
        game.act(Choose(actor="ann", option="Water"))
    assert "Fire (split-fire)" in str(error.value)
    assert "Ice (split-ice)" in str(error.value)
    assert game.state.pending is not None


def test_only_the_controller_or_an_official_picks_the_half() -> None:
    game = begin(tiny(SPLIT))
    game.act(RollChaos(actor="ann"))
    game.act(Reveal(actor="ann"))
    with pytest.raises(NotYourTurnError):
        game.act(Choose(actor="bob", option="Ice"))
    game.act(Choose(actor="bob", option="Ice", referee=True))
    assert game.state.pending is None


# -- running out, reshuffling, lasting cards ----------------------------------------------------


def test_an_exhausted_deck_reshuffles_its_discard_pile_and_says_so() -> None:
    game = begin(tiny(PLAIN, PLAIN_2))
    full_turn(game)
    full_turn(game)
    assert game.state.decks["chaos"].draw == []
    assert sorted(game.state.decks["chaos"].discard) == ["p1", "p2"]
    events = game.act(RollChaos(actor=game.state.active or ""))
    shuffle, drawn = [e for e in events if e["type"] != "dice"][1:3]
    assert shuffle["type"] == "deck_shuffled"
    assert shuffle["reshuffle"] is True
    assert sorted(shuffle["order"]) == ["p1", "p2"]
    assert drawn["type"] == "card_drawn"
    assert drawn["card"] == shuffle["order"][0]
    assert game.state.decks["chaos"].discard == []
    assert game.state.decks["chaos"].draw == shuffle["order"][1:]


def test_reshuffles_keep_drawing_without_replacement() -> None:
    game = begin(deck(chaos_copies=2))
    size = len(deck(chaos_copies=2).deck("chaos").fresh_order())
    for _ in range(size * 2 + 3):
        full_turn(game)
        assert cards_everywhere(game) == Counter(deck(chaos_copies=2).deck("chaos").fresh_order())
    reshuffles = [e for e in of_type(game.events, "deck_shuffled") if e["reshuffle"]]
    assert len(reshuffles) >= 2


def test_a_lasting_card_is_discarded_only_when_its_effect_ends() -> None:
    game = begin(tiny(NEXT_TURN))
    events = play_card(game)
    (started,) = of_type(events, "effect_started")
    assert started["card"] == "next"
    assert not of_type(events, "card_discarded")
    assert game.state.decks["chaos"].discard == []
    game.act(NextTurn(actor="ann"))  # bob
    assert game.state.decks["chaos"].discard == []
    with pytest.raises(RulesError, match="both empty"):
        game.act(RollChaos(actor="bob"))
    game.act(NextTurn(actor="bob", override=True, referee=True))  # cy
    game.act(NextTurn(actor="cy", override=True, referee=True))  # ann: the effect ends
    ended = game.events[-2:]
    assert ended == [
        {"type": "effect_ended", "id": started["id"], "reason": "Ann's next turn began"},
        {"type": "card_discarded", "deck": "chaos", "card": "next"},
    ]


def test_a_card_still_in_play_is_not_reshuffled_until_its_effect_is_ended() -> None:
    game = begin(tiny(STAYS, PLAIN))
    for _ in range(2):
        full_turn(game)
    (stays,) = [e for e in game.state.effects.values() if e.card == "stay"]
    events = game.act(RollChaos(actor=game.state.active or ""))
    assert of_type(events, "deck_shuffled")[0]["order"] == ["p1"]
    game.act(Reveal(actor=game.state.active or ""))
    events = game.act(EndEffect(actor="ann", effect=stays.id))
    assert of_type(events, "card_discarded") == [
        {"type": "card_discarded", "deck": "chaos", "card": "stay"}
    ]


def test_a_chaos_card_that_is_a_global_goes_back_to_the_chaos_deck() -> None:
    """A custom chaos card with `global: true` replaces the Global; once replaced in turn, it goes
    to the Chaos deck's discard pile, not the Global deck's (where drawing it was a KeyError)."""
    world = Entry("chaos-global", "Chaos Global", text="A new world rule.", kind=Kind.GLOBAL)
    game = begin(tiny(world))
    events = play_card(game)
    (started,) = of_type(events, "effect_started")
    assert (started["card"], started["deck"], started["kind"]) == (
        "chaos-global",
        "chaos",
        "global",
    )
    events = game.act(RollGlobal(actor="ann", referee=True))
    assert {"type": "card_discarded", "deck": "chaos", "card": "chaos-global"} in events
    for _ in range(8):  # through the Global deck and its reshuffles
        game.act(RollGlobal(actor="ann", referee=True))
    assert (
        "chaos-global" not in game.state.decks["globals"].discard + game.state.decks["globals"].draw
    )
    assert game.state.decks["chaos"].discard == ["chaos-global"]


# -- spite: the top seven chaos cards -----------------------------------------------------------


def test_spite_shows_that_player_alone_the_top_seven_cards() -> None:
    game = begin()
    top_seven = game.state.decks["chaos"].draw[:7]
    events = game.act(Spite(actor="bob"))
    assert events[1] == {"type": "spite_started", "player": "bob", "policy": "deck_look"}
    drawn = of_type(events, "card_drawn")
    assert [d["card"] for d in drawn] == top_seven
    assert all(d["player"] == "bob" and not d["face_down"] for d in drawn)
    (offer,) = of_type(events, "choice_offered")
    assert offer["player"] == "bob"
    assert offer["kind"] == "spite"
    assert [o["id"] for o in offer["options"]] == top_seven
    assert game.state.decks["chaos"].looking == top_seven
    assert game.state.players["bob"].spiting


@pytest.mark.parametrize(
    ("actor", "referee", "allowed"),
    [("bob", False, True), ("ann", False, True), ("cy", True, True), ("cy", False, False)],
    ids=["the spiting player", "the host", "a referee", "another player"],
)
def test_only_the_spiting_player_or_an_official_picks_the_spite_card(
    actor: str, referee: bool, allowed: bool
) -> None:
    game = begin()
    game.act(Spite(actor="ann", player="bob"))
    option = game.state.decks["chaos"].looking[0]
    if allowed:
        game.act(Choose(actor=actor, referee=referee, option=option))
        assert game.state.pending is not None
        assert game.state.pending.kind == "loss"  # no reason was given: the bot asks
    else:
        with pytest.raises(NotYourTurnError):
            game.act(Choose(actor=actor, referee=referee, option=option))


def test_the_spite_card_is_played_face_up_and_the_rest_go_to_the_bottom() -> None:
    game = begin()
    game.act(Spite(actor="bob"))
    looked = list(game.state.decks["chaos"].looking)
    plain = next(card for card in looked if not card.startswith("s"))
    events = game.act(Choose(actor="bob", option=plain))
    (roll,) = of_type(events, "roll")
    assert roll["entry"]["id"] == plain
    assert roll["player"] == "bob"
    assert "can't be countered" in roll["reason"]
    (bottom,) = of_type(events, "cards_to_bottom")
    assert sorted(bottom["cards"]) == sorted(c for c in looked if c != plain)
    pile = game.state.decks["chaos"]
    assert pile.draw[-6:] == bottom["cards"]
    assert pile.looking == []
    assert game.state.players["bob"].spiting  # until bob says whether the loss still holds
    events = game.act(Choose(actor="bob", option="no"))
    assert events[-1] == {"type": "spite_ended", "player": "bob", "survived": True}
    assert not game.state.players["bob"].spiting


def test_the_cards_go_to_the_bottom_in_random_order() -> None:
    orders = []
    for seed in range(6):
        game = begin(seed=seed)
        game.act(Spite(actor="bob"))
        looked = list(game.state.decks["chaos"].looking)
        events = game.act(Choose(actor="bob", option=looked[0]))
        orders.append(of_type(events, "cards_to_bottom")[0]["cards"] == looked[1:])
    assert not all(orders)


def test_a_split_card_can_be_the_spite_card() -> None:
    game = begin(tiny(SPLIT, PLAIN))
    game.act(Spite(actor="bob", reason="card"))
    events = game.act(Choose(actor="bob", option="Fire // Ice"))
    (offer,) = of_type(events, "choice_offered")
    assert offer["kind"] == "half"
    assert offer["context"]["spite"] == "card"
    assert of_type(events, "cards_to_bottom")[0]["cards"] == ["p1"]
    events = game.act(Choose(actor="bob", option="ice"))
    (roll,) = of_type(events, "roll")
    assert roll["entry"]["id"] == "split-ice"
    assert "can't be countered" in roll["reason"]
    assert events[-1]["type"] == "choice_offered"
    assert events[-1]["kind"] == "loss"
    events = game.act(Choose(actor="bob", option="yes"))
    assert events[-2:] == [
        {"type": "spite_ended", "player": "bob", "survived": False},
        {
            "type": "player_out",
            "player": "bob",
            "reason": "lost to a card's effect: it still holds",
        },
    ]


def test_fewer_than_seven_cards_offers_what_there_is() -> None:
    game = begin(tiny(PLAIN, PLAIN_2, STAYS))
    events = game.act(Spite(actor="bob"))
    assert len(of_type(events, "choice_offered")[0]["options"]) == 3
    assert game.state.decks["chaos"].draw == []


def test_the_spite_look_reshuffles_the_discard_pile_when_the_deck_runs_out() -> None:
    game = begin()
    for _ in range(10):
        full_turn(game)
    assert len(game.state.decks["chaos"].draw) == 2
    events = game.act(Spite(actor="bob"))
    assert [e["reshuffle"] for e in of_type(events, "deck_shuffled")] == [True]
    assert len(of_type(events, "choice_offered")[0]["options"]) == 7
    assert cards_everywhere(game) == Counter(deck().deck("chaos").fresh_order())


def test_picking_one_of_several_copies_sends_the_other_copies_to_the_bottom() -> None:
    game = begin(tiny(DeckCard(PLAIN, 3)))
    game.act(Spite(actor="bob"))
    events = game.act(Choose(actor="bob", option="p1"))
    assert of_type(events, "cards_to_bottom")[0]["cards"] == ["p1", "p1"]
    pile = game.state.decks["chaos"]
    assert pile.looking == []
    assert Counter(pile.draw + pile.discard) == Counter({"p1": 3})


def test_a_spite_leaves_the_turns_face_down_card_alone() -> None:
    game = begin(tiny(PLAIN, PLAIN_2))
    game.act(RollChaos(actor="ann"))
    face_down = game.state.face_down
    assert face_down is not None
    game.act(Spite(actor="bob"))
    game.act(Choose(actor="bob", option=game.state.decks["chaos"].looking[0]))
    game.act(Choose(actor="bob", option="no"))
    assert game.state.face_down == face_down
    events = game.act(Reveal(actor="ann"))
    assert of_type(events, "roll")[0]["entry"]["id"] == face_down[1]
    game.act(NextTurn(actor="ann"))


def test_a_second_loss_knocks_the_player_out() -> None:
    game = begin()
    game.act(Spite(actor="bob"))
    game.act(Choose(actor="bob", option=game.state.decks["chaos"].looking[0]))
    game.act(Choose(actor="bob", option="no"))
    events = game.act(Spite(actor="bob"))
    assert not of_type(events, "spite_started")
    assert not of_type(events, "card_drawn")
    (out,) = of_type(events, "player_out")
    assert out["player"] == "bob"
    assert "already used" in out["reason"]
    assert game.state.players["bob"].status is Status.OUT


def test_spites_are_counted_per_player() -> None:
    game = begin()
    for player in ("bob", "cy"):
        game.act(Spite(actor=player))
        game.act(Choose(actor=player, option=game.state.decks["chaos"].looking[0]))
        game.act(Choose(actor=player, option="no"))
    assert not of_type(game.events, "player_out")


def test_dropping_below_1_life_starts_the_spite() -> None:
    game = begin(life=20)
    events = game.act(Life(actor="ann", player="bob", mode="lose", amount=20))
    assert [e["type"] for e in events[1:3]] == ["life", "spite_started"]
    assert game.state.pending is not None
    assert game.state.pending.player == "bob"


def test_a_player_cannot_lose_during_their_spite() -> None:
    game = begin(life=20)
    game.act(Life(actor="ann", player="bob", mode="lose", amount=20))
    events = game.act(Life(actor="ann", player="bob", mode="lose", amount=5))
    assert [e["type"] for e in events] == ["action", "life"]
    with pytest.raises(RulesError):
        game.act(Spite(actor="ann", player="bob"))
    assert game.state.players["bob"].status is Status.PLAYING
    assert game.state.pending is not None
    assert game.state.pending.kind == "spite"


@pytest.mark.parametrize(
    ("life_after", "survives"),
    [(3, True), (1, True), (0, False), (-4, False)],
)
def test_after_the_spite_the_player_stays_only_above_0_life(
    life_after: int, survives: bool
) -> None:
    game = begin(tiny(PLAIN, PLAIN_2), life=20)
    game.act(Life(actor="ann", player="bob", mode="set", amount=0))
    if life_after >= 0:
        game.act(Life(actor="ann", player="bob", mode="set", amount=life_after))
    else:
        game.act(Life(actor="ann", player="bob", mode="lose", amount=-life_after))
    assert game.state.players["bob"].life == life_after
    events = game.act(Choose(actor="bob", option="p1"))
    assert of_type(events, "spite_ended")[0]["survived"] is survives
    assert (game.state.players["bob"].status is Status.OUT) is not survives


@pytest.mark.parametrize(("life_before", "survives"), [(-3, True), (-10, False)])
def test_a_life_gaining_spite_card_saves_the_player_only_if_life_ends_above_0(
    life_before: int, survives: bool
) -> None:
    game = begin(tiny(HEAL, PLAIN), life=20)
    game.act(Life(actor="ann", player="bob", mode="set", amount=0))
    game.act(Life(actor="ann", player="bob", mode="lose", amount=-life_before))
    events = game.act(Choose(actor="bob", option="heal"))
    assert game.state.players["bob"].life == life_before + 5
    assert of_type(events, "spite_ended")[0]["survived"] is survives


def test_a_spite_waits_for_a_pending_split_choice() -> None:
    """A loss during someone's split choice is refused until they choose; nothing is lost."""
    game = begin(tiny(SPLIT), life=20)
    game.act(RollChaos(actor="ann"))
    game.act(Reveal(actor="ann"))
    assert game.state.pending is not None
    assert game.state.pending.kind == "half"
    before = list(game.events)
    with pytest.raises(ChoicePendingError, match="must choose first"):
        game.act(Life(actor="ann", player="bob", mode="lose", amount=25))
    assert game.events == before
    assert game.state.pending.kind == "half"


def test_a_card_with_x_has_its_x_rolled_and_logged() -> None:
    """A chaos card naming a real card with X (Fireball, X = 2d6) rolls X when it's played."""
    fireball = Entry(
        "fireball", "Fireball", kind=Kind.CARD, card="Fireball", text="Deal X.", x=parse_expr("2d6")
    )
    game = begin(tiny(fireball))
    game.act(RollChaos(actor="ann"))
    (roll,) = of_type(game.act(Reveal(actor="ann")), "roll")
    (x,) = roll["inline"]
    assert x["expr"] == "X=2d6"
    assert len(x["faces"]) == 2
    assert x["total"] == sum(x["faces"])


GRANT = Entry("grant", "Three CounterRolls", kind=Kind.TOKEN, token=Token.COUNTER, count=3)


def test_a_spite_card_cant_be_countered_even_where_tokens_are_on() -> None:
    # Seed 002: a Chaos card played as a spite can't be countered; in a custom deck with
    # tokens, a CounterRoll on it is refused, while one on any other card is played.
    rules = replace(tiny(DeckCard(GRANT, 12), DeckCard(PLAIN, 6)), tokens=True)
    tried = 0
    for seed in range(20):
        game = begin(rules, seed=seed)
        play_card(game)
        if game.state.players["ann"].tokens.get(Token.COUNTER.value, 0) < 2:
            continue
        tried += 1
        game.act(Spite(actor="bob"))
        game.act(Choose(actor="bob", option=game.state.decks["chaos"].looking[0]))
        game.act(Choose(actor="bob", option="no"))  # the loss no longer holds
        spite = game.state.live_item()
        assert spite is not None
        assert spite.spite
        before = len(game.events)
        with pytest.raises(RulesError, match=r"played as a spite.*can't be countered"):
            game.act(CounterRoll(actor="ann"))
        assert len(game.events) == before  # refused whole: no token spent
        assert game.state.players["ann"].tokens[Token.COUNTER.value] >= 2
        # The other side: the next card, not a spite, is countered as any roll is.
        game.act(NextTurn(actor="ann"))
        play_card(game)
        events = game.act(CounterRoll(actor="ann"))
        assert [e["countered"] for e in of_type(events, "countered")] == [True]
    assert tried >= 3
