"""``chaos-referee tables ...`` run as a real process: check, show and simulate."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tables.samples import CHAOS, MINI, table_file, write_folder

PROBLEM_LINE = re.compile(r"^\S+\.yaml:\d+[ :] ?\S")


def tables(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "tables", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def assert_no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stderr
    assert "internal error" not in result.stderr


# -- check -------------------------------------------------------------------------------------


def test_check_valid_folder(tmp_path: Path) -> None:
    result = tables("check", write_folder(tmp_path, MINI))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("\n") == 1
    assert result.stdout.startswith("OK: 4 files - rulesets: mini; 3 tables with 12 entries")


def test_check_a_folder_of_rulesets_and_single_files(tmp_path: Path) -> None:
    write_folder(tmp_path / "rulesets", MINI, "one")
    write_folder(tmp_path / "rulesets", MINI, "two")
    # A single file is checked on its own: its links wait until its folder is checked.
    loose = write_folder(
        tmp_path, {"loose.yaml": table_file("d2", "  - {at: 1-2, name: x, link: b}\n")}
    )
    result = tables("check", tmp_path / "rulesets", loose / "loose.yaml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "9 files" in result.stdout


def test_check_invalid_prints_one_line_per_problem(tmp_path: Path) -> None:
    chaos = CHAOS.replace("dice: d10", "dice: d12").replace("link: wacky", "link: nowhere")
    chaos = chaos.replace("lasts: next_turn", "lasts: forever")
    folder = write_folder(tmp_path, {**MINI, "chaos.yaml": chaos})
    result = tables("check", folder)
    assert result.returncode == 1
    assert_no_traceback(result)
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    assert all(PROBLEM_LINE.match(line) for line in lines), lines
    assert lines[0].startswith(f"{folder / 'chaos.yaml'}:14 entries[1].link: there is no list")
    assert "3 problems in 1 file" in result.stderr


@pytest.mark.parametrize(
    "text",
    ["", "schema: 1\n", "[unclosed", "schema: 99\n", "a: &a [*a]\n", "\x00", "- - - - - - -"],
)
def test_check_never_shows_a_traceback(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, "utf-8")
    result = tables("check", path)
    assert result.returncode == 1
    assert_no_traceback(result)
    assert all(PROBLEM_LINE.match(line) for line in result.stdout.splitlines())


def test_check_missing_path(tmp_path: Path) -> None:
    result = tables("check", tmp_path / "nope")
    assert result.returncode == 1
    assert "no such file or folder" in result.stdout


def test_tables_needs_a_subcommand() -> None:
    result = tables()
    assert result.returncode == 2
    assert "usage:" in result.stderr


# -- show --------------------------------------------------------------------------------------


def test_show_a_table_as_players_read_it(tmp_path: Path) -> None:
    result = tables("show", "chaos", "--path", write_folder(tmp_path, MINI))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("Chaos List (chaos), revision 1\nRoll d10: 1 to 10.\nRoll a d10.\n")
    assert "3-4  Fireball  (20%)" in out
    for words in [
        "-> roll 2 times on this list",
        "-> roll once on WackyLand",
        "-> the card Fireball with X = 1d6",
        "-> you get 2 CounterRolls",
        "-> you gain 1d6 life",
        "-> lasts until its owner's next turn",
        "-> play changes direction",
        "-> roll 2 times on this list, and keep one of them",
        "-> roll once on each of EnchantWorldLand, WackyLand",
    ]:
        assert words in out


def test_show_by_file_and_in_a_tables_folder(tmp_path: Path) -> None:
    folder = write_folder(tmp_path, MINI)
    by_file = tables("show", folder / "wacky.yaml")
    assert by_file.returncode == 0
    assert "Roll 2d4: 2 to 8." in by_file.stdout
    assert "2-5  Slow time  (62%)" in by_file.stdout
    in_root = tables("show", "ewl", "--path", tmp_path, "--ruleset", "mini")
    assert "-> stays in play as a world enchantment" in in_root.stdout


def test_show_unknown_table(tmp_path: Path) -> None:
    result = tables("show", "nothing", "--path", write_folder(tmp_path, MINI))
    assert result.returncode == 1
    assert_no_traceback(result)
    assert "there is no list or deck 'nothing' (there are: chaos, ewl, wacky)" in result.stderr


# -- simulate ----------------------------------------------------------------------------------


def simulate_json(folder: Path, *args: str) -> dict[str, object]:
    result = tables("simulate", folder, "--json", *args)
    assert result.returncode == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_simulate_counts_add_up(tmp_path: Path) -> None:
    data = simulate_json(write_folder(tmp_path, MINI), "--turns", "60", "--seed", "4")
    assert data["turns"] == 60
    assert data["players"] == 4
    per_table = data["tables"]
    assert isinstance(per_table, dict)
    for counts in per_table.values():
        assert sum(counts["entries"].values()) == counts["rolls"]
    assert sum(counts["rolls"] for counts in per_table.values()) == data["rolls"]
    per_turn = data["rolls_per_turn"]
    assert isinstance(per_turn, dict)
    assert per_turn["max"] >= 1
    assert per_turn["mean"] == pytest.approx(data["rolls"] / 60, abs=1e-3)  # type: ignore[operator]
    assert per_table["chaos"]["rolls"] >= 60
    assert 0 < data["meta_share"] < 1  # type: ignore[operator]


def test_simulate_is_deterministic_with_a_seed(tmp_path: Path) -> None:
    folder = write_folder(tmp_path, MINI)
    first = tables("simulate", folder, "--turns", "40", "--seed", "9")
    again = tables("simulate", folder, "--turns", "40", "--seed", "9")
    other = tables("simulate", folder, "--turns", "40", "--seed", "10")
    assert first.returncode == 0
    assert first.stdout == again.stdout
    assert first.stdout != other.stdout
    assert "Mini Chaos (mini): 40 turns with 4 players, seed 9" in first.stdout


def test_simulate_a_table_of_one_entry(tmp_path: Path) -> None:
    ruleset = (
        "schema: 1\nkind: ruleset\nid: one\nname: One\nrevision: '1'\n"
        "chaos: {from: table, table: only}\ntables: [only]\n"
    )
    only = table_file("d6", "  - {at: 1-6, name: Same again, text: Nothing changes.}\n", "only")
    folder = write_folder(tmp_path, {"ruleset.yaml": ruleset, "only.yaml": only}, "one")
    data = simulate_json(folder, "--turns", "25", "--seed", "1")
    assert data["rolls"] == 25
    assert data["tables"] == {"only": {"rolls": 25, "entries": {"1-6": 25}}}
    assert (data["meta"], data["max_depth"], data["budget_exhausted"]) == (0, 0, 0)
    text = tables("simulate", folder, "--turns", "25")
    assert re.search(r"\n  1-6 +25 100\.0% +100\.0%  Same again\n", text.stdout)


def test_simulate_lists_and_decks(tmp_path: Path) -> None:
    lists = (
        "schema: 1\nkind: ruleset\nid: ab\nname: AB\nrevision: '1'\n"
        "chaos: {from: lists, lists: [A, B]}\ntables: [A, B]\n"
    )
    a = table_file("d2", "  - {at: 1, name: stay}\n  - {at: 2, name: up, next_list: B}\n", "A")
    b = table_file("d2", "  - {at: 1, name: stay}\n  - {at: 2, name: down, link: A}\n", "B")
    folder = write_folder(tmp_path, {"ruleset.yaml": lists, "a.yaml": a, "b.yaml": b}, "ab")
    data = simulate_json(folder, "--turns", "50")
    list_turns = data["list_turns"]
    assert isinstance(list_turns, dict)
    assert sum(list_turns.values()) == 50
    assert set(list_turns) == {"A", "B"}


def test_simulate_unknown_ruleset(tmp_path: Path) -> None:
    write_folder(tmp_path, MINI)
    result = tables("simulate", "maxi", "--path", tmp_path)
    assert result.returncode == 1
    assert_no_traceback(result)
    assert "there is no ruleset 'maxi' (rulesets: mini)" in result.stderr


DECK_RULESET = """\
schema: 1
kind: ruleset
id: dk
name: Deck
revision: "1"
chaos: {from: deck, deck: chaos}
start: {roll: global_deck, deck: globals}
spite: {policy: deck_look, look: 3}
tables: [chaos, globals]
"""
DECK = """\
schema: 1
kind: deck
id: chaos
name: Chaos deck
revision: "1"
cards:
  - {id: bolt, name: Bolt, text: "Deal {1d4} damage.", copies: 2}
  - id: fire-ice
    name: Fire // Ice
    halves:
      - {id: fire, name: Fire, text: Deal 2 damage.}
      - {id: ice, name: Ice, text: Tap a permanent.}
