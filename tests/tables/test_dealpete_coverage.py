"""No result of an imported file speaks of a roll or a list in silence (issue 23).

Every result whose text names a roll or a list is either converted into something the engine
does (a link, times, each, a random list, a Global change, an offer, a list move) or reported
by the importer with its list, number and the words it could not read. The sample is shaped
like Deal's real ``chaos.yaml``, with its phrasings; a property test builds texts out of the
same pieces at random.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tables import load_ruleset
from bot.tables.dealpete import convert_dealpete, write_conversion
from tests.tables.dealpete_samples import deal_list, dump, real_shaped

# The test's own idea of a text that speaks of rolls or lists, apart from the importer's: any
# roll, list, chaos, Vortex or Global word, or a name in brackets, once rolls of dice are out.
_DICE = re.compile(r"\brolls?\s+(?:a\s+)?(?:\d|d\d|die\b|dice\b|coin\b|\w+-sided\b)", re.I)
_SPEAKS = re.compile(r"\brol|\blist|\bchaos|\bvortex|\bglobal|\[", re.IGNORECASE)
_DOES = ("link", "roll", "offers", "next_list")


def speaks(text: str, name: str) -> bool:
    return _SPEAKS.search(_DICE.sub("", text.replace(name, ""))) is not None


def converted_files(text: str) -> tuple[Any, dict[str, dict[Any, dict[str, Any]]]]:
    conversion = convert_dealpete(text)
    files = {
        name.removesuffix(".yaml"): {e["at"]: e for e in yaml.safe_load(body)["entries"]}
        for name, body in conversion.files.items()
        if name != "ruleset.yaml"
    }
    return conversion, files


def assert_none_silent(text: str) -> None:
    """Each result whose text speaks of rolls or lists was converted or reported, and the
    importer's three counts agree with that."""
    conversion, files = converted_files(text)
    account = conversion.named.account
    reported = {(r.list, r.number) for r in account.reported}
    ids = {item["short_name"]: _id(item) for item in yaml.safe_load(text)}
    spoke = set()
    for item in yaml.safe_load(text):
        following = item["first_index"]
        for roll in item["rolls"]:
            low, high = following, following
            if "index" in roll:  # Deal's bands: "2 - 3"
                low, high = (int(n) for n in f"{roll['index']}-{roll['index']}".split("-")[:2])
            following = high + 1
            number = str(low) if low == high else f"{low}-{high}"
            body = str(roll.get("text", ""))
            if "list" in roll or not speaks(body, str(roll.get("name", "\0"))):
                continue
            spoke.add((item["short_name"], number))
            entry = next(
                e
                for at, e in files[ids[item["short_name"]]].items()
                if str(at).split("-")[0] == str(low)
            )
            does = any(key in entry for key in _DOES)
            assert does or (item["short_name"], number) in reported, (
                f"{item['short_name']} {number} speaks of rolls or lists but is silent: {body!r}"
            )
    converted, reported_count, silent = account.counts
    assert silent == 0
    assert account.silent == []
    assert converted + reported_count == len(spoke)


def _id(item: dict[str, Any]) -> str:
    short = str(item["short_name"])
    if re.fullmatch(r"list[A-F]", short):
        return short[-1].lower()
    return re.sub(r"([a-z])([A-Z])", r"\1-\2", short).lower()


def test_the_real_shaped_file_has_no_silent_result() -> None:
    assert_none_silent(real_shaped())


def vortex_and_lists(tmp_path: Path) -> dict[str, dict[Any, dict[str, Any]]]:
    conversion, files = converted_files(real_shaped())
    write_conversion(conversion, tmp_path)
    load_ruleset(tmp_path)  # it loads: every new building block passes the checks
    return files


@pytest.mark.parametrize("at", [12, 13, 14, 15])
def test_roll_again_on_the_vortex_is_rolled(tmp_path: Path, at: int) -> None:
    assert vortex_and_lists(tmp_path)["vortex"][at]["link"] == "vortex"


@pytest.mark.parametrize("at", [7, 9, 18, 20])
def test_choose_one_keeps_the_vortex_among_the_choices(tmp_path: Path, at: int) -> None:
    [offer] = vortex_and_lists(tmp_path)["vortex"][at]["offers"]
    assert len(offer["one_of"]) == 3
    assert offer["one_of"][-1] == "vortex"


@pytest.mark.parametrize("at", [11, 16])
def test_the_global_change_is_demanded_and_the_vortex_offered(tmp_path: Path, at: int) -> None:
    entry = vortex_and_lists(tmp_path)["vortex"][at]
    assert (entry["link"], entry["offers"]) == ("global", ["vortex"])


