"""Resolving rolls: every entry kind, the roll event's shape, the two nesting policies, the roll
budget, and properties that hold for any table and any seed."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import (
    Budget,
    ChaosError,
    ChoicePendingError,
    Choose,
    Duration,
    Entry,
    Kind,
    Lasts,
    LifeGain,
    MultiMode,
    Nesting,
    NextTurn,
    Resolution,
    Resolver,
    RollChaos,
    RollTable,
    RulesError,
    Ruleset,
    Token,
    UnknownTableError,
    parse_expr,
)
from bot.engine.events import Roll
from tests.engine.rulesets import classic
from tests.engine.tiny import (
    ROLL_KEYS,
    assert_consistent,
    each,
    entry,
    face,
    faces,
    fixed,
    new_game,
    of_type,
    resolve,
    ruleset,
    times,
)

PLAIN = entry("plain", "Plain", text="Nothing much.")
TWICE = entry("twice", "Roll twice", kind=Kind.MULTI, multi=times(2))
D1 = face(1, 2)  # on a d2 list made with faces(): the first entry
D2 = face(2, 2)  # the second entry


def honoured(resolution: Resolution) -> list[dict[str, Any]]:
    return [dict(step.roll) for step in resolution.steps if step.honoured]


# --- Entry kinds ------------------------------------------------------------------------------


def test_effect_entry_is_one_honoured_roll_showing_its_dice_and_text() -> None:
    rules = ruleset(faces("chaos", entry("a", "Calm"), entry("b", "Storm", text="It rains.")))

    resolution = resolve(rules, [D2])

    [step] = resolution.steps
    assert step.honoured
    assert step.entry.id == "b"
    roll = step.roll
    assert (roll["table"], roll["dice"], roll["result"]) == ("chaos", [2], 2)
    assert roll["entry"] == {"id": "b", "name": "Storm"}
    assert (roll["text"], roll["inline"], roll["ignored"], roll["reason"]) == (
        "It rains.",
        [],
        False,
        None,
    )
    assert (roll["id"], roll["turn"], roll["player"]) == (1, 1, "ann")
    assert resolution.exhausted is None
    assert resolution.keep is None


def test_card_entry_rolls_its_x_dice_and_shows_them_inline() -> None:
    card = entry("fb", "Fireball", kind=Kind.CARD, card="Fireball", x=parse_expr("2d6+1"))
    rules = ruleset(fixed("chaos", card))

    resolution = resolve(rules, [D1, face(3, 6), face(5, 6)])

    [roll] = resolution.rolls
    assert roll["inline"] == [{"expr": "X=2d6+1", "faces": [3, 5], "total": 9}]


def test_inline_dice_are_rolled_in_order_and_their_totals_replace_the_braces() -> None:
    bolt = entry("bolt", "Bolt", text="Deals {1d6+1} damage, then {2d4} more.")
    rules = ruleset(fixed("chaos", bolt))

    resolution = resolve(rules, [D1, face(4, 6), face(1, 4), face(3, 4)])

    [roll] = resolution.rolls
    assert roll["text"] == "Deals 5 damage, then 4 more."
    assert roll["inline"] == [
        {"expr": "1d6+1", "faces": [4], "total": 5},
        {"expr": "2d4", "faces": [1, 3], "total": 4},
    ]


def test_link_rolls_once_on_the_linked_list_one_level_deeper() -> None:
    rules = ruleset(
        fixed("chaos", entry("go", "Off to WackyLand", kind=Kind.LINK, link="wacky")),
        faces("wacky", entry("w1", "Wacky 1"), entry("w2", "Wacky 2"), entry("w3", "Wacky 3")),
    )

    resolution = resolve(rules, [D1, face(3, 3)])

    link, child = resolution.rolls
    assert child["table"] == "wacky"
    assert child["entry"]["id"] == "w3"
    assert (child["parent"], child["depth"], child["slot"]) == (link["id"], 1, None)
    assert all(step.honoured for step in resolution.steps)


def test_roll_n_times_makes_n_numbered_rolls_on_the_same_list() -> None:
    rules = ruleset(faces("chaos", entry("three", kind=Kind.MULTI, multi=times(3)), PLAIN))

    resolution = resolve(rules, [D1, D2, D2, D2])

    root, *children = resolution.rolls
    assert [c["slot"] for c in children] == ["1/3", "2/3", "3/3"]
    assert {(c["table"], c["parent"], c["depth"]) for c in children} == {("chaos", root["id"], 1)}
    assert [c["id"] for c in children] == [2, 3, 4]
    assert root["inline"] == []  # a fixed count isn't a roll


def test_roll_n_times_may_name_another_list() -> None:
    rules = ruleset(
        fixed("chaos", entry("p2", "Two personas", kind=Kind.MULTI, multi=times(2, "persona"))),
        fixed("persona", entry("p", "Persona"), sides=20),
    )

    resolution = resolve(rules, [D1, face(7, 20), face(19, 20)])

    assert [(r["table"], r["result"]) for r in resolution.rolls[1:]] == [
        ("persona", 7),
        ("persona", 19),
    ]


@pytest.mark.parametrize("count", [1, 2, 3])
def test_roll_dice_times_rolls_the_count_and_records_it_inline(count: int) -> None:
    some = entry("some", "Roll 1d3 times", kind=Kind.MULTI, multi=times("1d3", "calm"))
    rules = ruleset(fixed("chaos", some), fixed("calm", PLAIN))

    resolution = resolve(rules, [D1, face(count, 3), *[D1] * count])

    root, *children = resolution.rolls
    assert root["inline"] == [{"expr": "times=1d3", "faces": [count], "total": count}]
    assert [c["slot"] for c in children] == [f"{i}/{count}" for i in range(1, count + 1)]


def test_each_rolls_once_on_each_list_in_order() -> None:
    rules = ruleset(
        fixed("chaos", entry("all", "All the lists", kind=Kind.MULTI, multi=each("x", "y", "z"))),
        fixed("x", PLAIN),
        fixed("y", PLAIN),
        fixed("z", PLAIN),
    )

    resolution = resolve(rules, [D1, D1, D1, D1])

    root, *children = resolution.rolls
    assert [(c["table"], c["slot"], c["parent"]) for c in children] == [
        ("x", "1/3", root["id"]),
        ("y", "2/3", root["id"]),
        ("z", "3/3", root["id"]),
    ]


def test_keep_rolls_the_candidates_and_pauses_for_the_rollers_pick() -> None:
    rules = ruleset(
        fixed(
            "chaos",
            entry(
                "k", "Two, keep one", kind=Kind.MULTI, multi=times(2, "pick", mode=MultiMode.KEEP)
            ),
        ),
        faces("pick", entry("a", "Apple", text="Gain {1d4} life."), entry("b", "Banana")),
    )

    resolution = resolve(rules, [D1, D1, face(3, 4), D2])

    root, first, second = resolution.steps
    assert root.honoured
    assert not first.honoured
    assert not second.honoured
    for candidate in (first.roll, second.roll):
        assert candidate["reason"] == "one of the rolls to keep from"
        assert candidate["parent"] == root.roll["id"]
    keep = resolution.keep
    assert keep is not None
    assert keep["candidates"] == [
        {"roll": 2, "entry": "a", "table": "pick", "text": "Gain 3 life."},
        {"roll": 3, "entry": "b", "table": "pick", "text": ""},
    ]
    assert (keep["root"], keep["parent"], keep["used"], keep["pending"]) == (1, 1, 3, [])


def keep_then_more() -> Ruleset:
    """One roll on each of two lists, one at a time: the first is "two, keep one"."""
    pick = entry(
        "pick",
        "Lingering",
        text="Deal {1d6} damage each upkeep.",
        duration=Duration(Lasts.NEXT_TURN),
    )
    return ruleset(
        fixed("chaos", entry("both", "Both", kind=Kind.MULTI, multi=each("keep", "after"))),
        fixed(
            "keep",
            entry("k", "Keep one", kind=Kind.MULTI, multi=times(2, "pick", mode=MultiMode.KEEP)),
        ),
        fixed("pick", pick, sides=6),
        fixed(
            "after",
            entry("after", "Afterwards", text="Then this.", duration=Duration(Lasts.END_OF_TURN)),
        ),
        nesting=Nesting.SEQUENTIAL,
    )


def test_keep_offers_a_choice_and_the_game_waits_for_it() -> None:
    game = new_game(keep_then_more())

    events = game.act(RollChaos(actor="ann"))

    [offer] = of_type(events, "choice_offered")
    assert offer["kind"] == "keep"
    assert offer["player"] == "ann"
    candidates = [r for r in of_type(events, "roll") if r["table"] == "pick"]
    assert [o["id"] for o in offer["options"]] == [str(r["id"]) for r in candidates]
    assert of_type(events, "effect_started") == []  # nothing applies before the pick
    assert not [r for r in of_type(events, "roll") if r["table"] == "after"]
    with pytest.raises(ChoicePendingError):
        game.act(NextTurn(actor="ann"))
    with pytest.raises(RulesError, match="isn't one of the choices"):
        game.act(Choose(actor="ann", option="999"))


def test_choose_applies_the_kept_entry_then_the_pending_rolls_continue() -> None:
    game = new_game(keep_then_more())
    offered = game.act(RollChaos(actor="ann"))
    candidates = [r for r in of_type(offered, "roll") if r["table"] == "pick"]
    kept = candidates[1]

    events = game.act(Choose(actor="ann", option=str(kept["id"])))

    started = of_type(events, "effect_started")
    assert [(e["name"], e["source"]) for e in started[:1]] == [("Lingering", kept["id"])]
    assert started[0]["text"] == kept["text"]  # as rolled, with the dice filled in
    [after] = of_type(events, "roll")
    assert (after["table"], after["slot"], after["depth"]) == ("after", "2/2", 1)
    assert [e["type"] for e in events][1:] == [
        "choice_made",
        "dice",  # what follows the choice rolls the keep's own dice
        "effect_started",
        "roll",
        "effect_started",
    ]
    assert game.state.pending is None
    assert sorted(e.name for e in game.state.effects.values()) == ["Afterwards", "Lingering"]
    assert_consistent(game)


def test_choose_takes_an_option_by_name() -> None:
    game = new_game(keep_then_more())
    game.act(RollChaos(actor="ann"))

    events = game.act(Choose(actor="ann", option="lingering"))

    assert of_type(events, "choice_made")[0]["option"].isdigit()
    assert game.state.pending is None


def test_token_entry_gives_the_roller_tokens() -> None:
    forks = entry("f", "Two RollForks", kind=Kind.TOKEN, token=Token.FORK, count=2)
    game = new_game(ruleset(fixed("chaos", forks)))

    events = game.act(RollChaos(actor="ann"))

    [grant] = of_type(events, "tokens")
    assert (grant["player"], grant["token"], grant["delta"]) == ("ann", "roll_fork", 2)
    assert game.state.players["ann"].tokens == {"roll_fork": 2}
    assert game.state.players["bob"].tokens == {}


def test_world_enchantments_accumulate() -> None:
    world = entry("w", "A world", kind=Kind.WORLD, text="Lands are Forests.")
    game = new_game(ruleset(fixed("chaos", PLAIN), fixed("ewl", world)))

    game.act(RollChaos(actor="ann", table="ewl"))
    game.act(RollChaos(actor="ann", table="ewl"))

    worlds = [e for e in game.state.effects.values() if e.kind == "world"]
    assert len(worlds) == 2
    assert {(w.lasts, w.owner) for w in worlds} == {(Lasts.PERMANENT, None)}


def test_a_new_global_ends_the_old_one_first() -> None:
    rules = ruleset(
        fixed("chaos", PLAIN),
        faces(
            "global",
            entry("g1", "Global one", kind=Kind.GLOBAL, text="One."),
            entry("g2", "Global two", kind=Kind.GLOBAL, text="Two."),
        ),
    )
    game = new_game(rules)
    game.act(RollChaos(actor="ann", table="global"))
    [old] = game.state.effects.values()

    events = game.act(RollChaos(actor="ann", table="global"))

    kinds = [e["type"] for e in events if e["type"] in ("effect_ended", "effect_started")]
    assert kinds == ["effect_ended", "effect_started"]
    [ended] = of_type(events, "effect_ended")
    assert ended["id"] == old.id
    assert ended["reason"].startswith("replaced by Global")
    [new] = game.state.effects.values()
    assert (new.kind, new.owner) == ("global", None)
    assert_consistent(game)


def test_duration_entry_starts_an_effect_that_lasts_until_its_owners_next_turn() -> None:
    fog = entry("fog", "Fog", text="No combat damage.", duration=Duration(Lasts.NEXT_TURN))
    game = new_game(ruleset(fixed("chaos", fog)))

    events = game.act(RollChaos(actor="ann"))
    game.act(NextTurn(actor="ann"))

    [started] = of_type(events, "effect_started")
    assert (started["name"], started["lasts"], started["owner"]) == ("Fog", "next_turn", "ann")
    assert started["id"] in game.state.effects  # still there on Bob's turn
    game.act(RollChaos(actor="bob"))
    events = game.act(NextTurn(actor="bob"))
    assert started["id"] in [e["id"] for e in of_type(events, "effect_ended")]


def test_gains_life_entry_adds_the_rolled_life() -> None:
    rain = entry("rain", "Healing rain", gains_life=True, life=LifeGain(parse_expr("1d4+2")))
    game = new_game(ruleset(fixed("chaos", rain), life=20))

    events = game.act(RollChaos(actor="ann"))

    [life] = of_type(events, "life")
    assert life["player"] == "ann"
    assert 3 <= life["delta"] <= 6
    assert life["life"] == 20 + life["delta"] == game.state.players["ann"].life


# --- The roll event ---------------------------------------------------------------------------


def test_every_roll_event_has_the_documented_keys() -> None:
    rules = ruleset(
        faces(
            "chaos",
            entry("all", "All", kind=Kind.MULTI, multi=each("chaos", "cards", "wacky")),
            entry("plain", "Plain", text="Deal {1d6} damage."),
        ),
        fixed(
            "cards", entry("fb", "Fireball", kind=Kind.CARD, card="Fireball", x=parse_expr("1d6"))
        ),
        fixed("wacky", entry("back", "Back", kind=Kind.LINK, link="chaos")),
    )
    game = new_game(rules, seed=3)

    for n in range(4):
        game.act(RollChaos(actor="ann", extra=n > 0))  # the turn's roll, then extra ones
    rolls = of_type(game.events, "roll")

    assert len(rolls) >= 4
    for roll in rolls:
        assert set(roll) == ROLL_KEYS
        assert set(roll["entry"]) == {"id", "name"}


def test_ids_are_unique_across_rolls_and_the_effects_they_start() -> None:
    fog = entry("fog", "Fog", text="Fog.", duration=Duration(Lasts.NEXT_TURN))
    rules = ruleset(
        fixed("chaos", entry("3", "Three fogs", kind=Kind.MULTI, multi=times(3, "fog"))),
        fixed("fog", fog),
        nesting=Nesting.SEQUENTIAL,
    )
    game = new_game(rules)

    events = game.act(RollChaos(actor="ann"))

    roll_ids = [e["id"] for e in of_type(events, "roll")]
    effect_ids = [e["id"] for e in of_type(events, "effect_started")]
    assert len(roll_ids) == 4
    assert len(effect_ids) == 3
    assert len(set(roll_ids) | set(effect_ids)) == 7
    assert_consistent(game)


# --- Nesting: classic ignores multi-rolls off the last slot; sequential doesn't --------------


@pytest.mark.parametrize(
    "nested",
    [
        TWICE,
        entry("each", "Each", kind=Kind.MULTI, multi=each("chaos", "chaos")),
        entry("keep", "Keep one", kind=Kind.MULTI, multi=times(2, mode=MultiMode.KEEP)),
        entry("dice", "Roll 1d2 times", kind=Kind.MULTI, multi=times("1d2")),
    ],
    ids=["times", "each", "keep", "dice-times"],
)
def test_classic_multi_roll_on_a_non_last_slot_is_ignored_and_rolled_again(nested: Entry) -> None:
    rules = ruleset(faces("chaos", TWICE, PLAIN, nested))
    d3 = [face(n, 3) for n in (1, 2, 3)]

    resolution = resolve(rules, [d3[0], d3[2], d3[1], d3[1]])

    root, ignored, again, last = resolution.steps
    assert not ignored.honoured
    assert ignored.roll["ignored"] is True
    assert ignored.roll["slot"] == "1/2"
    assert ignored.roll["reason"] is not None
    assert "1/2" in ignored.roll["reason"]
    assert "rolled again" in ignored.roll["reason"]
    assert (again.roll["slot"], again.roll["parent"], again.honoured) == ("1/2", 1, True)
    assert (last.roll["slot"], last.roll["entry"]["id"]) == ("2/2", "plain")
    assert root.honoured


def test_classic_multi_roll_on_the_last_slot_is_honoured_and_the_chain_goes_on() -> None:
    rules = ruleset(faces("chaos", TWICE, PLAIN))

    resolution = resolve(rules, [D1, D2, D1, D2, D2])

    rolls = resolution.rolls
    assert not any(r["ignored"] for r in rolls)
    last_slot = rolls[2]
    assert (last_slot["slot"], last_slot["entry"]["id"]) == ("2/2", "twice")
    assert [(r["parent"], r["depth"], r["slot"]) for r in rolls[3:]] == [
        (last_slot["id"], 2, "1/2"),
        (last_slot["id"], 2, "2/2"),
    ]


def test_classic_multi_roll_reached_through_a_link_from_a_non_last_slot_is_ignored() -> None:
    rules = ruleset(
        fixed("chaos", entry("both", "Both", kind=Kind.MULTI, multi=each("door", "calm"))),
        fixed("door", entry("go", "Through the door", kind=Kind.LINK, link="room")),
        faces("room", TWICE, PLAIN),
        fixed("calm", PLAIN),
    )

    resolution = resolve(rules, [D1, D1, D1, D2, D1])

    tables = [(r["table"], r["ignored"]) for r in resolution.rolls]
    assert tables == [
        ("chaos", False),
        ("door", False),
        ("room", True),
        ("room", False),
        ("calm", False),
    ]


@pytest.mark.parametrize(
    "single",
    [
        entry("once", "Once on calm", kind=Kind.MULTI, multi=times(1, "calm")),
        entry("one", "Each of calm", kind=Kind.MULTI, multi=each("calm")),
    ],
    ids=["times-1", "each-1"],
)
def test_classic_rule_spares_entries_that_ask_for_only_one_roll(single: Entry) -> None:
    rules = ruleset(faces("chaos", TWICE, single, PLAIN), fixed("calm", PLAIN))
    f1, f2, f3 = (face(n, 3) for n in (1, 2, 3))

    resolution = resolve(rules, [f1, f2, D1, f3])

    rolls = resolution.rolls
    assert not any(r["ignored"] for r in rolls)
    assert [(r["table"], r["depth"], r["slot"]) for r in rolls] == [
        ("chaos", 0, None),
        ("chaos", 1, "1/2"),
        ("calm", 2, "1/1"),
        ("chaos", 1, "2/2"),
    ]


def test_sequential_resolves_each_roll_fully_before_the_next_without_ignoring() -> None:
    rules = ruleset(faces("chaos", TWICE, PLAIN), nesting=Nesting.SEQUENTIAL)

    resolution = resolve(rules, [D1, D1, D2, D2, D2])

    rolls = resolution.rolls
    assert not any(r["ignored"] for r in rolls)
    assert [(r["id"], r["parent"], r["slot"]) for r in rolls] == [
        (1, None, None),
        (2, 1, "1/2"),  # a nested "roll twice" on the first slot is honoured...
        (3, 2, "1/2"),  # ...and both its rolls come before the outer second slot
        (4, 2, "2/2"),
        (5, 1, "2/2"),
    ]


def test_sequential_follows_a_link_before_the_next_slot() -> None:
    rules = ruleset(
        fixed("chaos", entry("both", "Both", kind=Kind.MULTI, multi=each("door", "calm"))),
        fixed("door", entry("go", "Go", kind=Kind.LINK, link="room")),
        fixed("room", PLAIN),
        fixed("calm", PLAIN),
        nesting=Nesting.SEQUENTIAL,
    )

    resolution = resolve(rules, [D1] * 4)

    assert [r["table"] for r in resolution.rolls] == ["chaos", "door", "room", "calm"]


# --- The roll budget --------------------------------------------------------------------------


def test_roll_budget_caps_the_rolls_and_drops_the_rest() -> None:
    rules = ruleset(
        fixed("chaos", entry("3", "Thrice", kind=Kind.MULTI, multi=times(3))),
        nesting=Nesting.SEQUENTIAL,
        budget=Budget(rolls=5, depth=50),
    )

    resolution = resolve(rules, [D1] * 5)

    assert len(resolution.steps) == 5
    exhausted = resolution.exhausted
    assert exhausted is not None
    assert exhausted["type"] == "budget_exhausted"
    assert exhausted["message"].startswith("roll budget used up: 5 rolls")
    assert (exhausted["root"], exhausted["rolls"]) == (1, 5)


def test_depth_budget_stops_a_list_that_links_to_itself() -> None:
    rules = ruleset(
        fixed("chaos", entry("again", "Again", kind=Kind.LINK, link="chaos")),
        budget=Budget(rolls=100, depth=3),
    )

    resolution = resolve(rules, [D1] * 4)

    assert [r["depth"] for r in resolution.rolls] == [0, 1, 2, 3]
    assert resolution.exhausted is not None
    assert resolution.exhausted["message"].startswith("rolls nested more than 3 deep")
    assert resolution.exhausted["depth"] == 4


def test_keep_candidates_respect_the_depth_budget() -> None:
    rules = ruleset(
        fixed("chaos", entry("go", "Go", kind=Kind.LINK, link="keep")),
        fixed("keep", entry("k", "Keep one", kind=Kind.MULTI, multi=times(2, mode=MultiMode.KEEP))),
        budget=Budget(rolls=100, depth=1),
    )

    resolution = resolve(rules, [D1, D1])

    assert max(r["depth"] for r in resolution.rolls) == 1
    assert resolution.keep is None
    assert resolution.exhausted is not None
    assert "deep" in resolution.exhausted["message"]


def test_no_more_rolls_after_the_depth_budget_runs_out_inside_a_keep() -> None:
    rules = ruleset(
        fixed("chaos", entry("both", "Both", kind=Kind.MULTI, multi=each("keep", "calm"))),
        fixed(
            "keep",
            entry("k", "Keep one", kind=Kind.MULTI, multi=times(2, "calm", mode=MultiMode.KEEP)),
        ),
        fixed("calm", PLAIN),
        nesting=Nesting.SEQUENTIAL,
        budget=Budget(rolls=100, depth=1),
    )

    resolution = resolve(rules, [D1, D1])

    assert [r["table"] for r in resolution.rolls] == ["chaos", "keep"]
    assert resolution.exhausted is not None


def test_budget_exhaustion_is_logged_in_the_game_and_the_turn_goes_on() -> None:
    rules = ruleset(
        fixed("chaos", entry("again", "Again", kind=Kind.LINK, link="chaos")),
        budget=Budget(rolls=7, depth=100),
    )
    game = new_game(rules)

    events = game.act(RollChaos(actor="ann"))

    assert len(of_type(events, "roll")) == 7
    [exhausted] = of_type(events, "budget_exhausted")
    assert exhausted["message"] == (
        "roll budget used up: 7 rolls in one resolution; the rolls still pending are dropped"
    )
    assert [e["type"] for e in events][-2:] == ["budget_exhausted", "chaos_done"]
    game.act(NextTurn(actor="ann"))
    assert game.state.active == "bob"
    assert_consistent(game)


def test_a_link_to_a_list_the_ruleset_lacks_raises_a_chaos_error() -> None:
    rules = ruleset(fixed("chaos", entry("lost", "Lost", kind=Kind.LINK, link="nowhere")))

    with pytest.raises(UnknownTableError, match="nowhere"):
        resolve(rules, [D1])


def test_rolling_on_a_list_the_ruleset_lacks_raises_a_chaos_error() -> None:
    with pytest.raises(UnknownTableError, match="there is no list 'nowhere'"):
        resolve(ruleset(fixed("chaos", PLAIN)), [], table="nowhere")


# --- Properties -------------------------------------------------------------------------------

TABLE_IDS = ("t0", "t1", "t2", "t3")
# Every kind; the ones that ask for more rolls come up more often, to stress nesting and budgets.
META_KINDS = ("link", "times", "times-dice", "keep", "each")
KINDS = (
    *META_KINDS,
    "effect",
    "inline",
    "card",
    "token",
    "world",
    "global",
    "lasting",
    "life",
)


@st.composite
def random_entry(draw: st.DrawFn, key: str, ids: tuple[str, ...]) -> Entry:
    kind = draw(st.sampled_from(KINDS) | st.sampled_from(META_KINDS))
    target = draw(st.sampled_from(ids))
    name = f"{kind} {key}"
    match kind:
        case "inline":
            return entry(key, name, text="Deal {1d6+1} damage and {2d4} more.")
        case "card":
            return entry(key, name, kind=Kind.CARD, card="Fireball", x=parse_expr("1d6"))
        case "link":
            return entry(key, name, kind=Kind.LINK, link=target)
        case "times":
            count = draw(st.integers(0, 40))
            on = draw(st.sampled_from(((), (target,))))
            return entry(key, name, kind=Kind.MULTI, multi=times(count, *on))
        case "times-dice":
            dice = draw(st.sampled_from(("1d3", "2d6", "1d2-1")))
            return entry(key, name, kind=Kind.MULTI, multi=times(dice))
        case "keep":
            count = draw(st.integers(1, 4))
            return entry(key, name, kind=Kind.MULTI, multi=times(count, mode=MultiMode.KEEP))
        case "each":
            lists = draw(st.lists(st.sampled_from(ids), max_size=5))
            return entry(key, name, kind=Kind.MULTI, multi=each(*lists))
        case "token":
            token = draw(st.sampled_from(Token))
            return entry(key, name, kind=Kind.TOKEN, token=token, count=draw(st.integers(1, 3)))
        case "world":
            return entry(key, name, kind=Kind.WORLD, text="A world rule.")
        case "global":
            return entry(key, name, kind=Kind.GLOBAL, text="A global rule.")
        case "lasting":
            lasts = draw(st.sampled_from(Lasts))
            turns = draw(st.integers(1, 3)) if lasts is Lasts.TURNS else 0
            return entry(key, name, text="Lasts.", duration=Duration(lasts, turns))
        case "life":
            return entry(key, name, gains_life=True, life=LifeGain(parse_expr("1d4")))
        case _:
            return entry(key, name, text="Something happens.")


@st.composite
def random_rulesets(draw: st.DrawFn, nesting: Nesting | None = None) -> Ruleset:
    """Up to four small lists of random entries that may link to each other in cycles."""
    ids = TABLE_IDS[: draw(st.integers(1, len(TABLE_IDS)))]
    tables: list[RollTable] = []
    for table_id in ids:
        sides = draw(st.integers(2, 6))
        entries = [draw(random_entry(f"{table_id}-{n}", ids)) for n in range(1, sides + 1)]
        tables.append(faces(table_id, *entries))
    return ruleset(
        *tables,
        nesting=nesting or draw(st.sampled_from(Nesting)),
        budget=Budget(
            rolls=draw(st.integers(1, 40)),
            depth=draw(st.integers(1, 3) | st.integers(1, 8)),
        ),
        chaos="t0",
        life=20,
    )


def explore(examples: int) -> settings:
    """Hypothesis settings for these properties: reproducible, and no per-example deadline."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )


