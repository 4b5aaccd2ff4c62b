"""Importing Deal's results that name other lists: rolled when mandatory, offered otherwise."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Offer, OfferTo, RollChaos
from bot.tables import load_ruleset
from bot.tables.dealpete import convert_dealpete, write_conversion
from bot.tables.dealpete_named import _split_quoted
from tests.tables.dealpete_samples import real_shaped
from tests.tables.test_dealpete import DATA, play, settle

NAMED = DATA / "named.yaml"


def entries(file: str) -> dict[Any, dict[str, Any]]:
    conversion = convert_dealpete(NAMED.read_text(encoding="utf-8"), "named.yaml")
    return {e["at"]: e for e in yaml.safe_load(conversion.files[file])["entries"]}


@pytest.mark.parametrize(
    ("at", "link", "offers"),
    [
        (1, "vortex", None),  # Roll on [vortex].
        (2, "strong-creature", None),  # Go to [strong-creature]. It enters ...
        (3, "extreme", None),  # ... Then roll on [extreme].
        (4, None, ["extreme"]),  # You may ... If you do, roll on [extreme].
        (5, None, [{"one_of": ["acquisition", "strong-creature", "synthetic-creature"]}]),
        (6, None, [{"one_of": ["mild-creature", "strong-creature"]}]),  # [a] or [b]
        (7, None, ["strong-creature"]),  # You may discard two cards to roll on [x].
        (8, None, [{"one_of": ["vortex", "global"]}, "extreme"]),  # Choose one — ...; If you do
        (9, None, ["vortex"]),  # Roll on [vortex] inside an ability ({T}: ...)
        (10, None, None),  # Roll on [planeswalker]: no such list
    ],
)
def test_each_phrasing_of_list_a(at: int, link: str | None, offers: list[object] | None) -> None:
    entry = entries("a.yaml")[at]
    assert (entry.get("link"), entry.get("offers")) == (link, offers)
    assert "[" in entry["text"]  # the text stays as written: players read the conditions


@pytest.mark.parametrize(
    ("at", "does", "offers"),
    [
        (1, {"roll": {"times": 2, "list": "extreme"}}, None),  # Roll twice on [x].
        (2, {"roll": {"times": 3, "list": "acquisition"}}, None),  # Roll thrice on [x].
        (3, {"roll": {"times": 5, "list": "mild-creature"}}, None),  # Roll five times on [x].
        # Roll on [x], then on [y], then on [z].
        (4, {"roll": {"each": ["acquisition", "mild-creature", "a"]}}, None),
        # Roll twice on [x], twice on [y], and once on [z]. Then the next time ... [listA] instead.
        (
            5,
            {
                "roll": {"each": ["mild-creature"] * 2 + ["strong-creature"] * 2 + ["acquisition"]},
                "next_list": "a",
            },
            None,
        ),
        (6, {"link": "vortex"}, None),  # Roll on [x]. Each player draws two cards.
        (7, {}, ["acquisition"]),  # Each player rolls on [x]: another player's roll
        (8, {}, ["strong-creature"]),  # All players roll on [x].
        (9, {}, ["mild-creature"]),  # ... then that player rolls on [x].
        (10, {}, ["extreme"]),  # At the beginning of your upkeep, roll twice on [x].
        (11, {}, ["vortex"]),  # Roll on [x]. Do this only if ...: the later sentence restricts it
        (12, {}, ["extreme"]),  # {2}, {T}: Roll twice on [x].: an ability
    ],
)
def test_each_phrasing_of_list_b(
    at: int, does: dict[str, object], offers: list[object] | None
) -> None:
    entry = entries("b.yaml")[at]
    keys = ("link", "roll", "next_list")
    assert ({k: entry[k] for k in keys if k in entry}, entry.get("offers")) == (does, offers)
    assert "[" in entry["text"]


def test_a_result_that_does_something_else_offers_instead_of_linking() -> None:
    assert entries("global.yaml")[1]["offers"] == ["vortex"]  # a Global can't also be a link
    escape, linked = entries("vortex.yaml")[1], entries("vortex.yaml")[2]
    assert escape["offers"] == [{"one_of": ["a", "global"]}]  # "your choice of [a] or [b]"
    assert (linked["link"], linked["offers"]) == ("a", ["extreme"])  # a {list:} roll keeps its link
    span = entries("vortex.yaml")[3]  # Roll on [x], Chaos Lists A through B, and then [y].
    assert span["roll"] == {"each": ["extreme", "a", "b", "global"]}
    again = entries("extreme.yaml")[2]  # Roll on [extreme] again, then on [vortex].
    assert (again["roll"], again.get("offers")) == ({"each": ["extreme", "vortex"]}, None)


def test_the_sample_counts_and_warnings() -> None:
    conversion = convert_dealpete(NAMED.read_text(encoding="utf-8"), "named.yaml")
    named = conversion.named
    counts = (named.links, named.times, named.each, named.next_list, named.offers, named.unknown)
    assert (len(named.results), *counts) == (26, 4, 3, 4, 1, 15, 1)
    assert conversion.warnings[0] == (
        "listA: rolls[9] names [planeswalker], which is not a list in this file; it stays in"
        " the text only"
    )


def test_the_import_loads_and_its_offers_can_be_taken(tmp_path: Path) -> None:
    write_conversion(convert_dealpete(NAMED.read_text(encoding="utf-8"), "named.yaml"), tmp_path)
    ruleset = load_ruleset(tmp_path).ruleset
    assert ruleset.tables["a"].lookup(8).offers == (
        Offer(("vortex", "global")),
        Offer(("extreme",)),
    )
    assert play(tmp_path, turns=6).state.turn == 7
    assert ruleset.tables["b"].lookup(5).next_list == "a"
    for seed in range(40):
        game = play(tmp_path, turns=0, seed=seed)
        game.act(RollChaos(actor="ann"))
        offer = next(iter(game.state.offers.values()), None)
        if offer is None or game.state.pending is not None:
            continue
        events = game.act(RollChaos(actor="ann", table=offer.tables[-1]))
        assert [e["type"] for e in events if e["type"] == "offer_taken"] == ["offer_taken"]
        return
    raise AssertionError("no seed below 40 leaves an offer open")


def test_demanded_rolls_are_rolled_at_once_in_order(tmp_path: Path) -> None:
    write_conversion(convert_dealpete(NAMED.read_text(encoding="utf-8"), "named.yaml"), tmp_path)
    expected = {
        1: ["extreme"] * 2,
        2: ["acquisition"] * 3,
        3: ["mild-creature"] * 5,
        4: ["acquisition", "mild-creature", "a"],
        5: ["mild-creature"] * 2 + ["strong-creature"] * 2 + ["acquisition"],
        6: ["vortex"],
    }
    seen: dict[int, list[str]] = {}
    for seed in range(200):
        game = play(tmp_path, turns=0, seed=seed)
        made = game.act(RollChaos(actor="ann", table="b"))
        made += settle(game, "ann")  # a roll offered on the way waits for its decline first
        rolls = [e for e in made if e["type"] == "roll"]
        top = rolls[0]
        children = [r["table"] for r in rolls if r["parent"] == top["id"]]
        seen.setdefault(top["result"], children)
        if top["result"] == 5:  # ... Then the next time a player would roll chaos, ... [listA]
            assert game.state.forced_list == "a"
        if all(at in seen for at in [*expected, 7]):
            break
    assert {at: seen[at] for at in expected} == expected
    assert seen[7] == []  # "Each player rolls on [acquisition]" is offered, not rolled


def test_your_killer_rolls_is_offered_to_the_killer(tmp_path: Path) -> None:
    # Four of Deal's Spite results give the killer a roll: the import offers it to them.
    data = yaml.safe_load(real_shaped())
    spite = next(one for one in data if one["short_name"] == "spite")
    band = spite["rolls"][2]["index"]
    spite["rolls"][2] = {"index": band, "text": "Your killer rolls on [vortex]."}
    spite["rolls"][3] = {
        "index": spite["rolls"][3]["index"],
        "text": "Your killer rolls on [vortex] or [global].",
    }
    conversion = convert_dealpete(yaml.safe_dump(data, sort_keys=False), "chaos.yaml")
    write_conversion(conversion, tmp_path)
    table = load_ruleset(tmp_path).ruleset.tables["spite"]
    assert table.lookup(4).offers == (Offer(("vortex",), OfferTo.KILLER),)
    assert table.lookup(11).offers == (Offer(("vortex", "global"), OfferTo.KILLER),)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='"“”a b', max_size=16))
def test_quotes_are_cut_as_the_pattern_did_in_one_pass(text: str) -> None:
    assert _split_quoted(text) == re.split(r"(\"[^\"]*\"|“[^”]*”)", text)
