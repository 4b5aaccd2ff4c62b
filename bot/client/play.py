"""What every game command and button does, once: ask the service, answer, update the board.

A cog only says which engine action a command means (a *builder*: who is asking and the game as
it stands → an :class:`~bot.engine.actions.Action`); :meth:`Play.act` does the rest: find the
caller's permissions, run the action through the service (deferring if it gets slow), answer
with the result embeds and the buttons for what comes next, and have the board redrawn.

Before anything else, the interaction is claimed (:meth:`~bot.service.GameService.claim`).
While a shard is handed over, two processes receive each of its interactions; the one that
claims it first carries it out and answers (the result, or why not), and the other does nothing
and says nothing (:func:`~bot.client.errors.report`): the player reads one answer, the real one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.client.buttons import menu_view, steps_view
from bot.client.embeds import result_embeds, text_embeds
from bot.client.errors import report
from bot.client.interactions import (
    Caller,
    caller,
    guild_key,
    mark_ours,
    reply,
    scope_of,
    within_deadline,
)
from bot.client.mentions import Mentions, mention_line
from bot.client.recap import with_recap
from bot.client.wording import plain
from bot.commands import GameView
from bot.commands.steps import Step, StepKind
from bot.engine import actions as a
from bot.engine.errors import ChaosError, NotYourTurnError
from bot.errors import StaleActionError
from bot.render.choices import option_texts
from bot.service import Outcome
from bot.store import GuildSettings

if TYPE_CHECKING:
    from bot.client.bot import ChaosBot

log = logging.getLogger(__name__)

Builder = Callable[[Caller, GameView], a.Action]


class Play:
    """The game flow of one bot, shared by its cogs and buttons."""

    def __init__(self, bot: ChaosBot) -> None:
        self.bot = bot
        self._busy = 0  # actions being carried out and answered right now
        self._quiet = asyncio.Event()
        self._quiet.set()
        self.mentions = Mentions()

    async def until_quiet(self, limit: float) -> None:
        """Wait (at most `limit` seconds) until no action is being carried out: work nobody
        waits for, such as redrawing boards, gives way to answering players."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(limit):
                await self._quiet.wait()

    @contextlib.contextmanager
    def _working(self) -> Iterator[None]:
        self._busy += 1
        self._quiet.clear()
        try:
            yield
        finally:
            self._busy -= 1
            if not self._busy:
                self._quiet.set()

    async def caller(self, interaction: discord.Interaction[Any]) -> tuple[Caller, GuildSettings]:
        settings = await self.bot.service.settings(guild_key(interaction))
        return caller(interaction, settings), settings

    async def start(
        self,
        interaction: discord.Interaction[Any],
        ruleset: str | None,
        *,
        tables: tuple[str, ...] = (),
        life: int | None = None,
        seed: int | None = None,
    ) -> Outcome:
        """Open a game in the interaction's channel, hosted by the caller."""
        with self._working():
            return await self._start(interaction, ruleset, tables=tables, life=life, seed=seed)

    async def _start(
        self,
        interaction: discord.Interaction[Any],
        ruleset: str | None,
        *,
        tables: tuple[str, ...],
        life: int | None,
        seed: int | None,
    ) -> Outcome:
        scope = scope_of(interaction)
        who, settings = await self.caller(interaction)

        async def work() -> Outcome:
            await self._claim(interaction)
            return await self.bot.service.start(
                scope,
                ruleset or settings.default_ruleset,
                host=who.id,
                host_name=who.name,
                seed=seed,
                life=life,
                guild=guild_key(interaction),
                tables=tables,
                interaction=interaction.id,
            )

        outcome = await within_deadline(interaction, work())
        await self._answer(interaction, outcome)
        return outcome

    async def _claim(self, interaction: discord.Interaction[Any]) -> None:
        """Claim the interaction for this process (ClaimedError if another has it), first of
        all: the game isn't even looked at by a process that will stay silent."""
        await self.bot.service.claim(interaction.id)
        mark_ours(interaction)

    async def act(
        self,
        interaction: discord.Interaction[Any],
        build: Builder,
        *,
        version: int | None = None,
        game_id: int | None = None,
    ) -> Outcome:
        """Carry out the action `build` makes for the caller, answer, and redraw the board."""
        with self._working():
            return await self._act(interaction, build, version=version, game_id=game_id)

    async def _act(
        self,
        interaction: discord.Interaction[Any],
        build: Builder,
        *,
        version: int | None,
        game_id: int | None,
    ) -> Outcome:
        scope = scope_of(interaction)
        who, settings = await self.caller(interaction)

        drawn = _Drawn()

        async def work() -> Outcome:
            await self._claim(interaction)
            current = await self.bot.service.current(scope)
            view = GameView.of(current.game.state, current.game.ruleset)
            action = build(who, view)
            if settings.turn_powers:  # the engine decides what the setting allows
                action = replace(action, turn_powers=True)
            outcome = await self.bot.service.act(
                scope,
                action,
                version=version,
                game_id=game_id,
                interaction=interaction.id,
                meanwhile=drawn.draw,
            )
            return await self._auto_roll(scope, settings, outcome)

        outcome = await within_deadline(interaction, work())
        await self._answer(interaction, outcome, drawn, self._ping(interaction, outcome, settings))
        return outcome

    def _ping(
        self, interaction: discord.Interaction[Any], outcome: Outcome, settings: GuildSettings
    ) -> int | None:
        """Whom the answer mentions: the player whose turn the action started (see
        :mod:`bot.client.mentions`)."""
        return self.mentions.whom(
            outcome.scope,
            outcome.game_id,
            outcome.events,
            outcome.game.state,
            settings,
            interaction.user.id,
        )

    async def press(
        self, interaction: discord.Interaction[Any], step: Step, game_id: int, version: int
    ) -> None:
        """A button (or menu choice) was pressed on a message drawn at `version` of a game."""
        try:
            if step.kind is StepKind.PICK:
                await self._open_menu(interaction, game_id, version)
                return
            await self.act(
                interaction,
                lambda who, view: _pressed(step, who, view),
                # Joining and beginning can't happen twice (the engine refuses a second), so
                # an older lobby message's buttons still work after others joined; a vote
                # names its result, and the engine refuses it once that vote is closed.
                version=None if step.kind in _UNVERSIONED else version,
                game_id=game_id,
            )
        except Exception as error:  # a component has no command tree to report to
            await report(interaction, error)

    async def _open_menu(
        self, interaction: discord.Interaction[Any], game_id: int, version: int
    ) -> None:
        """Show the pending choice's options to the player who has it, and to nobody else."""
        scope = scope_of(interaction)
        who, _ = await self.caller(interaction)
        current = await self.bot.service.current(scope)
        if current.game_id != game_id or current.version != version:
            raise StaleActionError("That choice was already made; the game has moved on.")
        pending = current.game.state.pending
        if pending is None:
            raise ChaosError("There's nothing to choose now.")
        if pending.player != who.id:
            name = current.game.state.players[pending.player].name
            raise NotYourTurnError(f"That choice is {name}'s to make.")
        game = current.game
        texts = option_texts(pending.kind, pending.options, pending.context, game.ruleset)
        lines = [
            f"**{n}) {plain(name)}**" + (f"\n{plain(text)}" if text else "")
            for n, ((_, name), text) in enumerate(zip(pending.options, texts, strict=True), 1)
        ]
        await reply(
            interaction,
            embeds=text_embeds("Your choice (only you can see this)", "\n".join(lines)),
            view=menu_view(game_id, game),
            ephemeral=True,
        )

    async def _auto_roll(self, scope: str, settings: GuildSettings, outcome: Outcome) -> Outcome:
        """With the guild's auto-roll on, make a new turn's chaos roll at once."""
        if not settings.auto_roll or not any(e["type"] == "turn_started" for e in outcome.events):
            return outcome
        state = outcome.game.state
        if state.active is None or state.rolled or state.pending is not None:
            return outcome
        try:
            more = await self.bot.service.act(scope, a.RollChaos(actor=state.active))
        except ChaosError as error:
            log.info("auto-roll in %s didn't happen: %s", scope, error)
            return outcome
        return replace(more, events=[*outcome.events, *more.events])

    async def _answer(
        self,
        interaction: discord.Interaction[Any],
        outcome: Outcome,
        drawn: _Drawn | None = None,
        ping: int | None = None,
    ) -> None:
        # The answer goes out before the board is drawn (the player waits for one, not the
        # other), but the keeper is told first, so whoever waits for the boards to settle
        # after seeing an answer also waits for this action's board.
        boards = self.bot.boards
        boards.expect()
        try:
            embeds, view = _draw(outcome) if drawn is None else drawn.answer(outcome)
            said = None if ping is None else mention_line(ping, outcome.game.state.turn)
            await reply(interaction, said, embeds=embeds, view=view, mention=ping)
        finally:
            if interaction.channel_id is None:
                boards.forget_expected()
            else:
                boards.touch(outcome.scope, interaction.channel_id, outcome.game_id, outcome.game)