def slots_on_path(roll: Roll, by_id: dict[int, Roll]) -> list[str]:
    """The slot of `roll` and of each of its ancestors ("i/n" strings; links have none)."""
    slots = []
    current: Roll | None = roll
    while current is not None:
        if current["slot"] is not None:
            slots.append(current["slot"])
        current = by_id[current["parent"]] if current["parent"] is not None else None
    return slots


def is_last(slot: str) -> bool:
    i, n = slot.split("/")
    return i == n


def resolve_or_refuse(rules: Ruleset, seed: int) -> Resolution | None:
    """Resolve a roll on t0; a ChaosError is an allowed answer (anything else fails the test)."""
    try:
        return Resolver(rules, random.Random(seed), player="ann", turn=1, next_id=1).roll("t0")
    except ChaosError:
        return None


@explore(300)
@given(rules=random_rulesets(Nesting.IGNORE_NESTED), seed=st.integers(0, 2**32))
def test_classic_never_honours_a_multi_roll_off_the_last_slot(rules: Ruleset, seed: int) -> None:
    resolution = resolve_or_refuse(rules, seed)
    assert resolution is not None

    by_id = {r["id"]: r for r in resolution.rolls}
    for step in resolution.steps:
        roll = step.roll
        off_last = not all(is_last(s) for s in slots_on_path(roll, by_id))
        if step.honoured and step.entry.demands_several:
            assert not off_last, f"roll {roll['id']} honoured a multi-roll off the last slot"
        if roll["ignored"]:
            assert step.entry.demands_several
            assert off_last


