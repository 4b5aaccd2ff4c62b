"""Users, roles, channels, attachments, files, select menus and ephemeral messages on the fake,
driven by the real discord.py client with a small bot defined here."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import aiohttp
import discord
import pytest
from discord.ext import commands

from tests.fakediscord import payloads as p
from tests.fakediscord.plugin import GUILD_READY_TIMEOUT, aio, running
from tests.fakediscord.server import FakeDiscord, SchemaError

MENU = "feat:menu"
PEOPLE = "feat:people"
OFF = "feat:off"
REVEAL = "feat:reveal"
DECK = b"name: chaos\ncards: 60\n"


class MenuView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.add_item(discord.ui.Button(label="Rules", url="https://example.org/rules"))

    @discord.ui.select(
        custom_id=MENU,
        min_values=1,
        max_values=2,
        options=[discord.SelectOption(label=v, value=v) for v in ("chaos", "order", "dice")],
    )
    async def menu(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.edit_message(content="chose " + ",".join(select.values))

    @discord.ui.select(cls=discord.ui.UserSelect, custom_id=PEOPLE)
    async def people(
        self, interaction: discord.Interaction, select: discord.ui.UserSelect[Any]
    ) -> None:
        names = [f"{type(u).__name__}:{u.name}" for u in select.values]
        await interaction.response.send_message(" ".join(names), ephemeral=True)

    @discord.ui.button(label="Off", custom_id=OFF, disabled=True)
    async def off(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        raise AssertionError("Discord does not send clicks on disabled buttons")


class RevealView(discord.ui.View):
    @discord.ui.button(label="Reveal", custom_id=REVEAL)
    async def reveal(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.edit_message(content="revealed")


class FeatureBot(commands.Bot):
    def __init__(self, fake: FakeDiscord, intents: discord.Intents | None = None) -> None:
        super().__init__(
            command_prefix="!",
            intents=intents or discord.Intents.default(),
            guild_ready_timeout=GUILD_READY_TIMEOUT,
        )
        self.fake = fake
        self._add_commands(discord.Object(int(fake.guild_id)))

    async def setup_hook(self) -> None:
        await self.tree.sync(guild=discord.Object(int(self.fake.guild_id)))

    def _add_commands(self, guild: discord.Object) -> None:
        tree = self.tree

        @tree.command(name="whoami", description="Permissions and roles.", guild=guild)
        async def whoami(interaction: discord.Interaction) -> None:
            assert isinstance(interaction.user, discord.Member)
            roles = ",".join(r.name for r in interaction.user.roles)
            manage = interaction.permissions.manage_guild
            await interaction.response.send_message(f"manage_guild={manage} roles={roles}")

        @tree.command(name="load", description="Reads a deck file.", guild=guild)
        async def load(interaction: discord.Interaction, deck: discord.Attachment) -> None:
            data = await deck.read()
            head = f"{deck.filename} {deck.size} {deck.content_type}"
            await interaction.response.send_message(f"{head}\n{data.decode()}")

        @tree.command(name="pick", description="Resolved options.", guild=guild)
        async def pick(
            interaction: discord.Interaction,
            who: discord.Member,
            role: discord.Role,
            place: discord.TextChannel | None = None,
        ) -> None:
            where = place.name if place else "-"
            await interaction.response.send_message(f"{who.name} {role.name} {where}")

        @tree.command(name="menu", description="Sends a menu.", guild=guild)
        async def menu(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("menu", view=MenuView())

        @tree.command(name="export", description="Sends files.", guild=guild)
        async def export(interaction: discord.Interaction) -> None:
            mine = discord.File(io.BytesIO(DECK), filename="deck.yaml")
            await interaction.response.send_message("yours", file=mine, ephemeral=True)
            shared = discord.File(io.BytesIO(b"a,b\n1,2\n"), filename="table.csv")
            await interaction.followup.send("everyone's", file=shared)

        @tree.command(name="where", description="Names the channel.", guild=guild)
        async def where(interaction: discord.Interaction) -> None:
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel | discord.Thread)
            await interaction.response.send_message(f"{channel.name} {type(channel).__name__}")

        @tree.command(name="secret", description="An ephemeral button.", guild=guild)
        async def secret(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("hidden", view=RevealView(), ephemeral=True)

        @tree.command(name="later", description="Edits its answer later.", guild=guild)
        async def later(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("working")

            async def finish() -> None:
                await asyncio.sleep(0.05)
                await interaction.edit_original_response(content="finished")

            self.loop.create_task(finish())


def text_channel(bot: discord.Client, channel_id: str) -> discord.TextChannel:
    channel = bot.get_channel(int(channel_id))
    assert isinstance(channel, discord.TextChannel)
    return channel


# -- users, roles and permissions ----------------------------------------------------------------


@aio
async def test_interactions_carry_each_users_roles_and_permissions(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    early = fake.add_user("early", roles=[fake.referee_role_id])
    # With the members intent the client caches every member, and asks for none it lacks.
    intents = discord.Intents.default()
    intents.members = True
    async with fake, running(FeatureBot(fake, intents), fake) as bot:
        guild = bot.get_guild(int(fake.guild_id))
        assert guild is not None
        assert guild.chunked
        assert guild.member_count == len(guild.members) == 5  # bot, owner, player, referee, early
        referee_role = guild.get_role(int(fake.referee_role_id))
        assert referee_role is not None
        assert referee_role.name == "Referee"
        assert not referee_role.permissions.manage_guild

        expected = {
            "owner": "manage_guild=True roles=@everyone",
            "player": "manage_guild=False roles=@everyone",
            "referee": "manage_guild=False roles=@everyone,Referee",
        }
        for name, answer in expected.items():
            _, callback = await fake.slash("whoami", user=getattr(fake, name))
            assert callback["data"]["content"] == answer, name

        # A user added after the connection is still usable in interactions.
        judge = fake.add_user("judge", roles=[fake.referee_role_id], permissions=p.ALL_PERMISSIONS)
        joined = await bot.wait_for("member_join", timeout=1)
        assert str(joined.id) == judge["id"]
        assert guild.member_count == len(guild.members) == 6
        for user, answer in [
            (early, "manage_guild=False roles=@everyone,Referee"),
            (judge, "manage_guild=True roles=@everyone,Referee"),
        ]:
            _, callback = await fake.slash("whoami", user=user)
            assert callback["data"]["content"] == answer
        admins = fake.add_role("Admins", permissions=discord.Permissions(administrator=True).value)
        created = await bot.wait_for("guild_role_create", timeout=1)
        assert str(created.id) == admins
        _, callback = await fake.slash("whoami", user=fake.add_user("boss", roles=[admins]))
        assert callback["data"]["content"] == "manage_guild=True roles=@everyone,Admins"
        with pytest.raises(SchemaError, match="unknown role"):
            fake.add_user("nobody", roles=["123"])


# -- options with resolved data ------------------------------------------------------------------


@aio
async def test_an_attachment_option_is_read_from_the_fake(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    async with fake, running(FeatureBot(fake), fake):
        deck = fake.attachment("deck.yaml", DECK)
        payload, callback = await fake.slash("load", {"deck": deck})
        attachment = payload["data"]["resolved"]["attachments"][deck]
        assert attachment["filename"] == "deck.yaml"
        assert attachment["size"] == len(DECK)
        head = f"deck.yaml {len(DECK)} application/x-yaml"
        assert callback["data"]["content"] == f"{head}\n{DECK.decode()}"
        [download] = fake.calls_to("GET /attachments/*")
        assert download.path == f"/attachments/{fake.channel_id}/{deck}/deck.yaml"
        assert download.status == 200

        with pytest.raises(SchemaError, match=r"not registered with fake\.attachment"):
            await fake.slash("load", {"deck": "1234"})


@aio
async def test_user_role_and_channel_options_are_resolved(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    lobby = fake.add_channel("lobby")
    async with fake, running(FeatureBot(fake), fake):
        options = {"who": fake.referee["id"], "role": fake.referee_role_id, "place": lobby}
        payload, callback = await fake.slash("pick", options)
        assert callback["data"]["content"] == "referee Referee lobby"
        resolved = payload["data"]["resolved"]
        assert set(resolved) == {"users", "members", "roles", "channels"}
        assert resolved["members"][fake.referee["id"]]["roles"] == [fake.referee_role_id]

        everyone = {"who": fake.player["id"], "role": fake.guild_id}
        _, callback = await fake.slash("pick", everyone)
        assert callback["data"]["content"] == "player @everyone -"
        with pytest.raises(SchemaError, match="no channel"):
            await fake.slash("pick", {**everyone, "place": "42"})


# -- components ----------------------------------------------------------------------------------


@aio
async def test_a_select_menu_round_trip(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    async with fake, running(FeatureBot(fake), fake):
        payload, _ = await fake.slash("menu")
        menu = fake.original(payload)

        payload, update = await fake.select(MENU, ["chaos", "dice"], message=menu)
        assert payload["data"] == {
            "custom_id": MENU,
            "component_type": 3,
            "values": ["chaos", "dice"],
        }
        assert update["type"] == 7
        assert fake.messages[menu["id"]]["content"] == "chose chaos,dice"

        _, answer = await fake.select(PEOPLE, [fake.referee["id"]], message=menu, user=fake.owner)
        assert answer["data"]["content"] == "Member:referee"

        refused = [
            (["chaos", "order", "dice"], "takes 1..2 values"),
            ([], "takes 1..2 values"),
            (["poker"], "offers"),
            (["dice", "dice"], "chosen twice"),
        ]
        for values, message in refused:
            with pytest.raises(SchemaError, match=message):
                await fake.select(MENU, values, message=menu)
        with pytest.raises(SchemaError, match="disabled"):
            await fake.click(OFF, message=menu)
        with pytest.raises(SchemaError, match="not a button"):
            await fake.click(MENU, message=menu)
        with pytest.raises(SchemaError, match="not a select"):
            await fake.select(OFF, [], message=menu)


@aio
async def test_ephemeral_messages_are_found_and_clickable(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    async with fake, running(FeatureBot(fake), fake):
        payload, callback = await fake.slash("secret", user=fake.referee)
        assert callback["data"]["flags"] & 64
        [hidden] = fake.ephemeral_messages(fake.referee)
        assert hidden["content"] == "hidden"
        assert hidden["interaction_metadata"]["id"] == payload["id"]
        assert fake.ephemeral_messages(fake.owner) == []
        assert hidden not in fake.channel_messages()

        _, update = await fake.click(REVEAL, message=hidden, user=fake.referee)
        assert update["type"] == 7
        assert fake.messages[hidden["id"]]["content"] == "revealed"
        assert fake.messages[hidden["id"]]["flags"] & 64


# -- files ---------------------------------------------------------------------------------------


@aio
async def test_files_the_bot_sends_are_kept_and_served(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    async with fake, running(FeatureBot(fake), fake) as bot:
        payload, _ = await fake.slash("export")
        [response] = fake.calls_to("POST /interactions/*/callback")
        [file] = response.files
        assert (file.filename, file.data, file.size) == ("deck.yaml", DECK, len(DECK))

        token = payload["token"]
        followup = await fake.wait_for_call(f"POST /webhooks/*/{token}")
        assert [(f.filename, f.data) for f in followup.files] == [("table.csv", b"a,b\n1,2\n")]

        [mine] = fake.ephemeral_messages(fake.player)
        [shared] = fake.channel_messages()
        assert [a["filename"] for a in mine["attachments"]] == ["deck.yaml"]
        async with aiohttp.ClientSession() as session:
            for message, data in [(mine, DECK), (shared, b"a,b\n1,2\n")]:
                [attachment] = message["attachments"]
                assert fake.attachment_data(attachment) == data
                async with session.get(attachment["url"]) as got:
                    assert got.status == 200
                    assert await got.read() == data

        # A channel message with a file, edited to keep it and add another.
        channel = text_channel(bot, fake.channel_id)
        sent = await channel.send("board", file=discord.File(io.BytesIO(b"v1"), "board.txt"))
        assert await sent.attachments[0].read() == b"v1"
        edited = await sent.edit(
            attachments=[*sent.attachments, discord.File(io.BytesIO(b"v2"), "next.txt")]
        )
        assert [a.filename for a in edited.attachments] == ["board.txt", "next.txt"]
        assert await edited.attachments[1].read() == b"v2"
        stored = fake.messages[str(sent.id)]["attachments"]
        assert [fake.attachment_data(a) for a in stored] == [b"v1", b"v2"]

        too_big = discord.File(io.BytesIO(b"x" * (p.ATTACHMENT_SIZE_LIMIT + 1)), "big.bin")
        with pytest.raises(discord.HTTPException) as refused:
            await channel.send(file=too_big)
        assert (refused.value.status, refused.value.code) == (413, 40005)


# -- channels ------------------------------------------------------------------------------------


@aio
async def test_commands_in_other_channels_and_threads(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    lobby = fake.add_channel("lobby")
    thread = fake.add_thread("round-1", parent=lobby)
    async with fake, running(FeatureBot(fake), fake) as bot:
        for channel_id, answer in [
            (lobby, "lobby TextChannel"),
            (thread, "round-1 Thread"),
            (None, "chaos-table TextChannel"),
        ]:
            _, callback = await fake.slash("where", channel=channel_id)
            assert callback["data"]["content"] == answer
            [message] = fake.channel_messages(channel_id)
            assert message["content"] == answer

        late = fake.add_channel("late")
        created = await bot.wait_for("guild_channel_create", timeout=1)
        assert str(created.id) == late
        sent = await text_channel(bot, late).send("hello late")
        assert fake.channel_messages(late)[0]["id"] == str(sent.id)
        _, callback = await fake.slash("where", channel=late)
        assert callback["data"]["content"] == "late TextChannel"
        with pytest.raises(SchemaError, match="unknown channel"):
            await fake.slash("where", channel="42")


# -- conveniences --------------------------------------------------------------------------------


@aio
async def test_a_message_deleted_by_a_user_is_gone_for_the_bot(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    async with fake, running(FeatureBot(fake), fake) as bot:
        sent = await text_channel(bot, fake.channel_id).send("board")
        fake.delete_message(str(sent.id))
        event = await bot.wait_for("raw_message_delete", timeout=1)
        assert event.message_id == sent.id
        with pytest.raises(discord.NotFound) as gone:
            await sent.edit(content="board v2")
        assert gone.value.code == 10008
        assert fake.channel_messages() == []

        board = await text_channel(bot, fake.channel_id).send("board", view=RevealView())
        fake.delete_message(str(board.id))
        with pytest.raises(SchemaError, match="deleted"):
            await fake.click(REVEAL, message={"id": str(board.id)})


@aio
async def test_wait_for_message_sees_a_later_edit(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    async with fake, running(FeatureBot(fake), fake):
        _, callback = await fake.slash("later")
        assert callback["data"]["content"] == "working"
        message = await fake.wait_for_message(lambda m: m["content"] == "finished")
        assert message["edited_timestamp"] is not None
        with pytest.raises(TimeoutError):
            await fake.wait_for_message(lambda m: m["content"] == "never", timeout=0.05)


# -- Discord's size limits ---------------------------------------------------------------------


@aio
async def test_messages_past_discords_limits_are_refused_as_discord_does(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    async with fake, running(FeatureBot(fake), fake) as bot:
        channel = text_channel(bot, fake.channel_id)
        fits = discord.Embed(title="t" * 256, description="d" * 4096)
        fits.add_field(name="n" * 256, value="v" * 1024)
        await channel.send("c" * 2000, embed=fits)
        too_long: list[dict[str, Any]] = [
            {"content": "c" * 2001},
            {"embed": discord.Embed(description="d" * 4097)},
            {"embed": discord.Embed(title="t" * 257)},
            {"embed": discord.Embed().add_field(name="n", value="v" * 1025)},
            {"embeds": [discord.Embed(description="d" * 4000)] * 2},  # 6,000 in all at most
        ]
        named = [
            "In content: Must be 2000 or fewer in length.",
            "In embeds.0.description: Must be 4096 or fewer in length.",
            "In embeds.0.title: Must be 256 or fewer in length.",
            "In embeds.0.fields.0.value: Must be 1024 or fewer in length.",
            "In embeds: Embed size exceeds maximum size of 6000",
        ]
        for kwargs, field in zip(too_long, named, strict=True):
            with pytest.raises(discord.HTTPException) as refused:
                await channel.send(**kwargs)
            assert (refused.value.status, refused.value.code) == (400, 50035)
            # discord.py flattens the errors object into its text, field by field
            assert refused.value.text == "Invalid Form Body\n" + field
        assert len(fake.channel_messages()) == 1
        assert len(fake.take_breaches()) == len(too_long)  # sent on purpose
