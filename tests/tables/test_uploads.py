"""A group's uploads: checked alone and inside the rulesets they may be played in, then played
in place of the bundled file with the same id (or beside the others, for a new id)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.tables import FileKind, TableProblems, load_bundled, load_ruleset
from bot.tables.registry import bundled_dir
from bot.tables.snapshot import freeze
from bot.tables.uploads import MAX_UPLOAD, check_upload, with_uploads
from tests.tables.samples import MINI, write_folder

BUNDLED = load_bundled()
TABLES = bundled_dir()
PERSONA = (TABLES / "classic" / "persona.yaml").read_text(encoding="utf-8")
JOKER = "name: Your playgroup's joker"

HOUSE = """\
schema: 1
kind: table
id: house
name: House Rules
revision: "1"
dice: d6
entries:
  - at: 1-5
    name: Pizza Break
    text: Everyone eats a slice.
  - at: 6
    name: Off to WackyLand
    link: wacky
"""


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def upload_files() -> list[Path]:
    files = []
    for loaded in BUNDLED.values():
        files += [Path(f.name) for f in loaded.files if f.kind is not FileKind.RULESET]
    return files


# -- what is accepted ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", upload_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_bundled_table_and_deck_can_be_uploaded_as_it_is(path: Path) -> None:
    # Classic's Chaos List and the deck ruleset's Chaos deck share the id "chaos": each fits
    # its own ruleset, and that is enough.
    file = check_upload(path.name, path.read_bytes(), BUNDLED.values())
    assert file.kind is not FileKind.RULESET
    assert file.id == path.stem or file.id in {f.id for r in BUNDLED.values() for f in r.files}


def test_an_edited_list_replaces_the_bundled_one_of_the_same_id() -> None:
    edited = PERSONA.replace(JOKER, "name: Dana the Comedian")
    assert check_upload("persona.yaml", edited.encode(), BUNDLED.values()).id == "persona"
    classic = BUNDLED["classic"]
    texts = with_uploads(classic, {"persona": edited})
    declaring = [name for name, text in texts.items() if "\nid: persona\n" in text]
    assert declaring == ["classic/uploaded-persona.yaml"]
    _, played = freeze(texts, classic.folder)
    persona = played.ruleset.tables["persona"]
    assert persona.bands[0].entry.name == "Dana the Comedian"
    assert played.ruleset.tables["chaos"] == classic.ruleset.tables["chaos"]


def test_a_list_with_a_new_id_is_added_to_the_rulesets_tables() -> None:
    assert check_upload("house.yaml", HOUSE.encode(), BUNDLED.values()).id == "house"
    classic = BUNDLED["classic"]
    texts = with_uploads(classic, {"house": HOUSE})
    ruleset_text = texts["classic/ruleset.yaml"]
    original = (TABLES / "classic" / "ruleset.yaml").read_text(encoding="utf-8")
    assert ruleset_text.count("\n") == original.count("\n")  # every other line stays put
    assert 'tables: [chaos, ewl, wacky, persona, "house"]' in ruleset_text
    _, played = freeze(texts, classic.folder)
    house = played.ruleset.tables["house"]
    assert [b.entry.name for b in house.bands] == ["Pizza Break", "Off to WackyLand"]


def test_a_new_id_is_added_to_a_tables_list_written_as_a_block(tmp_path: Path) -> None:
    block = MINI["ruleset.yaml"].replace(
        "tables: [chaos, ewl, wacky]", "tables:\n  - chaos  # the main list\n  - ewl\n  - wacky"
    )
    loaded = load_ruleset(write_folder(tmp_path, {**MINI, "ruleset.yaml": block}))
    house = HOUSE.replace("link: wacky", "link: chaos")
    texts = with_uploads(loaded, {"house": house})
    assert '  - wacky\n  - "house"\n' in texts["mini/ruleset.yaml"]
    _, played = freeze(texts, loaded.folder)
    assert set(played.ruleset.tables) == {"chaos", "ewl", "wacky", "house"}


def test_two_uploads_at_once_one_replacing_and_one_new() -> None:
    edited = PERSONA.replace(JOKER, "name: Dana the Comedian")
    classic = BUNDLED["classic"]
    _, played = freeze(with_uploads(classic, {"persona": edited, "house": HOUSE}), classic.folder)
    assert played.ruleset.tables["persona"].bands[0].entry.name == "Dana the Comedian"
    assert "house" in played.ruleset.tables


# -- what is refused -----------------------------------------------------------------------------


def test_every_problem_of_a_broken_file_is_named_with_its_line() -> None:
    broken = HOUSE.replace('revision: "1"', 'revision: "1"\ncolour: red').replace("at: 6", "at: 7")
    with pytest.raises(TableProblems) as caught:
        check_upload("house.yaml", broken.encode(), BUNDLED.values())
    lines = str(caught.value).splitlines()
    assert len(lines) == 3, lines
    assert lines[0].startswith(f"house.yaml:{line_of(broken, 'colour')} colour: unknown key")
    assert lines[1].startswith("house.yaml:")
    assert "no entry for 6" in lines[1]
    assert lines[2].startswith(f"house.yaml:{line_of(broken, 'at: 7')} entries[1].at: 7 can")


def test_a_link_to_a_list_the_ruleset_lacks_is_refused_at_its_line() -> None:
    edited = PERSONA.replace(JOKER, f"{JOKER}\n    link: nowhere")
    with pytest.raises(TableProblems) as caught:
        check_upload("my-persona.yaml", edited.encode(), BUNDLED.values())
    (problem,) = caught.value.problems
    assert problem.file == "classic/my-persona.yaml"
    assert problem.line == line_of(edited, "link: nowhere")
    assert problem.path == "entries[0].link"
    assert "no list 'nowhere'" in problem.message


def test_a_new_list_that_fits_no_ruleset_names_the_problem_in_each() -> None:
    lost = HOUSE.replace("link: wacky", "link: nowhere")
    with pytest.raises(TableProblems) as caught:
        check_upload("house.yaml", lost.encode(), BUNDLED.values())
    files = {p.file for p in caught.value.problems}
    assert files == {f"{name}/house.yaml" for name in BUNDLED}
    assert {p.line for p in caught.value.problems} == {line_of(lost, "link: nowhere")}


def test_a_new_list_that_fits_one_ruleset_is_accepted_but_not_played_in_another() -> None:
    # It links to WackyLand, which only classic has.
    check_upload("house.yaml", HOUSE.encode(), BUNDLED.values())
    lists = BUNDLED["lists"]
    with pytest.raises(TableProblems, match=r"lists/uploaded-house.yaml:\d+ entries\[1\].link"):
        freeze(with_uploads(lists, {"house": HOUSE}), lists.folder)


def test_a_list_of_the_wrong_kind_for_the_rulesets_id_is_refused() -> None:
    # "globals" is the deck ruleset's Global deck: a list can't take its place.
    as_list = HOUSE.replace("id: house", "id: globals").replace("link: wacky", "text: Hi.")
    with pytest.raises(TableProblems, match="this needs a deck"):
        check_upload("globals.yaml", as_list.encode(), BUNDLED.values())


def test_a_ruleset_file_is_refused() -> None:
    data = (TABLES / "classic" / "ruleset.yaml").read_bytes()
    with pytest.raises(TableProblems, match=r"ruleset.yaml:\d+ kind: a ruleset file can't be"):
        check_upload("ruleset.yaml", data, BUNDLED.values())


def test_a_file_over_the_limit_is_refused_unread() -> None:
    data = HOUSE.encode() + b"#" * MAX_UPLOAD
    with pytest.raises(TableProblems, match="256 KB at most"):
        check_upload("house.yaml", data, BUNDLED.values())


def test_a_file_that_is_not_yaml_is_refused_at_its_line() -> None:
    with pytest.raises(TableProblems, match=r"^house.yaml:3: this is not valid YAML"):
        check_upload(
            "house.yaml", b"schema: 1\nkind: table\nname: a: b\nid: house\n", BUNDLED.values()
        )


def test_peter_deals_file_is_refused_with_a_pointer_to_the_converter() -> None:
    data = (Path(__file__).parent.parent / "data" / "dealpete" / "small.yaml").read_bytes()
    with pytest.raises(TableProblems) as caught:
        check_upload("chaos.yaml", data, BUNDLED.values())
    (problem,) = caught.value.problems
    assert problem.file == "chaos.yaml"
    assert "Peter Deal's chaos.yaml" in problem.message
    assert "chaos-referee tables import --from dealpete" in problem.message
