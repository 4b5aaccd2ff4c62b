"""/table through Discord: the lists in play, one list, one result, and a server's own tables
(upload with Manage Server, check, download, play)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.tables import load_bundled
from bot.tables.registry import bundled_dir
from tests.e2e.table import JSON, Table, final_answer, is_ephemeral, text_of
from tests.fakediscord.plugin import aio
from tests.fakediscord.server import FakeDiscord

BUNDLED = load_bundled()
CLASSIC = BUNDLED["classic"].ruleset
EWL = (bundled_dir() / "classic" / "ewl.yaml").read_bytes()
PERSONA = (bundled_dir() / "classic" / "persona.yaml").read_bytes()
JOKER = b"name: Your playgroup's joker"

HOUSE = (Path(__file__).resolve().parents[1] / "data" / "house.yaml").read_bytes()

BROKEN = b"""\
schema: 1
kind: table
id: house
name: House Rules
revision: "1"
dice: d6
colour: red
entries:
  - at: 1-3
    name: Pizza Break
    text: Everyone eats a slice.
    lasts: forever
"""


def renamed(data: bytes, name: str) -> bytes:
    """A table file with every entry called `name`: whatever is rolled on it shows it."""
    lines = [
        b"    name: " + name.encode() if line.startswith(b"    name: ") else line
        for line in data.splitlines()
    ]
    return b"\n".join(lines) + b"\n"


def downloads(fake: FakeDiscord) -> list[str]:
    return [c.path for c in fake.calls_to("GET /attachments/*")]


async def upload(t: Table, filename: str, data: bytes, *, user: JSON | None = None) -> JSON:
    """/table import of a file, as the server's owner unless `user` says otherwise."""
    file = t.fake.attachment(filename, data)
    return await final_answer(t, "table import", {"file": file}, user=user or t.fake.owner)


async def stored(t: Table) -> list[tuple[str, int, str]]:
    tables = await t.service.guild_tables(t.fake.guild_id)
    return [(s.table_id, s.revision, s.text) for s in tables]


# -- the lists in play ---------------------------------------------------------------------------


