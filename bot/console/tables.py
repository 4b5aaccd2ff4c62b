"""The console's tables: a folder of one's own (``play --tables DIR``), and the table files a
console stores, checks and writes back (``table import|validate|export``).

The console is its own server: what ``table import`` stores belongs to the guild
:data:`CONSOLE_GUILD` in the console's database, and ``game start RULESET tables ID`` plays it,
exactly as ``/table import`` and ``/game start tables:ID`` do on Discord. The checks are the
service's (:meth:`~bot.guildservice.GuildService.check_table`), the loader's messages with
file, line and key; nothing here decides what a valid table is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from bot.commands import CommandError
from bot.commands.grammar import check_text
from bot.errors import NoTableError
from bot.service import GameService
from bot.tables import LoadedRuleset, find_ruleset, load_bundled
from bot.tables.folders import load_folder, yaml_files
from bot.tables.uploads import MAX_IMPORT, MAX_UPLOAD, CheckedUpload

CONSOLE_GUILD = "console"  # no Discord guild id is a word


class FolderError(CommandError):
    """``--tables DIR`` names no ruleset folder: a usage mistake (exit code 2)."""


def own_ruleset(folder: Path) -> LoadedRuleset:
    """The ruleset in `folder` (a folder like ``tables/classic``, with its ruleset file).

    FolderError for a folder that isn't there or holds no ruleset; the tables' TableProblems,
    every problem with its file, line and key, for one whose files don't load.
    """
    if not folder.exists():
        raise FolderError(f"there is no folder {folder}: give --tables a folder of table files")
    if not folder.is_dir():
        raise FolderError(
            f"{folder} is a file, not a folder: give --tables the folder it is in, with its"
            " ruleset file beside it"
        )
    try:
        found = yaml_files(folder)
    except OSError as error:
        raise FolderError(f"can't read the folder {folder}: {error.strerror or error}") from None
    if not found:
        raise FolderError(
            f"{folder} has no table files (.yaml): a ruleset folder holds a ruleset file"
            " (kind: ruleset) and the lists and decks it names, like tables/classic"
        )
    loaded = load_folder(folder).ruleset
    if loaded is None:
        raise FolderError(
            f"{folder} is not a ruleset folder: none of its files has kind: ruleset (copy"
            " tables/classic/ruleset.yaml, say, and list your tables in it)"
        )
    return loaded


def rulesets_with(
    own: LoadedRuleset | None,
) -> tuple[Callable[[str], LoadedRuleset], Callable[[], Mapping[str, LoadedRuleset]]]:
    """The service's ruleset finders: the bundled rulesets, with `own` in place of the bundled
    one of the same id (or beside them)."""
    if own is None:
        return find_ruleset, load_bundled

    def every() -> Mapping[str, LoadedRuleset]:
        return {**load_bundled(), own.id: own}

    def find(name: str) -> LoadedRuleset:
        return own if name == own.id else find_ruleset(name)

    return find, every


def read_file(typed: str) -> tuple[str, bytes]:
    """A table file's name and bytes; CommandError for one that can't be read, isn't a plain
    file (a folder, ``/dev/zero``) or is too big. Never more than the limit is read."""
    path = Path(check_text(typed, "a file's name")).expanduser()
    try:
        if not path.is_file():
            what = "a folder" if path.is_dir() else "not a file" if path.exists() else "not there"
            raise CommandError(f"can't read {typed}: it is {what}; give a .yaml table file")
        most = MAX_UPLOAD if path.suffix.lower() in (".yaml", ".yml") else MAX_IMPORT
        with path.open("rb") as file:
            data = file.read(most + 1)
    except OSError as error:
        raise CommandError(f"can't read {typed}: {error.strerror or error}") from None
    if len(data) > most:
        raise CommandError(f"{typed} is larger than {most // 1024} KB, a table file's limit")
    return path.name, data


async def validate(service: GameService, typed: str) -> str:
    """`table validate FILE`: what the file holds, or its problems (raised)."""
    name, data = read_file(typed)
    checked = service.check_table(name, data)
    said = f"No problems: {checked.title} ({checked.id}), {checked.what}. Nothing was stored."
    return _with_preview(said, checked)


async def store(service: GameService, typed: str, ruleset: str) -> str:
    """`table import FILE`: check the file, then store it as the console's newest revision."""
    name, data = read_file(typed)
    checked = service.check_table(name, data)
    revision = await service.store_upload(CONSOLE_GUILD, checked, data)
    said = (
        f"Stored {checked.title} ({checked.id}), {checked.what}, as revision {revision}."
        f" Play with it: `game start {ruleset} tables {checked.id}`."
    )
    return _with_preview(said, checked)


def _with_preview(said: str, checked: CheckedUpload) -> str:
    """`said`, and for a list read from another format, what was read (bot.tables.plain)."""
    if checked.preview is None:
        return said
    return f"{said}\n{checked.preview}\n`table export {checked.id}` gives it as our YAML."


async def export(service: GameService, table: str) -> tuple[str, str]:
    """The stored table `table`: its id and its file's text."""
    try:
        stored = await service.guild_table(CONSOLE_GUILD, table)
    except NoTableError:
        known = ", ".join(t.table_id for t in await service.guild_tables(CONSOLE_GUILD))
        where = f"(stored: {known})" if known else "(`table import FILE` stores one)"
        raise CommandError(f"this console has no stored table {table!r} {where}") from None
    return stored.table_id, stored.text


async def stored_lines(service: GameService) -> list[str]:
    """The tables this console stored, for `table list`."""
    stored = await service.guild_tables(CONSOLE_GUILD)
    if not stored:
        return []
    lines = ["", "Tables stored here (play with `game start RULESET tables ID`):"]
    lines += [f"  {t.table_id} (revision {t.revision})" for t in stored]
    return lines
