"""/chaos: the turn's chaos roll or card, tokens, spite, the Global, choices, the log, undo."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import choices
from bot.client.bot import ChaosBot
from bot.client.embeds import result_embeds
from bot.client.interactions import Caller, reply, scope_of
from bot.commands import GameView
from bot.engine import actions as a
from bot.render.events import latest_actions

Interaction = discord.Interaction[ChaosBot]


class ChaosCog(commands.GroupCog, group_name="chaos"):
    """Chaos rolls and cards, tokens, spite, choices, the log and undo."""

    def __init__(self, bot: ChaosBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="roll", description="Make this turn's chaos roll (or draw the chaos card)"
    )
    @app_commands.describe(
        list="A roll a result offered, or a referee's call: one roll here, not the turn's",
        extra="Referees: an extra roll, made like the turn's; it isn't the turn's roll",
    )
    @app_commands.autocomplete(list=choices.lists)
    async def roll(
        self,
        interaction: Interaction,
        list: app_commands.Range[str, 1, 60] | None = None,
        extra: bool = False,
    ) -> None:
        def build(who: Caller, view: GameView) -> a.Action:
            table = None if list is None else view.table(list)
            return a.RollChaos(actor=who.id, referee=who.referee, table=table, extra=extra)

        await self.bot.play.act(interaction, build)

    @app_commands.command(
        name="decline", description="Pass up a roll a result offered: nothing is rolled for it"
    )
    @app_commands.describe(list="The offered list (left out: the only roll on offer)")
    @app_commands.autocomplete(list=choices.offered)
    async def decline(
        self, interaction: Interaction, list: app_commands.Range[str, 1, 60] | None = None
    ) -> None:
        def build(who: Caller, view: GameView) -> a.Action:
            table = None if list is None else view.table(list)
            return a.Decline(actor=who.id, referee=who.referee, table=table)

        await self.bot.play.act(interaction, build)

    @app_commands.command(
        name="reveal", description="Turn the face-down chaos card up once everyone has passed"
    )
    async def reveal(self, interaction: Interaction) -> None:
        await self.bot.play.act(
            interaction, lambda who, _: a.Reveal(actor=who.id, referee=who.referee)
        )

    @app_commands.command(name="counter", description="Spend a CounterRoll on the latest roll")
    async def counter(self, interaction: Interaction) -> None:
        await self.bot.play.act(
            interaction, lambda who, _: a.Counter(actor=who.id, referee=who.referee)
        )

    @app_commands.command(name="fork", description="Spend a RollFork to copy the latest roll")
    async def fork(self, interaction: Interaction) -> None:
        await self.bot.play.act(
            interaction, lambda who, _: a.Fork(actor=who.id, referee=who.referee)
        )

    @app_commands.command(
        name="veto", description="Vote to veto the result just shown (a house rule)"
    )
    async def veto(self, interaction: Interaction) -> None:
        await self.bot.play.act(
            interaction, lambda who, _: a.Veto(actor=who.id, referee=who.referee)
        )

    @app_commands.command(
        name="spite", description="A player would lose: apply the ruleset's spite rule"
    )
    @app_commands.describe(
        player="Who would lose (you, if left out)",
        reason="Why they would lose (classic: life if left out; deck: asked afterwards)",
    )
    @app_commands.autocomplete(player=choices.players)
    @app_commands.choices(
        reason=[app_commands.Choice(name=reason, value=reason) for reason in a.LOSS_REASONS]
    )
    async def spite(
        self,
        interaction: Interaction,
        player: app_commands.Range[str, 1, 40] | None = None,
        reason: str | None = None,
    ) -> None:
        await self.bot.play.act(
            interaction,
            lambda who, view: a.Spite(
                actor=who.id,
                referee=who.referee,
                player=view.maybe_player(player),
                reason=reason,
            ),
        )

    @app_commands.command(
        name="global",
        description="A new Global or world from the start list or Global deck (host or referee)",
    )
    async def global_(self, interaction: Interaction) -> None:
        await self.bot.play.act(
            interaction, lambda who, _: a.RollGlobal(actor=who.id, referee=who.referee)
        )

    @app_commands.command(name="choose", description="Answer the choice the game waits for")
    @app_commands.describe(option="The option's number or name")
    @app_commands.autocomplete(option=choices.options)
    async def choose(
        self, interaction: Interaction, option: app_commands.Range[str, 1, 100]
    ) -> None:
        await self.bot.play.act(
            interaction,
            lambda who, view: a.Choose(
                actor=who.id, referee=who.referee, option=view.option(option)
            ),
        )

    @app_commands.command(name="log", description="What happened lately in this channel's game")
    @app_commands.describe(count="How many actions, each with all it did (20 if left out)")
    async def log(
        self, interaction: Interaction, count: app_commands.Range[int, 1, 200] = 20
    ) -> None:
        game = (await self.bot.service.latest(scope_of(interaction))).game
        events = latest_actions(game.events, count)
        whole = len(events) == len(game.events)
        title = "The whole log" if whole else f"The last {count} actions"
        embeds = result_embeds(events, game, title=title, actions=True)
        await reply(interaction, embeds=embeds, ephemeral=True)

    @app_commands.command(name="undo", description="Take back the last action (host or referee)")
    async def undo(self, interaction: Interaction) -> None:
        await self.bot.play.act(
            interaction, lambda who, _: a.Undo(actor=who.id, referee=who.referee)
        )


async def setup(bot: ChaosBot) -> None:
    await bot.add_cog(ChaosCog(bot))
