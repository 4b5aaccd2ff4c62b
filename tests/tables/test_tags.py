"""Tags in table files and in the lists groups import (issue 26, filters by tag): only the
vocabulary's tags load, an unknown one is named by file, line and key (or line and column),
and the bundled tables carry them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.engine.tags import TAGS
from bot.tables import TableProblems, load_bundled, load_file, load_text
from bot.tables.plain import read_plain
from bot.tables.uploads import check_any_upload, list_names
from tests.tables.samples import table_file

LISTS = list_names(list(load_bundled().values()))
UNKNOWN = "the tags are slow, choice, swingy, mana or creature"


def problems_of(name: str, data: bytes) -> list[str]:
    with pytest.raises(TableProblems) as raised:
        read_plain(name, data, LISTS)
    return [str(p) for p in raised.value.problems]


def test_an_entry_carries_its_tags_sorted_and_checked(tmp_path: Path) -> None:
    text = table_file(
        "d2",
        "  - {at: 1, name: Storm, text: Boom., tags: [swingy, Slow]}\n"
        "  - {at: 2, name: Calm, text: Nothing.}\n",
    )
    table = load_text(text, "t.yaml").table
    assert table is not None
    assert [e.tags for e in table.entries] == [("slow", "swingy"), ()]


def test_an_unknown_tag_is_named_by_file_line_and_key(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(
        table_file(
            "d2",
            "  - at: 1\n    name: Storm\n    tags: [slow]\n"
            "  - at: 2\n    name: Calm\n    tags: [sloww, slow, slow]\n",
        )
    )
    with pytest.raises(TableProblems) as raised:
        load_file(path)
    found = [(p.file, p.line, p.path, p.message) for p in raised.value.problems]
    assert found == [
        (
            str(path),
            13,
            "entries[1].tags[0]",
            f"unknown tag 'sloww' (did you mean 'slow'?); {UNKNOWN}",
        ),
        (str(path), 13, "entries[1].tags[2]", "the tag 'slow' is here twice"),
    ]


@pytest.mark.parametrize(
    ("tags", "expected"),
    [
        ("slow", "expected a list of tags like [slow, choice]"),
        ("{a: 1}", "expected a list of tags like [slow, choice]"),
        ("[3]", f"unknown tag '3'; {UNKNOWN}"),
        ("[[slow]]", f"unknown tag a list; {UNKNOWN}"),
        ("[{a: 1}]", f"unknown tag a mapping of keys; {UNKNOWN}"),
        ("[true]", f"unknown tag 'true'; {UNKNOWN}"),
    ],
)
def test_tags_that_are_not_a_list_of_words(tags: str, expected: str) -> None:
    text = table_file("d1", f"  - {{at: 1, name: Storm, tags: {tags}}}\n")
    with pytest.raises(TableProblems) as raised:
        load_text(text, "t.yaml")
    assert expected in str(raised.value)


def test_deck_cards_and_split_cards_carry_tags_and_halves_may_not() -> None:
    text = """\
schema: 1
kind: deck
id: chaos
name: Chaos deck
revision: "1"
cards:
  - {id: fog, name: Fog Bank, text: No combat damage., tags: [creature]}
  - id: fire-ice
    name: Fire // Ice
    tags: [creature, choice]
    halves:
      - {id: fire, name: Fire, text: "Deal {2} damage."}
      - {id: ice, name: Ice, text: Tap a permanent.}
