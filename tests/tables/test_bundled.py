"""Every bundled ruleset (``tables/*/ruleset.yaml``) validates, and every list in it resolves.

The folders are found when the tests are collected: a new ruleset is tested as soon as its
folder exists, and with none yet the parametrized tests simply collect no cases.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.engine.dice import render_inline
from bot.engine.model import TurnChange
from bot.engine.resolve import Resolver
from bot.tables import bundled_dir, check_paths, load_ruleset, ruleset_folders, simulate

FOLDERS = ruleset_folders()
SEEDS = range(200)


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_ruleset_validates(folder: Path) -> None:
    result = check_paths([folder])
    assert not result.problems, "\n".join(map(str, result.problems))
    loaded = load_ruleset(folder)
    assert loaded.ruleset.id == folder.name
    assert loaded.rules, "every ruleset carries its rules text"


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_every_table_resolves_under_many_seeds(folder: Path) -> None:
    ruleset = load_ruleset(folder).ruleset
    for table_id in ruleset.tables:
        for seed in SEEDS:
            resolver = Resolver(ruleset, random.Random(seed), player="p1", turn=1, next_id=1)
            resolution = resolver.roll(table_id)
            assert resolution.steps, f"{table_id} with seed {seed} rolled nothing"
    for deck in ruleset.decks.values():
        for card in deck.cards:
            for part in (card.entry, *card.entry.halves):
                for seed in range(20):
                    render_inline(part.text, random.Random(seed))


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_a_short_game_plays(folder: Path) -> None:
    ruleset = load_ruleset(folder).ruleset
    report = simulate(ruleset, turns=40, seed=3)
    assert report.turns == 40
    assert not report.refused


def test_bundled_tables_folder_is_found() -> None:
    assert bundled_dir().name == "tables"
    assert bundled_dir().parent.joinpath("bot").is_dir()


def test_every_bundled_result_that_leaves_until_your_next_turn_sends_its_roller_away() -> None:
    """Issue 9, item 5: the words and the engine mean one thing (docs/engine.md, Turns)."""
    says: set[tuple[str, str]] = set()
    does: set[tuple[str, str]] = set()
    for folder in FOLDERS:
        for table in load_ruleset(folder).ruleset.tables.values():
            for item in table.entries:
                if "leave the game until your next turn" in item.text.casefold():
                    says.add((table.id, item.name))
                if item.turn is TurnChange.AWAY:
                    does.add((table.id, item.name))
    assert len(says) == 6
    assert says == does


def test_bundled_lists_results_that_offer_a_roll_say_so_with_offers() -> None:
    """Issue 9, item 17: a result whose text lets the roller roll on another list offers it."""
    ruleset = load_ruleset(bundled_dir() / "lists").ruleset
    offering = {
        item.name: [offer.tables for offer in item.offers]
        for table in ruleset.tables.values()
        for item in table.entries
        if item.offers
    }
    assert offering == {
        "Gift Economy": [("vortex",)],
        "Dizzy Spell": [("global", "musical")],
        "Shredded": [("extreme",)],
    }
    for table in ruleset.tables.values():
        for item in table.entries:
            if "you may roll on" in item.text.casefold():
                assert item.offers, f"{table.id} {item.name} lets its roller roll, offers none"
