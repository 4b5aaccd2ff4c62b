"""Lists in the shapes groups keep them (bot.tables.plain): numbered text, CSV and zorgle's
JSON export, each read into a table file of ours that is checked like any upload; problems of
the file as written named by line and column; every sentence about rolls or lists either read
or said to be unread."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tables import TableProblems, load_bundled
from bot.tables.dealpete_reading import _DICE_ROLL, _MENTION
from bot.tables.plain import NUMBERED, SPREADSHEET, ZORGLE, detect, read_plain
from bot.tables.uploads import check_any_upload, list_names
from tests.console.test_transcripts import play

RULESETS = list(load_bundled().values())
LISTS = list_names(RULESETS)

NUMBERED_LIST = """\
Our House List
Roll a d6

1. Mana Storm — Each player adds {R} to their mana pool.
2. Twin Fate: Roll twice.
3) Lucky Day - You gain 5 life until end of turn.
4. Detour — Roll on the Vortex.
5-6. Quiet Time — Nothing happens,
   and every player draws a card. Roll on the Tavern list.
""".encode()

SHEET = b"""Name;Roll;Description;Duration
Storm;1;Each player takes 2 damage.;
Calm;2-3;Nobody may attack.;until your next turn
Again;4;Roll twice.;
"""


def zorgle(*effects: tuple[str, str, str, str]) -> bytes:
    """A file shaped like zorgle's export: (name, text, rarity, duration) an effect."""
    return json.dumps(
        {
            "effects": [
                {"effectName": n, "shortDesc": t, "fullDesc": "", "rarity": r, "duration": d}
                for n, t, r, d in effects
            ]
        }
    ).encode()


def problems(name: str, data: bytes) -> list[str]:
    with pytest.raises(TableProblems) as raised:
        read_plain(name, data, LISTS)
    return [str(p) for p in raised.value.problems]


def test_each_format_is_told_from_what_the_file_holds() -> None:
    assert detect("house.txt", NUMBERED_LIST) == NUMBERED
    assert detect("pasted", NUMBERED_LIST) == NUMBERED
    assert detect("sheet.csv", SHEET) == SPREADSHEET
    assert detect("export", b"Number,Name,Text\n1,a,b\n") == SPREADSHEET
    assert detect("chaos.json", zorgle(("A", "b", "common", "Instant"))) == ZORGLE
    assert detect("house.yaml", NUMBERED_LIST) is None  # a .yaml is ours, whatever it holds
    assert detect("chaos.yaml", b'{"schema": 1, "kind": "table"}') is None  # JSON is YAML
    assert detect("house.txt", b'{"schema": 1, "kind": "table"}') is None
    assert detect("house.txt", b"schema: 1\nkind: table\n") is None
    assert detect("house.txt", b"\xff\xfe not text") is None  # the YAML reader says why


def test_numbered_text_becomes_a_table_that_plays() -> None:
    read = read_plain("house.txt", NUMBERED_LIST, LISTS)
    document = yaml.safe_load(read.text)
    assert (document["id"], document["name"], document["dice"]) == ("house", "Our House List", "d6")
    entries = {e["at"]: e for e in document["entries"]}
    assert entries[1] == {
        "at": 1,
        "name": "Mana Storm",
        "text": "Each player adds {R} to their mana pool.",
    }
    assert entries[2]["roll"] == {"times": 2}
    assert entries[3]["lasts"] == "end_of_turn"
    assert entries[4]["link"] == "vortex"
    assert entries["5-6"]["text"].startswith("Nothing happens, and every player draws a card.")
    assert "link" not in entries["5-6"]  # nobody has a Tavern list
    assert read.unread == ["line 8: 'Roll on the Tavern list.'"]
    checked = check_any_upload("house.txt", NUMBERED_LIST, RULESETS)
    assert (checked.id, checked.what) == ("house", "a list of 5 entries (d6)")
    assert checked.converted == read.text
    assert checked.preview is not None
    assert "Roll on the Tavern list." in checked.preview


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1. A — x\n1. B — y\n", "house.txt:2: number 1 is used twice: also on line 1"),
        ("1. A — x\n3. B — y\n", "house.txt:1: no entry for 2 (a gap between 1 and 3)"),
        ("1-3. A — x\n3-4. B — y\n", "house.txt:2: number 3 is in two ranges: also on line 1"),
        ("1. A — x\n2. B —\n", "house.txt:2: entry 2 has no text"),
        ("2. A — x\n3. B — y\n", "house.txt:1: the numbers start at 2"),
        ("Title\n1. A — x\nA stray line\n", None),  # goes on with the entry above
    ],
)
def test_a_bad_numbered_list_is_named_by_its_line(text: str, expected: str | None) -> None:
    if expected is None:
        assert read_plain("house.txt", text.encode(), LISTS).entries[0]["text"] == "x A stray line"
        return
    found = problems("house.txt", text.encode())
    assert any(p.startswith(expected) for p in found), found


