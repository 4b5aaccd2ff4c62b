"""Importing Peter Deal's chaos.yaml: dice inference, the quirks, links, and output that loads."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import Begin, Choose, Decline, Game, Join, NextTurn, RollChaos
from bot.engine.errors import TableError
from bot.engine.events import Event
from bot.engine.model import ChaosSource, Nesting, SpitePolicy, StartRoll, ZonePolicy
from bot.engine.offered import in_turn
from bot.tables import load_folder, load_ruleset
from bot.tables.dealpete import Conversion, convert_dealpete, write_conversion
from tests.tables.dealpete_samples import deal_list, dump, real_shaped

DATA = Path(__file__).resolve().parents[1] / "data" / "dealpete"
SMALL = DATA / "small.yaml"
TENS8 = "Roll d80 + 9 (d8 for the tens digit, d10 for the units digit)."


def convert(*lists: dict[str, Any], **kw: Any) -> Conversion:
    return convert_dealpete(dump(list(lists)), **kw)


def table(conversion: Conversion, table_id: str) -> dict[str, Any]:
    data = yaml.safe_load(conversion.files[f"{table_id}.yaml"])
    assert isinstance(data, dict)
    return data


def entries(conversion: Conversion, table_id: str) -> dict[str, dict[str, Any]]:
    """A table's entries by their `at`, as text ("10", "2-3")."""
    return {str(e.pop("at")): e for e in table(conversion, table_id)["entries"]}


def texts(n: int, first: int = 1) -> list[dict[str, Any]]:
    return [{"text": f"Effect {first + i}."} for i in range(n)]


def one(short: str, desc: str, first: int, rolls: list[dict[str, Any]], **kw: Any) -> Conversion:
    return convert(deal_list(short, short.title(), desc, first, rolls), **kw)


def warned(conversion: Conversion, *parts: str) -> str:
    """The one warning containing every part."""
    found = [w for w in conversion.warnings if all(p in w for p in parts)]
    assert len(found) == 1, conversion.warnings
    return found[0]


def play(folder: Path, turns: int = 12, seed: int = 5) -> Game:
    ruleset = load_ruleset(folder).ruleset
    game = Game.start(ruleset, seed=seed, host="ann", name="Ann")
    for player in ("bob", "cy"):
        game.act(Join(actor=player, player_name=player.title()))
    game.act(Begin(actor="ann"))
    for _ in range(turns):
        active = game.state.active
        assert active is not None
        game.act(RollChaos(actor=active))
        settle(game, active)
        game.act(NextTurn(actor=active))
    return game


def settle(game: Game, actor: str) -> list[Event]:
    """Answer every choice (the first option) and decline every offer a multi-roll waits for
    (it would hold the turn), as a referee; the events that made."""
    events: list[Event] = []
    while game.state.pending is not None or game.state.paused:
        pending = game.state.pending
        if pending is not None:
            option = pending.options[0][0]
            events += game.act(Choose(actor=actor, option=option, referee=True))
        else:
            events += game.act(
                Decline(actor=actor, referee=True, table=in_turn(game.state)[0].tables[0])
            )
    return events


# -- dice ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("desc", "first", "count", "dice"),
    [
        (TENS8, 10, 80, {"tens": "d8"}),
        (
            "Roll d120 + 9 (d12 for the tens digit, d10 for the units digit).",
            10,
            120,
            {"tens": "d12"},
        ),
        ("Roll d40 + 9 (d4 for the tens digit, d10 for the units digit).", 10, 40, {"tens": "d4"}),
        ("Roll d40 + 9 and make a token copy.", 10, 40, {"tens": "d4"}),
        ("Roll a d8 for the tens digit and a d10 for the units digit.", 10, 80, {"tens": "d8"}),
        ("Roll 3d8 and hold on.", 3, 22, "3d8"),
        ("Roll 2d12.", 2, 23, "2d12"),
        ("Roll d100 and name your killer.", 1, 100, "d100"),
        ("Roll d6.", 1, 6, "d6"),
        ("Roll a D20; it targets a spell.", 1, 20, "d20"),
        ("Roll d10.", 1, 10, "d10"),
    ],
)
def test_dice_stated_in_desc(desc: str, first: int, count: int, dice: object) -> None:
    conversion = one("tried", desc, first, texts(count, first))
    assert table(conversion, "tried")["dice"] == dice
    assert table(conversion, "tried")["directions"] == desc
    assert [w for w in conversion.warnings if w.startswith("tried")] == []


