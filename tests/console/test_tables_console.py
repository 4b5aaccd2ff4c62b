"""The console's tables, through the real `chaos-referee` in a subprocess: `table validate`,
`table import`, `table export` and `game start ... tables`, and `play --tables DIR` with a
folder of one's own, its mistakes, and a resumed game that keeps the tables it started with."""

from __future__ import annotations

import shutil
from pathlib import Path

from bot.tables import bundled_dir, find_ruleset
from tests.console.test_transcripts import assert_in_order, block, play, run

CLASSIC = find_ruleset("classic").ruleset
HOUSE = Path(__file__).parents[1] / "data" / "house.yaml"
BROKEN = """\
schema: 1
kind: table
id: broken
name: Broken
revision: "1"
dice: d6
entries:
  - at: 1-7
    nme: Fog
"""


def test_validate_import_export_and_play_a_stored_table(tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    (tmp_path / "big.yaml").write_text("# " + "x" * 300_000 + "\n", encoding="utf-8")
    stdin = (
        f"table validate {HOUSE}\n"
        "table validate broken.yaml\n"
        "table validate missing.yaml\n"
        "table validate /dev/zero\n"
        "table import big.yaml\n"
        "table validate .\n"
        "table import bad\x00name.yaml\n"
        "table export house\n"
        f"table import {HOUSE}\n"
        "table import broken.yaml\n"
        "table list\n"
        "table export house\n"
        "table export house copy.yaml\n"
        "as Ann: game start classic tables house seed 4\n"
        "game join Bob\n"
        "game begin\n"
        "chaos roll house\n"
    )
    stdout = play(tmp_path, stdin=stdin)
    assert_in_order(
        stdout,
        r"> table validate .*house\.yaml",
        r"No problems: House Rules \(house\), a list of 1 entry \(d6\)\. Nothing was stored\.",
        r"> table validate broken\.yaml",
        # every problem, each with its file, line and key, as the loader words them
        r"! broken\.yaml:8 entries\[0\]: an entry needs 'name'",
        r"broken\.yaml:8 entries\[0\]\.at: 1-7 goes outside 1-6, the results d6 can make",
        r"broken\.yaml:9 entries\[0\]\.nme: unknown key 'nme' \(did you mean 'name'\?\).*",
        r"> table validate missing\.yaml",
        r"! can't read missing\.yaml: it is not there; give a \.yaml table file",
        r"> table validate /dev/zero",
        r"! can't read /dev/zero: it is not a file; give a \.yaml table file",
        r"> table import big\.yaml",
        r"! big\.yaml is larger than 256 KB, a table file's limit",
        r"> table validate \.",
        r"! can't read \.: it is a folder; give a \.yaml table file",
        r"> table import bad.name\.yaml",
        r"! a file's name can't contain a control character \(U\+0000\)",
        r"> table export house",
        r"! this console has no stored table 'house' \(`table import FILE` stores one\)",
        r"> table import .*house\.yaml",
        r"Stored House Rules \(house\), a list of 1 entry \(d6\), as revision 1\. Play with it:"
        r" `game start classic tables house`\.",
        r"> table import broken\.yaml",
        r"! broken\.yaml:.+",
        r"> table list",
        r"  chaos +Chaos List .+",
        r"Tables stored here \(play with `game start RULESET tables ID`\):",
        r"  house \(revision 1\)",
        r"> table export house copy\.yaml",
        r"Wrote house to copy\.yaml\.",
        r"> as Ann: game start classic tables house seed 4",
        r"Ann opens a classic game \(seed 4, 20 life\)\.",
        r"> chaos roll house",
        r"Ann rolls House Rules d6 \[\d\] = \d → #1-6 Pizza Break",
    )
    lines = stdout.splitlines()
    second = len(lines) - lines[::-1].index("> table export house")  # the export that works
    exported = lines[second : lines.index("> table export house copy.yaml")]
    assert "\n".join(exported) == HOUSE.read_text().rstrip("\n")
    assert (tmp_path / "copy.yaml").read_text(encoding="utf-8") == HOUSE.read_text()
    assert "broken" not in "\n".join(block(stdout, "table list"))  # nothing was stored


def own_tables(folder: Path) -> Path:
    """A copy of the classic ruleset's folder whose start list's 18 is a house entry."""
    own = folder / "own"
    shutil.copytree(bundled_dir() / "classic", own)
    ewl = own / "ewl.yaml"
    text = ewl.read_text(encoding="utf-8")
    assert "name: Patience Rewarded" in text
    ewl.write_text(text.replace("name: Patience Rewarded", "name: Homebrew Patience"))
    return own


def test_play_with_a_folder_of_ones_own_tables_and_resume_with_them(tmp_path: Path) -> None:
    own = own_tables(tmp_path)
    args = ("--players", "Ann,Bob", "--seed", "1265", "--game", "mine")
    first = play(tmp_path, "--tables", str(own), *args, stdin="table lookup ewl 18\n")
    assert_in_order(
        first,
        r"Ann rolls EnchantWorldLand d20 \[18\] = 18 → #18 Homebrew Patience",
        r"   \+ E1 Homebrew Patience stays in play as a world enchantment\.",
        r"> table lookup ewl 18",
        r"EnchantWorldLand 18: Homebrew Patience",
    )
    # The author edits the list again; the game in progress keeps the tables it started with,
    # resumed with the folder or without it.
    ewl = own / "ewl.yaml"
    ewl.write_text(ewl.read_text().replace("Homebrew Patience", "Edited Later"))
    for extra in ((), ("--tables", str(own))):
        again = play(tmp_path, *extra, "--game", "mine", stdin="table lookup ewl 18\n")
        assert "Resuming the game at table 'mine'" in again
        assert "  E1 Homebrew Patience (world enchantment)" in again
        assert block(again, "table lookup ewl 18")[0] == "EnchantWorldLand 18: Homebrew Patience"
        assert "Edited Later" not in again
    # A new game plays the folder as it is now.
    fresh = play(tmp_path, "--tables", str(own), *args[:4], "--game", "new", stdin="")
    assert "→ #18 Edited Later" in fresh


def test_play_with_a_folder_plays_the_folders_ruleset_whatever_it_is(tmp_path: Path) -> None:
    # The README's `play --tables tables/mygroup`: a group's copy of any bundled ruleset, or one
    # under a name of its own, is what the game plays, not the default classic.
    for bundled, name in (("lists", "lists"), ("deck", "deck"), ("lists", "mygroup")):
        own = tmp_path / f"{bundled}-{name}"
        shutil.copytree(bundled_dir() / bundled, own)
        head = own / "ruleset.yaml"
        head.write_text(head.read_text().replace(f"id: {bundled}\n", f"id: {name}\n", 1))
        out = play(
            tmp_path,
            "--tables",
            str(own),
            "--players",
            "Ann,Bob",
            "--game",
            name,
            stdin="game status\n",
        )
        assert f"Ann opens a {name} game" in out, out
        assert "classic" not in out.lower()
    # A --ruleset that isn't the folder's is a usage mistake, not a quiet switch of rulesets.
    refused = run(
        tmp_path, "play", "--db", "games.db", "--tables", str(own), "--ruleset", "classic"
    )
    assert refused.returncode == 2
    assert "are the ruleset 'mygroup', not 'classic'" in refused.stderr
    assert play(tmp_path, "--tables", str(own), "--ruleset", "mygroup", stdin="") is not None


def test_a_folder_that_is_no_ruleset_gets_a_sentence_and_exit_code_2(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "lists").mkdir()
    shutil.copy(HOUSE, tmp_path / "lists" / "house.yaml")
    (tmp_path / "file.yaml").write_text("schema: 1\n")
    cases = {
        "nowhere": "there is no folder nowhere: give --tables a folder of table files",
        "file.yaml": "file.yaml is a file, not a folder",
        "empty": "empty has no table files (.yaml)",
        "lists": "lists is not a ruleset folder: none of its files has kind: ruleset",
    }
    for folder, sentence in cases.items():
        result = run(tmp_path, "play", "--db", "games.db", "--tables", folder)
        assert result.returncode == 2, (folder, result.stderr)
        assert result.stderr.startswith("chaos-referee play: error: argument --tables: ")
        assert sentence in result.stderr, result.stderr
        assert "Traceback" not in result.stderr
        assert result.stdout == ""


def test_problems_in_the_folder_name_file_line_and_key(tmp_path: Path) -> None:
    own = own_tables(tmp_path)
    (own / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    wacky = own / "wacky.yaml"
    wacky.write_text(wacky.read_text().replace("dice: 2d10", "dice: 2d10\nsides: 3", 1))
    result = run(tmp_path, "play", "--db", "games.db", "--tables", str(own))
    assert result.returncode == 1, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == f"chaos-referee play: the tables in {own} don't load (4 problems):"
    assert f"{own / 'broken.yaml'}:9 entries[0].nme: unknown key 'nme'" in result.stderr
    assert f"{own / 'wacky.yaml'}:9 sides: unknown key 'sides'" in result.stderr
    assert "Traceback" not in result.stderr


def test_show_and_lookup_name_an_entry_s_tags_which_house_rules_may_leave_out(
    tmp_path: Path,
) -> None:
    """`house exclude` leaves out entries by their tags: a table shows them where it shows an
    entry, and a lookup says what each means."""
    stdin = "table show wacky\ntable lookup chaos 8\n"
    shown = play(tmp_path, "--players", "Ann,Bob", "--seed", "1", stdin=stdin)
    wacky = block(shown, "table show wacky")
    chairs, backwards = (
        wacky.index(" 4  Musical Chairs  (3%)"),
        wacky.index(" 5  Backwards Day  (4%)"),
    )
    assert wacky[chairs + 1 : backwards][-1] == "      tags: swingy"  # under its effect
    assert sum(line.strip().startswith("tags: ") for line in wacky) == sum(
        bool(band.entry.tags) for band in CLASSIC.tables["wacky"].bands
    )
    assert block(shown, "table lookup chaos 8") == [
        "Chaos List 8: Armageddon",
        "  Destroy every land on the battlefield.",
        "  -> the card Armageddon",
        "  tags: mana, swingy",
        "    mana — is about mana and lands: adds, taxes or takes away mana, plays, fetches or"
        " destroys lands",
        "    swingy — can end a game or turn it over: a player loses, the board or the lands are"
        " wiped, life totals are swapped or set",
    ]
    # A deck's cards too.
    stdin = "table show chaos\ntable lookup Timetwister\n"
    dealt = play(tmp_path, "--ruleset", "deck", "--players", "Ann,Bob", "--game", "d", stdin=stdin)
    deck = block(dealt, "table show chaos")
    twister = deck.index("  1x  Timetwister")
    assert "      tags: slow, swingy" in deck[twister : twister + 5]
    assert "  tags: slow, swingy" in block(dealt, "table lookup Timetwister")
