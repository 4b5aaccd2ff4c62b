"""Entries by name: the ranked search over every list and deck of a ruleset, `table lookup`
with a name or a number, and the real console answering it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.commands import CommandError
from bot.commands.tables import lookup, table_lookup
from bot.entry_search import complete, places, search, suggest
from bot.tables import find_ruleset
from tests.console.locales import c_utf8
from tests.console.test_hostile import BASE, play_json

CLASSIC = find_ruleset("classic").ruleset
LISTS = find_ruleset("lists").ruleset
DECK = find_ruleset("deck").ruleset


def test_every_list_entry_and_deck_card_is_a_place() -> None:
    found = places(CLASSIC)
    bands = sum(len(t.bands) for t in CLASSIC.tables.values())
    assert len(found) == bands
    assert len(places(DECK)) == sum(len(d.cards) for d in DECK.decks.values())
    assert {p.table for p in places(CLASSIC, "wacky")} == {"wacky"}


@pytest.mark.parametrize(
    "query",
    ["Tsunami", "tsunami", "  TSUNAMI ", "what does tsunami do again?", "Tsunami?", "tsunamis"],
)
def test_an_entry_is_found_by_its_name_however_it_is_asked(query: str) -> None:
    answer = search(places(CLASSIC), query).answer
    assert answer is not None
    assert (answer.table, answer.label, answer.entry.name) == ("chaos", "117", "Tsunami")


def test_an_exact_name_comes_before_names_that_only_contain_its_words() -> None:
    found = search(places(LISTS), "fog")
    assert found.answer is not None
    assert found.answer.entry.name == "Fog"
    assert found.ranked[0] is found.answer
    assert any(p.entry.name == "Lost in the Fog" for p in found.ranked[1:])


def test_words_are_read_as_the_rules_search_reads_them() -> None:
    """Stems and synonyms come from bot.rules_search: `dies` and `death` are one word."""
    names = {p.entry.name for p in search(places(CLASSIC), "dies").candidates()}
    assert "Living Death" in names


def test_a_vague_name_gives_a_short_ranked_list() -> None:
    text = lookup(CLASSIC, "dead")
    head, *rows = text.splitlines()
    assert head == "Several entries of Classic Chaos match 'dead', best first:"
    assert "  Chaos List 114: Raise Dead" in rows
    assert rows[-1].startswith("Look one up by its list and number")


def test_lookup_reads_a_number_a_table_and_a_name_or_a_name_alone() -> None:
    assert lookup(CLASSIC, "chaos 158").splitlines()[0] == "Chaos List 158: Propaganda"
    assert lookup(CLASSIC, "Chaos List #158").splitlines()[0] == "Chaos List 158: Propaganda"
    assert lookup(CLASSIC, "tsunami").splitlines()[:4] == [
        "Chaos List 117: Tsunami",
        "  Destroy every Island.",
        "  -> the card Tsunami",
        "  tags: mana, swingy",
    ]
    assert lookup(DECK, "chaos wheel of fortune").startswith("Chaos deck 1x: Wheel of Fortune")
    assert lookup(LISTS, "a fog").startswith("List A 30: Fog")  # "a" is a list, and filler
    assert table_lookup(LISTS, "d", "wheel of fortune").startswith("List D 11-12:")


def test_autocomplete_ranks_names_and_finishes_the_last_word() -> None:
    found = complete(places(CLASSIC), "tsun")
    assert found[0].entry.name == "Tsunami"
    assert found[0].value == "chaos 117"
    assert lookup(CLASSIC, found[0].value).startswith("Chaos List 117: Tsunami")
    assert len(complete(places(CLASSIC), "")) == 25
    assert len(complete(places(CLASSIC), "the")) <= 25


def test_a_typo_is_offered_the_names_it_was_meant_for() -> None:
    assert [p.entry.name for p in suggest(places(CLASSIC), "tsunamy")] == ["Tsunami"]
    with pytest.raises(CommandError, match=r"no entry called 'qwxz'. \(see `table list`\)"):
        lookup(CLASSIC, "qwxz")
    with pytest.raises(CommandError, match="Did you mean 'Wheel of Fortune'"):
        table_lookup(DECK, "chaos", "Wheell of Fortnue")


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("x" * 101, "too long to be an entry's name (100 characters at most)"),
        ("Tsu\x00nami", "an entry's name can't contain a control character (U+0000)"),
        ("\x1b[31m", "an entry's name can't contain a control character (U+001B)"),
        ("chaos \u2460", "the number rolled must be written with the digits 0 to 9"),
        ("158", "say which list the number is from, like `table lookup chaos 158`"),
    ],
)
def test_hostile_lookups_get_a_sentence(query: str, message: str) -> None:
    with pytest.raises(CommandError) as refused:
        lookup(CLASSIC, query)
    assert message in str(refused.value)


def test_the_console_looks_an_entry_up_by_name_and_by_number(tmp_path: Path) -> None:
    stdin = "table lookup what does tsunami do again?\ntable lookup chaos 158\ntable lookup \x07\n"
    objects = play_json(tmp_path, c_utf8(BASE), stdin.encode())
    by_line = {o["line"]: o for o in objects if o["line"] in (1, 2, 3)}
    assert "Chaos List 117: Tsunami\n  Destroy every Island." in str(by_line[1]["text"])
    assert "Chaos List 158: Propaganda" in str(by_line[2]["text"])
    assert by_line[3]["type"] == "error"
    assert "control character (U+0007)" in str(by_line[3]["message"])
