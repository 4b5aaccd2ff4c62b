"""A guild's own tables through the service, over a real SQLite file: stored only when valid,
revised, kept apart per guild, and played in place of the bundled ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine import Begin, Join, RollChaos
from bot.errors import NoGameError, NoTableError
from bot.service import GameService
from bot.tables import TableProblems
from bot.tables.registry import bundled_dir
from tests.store.helpers import SCOPE, aio, open_service

GUILD = "g1"
PERSONA = (bundled_dir() / "classic" / "persona.yaml").read_bytes()
JOKER = b"name: Your playgroup's joker"

HOUSE = (Path(__file__).resolve().parents[1] / "data" / "house.yaml").read_bytes()


def persona_named(name: str) -> bytes:
    """The bundled PersonaLand with every entry renamed, so any roll on it shows `name`."""
    lines = [
        b"    name: " + name.encode() if line.startswith(b"    name: ") else line
        for line in PERSONA.splitlines()
    ]
    return b"\n".join(lines) + b"\n"


async def begun_with(service: GameService, tables: tuple[str, ...], scope: str = SCOPE) -> None:
    await service.start(
        scope, "classic", host="ann", host_name="Ann", seed=3, guild=GUILD, tables=tables
    )
    await service.act(scope, Join(actor="bob", player_name="Bob"))
    await service.act(scope, Begin(actor="ann"))


async def roll_on(service: GameService, table: str, scope: str = SCOPE) -> str:
    outcome = await service.act(scope, RollChaos(actor="ann", table=table))
    rolls = [e for e in outcome.events if e["type"] == "roll"]
    return rolls[0]["entry"]["name"]


@aio
async def test_a_valid_upload_is_stored_as_uploaded(database: Path | str) -> None:
    async with open_service(database) as service:
        file, revision = await service.import_table(GUILD, "house.yaml", HOUSE)
        assert (file.id, revision) == ("house", 1)
    async with open_service(database) as service:  # a restart: only the file remains
        (stored,) = await service.guild_tables(GUILD)
        assert (stored.table_id, stored.revision, stored.text) == ("house", 1, HOUSE.decode())
        assert (await service.guild_table(GUILD, "house")).text.encode() == HOUSE


@aio
async def test_an_invalid_upload_stores_nothing(database: Path | str) -> None:
    async with open_service(database) as service:
        broken = HOUSE.replace(b"at: 1-6", b"at: 1-5")
        with pytest.raises(TableProblems, match=r"house.yaml:\d+ entries: no entry for 6"):
            await service.import_table(GUILD, "house.yaml", broken)
        assert await service.guild_tables(GUILD) == []
        with pytest.raises(NoTableError, match="no table 'house'"):
            await service.guild_table(GUILD, "house")


@aio
async def test_a_second_upload_is_the_next_revision(database: Path | str) -> None:
    async with open_service(database) as service:
        await service.import_table(GUILD, "house.yaml", HOUSE)
        second = HOUSE.replace(b"Pizza Break", b"Taco Break")
        _, revision = await service.import_table(GUILD, "house.yaml", second)
        assert revision == 2
        (stored,) = await service.guild_tables(GUILD)
        assert (stored.revision, stored.text) == (2, second.decode())


@aio
async def test_each_guild_has_its_own_tables(database: Path | str) -> None:
    async with open_service(database) as service:
        await service.import_table(GUILD, "house.yaml", HOUSE)
        assert await service.guild_tables("g2") == []
        with pytest.raises(NoTableError, match="no table 'house'"):
            await service.start(
                "g2:c", "classic", host="a", host_name="A", guild="g2", tables=("house",)
            )
        with pytest.raises(NoGameError):
            await service.current("g2:c")


@aio
async def test_a_game_plays_an_upload_in_place_of_the_bundled_list(database: Path | str) -> None:
    async with open_service(database) as service:
        await service.import_table(GUILD, "persona.yaml", persona_named("Dana the Comedian"))
        await begun_with(service, ("persona",))
        assert await roll_on(service, "persona") == "Dana the Comedian"
        # Without the upload, the same channel's next game plays the bundled PersonaLand.
        await service.start("g1:other", "classic", host="ann", host_name="Ann", guild=GUILD)
        other = await service.current("g1:other")
        assert other.game.ruleset.tables["persona"].bands[0].entry.name != "Dana the Comedian"


@aio
async def test_a_game_plays_a_new_list_beside_the_bundled_ones(database: Path | str) -> None:
    async with open_service(database) as service:
        await service.import_table(GUILD, "house.yaml", HOUSE)
        await begun_with(service, ("house",))
        assert await roll_on(service, "house") == "Pizza Break"
        assert await roll_on(service, "persona")  # the bundled lists are all still there


@aio
async def test_a_game_keeps_the_revision_it_started_with(database: Path | str) -> None:
    async with open_service(database) as service:
        await service.import_table(GUILD, "persona.yaml", persona_named("First Draft"))
        await begun_with(service, ("persona",))
        await service.import_table(GUILD, "persona.yaml", persona_named("Second Draft"))
        await begun_with(service, ("persona",), scope="g1:later")
    async with open_service(database) as service:  # after a restart, too
        assert await roll_on(service, "persona") == "First Draft"
        assert await roll_on(service, "persona", scope="g1:later") == "Second Draft"


@aio
async def test_an_upload_that_does_not_fit_the_ruleset_starts_no_game(database: Path | str) -> None:
    async with open_service(database) as service:
        # Fits classic (which has WackyLand), not lists.
        linked = HOUSE.replace(b"text: Everyone eats a slice.", b"link: wacky")
        await service.import_table(GUILD, "house.yaml", linked)
        with pytest.raises(TableProblems, match=r"lists/uploaded-house.yaml:\d+ entries\[0\].link"):
            await service.start(
                SCOPE, "lists", host="a", host_name="A", guild=GUILD, tables=("house",)
            )
        with pytest.raises(NoGameError):
            await service.current(SCOPE)
