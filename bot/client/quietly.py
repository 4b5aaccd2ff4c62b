"""A first answer that doesn't ask Discord to send the message back.

discord.py's ``InteractionResponse.send_message`` asks for the callback ``with_response``, so
Discord sends back the whole message it made, and discord.py builds a ``Message`` from it:
its embeds, its components, its author. The bot reads none of that for an answer to an
action, and for a roll (three embeds and a button) building it cost about a tenth of the
bot's CPU in a burst of rolls (``bench/discord_bench.py``). Without ``with_response``
Discord answers 204 with no body, as it did before the parameter existed.

:func:`send_first` posts the same payload discord.py would, through discord.py's own
webhook adapter (its rate limits and retries), and marks the interaction answered as
``send_message`` does. It is used only where nothing needs the message: a view of
:class:`discord.ui.DynamicItem` only, whose presses reach the classes the bot registered
(``ChaosBot.add_dynamic_items``), not a view kept for one message; anything else goes
through ``send_message``. ``/game status`` still asks for the message, for its id.

It leans on four names discord.py doesn't document (``interaction_message_response_params``,
``async_context``, ``Interaction._session`` and ``InteractionResponse._response_type``):
the canary in ``tests/e2e/test_quiet_answers.py`` fails if one of them moves.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.enums import InteractionResponseType
from discord.http import Route
from discord.utils import MISSING
from discord.webhook.async_ import async_context, interaction_message_response_params

CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"


def can_send_first(view: discord.ui.View | None) -> bool:
    """Whether an answer with `view` needs nothing kept for its message: no view, or one of
    dynamic items only (or of no items at all, as :func:`~bot.client.buttons.steps_view`
    draws)."""
    return view is None or all(
        isinstance(item, discord.ui.DynamicItem) for item in view.walk_children()
    )


async def send_first(
    interaction: discord.Interaction[Any],
    content: str | None,
    *,
    ephemeral: bool,
    allowed_mentions: discord.AllowedMentions,
    embeds: list[discord.Embed] | None = None,
    view: discord.ui.View | None = None,
    file: discord.File | None = None,
) -> None:
    """``interaction.response.send_message`` with these arguments, without the message back
    (see the module's notes). Raises as it does: ``InteractionResponded`` if the interaction
    was answered already here, ``HTTPException`` if Discord refuses."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    state = interaction._state
    params = interaction_message_response_params(
        type=InteractionResponseType.channel_message.value,
        content=content,
        embeds=embeds if embeds is not None else MISSING,
        file=file if file is not None else MISSING,
        view=view if view is not None else MISSING,
        flags=discord.MessageFlags(ephemeral=True) if ephemeral else MISSING,
        allowed_mentions=allowed_mentions,
        previous_allowed_mentions=state.allowed_mentions,
    )
    route = Route("POST", CALLBACK, webhook_id=interaction.id, webhook_token=interaction.token)
    http = state.http
    adapter = async_context.get()
    with params:
        # As discord.py sends it: a file goes as a multipart form, anything else as JSON.
        body: dict[str, Any] = (
            {"files": params.files, "multipart": params.multipart}
            if params.files
            else {"payload": params.payload}
        )
        await adapter.request(
            route,
            session=interaction._session,
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            **body,
        )
    response._response_type = InteractionResponseType.channel_message