@pytest.mark.parametrize("seed", range(4))
def test_classic_ruleset_never_honours_a_multi_roll_off_the_last_slot(seed: int) -> None:
    rules, rng = classic(), random.Random(seed)
    for turn in range(500):
        resolution = Resolver(rules, rng, player="ann", turn=turn, next_id=1).roll("chaos")
        by_id = {r["id"]: r for r in resolution.rolls}
        for step in resolution.steps:
            if step.honoured and step.entry.demands_several:
                assert all(is_last(s) for s in slots_on_path(step.roll, by_id))


@explore(400)
@given(rules=random_rulesets(), seed=st.integers(0, 2**32))
def test_any_tables_resolve_within_the_budget(rules: Ruleset, seed: int) -> None:
    resolution = resolve_or_refuse(rules, seed)
    if resolution is None:
        return
    budget = rules.budget
    rolls = resolution.rolls

    assert 1 <= len(rolls) <= budget.rolls
    assert max(r["depth"] for r in rolls) <= budget.depth
    assert [r["id"] for r in rolls] == list(range(1, len(rolls) + 1))
    for roll in rolls:
        assert set(roll) == ROLL_KEYS
        assert roll["parent"] is None or roll["parent"] < roll["id"]
    if resolution.exhausted is not None:
        assert resolution.keep is None
        message = resolution.exhausted["message"]
        assert "budget used up" in message or "nested more than" in message


@explore(150)
@given(rules=random_rulesets(), seed=st.integers(0, 2**16))
def test_any_tables_play_through_a_game_within_the_budget(rules: Ruleset, seed: int) -> None:
    game = new_game(rules, seed=seed)
    events = game.act(RollChaos(actor="ann"))
    if game.state.pending is not None:
        events += game.act(Choose(actor="ann", option=game.state.pending.options[0][0]))

    rolls = of_type(events, "roll")
    budget = rules.budget
    assert len(rolls) <= budget.rolls  # the budget spans a pause for a pick
    assert max(r["depth"] for r in rolls) <= budget.depth
    exhausted = of_type(events, "budget_exhausted")
    assert len(exhausted) <= 1
    for event in exhausted:
        assert event["message"].endswith("the rolls still pending are dropped")
    ids = [r["id"] for r in rolls] + [e["id"] for e in of_type(events, "effect_started")]
    assert len(ids) == len(set(ids))
    assert_consistent(game)
