"""First answers that don't ask Discord for the message back (bot.client.quietly), through the
real discord.py client and the fake Discord; and the canary for the private names they use."""

from __future__ import annotations

import inspect
from typing import Any

import discord
import discord.interactions
import discord.webhook.async_

from bot.client import quietly
from bot.client.buttons import GameButton
from bot.commands.steps import Step, StepKind
from tests.e2e.table import Table, components, embed, is_ephemeral
from tests.fakediscord.plugin import aio

CALLBACKS = "POST /interactions/*/callback"


def test_the_private_names_it_uses_have_not_moved() -> None:
    """quietly leans on four names discord.py doesn't document: fail loudly if one moves."""
    params = inspect.signature(discord.webhook.async_.interaction_message_response_params)
    for name in ("type", "content", "embeds", "file", "view", "flags", "allowed_mentions"):
        assert name in params.parameters, f"interaction_message_response_params lost {name}"
    assert "previous_allowed_mentions" in params.parameters
    adapter = discord.webhook.async_.async_context.get()
    request = inspect.signature(adapter.request).parameters
    assert {"payload", "multipart", "files", "session", "proxy", "proxy_auth"} <= set(request)
    # send_message marks the interaction answered in `_response_type`; is_done reads it.
    response = inspect.getsource(discord.interactions.InteractionResponse.is_done)
    assert "self._response_type" in response
    sent = inspect.getsource(discord.interactions.InteractionResponse.send_message)
    assert "self._response_type = InteractionResponseType.channel_message" in sent
    assert "session=parent._session" in sent
    # The callback's route is the one discord.py answers on.
    adapter_class = discord.webhook.async_.AsyncWebhookAdapter
    assert quietly.CALLBACK in inspect.getsource(adapter_class.create_interaction_response)


def test_only_a_view_nothing_keeps_is_sent_quietly() -> None:
    """A view of dynamic items only (presses reach the classes registered with the bot) needs
    nothing kept for its message; a button with a callback of its own does."""
    step = Step(StepKind.ROLL, "Roll chaos", 0)
    dynamic = discord.ui.View(timeout=None)
    dynamic.add_item(GameButton(step, 1, 1))
    kept = discord.ui.View(timeout=None)
    kept.add_item(discord.ui.Button(label="Mine", custom_id="mine"))
    mixed = discord.ui.View(timeout=None)
    mixed.add_item(GameButton(step, 1, 1))
    mixed.add_item(discord.ui.Button(label="Mine", custom_id="mine"))
    assert quietly.can_send_first(None)
    assert quietly.can_send_first(dynamic)
    assert not quietly.can_send_first(kept)
    assert not quietly.can_send_first(mixed)


@aio
async def test_a_rolls_answer_asks_for_no_message_back_and_arrives_whole(
    fake_discord: Any, tmp_path: Any
) -> None:
    """The roll's answer goes without with_response: Discord answers 204, and the message it
    made is the whole answer (embeds, buttons, public); the player's next command isn't held
    for it (the member's turn ended when the answer went)."""
    fake = fake_discord
    async with fake, Table.open(fake, tmp_path) as t:
        owner, _ = await t.game("classic", seed=7)
        before = len(fake.calls_to(CALLBACKS))
        body = await t.slash("chaos roll", user=owner)
        (call,) = fake.calls_to(CALLBACKS)[before:]
        assert "with_response" not in call.query
        assert call.status == 204
        assert not is_ephemeral(body)
        stored = fake.channel_messages()[-1]
        assert stored["embeds"][0]["title"] == embed(body)["title"]
        assert [c["label"] for c in components(stored)] == ["Next turn"]
        # A refusal is an answer too, private, and as quiet.
        refusal = await t.slash("chaos roll", user=owner)
        assert is_ephemeral(refusal)
        assert fake.calls_to(CALLBACKS)[-1].status == 204
        # The buttons the quiet answer drew still work: presses reach the registered items.
        await t.press("Next turn", user=owner)
        assert (await t.current()).game.state.turn == 2


@aio
async def test_a_view_that_must_be_kept_is_still_sent_with_its_message_back(
    fake_discord: Any, tmp_path: Any
) -> None:
    """An answer whose view discord.py keeps for its message (a button with a callback) goes
    the usual way, with_response, so the press reaches the callback."""
    fake = fake_discord
    pressed: list[int] = []

    class Mine(discord.ui.View):
        @discord.ui.button(label="Mine", custom_id="test:mine")
        async def mine(self, interaction: discord.Interaction[Any], _: Any) -> None:
            pressed.append(interaction.user.id)
            await interaction.response.defer()

    async with fake, Table.open(fake, tmp_path) as t:
        bot = t.bot

        guild = discord.Object(id=int(fake.guild_id))

        @bot.tree.command(name="mine", description="a test command with a kept view", guild=guild)
        async def mine(interaction: discord.Interaction[Any]) -> None:
            from bot.client.interactions import reply

            await reply(interaction, "press it", view=Mine(timeout=None))

        await bot.tree.sync(guild=guild)
        await t.slash("mine", user=fake.owner)
        (call,) = fake.calls_to(CALLBACKS)[-1:]
        assert call.query.get("with_response") in ("1", "true", "True")
        assert call.status == 200
        message = fake.channel_messages()[-1]
        await fake.click("test:mine", message=message, user=fake.owner)
        assert pressed == [int(fake.owner["id"])]
