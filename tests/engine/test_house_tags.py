"""Filters by tag (issue 26): a house rule leaves out every entry carrying a tag, as a deny-list
of every such entry would, through the same rerolls; a deck is shuffled without such cards.
The rule is kept by a game from its start and committed with it like the other house rules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Begin, End, Game, Join, RollChaos, Ruleset
from bot.engine.dice import Die
from bot.engine.house import HouseRuleError, HouseRules
from bot.engine.tables import Band, RollTable
from bot.engine.tags import TAGS
from bot.render import Names
from bot.render.events import render_lines
from bot.render.recap import recap
from bot.render.status import house_lines
from bot.tables.registry import find_ruleset
from tests.engine.tiny import assert_consistent, entry, of_type, ruleset

VOCABULARY = sorted(TAGS)


def _solo(rules: Ruleset, house: HouseRules, seed: int) -> Game:
    game = Game.start(rules, seed=seed, host="ann", name="Ann", house=house)
    game.act(Begin(actor="ann"))
    return game


@settings(max_examples=15, deadline=None)
@given(
    spans=st.lists(
        st.tuples(st.integers(1, 6), st.sets(st.sampled_from(VOCABULARY), max_size=3)),
        min_size=2,
        max_size=8,
    ),
    excluded=st.sets(st.sampled_from(VOCABULARY), min_size=1, max_size=2),
    repeats=st.sampled_from(["allowed", "never"]),
    seed=st.integers(0, 2**32),
)
def test_an_excluded_tag_never_comes_up_in_2000_rolls(
    spans: list[tuple[int, set[str]]], excluded: set[str], repeats: str, seed: int
) -> None:
    """Weighted bands carrying random tags (never all of them excluded): 2,000 extra rolls
    give no entry with an excluded tag, each result left out is logged in its roll, and the
    game replays exactly."""
    low, bands, tagged = 1, [], set()
    for n, (width, tags) in enumerate(spans):
        bands.append(Band(low, low + width - 1, entry(f"e{n}", tags=tuple(sorted(tags)))))
        low += width
        if tags & excluded:
            tagged.add(f"e{n}")
    if len(tagged) == len(bands):  # refused when set: every list keeps something to roll
        bands.append(Band(low, low, entry("plain")))
        low += 1
    rules = ruleset(RollTable("chaos", "Chaos", Die(low - 1), tuple(bands)))
    house = HouseRules(exclude=tuple(excluded), repeats=repeats)
    game = _solo(rules, house, seed)
    for _ in range(2000):
        game.act(RollChaos(actor="ann", extra=True, referee=True))
    rolls = of_type(game.events, "roll")
    assert len(rolls) == 2000
    assert not [r for r in rolls if r["entry"]["id"] in tagged]
    said = {d["entry"]["id"] for r in rolls for d in r.get("denied", [])}
    assert said <= tagged
    assert bool(said) == bool(tagged) or repeats == "never"
    assert Game.replay(game.ruleset, game.actions).events == game.events


def test_an_excluded_entry_is_rolled_again_with_the_rolls_own_dice_and_rendered() -> None:
    table = RollTable(
        "chaos",
        "Chaos",
        Die(3),
        (
            Band(1, 1, entry("a", "Apple")),
            Band(2, 2, entry("b", "Bee", tags=("slow",))),
            Band(3, 3, entry("c", "Cat", tags=("mana",))),
        ),
    )
    game = _solo(ruleset(table), HouseRules(exclude=("slow",)), 1)
    for _ in range(40):
        game.act(RollChaos(actor="ann", extra=True, referee=True))
    rolled = [r for r in of_type(game.events, "roll") if r.get("denied")]
    assert rolled
    assert rolled[0]["denied"][0]["entry"] == {"id": "b", "name": "Bee"}
    assert {r["entry"]["id"] for r in of_type(game.events, "roll")} == {"a", "c"}
    lines = render_lines(game.events, Names.of(game))
    assert any("denied by a house rule and rolled again: #2 Bee." in line for line in lines)
    assert_consistent(game)


def test_an_exclude_of_every_entry_leaves_the_list_as_it_is() -> None:
    """Refused when set; if the tables changed since, the list rolls as if nothing were left
    out, as a deny of a whole list does."""
    table = RollTable(
        "chaos",
        "Chaos",
        Die(2),
        (Band(1, 1, entry("a", tags=("slow",))), Band(2, 2, entry("b", tags=("slow",)))),
    )
    game = _solo(ruleset(table), HouseRules(exclude=("slow",)), 1)
    game.act(RollChaos(actor="ann", extra=True, referee=True))
    assert not of_type(game.events, "roll")[0].get("denied")


def test_barred_joins_the_deny_list_and_the_tagged_entries_of_lists_and_decks() -> None:
    classic = find_ruleset("classic").ruleset
    house = HouseRules(deny=(("chaos", "1"),), exclude=("swingy",))
    barred = house.barred(classic)
    assert "1" in barred["chaos"]
    swingy = {e.id for e in classic.table("chaos").entries if "swingy" in e.tags}
    assert swingy
    assert swingy <= barred["chaos"]
    assert "Armageddon" in {e.name for e in classic.table("chaos").entries if e.id in swingy}
    assert HouseRules(deny=(("chaos", "1"),)).barred(classic) == {"chaos": frozenset({"1"})}
    deck = find_ruleset("deck").ruleset
    cards = HouseRules(exclude=("creature",)).barred(deck)
    assert cards["chaos"] == {
        c.entry.id for c in deck.decks["chaos"].cards if "creature" in c.entry.tags
    }


def test_a_deck_is_shuffled_without_the_cards_carrying_an_excluded_tag() -> None:
    deck = find_ruleset("deck").ruleset
    house = HouseRules(exclude=("creature", "mana"))
    game = Game.start(deck, seed=4, host="ann", name="Ann", house=house)
    game.act(Join(actor="bob", player_name="Bob"))
    game.act(Begin(actor="ann"))
    for _ in range(12):
        game.act(RollChaos(actor=game.state.active or "ann"))
        if game.state.face_down is not None or game.state.pending is not None:
            break
    shuffled = {e["deck"]: e["order"] for e in of_type(game.events, "deck_shuffled")}
    left_out = house.barred(deck)
    for deck_id, order in shuffled.items():
        everything = deck.decks[deck_id].fresh_order()
        assert sorted(order) == sorted(c for c in everything if c not in left_out.get(deck_id, ()))
    assert left_out["chaos"]
    assert not set(shuffled["chaos"]) & left_out["chaos"]
    assert_consistent(game)


def test_the_rule_is_logged_summarised_and_shown() -> None:
    house = HouseRules(exclude=("swingy", "slow"))
    assert house.exclude == ("slow", "swingy")  # sorted, each once
    assert house.to_json() == {"exclude": ["slow", "swingy"]}
    assert HouseRules.from_json(house.to_json()) == house
    assert house.summary() == ["entries tagged slow or swingy left out"]
    classic = find_ruleset("classic").ruleset
    game = Game.start(classic, seed=3, host="ann", name="Ann", house=house)
    assert game.events[0]["action"]["house"] == {"exclude": ["slow", "swingy"]}  # type: ignore[typeddict-item]
    game.act(Join(actor="bob", player_name="Bob"))
    game.act(Begin(actor="ann"))
    assert house_lines(game.state) == ["House rules: entries tagged slow or swingy left out."]
    both = HouseRules(deny=(("chaos", "1"),), repeats="never", exclude=("mana",))
    game = Game.start(classic, seed=3, host="ann", name="Ann", house=both)
    assert house_lines(game.state) == [
        "House rules: 1 entry denied, rolled again when it comes up; no repeats until a list"
        " has come up whole; entries tagged mana left out."
    ]
    game.act(Join(actor="bob", player_name="Bob"))
    game.act(Begin(actor="ann"))
    game.act(End(actor="ann"))
    summary = recap(game.events)
    assert summary is not None
    assert "entries tagged mana left out" in summary.house


@pytest.mark.parametrize(
    "data",
    [{"exclude": ["fast"]}, {"exclude": "slow"}, {"exclude": [3]}, {"exclude": None}],
)
def test_damaged_excluded_tags_are_refused(data: object) -> None:
    with pytest.raises(HouseRuleError):
        HouseRules.from_json(data)