@pytest.mark.parametrize(
    ("desc", "first", "count", "dice", "warning"),
    [
        ("Pick wisely.", 1, 12, "d12", "its desc names no dice"),
        ("", 10, 80, {"tens": "d8"}, "its desc names no dice"),
        ("", 3, 22, "3d8", "its desc names no dice"),
        ("", 2, 11, "2d6", "its desc names no dice"),
        ("Roll d6.", 1, 30, "d30", "its desc says d6 (1-6), but its 30 entries"),
        ("Roll d12.", 1, 10, "d10", "its desc says d12 (1-12), but its 10 entries"),
        (TENS8, 1, 80, "d80", "its desc says d80 + 9 (10-89), but its 80 entries"),
        ("Roll d20 + 4.", 5, 20, "d20", "its desc says d20 + 4, which can't be expressed"),
    ],
)
def test_dice_inferred_from_the_numbers(
    desc: str, first: int, count: int, dice: object, warning: str
) -> None:
    conversion = one("tried", desc, first, texts(count, first))
    assert table(conversion, "tried")["dice"] == dice
    assert warning in warned(conversion, "tried:", "cover")


def test_numbers_the_dice_cant_make_are_renumbered() -> None:
    conversion = one("odd", "Roll d10.", 0, texts(10, 0))
    assert table(conversion, "odd")["dice"] == "d10"
    assert "entries renumbered 0-9 -> 1-10 to fit d10 (1-10)" in warned(conversion, "renumbered")
    assert entries(conversion, "odd")["1"]["text"] == "Effect 0."


def test_a_list_of_one_entry_is_rolled_on_d2() -> None:
    conversion = one("lonely", "", 1, texts(1))
    assert table(conversion, "lonely")["dice"] == "d2"
    assert entries(conversion, "lonely")["2"]["link"] == "lonely"


# -- the quirks ----------------------------------------------------------------------------------


def spite(*bands: str) -> Conversion:
    rolls = [{"index": band, "text": f"Band {band}."} for band in bands]
    return one("spite", "Roll d100.", 1, rolls)


def test_overlap_on_one_number_goes_to_the_earlier_band() -> None:
    conversion = spite("1 - 70", "71 - 76", "76 - 85", "86 - 100")
    assert warned(conversion, "overlap") == (
        "spite: rolls[2] 'Band 76 - 85' (76-85) overlaps rolls[1] 'Band 71 - 76' on 76; 76 stays"
        " with the earlier entry and the later one becomes 77-85"
    )
    found = entries(conversion, "spite")
    assert list(found) == ["1-70", "71-76", "77-85", "86-100"]
    assert found["77-85"]["text"] == "Band 76 - 85."


def test_overlaps_on_several_numbers_and_bands_inside_others() -> None:
    conversion = spite("1 - 50", "40 - 60", "45", "20 - 30", "61 - 100", "55 - 65")
    found = entries(conversion, "spite")
    assert list(found) == ["1-50", "51-60", "61-100"]
    assert "on 40-50; 40-50 stay with the earlier entry and the later one becomes 51-60" in (
        warned(conversion, "spite: rolls[1] ")
    )
    assert "is dropped (nothing is left of it)" in warned(conversion, "spite: rolls[2] ")
    assert "is dropped" in warned(conversion, "spite: rolls[3] ")
    assert warned(conversion, "spite: rolls[5] ") == (
        "spite: rolls[5] 'Band 55 - 65' (55-65) overlaps rolls[1] 'Band 40 - 60', rolls[4]"
        " 'Band 61 - 100' on 55-65; 55-65 stay with the earlier entries and the later one is"
        " dropped (nothing is left of it)"
    )


def test_a_later_band_around_an_earlier_one_is_split() -> None:
    conversion = spite("50", "1 - 100")
    found = entries(conversion, "spite")
    assert list(found) == ["1-49", "50", "51-100"]
    assert found["1-49"] == found["51-100"] == {"name": "Band 1 - 100", "text": "Band 1 - 100."}


