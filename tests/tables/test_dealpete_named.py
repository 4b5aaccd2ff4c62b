"""Importing Deal's results that name other lists: links when unconditional, offers otherwise."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.engine import Offer, RollChaos
from bot.tables import load_ruleset
from bot.tables.dealpete import convert_dealpete, write_conversion
from tests.tables.test_dealpete import DATA, play

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


def test_a_result_that_does_something_else_offers_instead_of_linking() -> None:
    assert entries("global.yaml")[1]["offers"] == ["vortex"]  # a Global can't also be a link
    escape, linked = entries("vortex.yaml")[1], entries("vortex.yaml")[2]
    assert escape["offers"] == [{"one_of": ["a", "global"]}]  # "your choice of [a] or [b]"
    assert (linked["link"], linked["offers"]) == ("a", ["extreme"])  # a {list:} roll keeps its link
    assert entries("extreme.yaml")[2]["offers"] == ["extreme", "vortex"]


def test_the_sample_counts_and_warnings() -> None:
    conversion = convert_dealpete(NAMED.read_text(encoding="utf-8"), "named.yaml")
    named = conversion.named
    assert (len(named.results), named.links, named.offers, named.unknown) == (13, 3, 10, 1)
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