Answer = tuple[list[discord.Embed], discord.ui.View]


def _draw(outcome: Outcome) -> Answer:
    """The public answer to an action: what it did (and the game's recap, if it ended it), and
    the buttons for what comes next."""
    embeds = with_recap(result_embeds(outcome.events, outcome.game), outcome.events, outcome.game)
    return embeds, steps_view(outcome.game_id, outcome.game)


class _Drawn:
    """An action's answer, drawn while its save commits (the `meanwhile` of
    :meth:`GameService.act`), to be sent as soon as the save is durable rather than drawn
    only then. The disk and the drawing take turns no more: each took about a quarter of a
    millisecond of a roll's answer."""

    def __init__(self) -> None:
        self._for: Outcome | None = None
        self._seq = -1
        self._answer: Answer | None = None

    def draw(self, outcome: Outcome) -> None:
        self._for = None  # a drawing that fails leaves nothing behind
        self._answer = _draw(outcome)
        self._for, self._seq = outcome, outcome.game.seq

    def answer(self, outcome: Outcome) -> Answer:
        """The answer to `outcome`: the one drawn meanwhile if it was drawn for this very
        outcome (not for a try that failed, nor before an automatic roll added to it), and
        the game hasn't moved since; otherwise drawn now."""
        drawn, answer = self._for, self._answer
        same = drawn is not None and drawn.events is outcome.events and drawn.game is outcome.game
        if answer is not None and same and self._seq == outcome.game.seq:
            return answer
        return _draw(outcome)


