"""The `offers:` key: rolls a result offers, checked strictly like links."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine import Offer
from bot.tables import load_ruleset
from bot.tables.describe import what_it_does
from tests.tables.samples import CHAOS, MINI, table_file, write_folder
from tests.tables.test_loader import entries, only, problems, write

PORTAL = """\
  - at: 7
    name: Fog
    text: Creatures deal no combat damage. You may roll on WackyLand, and on one of the others.
    lasts: next_turn
    offers: [wacky, {one_of: [ewl, chaos]}]
"""


def with_offers(tmp_path: Path, block: str = PORTAL) -> Path:
    start = CHAOS.index("  - at: 7\n")
    end = CHAOS.index("  - at: 8\n")
    return write_folder(tmp_path, {**MINI, "chaos.yaml": CHAOS[:start] + block + CHAOS[end:]})


def test_offers_load_as_the_engines_offers_beside_what_the_entry_does(tmp_path: Path) -> None:
    ruleset = load_ruleset(with_offers(tmp_path)).ruleset
    fog = ruleset.tables["chaos"].lookup(7)

    assert fog.offers == (Offer(("wacky",)), Offer(("ewl", "chaos")))
    assert fog.duration is not None
    names = {t.id: t.name for t in ruleset.tables.values()}
    assert what_it_does(fog, names, "chaos") == (
        "lasts until its owner's next turn; you may roll on WackyLand;"
        " you may roll on one of EnchantWorldLand or this list"
    )


def test_an_offered_list_that_doesnt_exist_is_refused_at_check_time(tmp_path: Path) -> None:
    problem = only(
        with_offers(tmp_path, PORTAL.replace("one_of: [ewl, chaos]", "one_of: [ewl, vortx]"))
    )
    assert (problem.line, problem.path) == (32, "entries[5].offers[1].one_of[1]")
    assert problem.message.startswith(
        "there is no list 'vortx' here (there are: chaos, ewl, wacky)"
    )


def test_offers_lead_nowhere_at_once_so_they_make_no_cycle(tmp_path: Path) -> None:
    ruleset_text = MINI["ruleset.yaml"].replace("budget: {rolls: 30, depth: 5}\n", "")
    chaos = CHAOS.replace("roll: {times: 2}", "offers: [chaos]").replace(
        "roll: {times: 2, keep: 1}", "offers: [wacky]"
    )
    chaos = chaos.replace("link: wacky", "text: x").replace("roll: {each: [ewl, wacky]}", "text: y")
    wacky = MINI["wacky.yaml"].replace("link: chaos", "offers: [chaos]")
    folder = write_folder(
        tmp_path, {**MINI, "ruleset.yaml": ruleset_text, "chaos.yaml": chaos, "wacky.yaml": wacky}
    )
    assert load_ruleset(folder).ruleset.tables["chaos"].lookup(1).offers == (Offer(("chaos",)),)


@pytest.mark.parametrize(
    ("line", "path", "words"),
    [
        ("offers: wacky", "entries[0].offers", "expected a list of lists to offer"),
        ("offers: []", "entries[0].offers", "offer 1 to 10 rolls, not 0"),
        ("offers: [Not An Id]", "entries[0].offers[0]", "is not the id of a list"),
        ("offers: [{one_of: [a]}]", "entries[0].offers[0].one_of", "names 2 to 10 lists"),
        ("offers: [{one_of: a}]", "entries[0].offers[0].one_of", "expected a list of lists"),
        ("offers: [{any_of: [a, b]}]", "entries[0].offers[0]", "one list (list: x) or several"),
        ("offers: [{list: a, one_of: [b, c]}]", "entries[0].offers[0]", "one list (list: x) or"),
        ("offers: [{list: a, to: them}]", "entries[0].offers[0].to", "expected roller or killer"),
        ("offers: [{list: Not An Id}]", "entries[0].offers[0].list", "is not the id of a list"),
        ("offers: [a, {one_of: [b, a]}]", "entries[0].offers[1].one_of[1]", "'a' is offered twice"),
    ],
)
def test_offer_problems(tmp_path: Path, line: str, path: str, words: str) -> None:
    text = table_file("d2", entries("- at: 1-2", "  name: Thing", f"  {line}"))
    found = problems(write(tmp_path, text))
    assert (found[0].path, found[0].line) == (path, 10), "\n".join(map(str, found))
    assert words in found[0].message


def test_a_deck_card_has_no_offers(tmp_path: Path) -> None:
    deck = (
        "schema: 1\nkind: deck\nid: d\nname: D\nrevision: '1'\ncards:\n"
        "  - {id: c, name: C, offers: [x]}\n"
    )
    assert "unknown key 'offers'" in only(write(tmp_path, deck)).message
