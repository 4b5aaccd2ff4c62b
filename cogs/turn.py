"""/turn: pass the turn, extra and skipped turns, reversal and seating."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import choices
from bot.client.bot import ChaosBot
from bot.client.interactions import Caller
from bot.commands import GameView
from bot.engine import actions as a

Interaction = discord.Interaction[ChaosBot]
Name = app_commands.Range[str, 1, 40]


class TurnCog(commands.GroupCog, group_name="turn"):
    """Pass the turn; extra and skipped turns, reversal, seating."""

    def __init__(self, bot: ChaosBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="next", description="End this turn (after its chaos roll) and start the next"
    )
    @app_commands.describe(override="Referees: end the turn without its chaos roll")
    async def next(self, interaction: Interaction, override: bool = False) -> None:
        await self.bot.play.act(
            interaction,
            lambda who, _: a.NextTurn(actor=who.id, referee=who.referee, override=override),
        )

    @app_commands.command(
        name="extra", description="A player takes an extra turn after this one (host or referee)"
    )
    @app_commands.describe(player="Who takes it (the active player, if left out)")
    @app_commands.autocomplete(player=choices.players)
    async def extra(self, interaction: Interaction, player: Name | None = None) -> None:
        await self.bot.play.act(
            interaction,
            lambda who, view: a.ExtraTurn(
                actor=who.id, referee=who.referee, player=view.maybe_player(player)
            ),
        )

    @app_commands.command(
        name="skip", description="A player skips their next turn (host or referee)"
    )
    @app_commands.describe(player="Who skips (the active player, if left out)")
    @app_commands.autocomplete(player=choices.players)
    async def skip(self, interaction: Interaction, player: Name | None = None) -> None:
        await self.bot.play.act(
            interaction,
            lambda who, view: a.SkipTurn(
                actor=who.id, referee=who.referee, player=view.maybe_player(player)
            ),
        )

    @app_commands.command(name="reverse", description="Play changes direction (host or referee)")
    async def reverse(self, interaction: Interaction) -> None:
        await self.bot.play.act(
            interaction, lambda who, _: a.Reverse(actor=who.id, referee=who.referee)
        )

    @app_commands.command(
        name="seats", description="Seat every player in a new order (host or referee)"
    )
    @app_commands.describe(order="Every player's name, in the new order, separated by commas")
    async def seats(self, interaction: Interaction, order: app_commands.Range[str, 1, 500]) -> None:
        def build(who: Caller, view: GameView) -> a.Action:
            names = [part.strip() for part in order.split(",") if part.strip()]
            seats = tuple(view.player(name) for name in names)
            return a.Seats(actor=who.id, referee=who.referee, order=seats)

        await self.bot.play.act(interaction, build)


async def setup(bot: ChaosBot) -> None:
    await bot.add_cog(TurnCog(bot))
