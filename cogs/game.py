"""/game: open a game at this table, join it, lock the seats, look at it, end it, export it."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import choices
from bot.client.bot import ChaosBot
from bot.client.files import fitting_file
from bot.client.interactions import Caller, answered, reply, scope_of
from bot.client.verifying import verify_upload
from bot.commands import CommandError, GameView
from bot.engine import actions as a

Interaction = discord.Interaction[ChaosBot]


def _names(text: str | None) -> tuple[str, ...]:
    return tuple(part.strip() for part in (text or "").split(",") if part.strip())


class GameCog(commands.GroupCog, group_name="game"):
    """Open, join, begin, show and end a game at this table."""

    def __init__(self, bot: ChaosBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="start", description="Open a new game in this channel; you host it")
    @app_commands.describe(
        ruleset="classic, lists or deck (the server's default if left out)",
        tables="Tables this server uploaded to play with, separated by commas",
        life="Track life from this many points (dropping below 1 starts the spite rule)",
        seed="A number that makes every roll of the game repeatable",
    )
    @app_commands.autocomplete(ruleset=choices.rulesets, tables=choices.uploads)
    async def start(
        self,
        interaction: Interaction,
        ruleset: app_commands.Range[str, 1, 40] | None = None,
        tables: app_commands.Range[str, 1, 200] | None = None,
        life: app_commands.Range[int, 1, 1000] | None = None,
        seed: app_commands.Range[int, 0, 2_147_483_647] | None = None,
    ) -> None:
        await self.bot.play.start(interaction, ruleset, tables=_names(tables), life=life, seed=seed)

    @app_commands.command(name="join", description="Take a seat in the game before it begins")
    async def join(self, interaction: Interaction) -> None:
        await self.bot.play.act(
            interaction, lambda who, _: a.Join(actor=who.id, player_name=who.name)
        )

    @app_commands.command(
        name="leave", description="Leave the lobby, or concede the game in progress"
    )
    async def leave(self, interaction: Interaction) -> None:
        await self.bot.play.act(
            interaction, lambda who, _: a.Leave(actor=who.id, referee=who.referee)
        )

    @app_commands.command(
        name="begin", description="Lock the seats and make the start roll (host or referee)"
    )
    @app_commands.describe(
        order="Seat order: players' names separated by commas (join order if left out)"
    )
    async def begin(
        self, interaction: Interaction, order: app_commands.Range[str, 1, 500] | None = None
    ) -> None:
        def build(who: Caller, view: GameView) -> a.Action:
            seats = tuple(view.player(name) for name in _names(order))
            return a.Begin(actor=who.id, referee=who.referee, order=seats)

        await self.bot.play.act(interaction, build)

    @app_commands.command(name="status", description="Show the game's status board here")
    async def status(self, interaction: Interaction) -> None:
        scope = scope_of(interaction)
        outcome = await self.bot.service.latest(scope)  # an ended game's board too
        boards = self.bot.boards
        embed, view = boards.draw(outcome.game_id, outcome.game)
        # The boards aren't settled until this answer has become the board.
        boards.expect()
        try:
            sent = await interaction.response.send_message(embed=embed, view=view)
            answered(interaction)
            message = sent.message_id
            if message is None:  # Discord names the message it made; if not, ask for it
                message = (await interaction.original_response()).id
            assert interaction.channel_id is not None  # scope_of checked it
            await boards.adopt(scope, outcome.game_id, interaction.channel_id, message)
        finally:
            boards.forget_expected()

    @app_commands.command(name="end", description="End the game for everyone (host or referee)")
    async def end(self, interaction: Interaction) -> None:
        await self.bot.play.act(
            interaction, lambda who, _: a.End(actor=who.id, referee=who.referee)
        )

    @app_commands.command(
        name="link", description="A read-only link to this game's live page (host or referee)"
    )
    @app_commands.describe(
        revoke="Turn off every link to this game's page instead of making a new one"
    )
    async def link(self, interaction: Interaction, revoke: bool = False) -> None:
        who, _ = await self.bot.play.caller(interaction)
        scope = scope_of(interaction)
        links = self.bot.links
        if revoke:
            count = await links.revoke(scope, who.id, referee=who.referee)
            said = f"{count} link{'s' * (count != 1)}" if count else "no links"
            await reply(
                interaction,
                f"Turned off {said} to this game's live page: open pages stop showing it."
                " `/game link` makes a new one.",
                ephemeral=True,
            )
            return
        url = await links.make(scope, who.id, referee=who.referee)
        await reply(
            interaction,
            f"This game's live page: {url}\nAnyone with the link can watch the table (it"
            " shows nothing the table doesn't see). Add `?layout=overlay` for a stream's"
            " corner (docs/discord.md says how to put it into OBS). `/game link revoke:True`"
            " turns off every link to this game; a link also ends when the game expires.",
            ephemeral=True,
        )

    @app_commands.command(
        name="export", description="The whole log of this channel's latest game, as a file"
    )
    async def export(self, interaction: Interaction) -> None:
        text = await self.bot.service.export(scope_of(interaction))
        if not text:
            raise CommandError("That game's log is empty.")
        count = text.count("\n")
        name = f"chaos-game-{interaction.channel_id}.jsonl"
        data = text.encode()
        if len(data) > interaction.filesize_limit:  # compressing it may take a moment
            await interaction.response.defer(ephemeral=True, thinking=True)
            answered(interaction)
        file, packed = await fitting_file(data, name, interaction.filesize_limit)
        how = " (compressed with gzip: it is too big for Discord as it is)" if packed else ""
        await reply(
            interaction,
            f"The log of the latest game here: {count} events, one JSON object per line{how}."
            " While a game goes on, its seed and the cards nobody has seen yet are left out;"
            " once it's over, the whole log can be checked with `/game verify`.",
            file=file,
            ephemeral=True,
        )

    @app_commands.command(
        name="verify", description="Check a finished game's exported log against its revealed seed"
    )
    @app_commands.describe(
        file="A log from /game export of a game that is over",
        commitment="The seed commitment shown when the game started, to compare with",
    )
    async def verify(
        self,
        interaction: Interaction,
        file: discord.Attachment,
        commitment: app_commands.Range[str, 16, 64] | None = None,
    ) -> None:
        await verify_upload(
            interaction, self.bot.verifier, self.bot.upload_limits, file, commitment
        )


async def setup(bot: ChaosBot) -> None:
    await bot.add_cog(GameCog(bot))
