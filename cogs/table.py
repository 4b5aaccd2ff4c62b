"""/table: the lists and decks in play, and a server's own tables (upload, check, download)."""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import choices
from bot.client.bot import ChaosBot
from bot.client.embeds import text_embeds
from bot.client.interactions import answered, guild_key, reply
from bot.client.permissions import require_manager
from bot.client.wording import plain
from bot.commands.tables import find_table, lookup, table_list, table_lookup, table_show
from bot.engine.errors import ChaosError
from bot.tables import TableProblems
from bot.tables.uploads import MAX_IMPORT, MAX_UPLOAD, CheckedUpload

Interaction = discord.Interaction[ChaosBot]
TableName = app_commands.Range[str, 1, 60]
LONG_TEXT = 3500  # characters; longer answers come with the whole text as a file too
YAML = (".yaml", ".yml")
OTHER = (".txt", ".csv", ".json")  # lists read into one of ours (bot.tables.plain)


class UploadError(ChaosError):
    """An upload that can't be read at all (too big, not a YAML file)."""


def _summary(checked: CheckedUpload) -> str:
    return f"**{plain(checked.title)}** (`{checked.id}`): {checked.what}"


def _preview(checked: CheckedUpload) -> str:
    """For a list read from another format: what was read and guessed (bot.tables.plain)."""
    if checked.preview is None:
        return ""
    return "\n```\n" + checked.preview.replace("`", "'") + "\n```"


def _most(filename: str) -> int:
    """How large an upload of this name may be: one of our files, or another format's."""
    return MAX_UPLOAD if filename.lower().endswith(YAML) else MAX_IMPORT


def _check_attachment(file: discord.Attachment) -> None:
    """Refuse an upload that is too big or of no format a list comes in, unread."""
    if not file.filename.lower().endswith((*YAML, *OTHER)):
        raise UploadError(
            f"{file.filename} isn't a table file: upload a .yaml file, or a list as numbered"
            " text (.txt), a spreadsheet (.csv) or zorgle's export (.json)."
        )
    if file.size > _most(file.filename):
        raise UploadError(
            f"{file.filename} is {file.size // 1024} KB; a table file may be"
            f" {_most(file.filename) // 1024} KB at most."
        )


async def _download(file: discord.Attachment) -> bytes:
    data = await file.read()
    if len(data) > _most(file.filename):  # the size Discord announced was wrong
        raise UploadError(f"{file.filename} is larger than {_most(file.filename) // 1024} KB.")
    return data


async def _problems(interaction: Interaction, name: str, error: TableProblems) -> None:
    """Every problem, each with its line; the whole list as a file too when it is long."""
    count = getattr(error, "total", len(error.problems))  # a worker sends the first ones
    title = f"{name}: {count} problem{'s' * (count != 1)}, nothing was stored"
    text = str(error)
    embeds = text_embeds(title, text, colour=discord.Colour.red())
    await reply(interaction, embeds=embeds, file=_whole(text, "problems.txt"), ephemeral=True)


def _whole(text: str, filename: str) -> discord.File | None:
    """The whole text as a file, when it is too long for one message's embeds (which cut it)."""
    if len(text) <= LONG_TEXT:
        return None
    return discord.File(io.BytesIO(text.encode()), filename=filename)