def test_a_d100_list_with_99_entries_rolls_again_on_100() -> None:
    conversion = one("mildCreature", "Roll d100.", 1, texts(99))
    found = entries(conversion, "mild-creature")
    assert found["100"]["link"] == "mild-creature"
    assert found["100"]["name"] == "Roll again"
    assert warned(conversion, "100") == (
        "mildCreature: d100 (1-100) can roll 100 but no entry covers it; added a 'Roll again'"
        " entry there (a link back to mild-creature)"
    )


def test_gaps_between_bands_roll_again() -> None:
    conversion = spite("1 - 40", "46 - 99")
    found = entries(conversion, "spite")
    assert found["41-45"]["link"] == found["100"]["link"] == "spite"
    assert "can roll 41-45, 100 but no entry covers it" in warned(conversion, "Roll again")


def test_entries_beyond_the_dice_are_dropped() -> None:
    conversion = one("musical", "Roll d6.", 1, texts(7))
    assert list(entries(conversion, "musical")) == ["1", "2", "3", "4", "5", "6"]
    assert warned(conversion, "dropped") == (
        "musical: d6 (1-6) can never roll 7 (rolls[6] 'Effect 7'): dropped (entries beyond the"
        " dice's range are left out)"
    )
    clipped = spite("1 - 50", "51 - 105")
    assert list(entries(clipped, "spite")) == ["1-50", "51-100"]
    assert "can never roll 101-105 of rolls[1] 'Band 51 - 105': dropped" in warned(clipped, "101")


def test_a_procedural_list_is_a_table_over_its_parts() -> None:
    desc = "Roll d6 for its colour, d4 for its abilities, d30 for each, 2d6 for power."
    conversion = one("synthetic", desc, 1, [{"text": f"Ability {n}"} for n in range(1, 31)])
    assert table(conversion, "synthetic")["dice"] == "d30"
    assert table(conversion, "synthetic")["directions"] == desc
    assert "building procedure (it names d6, d4, d30, 2d6)" in warned(conversion, "synthetic:")
    assert "procedure in the directions" in warned(conversion, "synthetic:")


# -- entries and links ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("xdice", "x"),
    [
        *[([1, 6, 0], "1d6"), ([2, 6, 0], "2d6"), ([1, 6, 2], "1d6+2"), ([1, 6, -1], "1d6-1")],
        *[([1, 0, 0], 1), ([1, 1, 0], 1), ([2, 1, 1], 3), ([0, 6, 4], 4), ([3, 0, 0], 3)],
    ],
)
def test_xdice_becomes_x(xdice: list[int], x: object) -> None:
    conversion = one("l", "Roll d2.", 1, [{"card": "Fireball", "Xdice": xdice}, {"card": "Shock"}])
    assert entries(conversion, "l")["1"] == {"name": "Fireball", "card": "Fireball", "x": x}


def test_each_kind_of_roll() -> None:
    rolls: list[dict[str, Any]] = [
        {"card": "Lightning Bolt", "times": 3, "color": "red"},
        {"text": "Each player draws a card. Then each discards one."},
        {"name": "Table Manners", "text": "Say please.", "color": "white"},
        {"card": "Grizzly Bears", "mana_cost": "{1}{G}", "type": "Creature — Bear"}
        | {"power": 2, "toughness": 2},
        {"text": "Deal {1d4} damage to {Dragon} and pay {2}{R}."},
        {"name": "Big", "text": "X damage to everyone.", "Xdice": [2, 6, 0]},
    ]
    found = entries(one("l", "Roll d6.", 1, rolls), "l")
    assert found["1"] == {"name": "Lightning Bolt", "card": "Lightning Bolt"} | {
        "text": "Cast it 3 times."
    }
    assert found["2"]["name"] == "Each player draws a card"
    assert found["3"] == {"name": "Table Manners", "text": "Say please."}
    assert found["4"]["text"] == "Create a token copy of Grizzly Bears (1G) — Creature — Bear, 2/2."
    # Braces the engine would roll but can't read become parentheses; mana symbols stay.
    assert found["5"]["text"] == "Deal {1d4} damage to (Dragon) and pay {2}{R}."
    assert found["5"]["name"] == "Deal 1d4 damage to (Dragon) and pay 2R"
    assert found["6"]["text"] == "X damage to everyone. X is {2d6}."


