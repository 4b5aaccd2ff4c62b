"""The fake Discord, driven by the real discord.py client with a tiny bot defined here."""

from __future__ import annotations

import asyncio
import inspect
import time
from typing import Any

import discord
import discord.gateway
import discord.http
import discord.webhook.async_
import pytest
import yarl
from discord import app_commands
from discord.ext import commands

from tests.fakediscord.hooks import GATEWAY_DEFAULT, REST_BASE_DEFAULT
from tests.fakediscord.plugin import GUILD_READY_TIMEOUT, aio, assert_no_unknown_routes, running
from tests.fakediscord.server import Call, FakeDiscord, SchemaError

HELLO_BUTTON = "test:hello"
BUMP_BUTTON = "test:bump"


class HelloView(discord.ui.View):
    """A persistent view: no timeout, a fixed custom_id, registered with ``add_view``."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Hello", custom_id=HELLO_BUTTON)
    async def hello(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_message(f"hello {interaction.user.name}", ephemeral=True)

    @discord.ui.button(label="Bump", custom_id=BUMP_BUTTON)
    async def bump(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content="bumped")


class TinyBot(commands.Bot):
    def __init__(self, fake: FakeDiscord, intents: discord.Intents | None = None) -> None:
        super().__init__(
            command_prefix="!",
            intents=intents or discord.Intents.default(),
            guild_ready_timeout=GUILD_READY_TIMEOUT,
        )
        self.fake = fake
        self.errors: list[Exception] = []
        self.twice_done = asyncio.Event()
        self._add_commands()

    async def setup_hook(self) -> None:
        self.add_view(HelloView())
        await self.tree.sync(guild=discord.Object(int(self.fake.guild_id)))

    def _add_commands(self) -> None:
        guild = discord.Object(int(self.fake.guild_id))

        @self.tree.command(name="ping", description="Replies pong.", guild=guild)
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")

        @self.tree.command(name="echo", description="Repeats a text.", guild=guild)
        @app_commands.describe(text="What to repeat", times="How often")
        async def echo(
            interaction: discord.Interaction,
            text: str,
            times: app_commands.Range[int, 1, 5] = 1,
        ) -> None:
            await interaction.response.send_message(" ".join([text] * times))

        @echo.autocomplete("text")
        async def echo_text(interaction: discord.Interaction, current: str) -> list[Any]:
            words = ["chaos", "charm", "cheer", "dice"]
            return [app_commands.Choice(name=w, value=w) for w in words if w.startswith(current)]

        @self.tree.command(name="twice", description="Answers twice.", guild=guild)
        async def twice(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("first")
            try:  # a fresh InteractionResponse does not know the first answer was sent
                await discord.InteractionResponse(interaction).send_message("second")
            except discord.HTTPException as exc:
                self.errors.append(exc)
            self.twice_done.set()

        @self.tree.command(name="slow", description="Thinks, then answers.", guild=guild)
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send("a followup")
            await interaction.edit_original_response(content="done")


# -- logging in, syncing, slash commands ---------------------------------------------------------


@aio
async def test_the_client_logs_in_syncs_and_answers_ping(fake_discord: FakeDiscord) -> None:
    async with fake_discord:
        bot = TinyBot(fake_discord)
        started = time.perf_counter()
        async with running(bot, fake_discord):
            startup = time.perf_counter() - started
            assert startup < 1.0, f"start to ready took {startup:.3f} s"
            assert bot.user is not None
            assert str(bot.user.id) == fake_discord.app_id
            guild = bot.get_guild(int(fake_discord.guild_id))
            assert guild is not None
            assert guild.get_channel(int(fake_discord.channel_id)) is not None

            synced = {c["name"] for c in fake_discord.guild_commands[fake_discord.guild_id]}
            assert synced == {"ping", "echo", "twice", "slow"}
            intents = fake_discord.identifies[0]["intents"]
            privileged = discord.Intents(members=True, presences=True, message_content=True)
            assert intents & privileged.value == 0

            payload, callback = await fake_discord.slash("ping")
            assert callback["type"] == 4
            assert callback["data"]["content"] == "pong"
            assert fake_discord.callbacks[payload["id"]] == callback


@aio
async def test_options_are_sent_and_checked_against_the_synced_schema(
    fake_discord: FakeDiscord,
) -> None:
    async with fake_discord, running(TinyBot(fake_discord), fake_discord):
        _, callback = await fake_discord.slash("echo", {"text": "chaos", "times": 3})
        assert callback["data"]["content"] == "chaos chaos chaos"

        bad: list[tuple[str, dict[str, Any], str]] = [
            ("nope", {}, "was not synced"),
            ("echo", {}, "required option 'text'"),
            ("echo", {"text": "x", "loud": True}, "unknown option"),
            ("echo", {"text": "x", "times": 9}, "above max_value"),
            ("echo", {"text": "x", "times": "2"}, "does not fit option type 4"),
            ("echo", {"text": 7}, "does not fit option type 3"),
            ("ping sub", {}, "no subcommand"),
        ]
        for path, options, message in bad:
            with pytest.raises(SchemaError, match=message):
                await fake_discord.slash(path, options)


@aio
async def test_autocomplete_returns_choices(fake_discord: FakeDiscord) -> None:
    async with fake_discord, running(TinyBot(fake_discord), fake_discord):
        _, callback = await fake_discord.autocomplete("echo", {"text": "ch"}, focused="text")
        assert callback["type"] == 8
        assert [c["value"] for c in callback["data"]["choices"]] == ["chaos", "charm", "cheer"]
        with pytest.raises(SchemaError, match="no autocomplete"):
            await fake_discord.autocomplete("echo", {"text": "x", "times": 1}, focused="times")


@aio
async def test_a_persistent_button_round_trip(fake_discord: FakeDiscord) -> None:
    async with fake_discord, running(TinyBot(fake_discord), fake_discord):
        _, callback = await fake_discord.click(HELLO_BUTTON)
        assert callback["type"] == 4
        assert callback["data"]["content"] == "hello player"
        assert callback["data"]["flags"] & 64  # ephemeral


@aio
async def test_a_button_that_edits_its_message(fake_discord: FakeDiscord) -> None:
    async with fake_discord:
        bot = TinyBot(fake_discord)
        async with running(bot, fake_discord):
            channel = bot.get_channel(int(fake_discord.channel_id))
            assert isinstance(channel, discord.TextChannel)
            sent = await channel.send("board", view=HelloView())
            message = fake_discord.messages[str(sent.id)]
            _, callback = await fake_discord.click(BUMP_BUTTON, message=message)
            assert callback["type"] == 7
            assert fake_discord.messages[str(sent.id)]["content"] == "bumped"
            with pytest.raises(SchemaError, match="no component"):
                await fake_discord.click("test:missing", message=message)


@aio
async def test_defer_followup_and_edit_original(fake_discord: FakeDiscord) -> None:
    async with fake_discord, running(TinyBot(fake_discord), fake_discord):
        payload, callback = await fake_discord.slash("slow")
        assert callback["type"] == 5
        token = payload["token"]
        followup = await fake_discord.wait_for_call(f"POST /webhooks/*/{token}")
        assert followup.json["content"] == "a followup"
        edit = await fake_discord.wait_for_call(f"PATCH /webhooks/*/{token}/messages/@original")
        assert edit.json["content"] == "done"
        assert edit.status == 200
        # As on Discord, the first followup completed the "thinking…" message: one message.
        answers = [m for m in fake_discord.messages.values() if m.get("interaction_metadata")]
        assert [m["content"] for m in answers] == ["done"]
        assert not answers[0]["flags"] & 128  # no longer loading


# -- what Discord refuses ------------------------------------------------------------------------


@aio
async def test_a_second_acknowledgement_is_rejected_with_40060(fake_discord: FakeDiscord) -> None:
    async with fake_discord:
        bot = TinyBot(fake_discord)
        async with running(bot, fake_discord):
            payload, callback = await fake_discord.slash("twice")
            assert callback["data"]["content"] == "first"
            pattern = f"POST /interactions/{payload['id']}/*/callback"
            await asyncio.wait_for(bot.twice_done.wait(), 3)
            assert [c.status for c in fake_discord.calls_to(pattern)] == [200, 400]
            assert len(bot.errors) == 1
            assert isinstance(bot.errors[0], discord.HTTPException)
            assert bot.errors[0].code == 40060
            assert fake_discord.callbacks[payload["id"]]["data"]["content"] == "first"


@aio
async def test_a_429_on_the_callback_is_retried(fake_discord: FakeDiscord) -> None:
    async with fake_discord, running(TinyBot(fake_discord), fake_discord):
        fake_discord.fail_next("POST /interactions/*/callback", 429, retry_after=0.05)
        _, callback = await fake_discord.slash("ping")
        assert callback["data"]["content"] == "pong"
        statuses = [c.status for c in fake_discord.calls_to("POST /interactions/*/callback")]
        assert statuses == [429, 200]


@aio
async def test_an_injected_5xx_reaches_the_client(fake_discord: FakeDiscord) -> None:
    async with fake_discord:
        bot = TinyBot(fake_discord)
        async with running(bot, fake_discord):
            channel = bot.get_channel(int(fake_discord.channel_id))
            assert isinstance(channel, discord.TextChannel)
            # 503 is not retried by discord.py (500/502/504 are, after 1 s): it surfaces at once.
            fake_discord.fail_next("POST /channels/*/messages", 503)
            with pytest.raises(discord.DiscordServerError):
                await channel.send("lost")
            sent = await channel.send("kept")
            assert sent.content == "kept"


@aio
async def test_channel_messages_create_edit_fetch_delete(fake_discord: FakeDiscord) -> None:
    async with fake_discord:
        bot = TinyBot(fake_discord)
        async with running(bot, fake_discord):
            channel = bot.get_channel(int(fake_discord.channel_id))
            assert isinstance(channel, discord.TextChannel)
            message = await channel.send("board v1")
            await message.edit(content="board v2")
            fetched = await channel.fetch_message(message.id)
            assert fetched.content == "board v2"
            await message.delete()
            with pytest.raises(discord.NotFound):
                await channel.fetch_message(message.id)
            methods = [c.method for c in fake_discord.calls_to("* /channels/*/messages*")]
            assert methods == ["POST", "PATCH", "GET", "DELETE", "GET"]


@aio
async def test_an_unknown_route_is_recorded_and_fails_the_fixture(
    fake_discord: FakeDiscord,
) -> None:
    async with fake_discord:
        bot = TinyBot(fake_discord)
        async with running(bot, fake_discord):
            with pytest.raises(discord.NotFound):
                await bot.fetch_guild(int(fake_discord.guild_id))
        with pytest.raises(AssertionError, match=f"GET /guilds/{fake_discord.guild_id}"):
            assert_no_unknown_routes(fake_discord)
        unknown = fake_discord.take_unknown()  # so this test's own teardown passes
        assert [(c.method, c.path) for c in unknown] == [
            ("GET", f"/guilds/{fake_discord.guild_id}")
        ]
        assert_no_unknown_routes(fake_discord)


@aio
async def test_the_client_resumes_after_a_reconnect_request(fake_discord: FakeDiscord) -> None:
    async with fake_discord, running(TinyBot(fake_discord), fake_discord):
        session = fake_discord.session_id
        await fake_discord.request_reconnect()
        await fake_discord.wait_connected()
        assert [r["session_id"] for r in fake_discord.resumes] == [session]
        assert len(fake_discord.identifies) == 1
        _, callback = await fake_discord.slash("ping")
        assert callback["data"]["content"] == "pong"


# -- gateway options -----------------------------------------------------------------------------


@pytest.mark.parametrize("fake_discord", [{"zlib": False}, {"zlib": True}], indirect=True)
@aio
async def test_text_and_zlib_stream_frames(fake_discord: FakeDiscord) -> None:
    async with fake_discord, running(TinyBot(fake_discord), fake_discord):
        _, callback = await fake_discord.slash("ping")
        assert callback["data"]["content"] == "pong"
        asked = fake_discord.gateway.queries[0].get("compress")
        if fake_discord.gateway.zlib and asked != "zlib-stream":
            pytest.skip(f"this discord.py asks for {asked}, which the fake does not compress")
        # READY, GUILD_CREATE and the interaction went through the zlib stream, or none did.
        assert (fake_discord.gateway.compressed_frames >= 3) is fake_discord.gateway.zlib


@pytest.mark.parametrize("fake_discord", [{"privileged_allowed": False}], indirect=True)
@aio
async def test_privileged_intents_close_the_gateway_with_4014(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    async with fake:
        async with running(TinyBot(fake), fake):
            pass  # the default intents are not privileged

        nosy = discord.Intents.default()
        nosy.message_content = True
        with pytest.raises(discord.ConnectionClosed) as closed:
            async with running(TinyBot(fake, nosy), fake):
                pass
        assert closed.value.code == 4014

        # Only a client allowed to reconnect turns 4014 into PrivilegedIntentsRequired.
        bot = TinyBot(fake, nosy)
        await bot.login("fake-token")
        with pytest.raises(discord.PrivilegedIntentsRequired):
            await bot.connect(reconnect=True)
        await bot.close()
        content = discord.Intents(message_content=True).value
        assert [i["intents"] & content for i in fake.identifies] == [0, content, content]


# -- the canary --------------------------------------------------------------------------------


def test_discord_py_hook_points_have_not_moved() -> None:
    """The fake relies on two class attributes of discord.py, and the bot on one private method;
    fail loudly if they change."""
    route = discord.http.Route
    assert isinstance(route.__dict__.get("BASE"), str), "discord.http.Route.BASE moved"
    assert route.BASE == REST_BASE_DEFAULT
    assert route("GET", "/users/@me").url == route.BASE + "/users/@me"
    assert "self.BASE" in inspect.getsource(route.__init__), "Route no longer builds from BASE"
    # Interaction callbacks and followups must build the same Route class.
    assert vars(discord.webhook.async_)["Route"] is route

    ws = discord.gateway.DiscordWebSocket
    default = ws.__dict__.get("DEFAULT_GATEWAY")
    assert isinstance(default, yarl.URL), "DiscordWebSocket.DEFAULT_GATEWAY moved"
    assert str(default) == GATEWAY_DEFAULT
    assert "cls.DEFAULT_GATEWAY" in inspect.getsource(ws.from_client)

    # The bot's tree queues each member's commands around CommandTree._call (ChaosTree).
    tree = discord.app_commands.CommandTree
    assert "self._call(interaction)" in inspect.getsource(tree._from_interaction), "_call moved"


def test_a_call_matches_method_and_path_patterns() -> None:
    call = Call("POST", "/interactions/1/abc/callback", {}, None)
    assert call.matches("POST /interactions/*/callback")
    assert not call.matches("GET /interactions/*/callback")