"""
GLOBALS = """\
schema: 1
kind: deck
id: globals
name: Global deck
revision: "1"
cards:
  - {id: calm, name: Calm, text: Nothing happens., lasts: {turns: 2}}
"""


def test_show_and_simulate_a_deck(tmp_path: Path) -> None:
    files = {"ruleset.yaml": DECK_RULESET, "chaos.yaml": DECK, "globals.yaml": GLOBALS}
    folder = write_folder(tmp_path, files, "dk")
    shown = tables("show", "chaos", "--path", folder)
    assert shown.returncode == 0, shown.stderr
    assert "Chaos deck (chaos): a deck of 3 cards" in shown.stdout
    assert "Fire // Ice  (split: pick a half)" in shown.stdout
    data = simulate_json(folder, "--turns", "30", "--seed", "5")
    per_table = data["tables"]
    assert isinstance(per_table, dict)
    assert per_table["chaos"]["rolls"] == 30
    assert "ice" not in per_table["chaos"]["entries"]  # the first half is always the one picked
    reshuffles = data["reshuffles"]
    assert isinstance(reshuffles, dict)
    assert reshuffles["chaos"] >= 9  # three cards a pass, thirty draws


def test_import_dealpete_writes_a_folder_that_checks_and_reports_each_quirk(tmp_path: Path) -> None:
    sample = Path(__file__).resolve().parents[1] / "data" / "dealpete" / "small.yaml"
    out = tmp_path / "imported"
    result = tables("import", "--from", "dealpete", sample, "-o", out)
    assert result.returncode == 0, result.stdout + result.stderr
    assert_no_traceback(result)
    assert "76" in result.stderr  # the overlapping spite bands are reported
    assert "OK:" in result.stdout
    assert (out / "ruleset.yaml").is_file()
    again = tables("check", out)
    assert again.returncode == 0, again.stdout


def test_import_of_a_broken_file_is_one_clear_line(tmp_path: Path) -> None:
    bad = tmp_path / "chaos.yaml"
    bad.write_text("just: a mapping\n", encoding="utf-8")
    result = tables("import", "--from", "dealpete", bad, "-o", tmp_path / "out")
    assert result.returncode == 1
    assert_no_traceback(result)
    assert result.stderr.startswith("chaos-referee: ")


# -- what isn't a table file -------------------------------------------------------------------


def test_check_refuses_dice_with_fewer_than_two_sides(tmp_path: Path) -> None:
    """The docs allow 2 to 1000 sides; `{d0}` once passed, and rolled as the number 0."""
    text = CHAOS.replace("Gain {1d6} life.", "Gain {d0} life, or {5d0}.").replace(
        "x: 1d6", "x: 2d1"
    )
    path = tmp_path / "chaos.yaml"
    path.write_text(text, "utf-8")
    result = tables("check", path)
    assert result.returncode == 1
    assert_no_traceback(result)
    assert result.stdout.splitlines() == [
        f"{path}:18 entries[2].x: expected dice like 2d6 for X: '2d1': a die must have 2 to 1000"
        " sides; got 1.",
        f"{path}:25 entries[4].text: 'd0': a die must have 2 to 1000 sides; got 0. Braces with a d"
        " in them are rolled as dice when the entry comes up (mana symbols like {2}{R} are left as"
        " they are)",
    ]


def test_check_reads_regular_files_only(tmp_path: Path) -> None:
    """A FIFO used to hang the check, and a link to /dev/zero to read until memory ran out."""
    os.mkfifo(tmp_path / "fifo.yaml")
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    result = tables("check", tmp_path / "fifo.yaml", tmp_path / "zero.yaml")
    assert result.returncode == 1
    assert_no_traceback(result)
    assert result.stdout.splitlines() == [
        f"{tmp_path / 'fifo.yaml'}:1: can't read this file: it is a named pipe (FIFO), not a file",
        f"{tmp_path / 'zero.yaml'}:1: can't read this file: it is a device, not a file",
    ]


def test_import_reads_regular_files_only(tmp_path: Path) -> None:
    """`tables import` on a FIFO waited for a writer forever; on /dev/zero it read until memory
    ran out. Each is refused at once, and a file too large to be a list file is too."""
    os.mkfifo(tmp_path / "fifo.yaml")
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    (tmp_path / "huge.yaml").write_bytes(b"# " + b"x" * (5 * 2**20))
    said = {
        "fifo.yaml": "it is a named pipe (FIFO), not a file",
        "zero.yaml": "it is a device, not a file",
        "huge.yaml": "the file is over 2,000,000 bytes",
    }
    for name, words in said.items():
        result = tables("import", tmp_path / name, "--from", "dealpete", "-o", tmp_path / "out")
        assert result.returncode != 0
        assert_no_traceback(result)
        assert words in result.stderr
        assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("digits", ["٣", "①"])
@pytest.mark.parametrize("option", ["--turns", "--players", "--seed"])
def test_simulate_counts_are_written_with_the_digits_0_to_9(option: str, digits: str) -> None:
    """`int()` reads ٣ as 3 (and ① not at all): a count in other digits is refused, saying so."""
    result = tables("simulate", "classic", option, digits)
    assert result.returncode == 2
    assert_no_traceback(result)
    assert f"expected a whole number written with the digits 0 to 9, got '{digits}'" in (
        result.stderr
    )