def test_global_entries_are_globals_except_links() -> None:
    rolls: list[dict[str, Any]] = [{"card": "Howling Mine", "Xdice": [1, 4, 0]}]
    rolls.append({"text": "No life gain."})
    conversion = one("global", "Roll d3.", 1, [*rolls, {"list": "global"}])
    found = entries(conversion, "global")
    assert found["1"] == {
        "name": "Howling Mine",
        "global": True,
        "text": "Howling Mine works from the command zone for everyone, as the card does."
        " X is {1d4}.",
    }
    assert found["2"]["global"] is True
    assert found["3"] == {"name": "Roll on Global", "link": "global"}


def test_links_are_rewritten_to_the_new_ids() -> None:
    links: list[dict[str, Any]] = [{"list": "listB"}, {"list": "extremeChaos"}]
    links += [{"list": "extremeChaos", "times": 2}, {"list": "nowhere"}]
    conversion = convert(
        deal_list("listA", "List A", "Roll d4.", 1, links),
        deal_list("listB", "List B", "Roll d2.", 1, [{"list": "LISTA"}, {"text": "Hi."}]),
        deal_list("extremeChaos", "Extreme Chaos", "Roll d2.", 1, texts(2)),
    )
    assert sorted(conversion.files) == ["a.yaml", "b.yaml", "extreme-chaos.yaml", "ruleset.yaml"]
    found = entries(conversion, "a")
    assert found["1"] == {"name": "Roll on List B", "link": "b"}
    assert found["2"] == {"name": "Roll on Extreme Chaos", "link": "extreme-chaos"}
    assert found["3"] == {
        "name": "Roll 2 times on Extreme Chaos",
        "roll": {"times": 2, "list": "extreme-chaos"},
    }
    assert found["4"] == {"name": "Roll on nowhere", "text": "Roll on nowhere (not in this file)."}
    assert warned(conversion, "nowhere") == (
        "listA: rolls[3] links to 'nowhere', which is not in this file; it became an effect"
        " saying so"
    )
    assert entries(conversion, "b")["1"]["link"] == "a"  # short names match case-insensitively


@pytest.mark.parametrize(
    ("short", "ident"),
    [
        *[("listA", "a"), ("listf", "f"), ("extremeChaos", "extreme-chaos")],
        *[("Mild Creature", "mild-creature"), ("vortex", "vortex"), ("!!!", "list-1")],
        *[("ruleset", "ruleset-2"), ("chaos", "chaos")],
    ],
)
def test_list_ids(short: str, ident: str) -> None:
    conversion = one(short, "Roll d2.", 1, texts(2))
    assert table(conversion, ident)["id"] == ident


def test_clashing_ids_get_a_number() -> None:
    conversion = convert(
        deal_list("listA", "A", "Roll d2.", 1, texts(2)),
        deal_list("a", "Other A", "Roll d2.", 1, texts(2)),
    )
    assert table(conversion, "a-2")["name"] == "Other A"
    assert warned(conversion, "taken") == "a: the id 'a' is taken; this list is 'a-2'"


# -- the ruleset and the whole file --------------------------------------------------------------


SMALL_WARNINGS = [
    "listC: its desc says d12 (1-12), but its 10 entries (from first_index 1) cover 1-10: using"
    " d10 (1-10) instead",
    "listD: its desc names no dice; its 10 entries (from first_index 1) cover 1-10, so it is"
    " rolled with d10 (1-10)",
    "listE: rolls[1] links to 'planeswalker', which is not in this file; it became an effect"
    " saying so",
    "musical: d6 (1-6) can never roll 7 (rolls[6] 'Sway of the Stars'): dropped (entries beyond"
    " the dice's range are left out)",
    "spite: rolls[10] 'Stone Rain' (76-85) overlaps rolls[9] 'The player who defeated you skips"
    " their next…' on 76; 76 stays with the earlier entry and the later one becomes 77-85",
    "synthetic: its desc is a building procedure (it names d6, d4, d30, 2d6); imported as a plain"
    " d30 (1-30) table over its 30 parts, with the procedure in the directions",
    "mildCreature: d100 (1-100) can roll 100 but no entry covers it; added a 'Roll again' entry"
    " there (a link back to mild-creature)",
]