class TableCog(commands.GroupCog, group_name="table"):
    """The lists and decks of the ruleset; a server's own tables."""

    def __init__(self, bot: ChaosBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="list", description="The lists and decks in play here")
    async def list(self, interaction: Interaction) -> None:
        ruleset, _ = await choices.game_ruleset(interaction)
        text = table_list(ruleset).replace("`table show ID`", "/table show")
        if interaction.guild_id is not None:
            uploads = await self.bot.service.guild_tables(str(interaction.guild_id))
            if uploads:
                text += "\n\nThis server's own tables (play with /game start tables:…):\n"
                text += "\n".join(f"  {t.table_id} (revision {t.revision})" for t in uploads)
        await reply(interaction, embeds=text_embeds("Tables", text), ephemeral=True)

    @app_commands.command(name="show", description="A list or deck: its dice and every result")
    @app_commands.describe(table="The list or deck")
    @app_commands.autocomplete(table=choices.tables)
    async def show(self, interaction: Interaction, table: TableName) -> None:
        ruleset, _ = await choices.game_ruleset(interaction)
        text = table_show(ruleset, table)
        title, _, body = text.partition("\n")
        file = _whole(text, f"{find_table(ruleset, table)}.txt")
        await reply(
            interaction,
            "Every result is in the file." if file else None,
            embeds=text_embeds(plain(title), plain(body)),  # an upload's text is a stranger's
            file=file,
            ephemeral=True,
        )

    @app_commands.command(
        name="lookup", description="An entry of the lists and decks, by its name or its number"
    )
    @app_commands.describe(
        result="The number rolled, or the entry's or card's name (searched everywhere)",
        table="The list or deck (needed for a number)",
    )
    @app_commands.autocomplete(table=choices.tables, result=choices.entries)
    async def lookup(
        self,
        interaction: Interaction,
        result: app_commands.Range[str, 1, 100],
        table: TableName | None = None,
    ) -> None:
        ruleset, _ = await choices.game_ruleset(interaction)
        # A name is searched for in every entry of the ruleset (an upload may hold thousands):
        # on a thread, as the autocomplete's searches are.
        if table is None:
            text = await asyncio.to_thread(lookup, ruleset, result)
        else:
            text = await asyncio.to_thread(table_lookup, ruleset, table, result)
        title, _, body = text.partition("\n")
        await reply(interaction, embeds=text_embeds(plain(title), plain(body or title)))

    @app_commands.command(
        name="import", description="Upload a table or deck file for this server (Manage Server)"
    )
    @app_commands.describe(file="A .yaml table or deck, or a list as .txt, .csv or zorgle's .json")
    async def import_(self, interaction: Interaction, file: discord.Attachment) -> None:
        who, _ = await self.bot.play.caller(interaction)
        require_manager(who, "Uploading a table")
        found = await self._checked(interaction, file)
        if found is None:
            return
        checked, data = found
        revision = await self.bot.service.store_upload(guild_key(interaction), checked, data)
        text = (
            f"{_summary(checked)}, stored as revision {revision}. Play with it:"
            f" /game start tables:{checked.id}" + _preview(checked)
        )
        if checked.preview is not None:  # read from another format, as the console says too
            text += f"\n/table export table:{checked.id} gives it as our YAML."
        await reply(interaction, embeds=text_embeds("Table stored", text), ephemeral=True)

    @app_commands.command(
        name="validate", description="Check a table or deck file without storing it"
    )
    @app_commands.describe(file="A .yaml table or deck, or a list as .txt, .csv or zorgle's .json")
    async def validate(self, interaction: Interaction, file: discord.Attachment) -> None:
        found = await self._checked(interaction, file)
        if found is None:
            return
        await reply(
            interaction,
            embeds=text_embeds(
                "No problems", f"{_summary(found[0])}. Nothing was stored." + _preview(found[0])
            ),
            ephemeral=True,
        )

    async def _checked(
        self, interaction: Interaction, file: discord.Attachment
    ) -> tuple[CheckedUpload, bytes] | None:
        """Download an upload and check it in a worker process (bot.workers); None once its
        problems have been answered. One check at a time per member, and a few in a while."""
        _check_attachment(file)
        with self.bot.upload_limits.hold(str(interaction.user.id)):
            await interaction.response.defer(ephemeral=True, thinking=True)  # takes a while
            answered(interaction)
            data = await _download(file)
            try:
                return await self.bot.uploads.check(file.filename, data), data
            except TableProblems as error:
                await _problems(interaction, file.filename, error)
                return None

    @app_commands.command(name="export", description="Download one of this server's tables")
    @app_commands.describe(table="The table's id")
    @app_commands.autocomplete(table=choices.uploads)
    async def export(self, interaction: Interaction, table: TableName) -> None:
        stored = await self.bot.service.guild_table(guild_key(interaction), table)
        file = discord.File(io.BytesIO(stored.text.encode()), filename=f"{stored.table_id}.yaml")
        await reply(
            interaction,
            f"`{stored.table_id}`, revision {stored.revision}.",
            file=file,
            ephemeral=True,
        )


async def setup(bot: ChaosBot) -> None:
    await bot.add_cog(TableCog(bot))