"""
    deck = load_text(text, "deck.yaml").deck
    assert deck is not None
    assert deck.card("fog").tags == ("creature",)
    assert deck.card("fire-ice").tags == ("choice", "creature")
    halved = text.replace("{id: ice, name: Ice,", "{id: ice, name: Ice, tags: [slow],")
    with pytest.raises(TableProblems, match=r"deck\.yaml:13 cards\[1\]\.halves\[1\]\.tags"):
        load_text(halved, "deck.yaml")


def test_the_bundled_tables_carry_every_tag() -> None:
    """Every ruleset's entries are tagged; each tag is used somewhere, and none leaves a list
    nothing to roll (so `/house exclude` of any one tag is refused nowhere)."""
    used: set[str] = set()
    for loaded in load_bundled().values():
        ruleset = loaded.ruleset
        entries = [e for t in ruleset.tables.values() for e in t.entries]
        entries += [c.entry for d in ruleset.decks.values() for c in d.cards]
        assert sum(1 for e in entries if e.tags) > len(entries) / 3, ruleset.id
        used |= {tag for e in entries for tag in e.tags}
        for table in ruleset.tables.values():
            for tag in TAGS:
                assert any(tag not in e.tags for e in table.entries), (table.id, tag)
    assert used == set(TAGS)


# -- the importers --------------------------------------------------------------------------------


def test_numbered_text_carries_tags_at_the_end_of_an_entry() -> None:
    data = (
        "Our List\nRoll a d3\n"
        "1. Storm — Each player takes 2 damage. [tags: swingy, Slow]\n"
        "2. Calm: Nobody attacks\n   until your next turn. (tags: creature)\n"
        "3. Plain — Draw a card.\n"
    ).encode()
    imported = read_plain("ours.txt", data, LISTS)
    assert [e.get("tags") for e in imported.entries] == [["slow", "swingy"], ["creature"], None]
    assert imported.entries[1]["text"] == "Nobody attacks until your next turn."
    table = load_text(imported.text, "ours.yaml").table
    assert table is not None
    assert [e.tags for e in table.entries] == [("slow", "swingy"), ("creature",), ()]


def test_numbered_text_names_an_unknown_tag_by_its_line() -> None:
    data = "Roll a d2\n1. Storm — Boom. [tags: swingyy]\n2. Calm — Quiet.\n".encode()
    assert problems_of("ours.txt", data) == [
        f"ours.txt:2: unknown tag 'swingyy' (did you mean 'swingy'?); {UNKNOWN}"
    ]


def test_a_spreadsheet_tags_column_is_carried_and_checked() -> None:
    sheet = b"Name;Roll;Description;TAGS\nStorm;1;Each player takes 2 damage.;swingy, slow\n"
    sheet += b"Calm;2;Nobody may attack.;\n"
    imported = read_plain("ours.csv", sheet, LISTS)
    assert [e.get("tags") for e in imported.entries] == [["slow", "swingy"], None]
    assert "Tags: slow 1, swingy 1 (1 of the 2 entries tagged)." in imported.preview()
    bad = sheet + b"Odd;3;Something.;mana fast\n"
    assert problems_of("ours.csv", bad) == [
        f"ours.csv:4 column TAGS: unknown tag 'fast'; {UNKNOWN}"
    ]


def test_a_zorgle_effects_tags_are_carried_and_checked() -> None:
    def effect(tags: object) -> bytes:
        one = {"effectName": "A", "shortDesc": "b", "rarity": "rare", "duration": "instant"}
        return json.dumps({"effects": [{**one, "tags": tags}]}).encode()

    imported = read_plain("chaos.json", effect(["creature", "mana"]), LISTS)
    assert imported.entries[0]["tags"] == ["mana", "creature"]
    assert problems_of("chaos.json", effect(["nope"])) == [
        f"chaos.json:1 effects[0].tags: unknown tag 'nope'; {UNKNOWN}"
    ]
    assert problems_of("chaos.json", effect("slow")) == [
        'chaos.json:1 effects[0].tags: expected tags like ["slow"]'
    ]


def test_an_imported_lists_tags_are_checked_and_kept_like_an_uploads() -> None:
    """The upload path: a CSV with tags becomes a stored table whose entries carry them."""
    sheet = b"Roll,Name,Text,Tags\n1,Storm,Each player takes 2 damage.,swingy\n2,Calm,Rest.,\n"
    checked = check_any_upload("ours.csv", sheet, load_bundled().values())
    assert checked.converted is not None
    table = load_text(checked.converted, "ours.yaml").table
    assert table is not None
    assert [e.tags for e in table.entries] == [("swingy",), ()]
    with pytest.raises(TableProblems, match=r"^ours\.csv:3 column Tags: unknown tag 'calm'"):
        check_any_upload("ours.csv", sheet.replace(b"Rest.,", b"Rest.,calm"), [])