def test_small_sample_converts_with_the_stated_warnings(tmp_path: Path) -> None:
    conversion = convert_dealpete(SMALL.read_text(encoding="utf-8"), "small.yaml")
    assert conversion.warnings == SMALL_WARNINGS
    assert conversion.ruleset_id == "dealpete-small"
    write_conversion(conversion, tmp_path)
    loaded = load_ruleset(tmp_path)
    ruleset = loaded.ruleset
    assert ruleset.chaos is ChaosSource.PROGRESSION
    assert ruleset.lists == ("a", "b", "c", "d", "e", "f")
    assert (ruleset.start, ruleset.start_table) == (StartRoll.GLOBAL, "global")
    assert (ruleset.spite, ruleset.spite_table) == (SpitePolicy.SPITE_TABLE, "spite")
    assert ruleset.nesting is Nesting.SEQUENTIAL
    assert (ruleset.zone, ruleset.zone_plays, ruleset.tokens) == (ZonePolicy.MIDDLE_WORLD, 1, False)
    assert (ruleset.budget.rolls, ruleset.budget.depth) == (80, 12)
    assert ruleset.revision == "imported"
    assert len(ruleset.tables) == 13
    assert "chaos-step" in [rule.id for rule in loaded.rules]
    assert ruleset.tables["vortex"].dice.notation == "3d8"
    assert ruleset.tables["global"].lookup(29).name == "Players can't gain life"


def test_small_sample_plays(tmp_path: Path) -> None:
    write_conversion(convert_dealpete(SMALL.read_text(encoding="utf-8")), tmp_path)
    for seed in range(4):
        game = play(tmp_path, turns=10, seed=seed)
        assert game.state.turn == 11
        assert game.state.current_list in {"a", "b", "c", "d", "e", "f"}


def test_real_shaped_file_converts_loads_and_plays(tmp_path: Path) -> None:
    conversion = convert_dealpete(real_shaped())
    assert sorted(conversion.warnings) == sorted(
        [
            "spite: rolls[10] 'Spite 76 - 85' (76-85) overlaps rolls[9] 'Spite 71 - 76' on 76;"
            " 76 stays with the earlier entry and the later one becomes 77-85",
            "mildCreature: d100 (1-100) can roll 100 but no entry covers it; added a 'Roll again'"
            " entry there (a link back to mild-creature)",
            "synthetic: its desc is a building procedure (it names d6, d4, d30, 2d6); imported as"
            " a plain d30 (1-30) table over its 30 parts, with the procedure in the directions",
        ]
    )
    assert len(conversion.files) == 21
    write_conversion(conversion, tmp_path)
    ruleset = load_ruleset(tmp_path).ruleset
    assert ruleset.tables["a"].lookup(19).link == "b"
    assert ruleset.tables["f"].lookup(19).link == "a"
    assert ruleset.tables["global"].dice.notation == "d12×d10"
    assert len(ruleset.tables["spite"].bands) == 17
    assert play(tmp_path, turns=20).state.turn == 21


def test_ruleset_without_the_usual_lists(tmp_path: Path) -> None:
    conversion = convert(deal_list("odd", "Odd", "Roll d2.", 1, texts(2)))
    ruleset = yaml.safe_load(conversion.files["ruleset.yaml"])
    assert ruleset["chaos"] == {"from": "table", "table": "odd"}
    assert ruleset["start"] == {"roll": "none"}
    assert ruleset["spite"] == {"policy": "none"}
    assert "chaos.yaml: no listA-listF; every chaos roll is on odd" in conversion.warnings
    write_conversion(conversion, tmp_path)
    assert play(tmp_path, turns=3).state.turn == 4