def test_a_spreadsheet_names_its_columns_in_any_order_and_case() -> None:
    read = read_plain("sheet.csv", SHEET, LISTS)
    entries = read.entries
    assert [(e["at"], e["name"]) for e in entries] == [(1, "Storm"), ("2-3", "Calm"), (4, "Again")]
    assert entries[1]["lasts"] == "next_turn"
    assert entries[2]["roll"] == {"times": 2}
    assert read.document["dice"] == "d4"
    assert check_any_upload("sheet.csv", SHEET, RULESETS).what == "a list of 3 entries (d4)"


def test_a_bad_spreadsheet_is_named_by_line_and_column() -> None:
    found = problems("sheet.csv", b"Number,Name,Text\n1,A,x\nthree,B,y\n2,C,\n")
    assert "sheet.csv:3 column Number: expected a number or a range like 3-5, got 'three'" in found
    assert any(p.startswith("sheet.csv:4 column Text: entry 2 has no text") for p in found), found
    assert problems("sheet.csv", b"Colour,Size\nred,2\n") == [
        "sheet.csv:1: the first row must name the columns: number, name and text"
    ]


def test_zorgles_rarities_become_weights_and_durations_lasts() -> None:
    data = zorgle(
        ("Gust", "Each player bounces a creature.", "common", "Instant"),
        ("Haste", "Creatures have haste until end of turn.", "uncommon", "Turn"),
        ("Sky", "Gain <z-rb>1d10</z-rb> life; add <z-is>R</z-is>.", "rare", "Round"),
        ("Again", "SPECIAL EFFECT Roll two more times on the Chaos List.", "common", "Ongoing"),
    )
    read = read_plain("chaos.json", data, LISTS)
    entries = read.entries
    assert [e["at"] for e in entries] == ["1-3", "4-5", 6, "7-9"]
    assert read.document["dice"] == "d9"
    assert entries[1]["lasts"] == "end_of_turn"
    assert entries[2] == {
        "at": 6,
        "name": "Sky",
        "text": "Gain {1d10} life; add {R}.",  # the dice button rolls as our dice do
        "lasts": "next_turn",
    }
    assert entries[3]["roll"] == {"times": 2}
    checked = check_any_upload("chaos.json", data, RULESETS)
    assert checked.what == "a list of 4 entries (d9)"


def test_a_bad_zorgle_file_says_which_effect() -> None:
    found = problems("chaos.json", zorgle(("A", "b", "mythic", "Instant")))
    assert found == [
        "chaos.json:1 effects[0].rarity: unknown rarity 'mythic': common, uncommon or rare"
    ]
    assert problems("chaos.json", b'{"effects": []}')[0].startswith("chaos.json:1 effects:")
    assert problems("chaos.json", b'{"effects": [')[0].startswith("chaos.json:1: not JSON")


# Sentences a list's text may hold: rolls we read, rolls we can't, and plain effects.
SENTENCES = st.sampled_from(
    [
        "Roll twice.",
        "Roll again.",
        "Roll three times.",
        "Roll on the Vortex.",
        "Roll on List B.",
        "Roll on the Tavern list.",
        "Roll twice or roll on List B.",
        "If you win, roll again.",
        "Each player rolls chaos.",
        "Swap this list with another.",
        "Roll a d6 and gain that much life.",
        "Each player draws a card.",
        "Creatures get +1/+1 until end of turn.",
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(SENTENCES, min_size=1, max_size=4), min_size=2, max_size=12))
def test_no_sentence_about_rolls_or_lists_is_silent(texts: list[list[str]]) -> None:
    """Every sentence that speaks of rolls or lists (a dice roll aside) is read into the entry
    or said to be unread: the two add up to all of them."""
    lines = [f"{n}. Result {n} — {' '.join(words)}" for n, words in enumerate(texts, 1)]
    read = read_plain("house.txt", "\n".join(lines).encode(), LISTS)
    mentions = sum(
        1
        for words in texts
        for sentence in words
        if _MENTION.search(sentence) and not _DICE_ROLL.search(sentence)
    )
    rolls = [g for g in read.guessed if " rolls " in g]
    assert len(rolls) + len(read.unread) == mentions
    for entry in read.entries:
        assert not ("roll" in entry and "link" in entry)


def test_the_guides_example_is_what_the_console_answers(tmp_path: Path) -> None:
    """docs/tables.md's house.txt, validated in a console playing lists, answers as shown."""
    guide = (Path(__file__).parents[2] / "docs" / "tables.md").read_text(encoding="utf-8")
    section = guide[guide.index("## Lists you already keep") :]
    example, answer = re.findall(r"```text\n(.*?)\n```", section, re.S)[:2]
    (tmp_path / "house.txt").write_text(example + "\n", encoding="utf-8")
    stdout = play(tmp_path, "--ruleset", "lists", stdin="table validate house.txt\n")
    lines = stdout.splitlines()
    start = lines.index("> table validate house.txt") + 1
    assert lines[start : start + len(answer.splitlines())] == answer.splitlines()
