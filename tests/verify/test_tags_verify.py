"""Filters by tag and `game verify` (issue 26): a real game of each kind with a tag excluded
verifies, and other excluded tags (or none), written into its export or played again from the
revealed seed, are refused, because the house rules are committed with the start."""

from __future__ import annotations

import pytest

from bot.engine.house import HouseRules
from tests.verify.test_mutants import assert_other_houses_refused, judge, played

HOUSES = {
    "exclude swingy and creature (classic)": (
        "classic",
        HouseRules(exclude=("creature", "swingy")),
    ),
    "exclude creature (lists)": ("lists", HouseRules(exclude=("creature",))),
    "exclude mana, no repeats (deck)": ("deck", HouseRules(exclude=("mana",), repeats="never")),
}
OTHER_HOUSES: list[dict[str, object] | None] = [
    None,
    {},
    {"exclude": []},
    {"exclude": ["slow"]},
    {"exclude": ["creature"]},
    {"exclude": ["creature", "mana", "swingy"]},
    {"exclude": ["fast"]},
    {"deny": [["chaos", "1"]]},
]


@pytest.mark.parametrize("case", HOUSES)
def test_a_game_with_a_tag_excluded_verifies_and_other_tags_do_not(case: str) -> None:
    ruleset, house = HOUSES[case]
    original = played(ruleset, 2, house)
    assert judge(original, original.export(), "the export itself") == "same story"
    barred = house.barred(original.ruleset)
    if original.ruleset.decks:  # the deck was shuffled without the tagged cards
        shuffles = [e for e in original.events if e["type"] == "deck_shuffled"]
        assert shuffles
        for shuffled in shuffles:
            assert not set(shuffled["order"]) & barred.get(shuffled["deck"], frozenset())
    else:  # the game met the rule: a tagged result rolled again
        assert any(e.get("denied") for e in original.events if e["type"] == "roll")
    assert_other_houses_refused(original, house, OTHER_HOUSES)