def test_rules_are_copied_or_left_out_with_a_warning(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    conversion = one("l", "Roll d2.", 1, texts(2), rules_file=missing)
    assert yaml.safe_load(conversion.files["ruleset.yaml"])["rules"] == []
    assert "could not copy the rules text from" in warned(conversion, "rules")
    bundled = yaml.safe_load(one("l", "Roll d2.", 1, texts(2)).files["ruleset.yaml"])["rules"]
    assert len(bundled) >= 5
    assert all({"id", "title", "text"} <= set(r) for r in bundled)


def test_write_conversion_keeps_other_files_safe(tmp_path: Path) -> None:
    conversion = one("l", "Roll d2.", 1, texts(2))
    paths = write_conversion(conversion, tmp_path / "new")
    assert sorted(p.name for p in paths) == ["l.yaml", "ruleset.yaml"]
    with pytest.raises(TableError, match=r"already has l\.yaml, ruleset\.yaml; not overwriting"):
        write_conversion(conversion, tmp_path / "new")
    write_conversion(conversion, tmp_path / "new", overwrite=True)
    (tmp_path / "new" / "other.yaml").write_text("schema: 1\n", encoding="utf-8")
    with pytest.raises(TableError, match=r"other table files \(other.yaml\)"):
        write_conversion(conversion, tmp_path / "new", overwrite=True)


# -- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("broken-not-a-list.yaml", "expected a list of lists, each with short_name"),
        ("broken-no-short-name.yaml", "lists[1] has no short_name"),
        (
            "broken-roll-shape.yaml",
            "list 'vortex' rolls[1]: a roll of unknown shape (keys: 'color'",
        ),
        ("broken-xdice.yaml", "list 'listA' rolls[0]: Xdice should be [count, sides, bonus]"),
        ("broken-index.yaml", "list 'spite' rolls[1]: index 'fifty-one to 100': expected a number"),
        ("broken-yaml.yaml", "not valid YAML"),
        ("broken-no-rolls.yaml", "list 'musical': it has no rolls"),
        ("broken-duplicate.yaml", "list 'vortex': two lists have this short_name"),
        ("broken-link.yaml", "list 'listA' rolls[0]: list should be the short_name of a list"),
    ],
)
def test_broken_files_raise_table_error(name: str, message: str) -> None:
    with pytest.raises(TableError) as caught:
        convert_dealpete((DATA / name).read_text(encoding="utf-8"), name)
    assert str(caught.value).startswith(f"{name}: ")
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected a list of lists"),
        ("- 3", "lists[0]: expected a list (a mapping), got 3"),
        ("- {short_name: a, rolls: [3]}", "list 'a' rolls[0]: expected a card"),
        ("- {short_name: a, first_index: x, rolls: [{text: t}]}", "first_index should be a whole"),
        ("- {short_name: a, rolls: [{card: X, list: a}]}", "a card or a link, not both"),
        ("- {short_name: a, rolls: [{card: X, times: 0}]}", "times should be a whole number"),
        ("- {short_name: a, rolls: [{card: X, Xdice: [1, 2000, 0]}]}", "Xdice [1, 2000, 0]"),
        ("- {short_name: a, rolls: [{card: X, Xdice: [1, 6, -9]}]}", "can make X negative"),
        ("- {short_name: a, rolls: [{card: [X]}]}", "card should be text, got a list"),
        ("- {short_name: a, rolls: [{index: '5 - 3', text: t}]}", "runs backwards"),
        ("- {short_name: a, rolls: [{index: 99999, text: t}, {index: 1, text: u}]}", "sides"),
        ("- {short_name: a, rolls: [{list: a, times: 500}]}", "at most 100 times"),
        ("[" * 5000, "not valid YAML"),
        ("- {a: 2001-13-45}", "not valid YAML"),
    ],
)
def test_bad_input_raises_table_error(text: str, message: str) -> None:
    with pytest.raises(TableError) as caught:
        convert_dealpete(text)
    assert message in str(caught.value)


def test_too_big_deep_and_alias_bombs_are_refused_quickly() -> None:
    with pytest.raises(TableError, match="over 2,000,000 bytes"):
        convert_dealpete("#" * 2_000_001)
    with pytest.raises(TableError, match="not valid YAML"):
        convert_dealpete("[" * 3000 + "]" * 3000)
    # 9 * 3**20 values if anything expanded them: the converter only looks at what it expects.
    anchors = "".join(f"    l{i + 1}: &l{i + 1} [*l{i}, *l{i}, *l{i}]\n" for i in range(20))
    bomb = (
        "- short_name: l\n  junk:\n    l0: &l0 [x, x, x, x, x, x, x, x, x]\n"
        f"{anchors}  rolls: [{{card: *l20}}]\n"
    )
    with pytest.raises(TableError, match="rolls\\[0\\]: card should be text, got a list"):
        convert_dealpete(bomb)