_UNVERSIONED = (StepKind.JOIN, StepKind.BEGIN, StepKind.VETO)


def _pressed(step: Step, who: Caller, view: GameView) -> a.Action:
    """The action a button stands for, on behalf of whoever pressed it."""
    match step.kind:
        case StepKind.JOIN:
            return a.Join(actor=who.id, player_name=who.name)
        case StepKind.BEGIN:
            return a.Begin(actor=who.id, referee=who.referee)
        case StepKind.ROLL:
            return a.RollChaos(actor=who.id, referee=who.referee)
        case StepKind.REVEAL:
            return a.Reveal(actor=who.id, referee=who.referee)
        case StepKind.NEXT:
            return a.NextTurn(actor=who.id, referee=who.referee)
        case StepKind.CHOOSE:
            if not 1 <= step.option <= len(view.options):
                raise ChaosError("That option isn't on offer any more.")
            return a.Choose(
                actor=who.id, referee=who.referee, option=view.options[step.option - 1][0]
            )
        case StepKind.OFFER:
            if not 1 <= step.option <= len(view.offers):
                raise ChaosError("That roll isn't on offer any more.")
            table = view.offers[step.option - 1][1]
            return a.RollChaos(actor=who.id, referee=who.referee, table=table)
        case StepKind.DECLINE:
            if not 1 <= step.option <= len(view.offers):
                raise ChaosError("That roll isn't on offer any more.")
            table = view.offers[step.option - 1][1]
            return a.Decline(actor=who.id, referee=who.referee, table=table)
        case StepKind.VETO:
            return a.Veto(actor=who.id, referee=who.referee, item=step.option)
        case StepKind.PICK:  # pragma: no cover - handled before an action is built
            raise ChaosError("Choose from the menu.")