def test_the_chaos_lists_phrasings(tmp_path: Path) -> None:
    files = vortex_and_lists(tmp_path)
    assert files["f"][39]["roll"] == {"random": ["a", "b", "c", "d", "e", "f"]}
    assert files["e"][19]["roll"] == {"each": ["a", "b", "c", "d"]}
    assert files["e"][19]["next_list"] == "e"
    assert files["f"][59]["roll"] == {"each": ["global", *"abcdef", "vortex"]}
    assert files["c"][42]["offers"] == ["extreme-chaos"]  # "If ..., roll on [x]"
    assert files["d"][51]["offers"] == ["vortex"]  # "Roll 2d6. If you roll 5 or less, ..."
    assert files["b"][19]["roll"] == {"chaos": 3, "starting": "a"}
    assert files["vortex"][3]["roll"] == {"chaos": 1}  # after an emblem in quotes
    assert files["powerful-acquisition"][40]["offers"] == ["synthetic"]  # no brackets
    assert files["powerful-acquisition"][41]["offers"] == ["treacherous-creature"]


def test_what_it_cannot_read_is_reported_with_list_number_and_words() -> None:
    reported = {
        (r.list, r.number, r.words) for r in convert_dealpete(real_shaped()).named.account.reported
    }
    assert ("listD", "29", "Each player rolls chaos.") in reported
    assert ("vortex", "3", 'You get an emblem with "Chaos obeys you."') in reported
    assert (
        "vortex",
        "4",
        "Roll [musical] a number of times equal to the number of players.",
    ) in reported


# -- any text made of Deal's pieces --------------------------------------------------------------

LISTS = ["listA", "listB", "vortex", "global", "extremeChaos", "mildCreature"]
NAME = st.sampled_from(LISTS)
TITLE = st.sampled_from(["the Vortex", "Global", "Extreme Chaos", "Mild Creature", "Chaos List B"])
PIECE = st.one_of(
    st.builds("Roll on [{}].".format, NAME),
    st.builds("Roll twice on [{}].".format, NAME),
    st.builds("Roll again on {}.".format, TITLE),
    st.builds("Then roll on {}.".format, TITLE),
    st.builds("Go to [{}].".format, NAME),
    st.builds("You may discard a card to roll on [{}].".format, NAME),
    st.builds("Choose one — Roll on [{}], [{}], or again on the Vortex.".format, NAME, NAME),
    st.builds("Change the [global], then you may roll on [{}].".format, NAME),
    st.builds("Each player rolls on [{}].".format, NAME),
    st.builds("{{T}}: Roll on [{}].".format, NAME),
    st.just("Roll once each on Chaos Lists A through B."),
    st.just("Go to a random Chaos List."),
    st.just("Roll chaos."),
    st.just("Each player rolls chaos."),
    st.just("Roll chaos three times, starting on [listA]."),
    st.just("Whenever a player rolls on a Chaos List, copy it."),
    st.just("The next time a player would roll chaos, they roll on Chaos List B instead."),
    st.just("Roll d20 and gain that much life."),
    st.just("Each player rolls a six-sided die."),
    st.just("Each player draws a card."),
    st.just("Remove all globals."),
    st.just("If you do, roll on the list of your choice."),
)
TEXT = st.lists(PIECE, min_size=1, max_size=4).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(st.lists(TEXT, min_size=1, max_size=6))
def test_any_text_of_deals_pieces_is_converted_or_reported(texts: list[str]) -> None:
    lists = [deal_list(short, short, "Roll d6.", 1, [{"text": "Nothing."}] * 6) for short in LISTS]
    lists[0]["rolls"] = [{"name": f"R{i}", "text": t} for i, t in enumerate(texts)]
    lists[0]["rolls"] += [{"text": "Nothing."}] * (6 - len(texts))
    assert_none_silent(dump(lists))


def test_the_import_prints_the_three_counts(tmp_path: Path) -> None:
    source = tmp_path / "chaos.yaml"
    source.write_text(real_shaped(), encoding="utf-8")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "tables",
            "import",
            "--from",
            "dealpete",
            str(source),
            "-o",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert re.search(
        r"^results whose text speaks of rolls or lists: \d+ converted, \d+ reported .*, 0 silent$",
        result.stdout,
        re.MULTILINE,
    )
    assert "not read: listD 29: 'Each player rolls chaos.'" in result.stderr