# -- any input -----------------------------------------------------------------------------------

SHORTS = ["listA", "listB", "global", "spite", "vortex", "extremeChaos", "x", ""]
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 150),
    st.text(max_size=12),
    st.sampled_from([*SHORTS, "1 - 3", "76 - 85", "2-", "Roll d6", "{1d4}", "{R}"]),
)
descs = st.sampled_from(["", "Roll d6.", "Roll d10.", TENS8, "Roll 3d8.", "Roll 2d6 + 1, d4, d8."])
# Hostile: any keys and values, most of which the converter must refuse.
roll_values = st.one_of(scalars, st.lists(st.integers(-2, 12), max_size=4))
roll_keys = ["card", "Xdice", "times", "color", "name", "text", "list", "index"]
roll_keys += ["mana_cost", "type", "power", "toughness", "odd"]
any_roll = st.dictionaries(st.sampled_from(roll_keys), roll_values, max_size=4)
any_list = st.fixed_dictionaries(
    {"short_name": st.sampled_from(SHORTS), "rolls": st.lists(any_roll | scalars, max_size=12)},
    optional={
        "full_name": scalars,
        "desc": descs | scalars,
        "first_index": st.sampled_from([0, 1, 2, 3, 10, -1, "1", True]),
        "format": scalars,
    },
)
# Plausible: the shapes Deal's file uses, with odd numbering, so most inputs convert.
extras = st.fixed_dictionaries(
    {},
    optional={
        "index": st.sampled_from(["1 - 3", "76 - 85", 5, 100, "2-3", 0, "10 - 12"]),
        "times": st.integers(1, 4),
        "color": st.sampled_from(["red", "blue"]),
    },
)
card = st.fixed_dictionaries(
    {"card": st.sampled_from(["Fireball", "Shock", "Hill Giant"])},
    optional={
        "Xdice": st.lists(st.integers(0, 8), min_size=3, max_size=3),
        "mana_cost": st.sampled_from(["{3}{R}", "{G}"]),
        "type": st.just("Creature — Giant"),
        "power": st.integers(0, 9),
        "toughness": st.sampled_from([1, "*"]),
    },
)
custom = st.fixed_dictionaries(
    {"text": st.text(min_size=1, max_size=30)}, optional={"name": scalars}
)
link = st.fixed_dictionaries({"list": st.sampled_from(SHORTS[:-1])})
good_roll = st.builds(lambda a, b: {**a, **b}, card | custom | link, extras)
good_list = st.fixed_dictionaries(
    {
        "short_name": st.sampled_from(SHORTS[:-1]),
        "desc": descs,
        "first_index": st.sampled_from([1, 1, 2, 3, 10, 0]),
        "rolls": st.lists(good_roll, min_size=1, max_size=25),
    },
    optional={"full_name": st.text(max_size=20)},
)
plausible = st.lists(good_list, min_size=1, max_size=4, unique_by=lambda item: item["short_name"])
hostile = st.lists(any_list, max_size=4) | st.recursive(scalars, lambda s: st.lists(s, max_size=3))


def load_converted(conversion: Conversion) -> None:
    with tempfile.TemporaryDirectory() as folder:
        write_conversion(conversion, Path(folder))
        assert load_folder(Path(folder)).ruleset is not None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plausible)
def test_plausible_input_always_converts_to_files_that_load(data: list[dict[str, Any]]) -> None:
    load_converted(convert_dealpete(yaml.safe_dump(data, allow_unicode=True)))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile)
def test_any_input_gives_a_conversion_that_loads_or_table_error(data: object) -> None:
    try:
        conversion = convert_dealpete(yaml.safe_dump(data, allow_unicode=True))
    except TableError as error:
        message = str(error)
        assert message.startswith("chaos.yaml: ")
        return
    load_converted(conversion)
