""" "Show everyone": a private /rules answer posted to the channel, for the whole table.

/rules answers privately, so in a dispute only the asker reads the ruling. Its answer carries a
"Show everyone" button that posts it to the channel: the post names who asked (a mention that
pings nobody) and leads with the rule's one-line answer; the detail follows behind a spoiler,
one click away for each reader.

The button needs no state and survives a restart: Discord sends the message a button is on with
the press, and the post is made from that message's own embeds, so its ``custom_id`` is a fixed
``cr:show:rules`` (:class:`discord.ui.DynamicItem`). A member's presses take their turns with
their slash commands (:mod:`bot.client.oneatatime`), and each private answer is shown once,
however often its button is pressed before it disappears.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.client.embeds import DESCRIPTION_LIMIT, NEUTRAL_COLOUR
from bot.client.errors import report
from bot.client.interactions import answered
from bot.client.presses import TakesTurns
from bot.commands import CommandError

if TYPE_CHECKING:
    from bot.client.bot import ChaosBot

SHOW = "cr:show:rules"
LABEL = "Show everyone"
DETAILS = "Details (click to show):"
REMEMBERED = 10_000  # private answers remembered as shown; older ones lost their button anyway


class ShownOnce:
    """The private answers shown already, the newest :data:`REMEMBERED` of them."""

    def __init__(self, size: int = REMEMBERED) -> None:
        self.size = size
        self._shown: OrderedDict[int, None] = OrderedDict()

    def first(self, message_id: int) -> bool:
        """Whether this is the first showing of `message_id` (and remember it)."""
        if message_id in self._shown:
            return False
        self._shown[message_id] = None
        if len(self._shown) > self.size:
            self._shown.popitem(last=False)
        return True

    def __len__(self) -> int:
        return len(self._shown)


def shared_text(body: str) -> str:
    """A rules answer as the table reads it: its first paragraph (the one-line answer), then the
    rest behind a spoiler, cut to fit one embed."""
    lead, _, rest = body.strip().partition("\n\n")
    rest = rest.strip().replace("||", "|\u200b|")  # a "||" inside would end the spoiler early
    if not rest:
        return lead
    room = DESCRIPTION_LIMIT - len(lead) - len(DETAILS) - len("\n\n ||||")
    if len(rest) > room:
        rest = rest[: max(room - 1, 0)] + "…"
    return f"{lead}\n\n{DETAILS} ||{rest}||"


class ShowEveryone(TakesTurns, discord.ui.DynamicItem[discord.ui.Button[Any]], template=SHOW):
    """The "Show everyone" button of a private rules answer."""

    def __init__(self) -> None:
        super().__init__(
            discord.ui.Button(label=LABEL, style=discord.ButtonStyle.secondary, custom_id=SHOW)
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
    ) -> ShowEveryone:
        return cls()

    async def pressed(self, interaction: discord.Interaction[Any]) -> None:
        await _show(interaction, cast("ChaosBot", interaction.client).shown)


def share_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ShowEveryone())
    return view


async def _show(interaction: discord.Interaction[Any], shown: ShownOnce) -> None:
    try:
        message = interaction.message
        if message is None or not message.embeds:
            raise CommandError("that answer is gone: ask /rules again")
        if not shown.first(message.id):
            await interaction.response.edit_message(view=None)
            answered(interaction)
            return
        first = message.embeds[0]
        body = "\n".join(e.description or "" for e in message.embeds)
        embed = discord.Embed(
            title=first.title, description=shared_text(body), colour=first.colour or NEUTRAL_COLOUR
        )
        await interaction.response.edit_message(view=None)  # the private answer keeps its text
        answered(interaction)
        await interaction.followup.send(
            f"{interaction.user.mention} asked /rules:",
            embed=embed,
            allowed_mentions=discord.AllowedMentions.none(),
            ephemeral=False,
        )
    except Exception as error:  # a component has no command tree to report to
        await report(interaction, error)
