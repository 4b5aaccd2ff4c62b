"""A member's button presses and menu picks take the same turns as their slash commands.

A press reaches its :class:`discord.ui.DynamicItem` straight from discord.py, past the command
tree where a member's slash commands take turns (:mod:`bot.client.oneatatime`): a member
pressing a button a hundred times at once (a script, an auto-clicker) put a hundred pieces of
work in front of everyone else's next command. Every item the bot registers takes
:class:`TakesTurns` first among its bases and writes its work as :meth:`TakesTurns.pressed`;
``tests/client/test_presses.py`` fails for one that doesn't.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import discord

if TYPE_CHECKING:
    from bot.client.bot import ChaosTree


class TakesTurns:
    """A component whose presses wait for the member's turn (see the module's notes)."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        tree = cast("ChaosTree", interaction.client.tree)
        await tree.in_turn(interaction, self.pressed(interaction))

    async def pressed(self, interaction: discord.Interaction[Any]) -> None:
        """What a press does, in the member's turn."""
        raise NotImplementedError