@aio
async def test_list_names_the_default_rulesets_lists_then_the_games(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        body = await t.slash("table list")
        assert is_ephemeral(body)
        text = text_of(body)
        assert "Lists and decks of Classic Chaos" in text
        for table in CLASSIC.tables.values():
            assert f"{table.id}  " in text
            assert f"{table.name} ({table.dice.notation})" in text
        assert "own tables" not in text  # nothing uploaded yet

        await t.slash("game start", {"ruleset": "lists"}, user=t.fake.owner)
        text = text_of(await t.slash("table list"))
        assert "Lists and decks of" in text
        assert "Spite (d100)" in text
        assert "WackyLand" not in text


@aio
async def test_show_autocompletes_the_table_and_prints_every_result(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        _, typed = await t.fake.autocomplete("table show", {"table": "wa"}, focused="table")
        assert typed["data"]["choices"] == [{"name": "WackyLand", "value": "wacky"}]
        _, everything = await t.fake.autocomplete("table show", {"table": ""}, focused="table")
        values = {c["value"] for c in everything["data"]["choices"]}
        assert values == set(CLASSIC.tables)

        body = await t.slash("table show", {"table": "wacky"})
        assert is_ephemeral(body)
        assert not body["data"].get("attachments")  # short enough to read in the message
        text = text_of(body)
        assert text.startswith("WackyLand")
        for band in CLASSIC.tables["wacky"].bands:
            assert band.entry.name in text
        # Each entry's tags, which house rules may leave out, in plain words under it.
        tagged = [b.entry for b in CLASSIC.tables["wacky"].bands if b.entry.tags]
        assert tagged
        for entry in tagged:
            assert "tags: " + ", ".join(entry.tags) in text.split(entry.name, 1)[1]

        # The Chaos List is too long for one message: every result comes as a file as well.
        long = await final_answer(t, "table show", {"table": "Chaos List"})
        (file,) = long["files"]
        assert file.filename == "chaos.txt"
        listed = file.data.decode()
        assert all(b.entry.name in listed for b in CLASSIC.tables["chaos"].bands)
        assert "more lines" in text_of(long)  # the embeds alone are cut

        # In a deck game's channel, the suggestions are that ruleset's decks.
        await t.slash("game start", {"ruleset": "deck"}, user=t.fake.owner)
        _, decks = await t.fake.autocomplete("table show", {"table": "glo"}, focused="table")
        assert [c["value"] for c in decks["data"]["choices"]] == ["globals"]


@aio
async def test_lookup_finds_a_result_by_number_and_a_card_by_name(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        band = next(b for b in CLASSIC.tables["chaos"].bands if b.low <= 150 <= b.high)
        body = await t.slash("table lookup", {"table": "chaos", "result": "150"})
        assert not is_ephemeral(body)  # a ruling the table can see
        assert band.entry.name in text_of(body)
        body = await t.slash("table lookup", {"table": "chaos", "result": "8"})
        assert "Armageddon" in text_of(body)
        assert "tags: mana, swingy" in text_of(body)
        assert "swingy — can end a game or turn it over" in text_of(body)

        refused = await t.slash("table lookup", {"table": "chaos", "result": "201"})
        assert is_ephemeral(refused)
        assert text_of(refused) == "Chaos List has results 1 to 200; 201 isn't one"
        refused = await t.slash("table lookup", {"table": "wacky", "result": "1"})
        assert "WackyLand has results 2 to 20; 1 isn't one" in text_of(refused)

        await t.slash("game start", {"ruleset": "deck"}, user=t.fake.owner)
        body = await t.slash("table lookup", {"table": "chaos", "result": "wheel of fortune"})
        assert "Wheel of Fortune" in text_of(body)
        assert "tags: swingy" in text_of(body)  # a deck's card shows its tags too
        refused = await t.slash("table lookup", {"table": "chaos", "result": "Black Lotus"})
        assert is_ephemeral(refused)
        assert "no card called 'Black Lotus'" in text_of(refused)


# -- uploading -----------------------------------------------------------------------------------


@aio
async def test_import_needs_manage_server(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        body = await upload(t, "house.yaml", HOUSE, user=t.fake.player)
        assert is_ephemeral(body)
        assert text_of(body) == "Uploading a table needs the Manage Server permission."
        assert await stored(t) == []
        assert downloads(t.fake) == []  # refused before fetching the file


@aio
async def test_an_imported_list_is_played_beside_the_bundled_ones(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        body = await upload(t, "house.yaml", HOUSE)
        assert is_ephemeral(body)
        assert text_of(body) == (
            "Table stored\n**House Rules** (`house`): a list of 1 entry (d6), stored as"
            " revision 1. Play with it: /game start tables:house"
        )
        assert await stored(t) == [("house", 1, HOUSE.decode())]
        assert "house (revision 1)" in text_of(await t.slash("table list"))

        _, offered = await t.fake.autocomplete("game start", {"tables": "ho"}, focused="tables")
        assert [c["value"] for c in offered["data"]["choices"]] == ["house"]
        await t.game(tables="house")
        rolled = await t.slash("chaos roll", {"list": "house"}, user=t.fake.owner)
        assert "Pizza Break" in text_of(rolled)


@aio
async def test_an_imported_list_replaces_the_bundled_one_of_the_same_id(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        await upload(t, "ewl.yaml", renamed(EWL, "Our Own World"))
        await t.game(tables="ewl")
        begun = t.answers[-1]
        assert "Our Own World" in text_of(begun)  # the start roll is on the upload

        # The next game here, without it, rolls on the bundled list again.
        await t.slash("game end", user=t.fake.owner)
        await t.game()
        begun = t.answers[-1]
        assert "Our Own World" not in text_of(begun)
        assert any(b.entry.name in text_of(begun) for b in CLASSIC.tables["ewl"].bands)


@aio
async def test_several_uploads_play_together(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        await upload(t, "house.yaml", HOUSE)
        await upload(t, "persona.yaml", renamed(PERSONA, "Dana the Comedian"))
        _, offered = await t.fake.autocomplete(
            "game start", {"tables": "house, pe"}, focused="tables"
        )
        assert offered["data"]["choices"] == [
            {"name": "house, persona (revision 1)", "value": "house, persona"}
        ]
        await t.game(tables="house, persona")
        rolled = await t.slash("chaos roll", {"list": "persona"}, user=t.fake.owner)
        assert "Dana the Comedian" in text_of(rolled)
        rolled = await t.slash("chaos roll", {"list": "house"}, user=t.fake.owner)
        assert "Pizza Break" in text_of(rolled)


@aio
async def test_a_second_upload_is_the_next_revision_and_is_what_plays(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        await upload(t, "house.yaml", HOUSE)
        second = HOUSE.replace(b"Pizza Break", b"Taco Break")
        body = await upload(t, "house.yaml", second)
        assert "revision 2" in text_of(body)
        assert await stored(t) == [("house", 2, second.decode())]
        assert "house (revision 2)" in text_of(await t.slash("table list"))

        await t.game(tables="house")
        rolled = await t.slash("chaos roll", {"list": "house"}, user=t.fake.owner)
        assert "Taco Break" in text_of(rolled)


@aio
async def test_an_invalid_file_lists_every_problem_and_stores_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        body = await upload(t, "bad.yaml", BROKEN)
        assert is_ephemeral(body)
        text = text_of(body)
        assert "bad.yaml: 3 problems, nothing was stored" in text
        assert "bad.yaml:7 colour: unknown key 'colour'" in text
        assert "bad.yaml:9 entries: no entry for 4-6" in text
        assert "bad.yaml:12 entries[0].lasts: expected" in text
        assert await stored(t) == []


@aio
async def test_a_link_the_ruleset_cannot_follow_is_refused_with_its_line(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        linked = PERSONA.replace(JOKER, JOKER + b"\n    link: nowhere")
        line = linked[: linked.index(b"link: nowhere")].count(b"\n") + 1
        body = await upload(t, "persona.yaml", linked)
        assert is_ephemeral(body)
        assert f"classic/persona.yaml:{line} entries[0].link: there is no list 'nowhere'" in (
            text_of(body)
        )
        assert await stored(t) == []


@aio
async def test_an_oversized_file_is_refused_before_it_is_downloaded(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        big = HOUSE + b"# padding\n" * 30_000  # about 300 KB
        body = await upload(t, "house.yaml", big)
        assert is_ephemeral(body)
        assert text_of(body) == "house.yaml is 293 KB; a table file may be 256 KB at most."
        assert downloads(t.fake) == []
        assert await stored(t) == []


@aio
async def test_what_is_not_a_table_file_is_refused(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        body = await upload(t, "house.png", HOUSE)
        assert is_ephemeral(body)
        assert text_of(body) == (
            "house.png isn't a table file: upload a .yaml file, or a list as numbered text"
            " (.txt), a spreadsheet (.csv) or zorgle's export (.json)."
        )

        ruleset = (bundled_dir() / "classic" / "ruleset.yaml").read_bytes()
        body = await upload(t, "ruleset.yaml", ruleset)
        assert is_ephemeral(body)
        assert "kind: a ruleset file can't be uploaded" in text_of(body)
        assert await stored(t) == []
        assert not any("house.png" in path for path in downloads(t.fake))


@aio
async def test_a_spreadsheet_is_read_stored_as_our_yaml_and_played(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A list from a spreadsheet: the answer previews what was read and guessed, the stored
    table is our YAML (as /table export gives it), and a game plays it; a bad row is named
    by its line and column."""
    sheet = b"Roll,Name,Text\n1,Storm,Each player takes 2 damage.\n2,Calm,Nobody attacks.\n"
    sheet += b"3-6,Twice,Roll twice.\n"
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        body = await upload(t, "house.csv", sheet)
        text = text_of(body)
        assert "**house** (`house`): a list of 3 entries (d6), stored as revision 1" in text
        assert "Read as CSV: house (house), 3 entries, dice d6." in text
        assert "line 4: rolls 2 times on this list ('Roll twice.')" in text
        assert "/table export table:house gives it as our YAML." in text  # as the console says
        ((table_id, revision, stored_text),) = await stored(t)
        assert (table_id, revision) == ("house", 1)
        assert stored_text.startswith("schema: 1\nkind: table\nid: house\n")
        await t.game("classic", tables="house")
        bad = await upload(t, "bad.csv", b"Roll,Name,Text\n1,Storm,x\none,Calm,y\n")
        assert "bad.csv:3 column Roll: expected a number or a range like 3-5, got 'one'" in (
            text_of(bad)
        )
        assert [s[:2] for s in await stored(t)] == [("house", 1)]


FORMATS = [
    (
        "house.txt",
        "numbered text",
        b"House\n1. Storm \xe2\x80\x94 Each player takes 2 damage.\n2. Calm \xe2\x80\x94 Rest.\n",
        b"1. Storm \xe2\x80\x94 x\n1. Calm \xe2\x80\x94 y\n",
        "house.txt:2: number 1 is used twice: also on line 1",
    ),
    (
        "house.json",
        "zorgle's JSON",
        b'{"effects": [{"effectName": "Storm", "shortDesc": "Each player takes 2 damage.",'
        b' "rarity": "rare", "duration": "Instant"}, {"effectName": "Calm",'
        b' "shortDesc": "Rest.", "rarity": "rare", "duration": "Turn"}]}',
        b'{"effects": [{"effectName": "Storm", "shortDesc": "x", "rarity": "mythic"}]}',
        "house.json:1 effects[0].rarity: unknown rarity 'mythic'",
    ),
]


@pytest.mark.parametrize(("name", "kind", "good", "bad", "problem"), FORMATS)
def test_numbered_text_and_zorgles_export_are_read_and_a_bad_one_named(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    name: str,
    kind: str,
    good: bytes,
    bad: bytes,
    problem: str,
) -> None:
    async def run() -> None:
        async with fake_discord, Table.open(fake_discord, tmp_path) as t:
            body = await upload(t, name, good)
            assert f"Read as {kind}: " in text_of(body)
            assert "a list of 2 entries (d2), stored as revision 1" in text_of(body)
            refused = await upload(t, name, bad)
            assert problem in text_of(refused)
            assert [s[:2] for s in await stored(t)] == [("house", 1)]

    asyncio.run(run())


# -- checking and downloading --------------------------------------------------------------------


@aio
async def test_validate_is_for_anyone_and_stores_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        good = t.fake.attachment("house.yaml", HOUSE)
        body = await final_answer(t, "table validate", {"file": good}, user=t.fake.player)
        assert is_ephemeral(body)
        assert "No problems" in text_of(body)
        assert "House Rules" in text_of(body)
        bad = t.fake.attachment("bad.yaml", BROKEN)
        body = await final_answer(t, "table validate", {"file": bad}, user=t.fake.player)
        assert is_ephemeral(body)
        assert "bad.yaml: 3 problems" in text_of(body)
        assert "bad.yaml:7 colour" in text_of(body)
        assert await stored(t) == []


@aio
async def test_export_gives_back_the_uploaded_bytes(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        await upload(t, "my house list.yaml", HOUSE)
        _, offered = await t.fake.autocomplete("table export", {"table": ""}, focused="table")
        assert offered["data"]["choices"] == [{"name": "house (revision 1)", "value": "house"}]

        body = await final_answer(t, "table export", {"table": "house"}, user=t.fake.player)
        assert is_ephemeral(body)
        (file,) = body["files"]
        assert (file.filename, file.data) == ("house.yaml", HOUSE)

        missing = await final_answer(t, "table export", {"table": "nope"})
        assert is_ephemeral(missing)
        assert "This server has no table 'nope' (its tables: house)" in text_of(missing)


@aio
async def test_lookup_autocompletes_the_results_of_the_chosen_table(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        options = {"table": "wacky", "result": "1"}
        _, body = await t.fake.autocomplete("table lookup", options, focused="result")
        choices = body["data"]["choices"]
        wacky = CLASSIC.tables["wacky"]
        typed = [b for b in wacky.bands if "1" in f"{b.label} {b.entry.name}"]  # typed: "1"
        assert [c["value"] for c in choices] == [str(b.low) for b in typed][:25]
        first = typed[0]
        assert choices[0] == {"name": f"{first.label} {first.entry.name}", "value": str(first.low)}

        await t.slash("game start", {"ruleset": "deck"}, user=t.fake.owner)
        options = {"table": "chaos", "result": "wheel"}
        _, body = await t.fake.autocomplete("table lookup", options, focused="result")
        assert [c["value"] for c in body["data"]["choices"]] == ["Wheel of Fortune"]


@aio
async def test_lookup_finds_an_entry_by_name_across_the_lists_with_autocomplete(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """No table: the name is searched in every list and deck, and autocomplete offers the
    best entries by name, each with a value that finds exactly that one."""
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        body = await t.slash("table lookup", {"result": "what does Tsunami do again?"})
        assert not is_ephemeral(body)
        assert "Chaos List 117: Tsunami" in text_of(body)
        assert "Destroy every Island." in text_of(body)

        several = await t.slash("table lookup", {"result": "dead"})
        assert "Several entries of Classic Chaos match 'dead', best first:" in text_of(several)
        assert "Chaos List 114: Raise Dead" in text_of(several)

        refused = await t.slash("table lookup", {"result": "158"})
        assert is_ephemeral(refused)
        assert "say which list the number is from" in text_of(refused)
        refused = await t.slash("table lookup", {"result": "Tsu\x00nami"})
        assert is_ephemeral(refused)
        assert "can't contain a control character (U+0000)" in text_of(refused)

        _, body = await t.fake.autocomplete("table lookup", {"result": "tsun"}, focused="result")
        choices = body["data"]["choices"]
        assert choices[0] == {"name": "Chaos List 117: Tsunami", "value": "chaos 117"}
        assert len(choices) <= 25
        picked = await t.slash("table lookup", {"result": choices[0]["value"]})
        assert "Chaos List 117: Tsunami" in text_of(picked)
        _, body = await t.fake.autocomplete("table lookup", {"result": ""}, focused="result")
        assert len(body["data"]["choices"]) == 25

        await t.slash("game start", {"ruleset": "deck"}, user=t.fake.owner)
        body = await t.slash("table lookup", {"result": "wheel of fortune"})
        assert "Chaos deck 1x: Wheel of Fortune" in text_of(body)
