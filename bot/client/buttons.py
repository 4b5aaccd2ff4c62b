"""Buttons and menus that survive a restart: their state is in their ``custom_id``.

Every component carries the game it belongs to and the game's version (its number of actions)
when it was drawn: ``cr:{kind}:{game}:{version}[:{option}]``. discord.py rebuilds the item from
that id whenever it is pressed (:class:`discord.ui.DynamicItem`), whichever process drew it, and
the service refuses a press made on an older state of the game. What a press does lives in
:mod:`bot.client.play`; here are only the shapes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.client.presses import TakesTurns
from bot.commands.grammar import read_int
from bot.commands.steps import Step, StepKind, next_steps
from bot.engine.game import Game
from bot.render.choices import option_texts

if TYPE_CHECKING:
    from bot.client.bot import ChaosBot

PREFIX = "cr"
_STYLES = {
    StepKind.ROLL: discord.ButtonStyle.primary,
    StepKind.REVEAL: discord.ButtonStyle.primary,
    StepKind.NEXT: discord.ButtonStyle.success,
    StepKind.JOIN: discord.ButtonStyle.secondary,
    StepKind.BEGIN: discord.ButtonStyle.success,
    StepKind.CHOOSE: discord.ButtonStyle.secondary,
    StepKind.PICK: discord.ButtonStyle.primary,
    StepKind.VETO: discord.ButtonStyle.danger,
}


def custom_id(kind: str, game_id: int, version: int, option: int = 0) -> str:
    tail = f":{option}" if option else ""
    return f"{PREFIX}:{kind}:{game_id}:{version}{tail}"


# Only the buttons' kinds: discord.py offers a press to every item whose template matches, and
# a menu's id (``cr:menu:…``) must not also look like a button's, nor a Veto button's.
_KINDS = "|".join(kind for kind in StepKind if kind is not StepKind.VETO)


class GameButton(
    TakesTurns,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:(?P<kind>{_KINDS}):(?P<game>[0-9]{{1,18}}):(?P<version>[0-9]{{1,9}})"
    r"(?::(?P<option>[0-9]{1,3}))?",
):
    """One button of a game: roll, reveal, next turn, join, begin, an option of a choice."""

    def __init__(self, step: Step, game_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=step.label,
                style=_STYLES.get(step.kind, discord.ButtonStyle.secondary),
                custom_id=custom_id(step.kind, game_id, version, step.option),
            )
        )
        self.step = step
        self.game_id = game_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> GameButton:
        kind = StepKind(match["kind"])
        label = item.label if isinstance(item, discord.ui.Button) else None
        step = Step(kind, label or kind.value, int(match["option"] or 0))
        return cls(step, int(match["game"]), int(match["version"]))

    async def pressed(self, interaction: discord.Interaction[Any]) -> None:
        bot = cast("ChaosBot", interaction.client)
        await bot.play.press(interaction, self.step, self.game_id, self.version)


class VetoButton(
    TakesTurns,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:veto:(?P<game>[0-9]{{1,18}}):(?P<item>[0-9]{{1,9}})",
):
    """A vote to veto a result (a house rule), for the players at the table but its roller.

    Its id names the result's stack item, not the game's version: every vote moves the game on,
    and the others' votes on the same result still count. The engine refuses a press once the
    vote is closed (the next action, or a veto)."""

    def __init__(self, step: Step, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=step.label,
                style=_STYLES[StepKind.VETO],
                custom_id=f"{PREFIX}:veto:{game_id}:{step.option}",
            )
        )
        self.step = step
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> VetoButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        step = Step(StepKind.VETO, label or "Veto", int(match["item"]))
        return cls(step, int(match["game"]))

    async def pressed(self, interaction: discord.Interaction[Any]) -> None:
        bot = cast("ChaosBot", interaction.client)
        await bot.play.press(interaction, self.step, self.game_id, 0)


class PickMenu(
    TakesTurns,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"{PREFIX}:menu:(?P<game>[0-9]{{1,18}}):(?P<version>[0-9]{{1,9}})",
):
    """A private menu with every option of a pending choice (a spite look has seven)."""

    def __init__(
        self,
        options: list[tuple[str, str]],
        game_id: int,
        version: int,
        texts: Sequence[str] = (),
    ) -> None:
        # Each option's description says what it does (Discord shows 100 characters of it);
        # the message above the menu has the whole texts.
        said = [*texts, *([""] * (len(options) - len(texts)))][: len(options)]
        super().__init__(
            discord.ui.Select(
                custom_id=f"{PREFIX}:menu:{game_id}:{version}",
                placeholder="Choose one",
                options=[
                    discord.SelectOption(
                        label=_label(name),
                        value=str(number),
                        description=_label(text) if text else None,
                    )
                    for number, ((_, name), text) in enumerate(
                        zip(options[:25], said[:25], strict=True), 1
                    )
                ],
            )
        )
        self.game_id = game_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> PickMenu:
        return cls([], int(match["game"]), int(match["version"]))

    async def pressed(self, interaction: discord.Interaction[Any]) -> None:
        bot = cast("ChaosBot", interaction.client)
        data = cast(dict[str, Any], interaction.data or {})
        values = data.get("values") or []
        picked = read_int(str(values[0]), "an option's number") if values else None
        option = max(picked or 0, 0)
        await bot.play.press(
            interaction, Step(StepKind.CHOOSE, "", option), self.game_id, self.version
        )


def _label(name: str) -> str:
    return name if len(name) <= 100 else name[:99] + "…"


def steps_view(game_id: int, game: Game) -> discord.ui.View:
    """The buttons for what the game expects next (none once it is over).

    Drawn straight as Discord's component payload, the same one a view of
    :class:`GameButton` and :class:`VetoButton` draws, without building those items: an
    answer is drawn for every action, and presses never need them here, since discord.py
    rebuilds the item from the id of the button pressed (the classes are registered with
    the bot, ``ChaosBot.add_dynamic_items``)."""
    buttons = []
    for step in next_steps(game.state, game.ruleset)[:25]:
        if step.kind is StepKind.VETO:
            id_ = f"{PREFIX}:veto:{game_id}:{step.option}"
        else:
            id_ = custom_id(step.kind, game_id, game.seq, step.option)
        style = _STYLES.get(step.kind, discord.ButtonStyle.secondary).value
        buttons.append(
            {"type": 2, "style": style, "disabled": False, "label": step.label, "custom_id": id_}
        )
    return DrawnView(
        [{"type": 1, "components": buttons[n : n + 5]} for n in range(0, len(buttons), 5)]
    )


class DrawnView(discord.ui.View):
    """A view that is only its component payload, drawn beforehand: no items, so discord.py
    keeps nothing for its message, and a press reaches the dynamic item its id matches."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self.rows = rows

    def to_components(self) -> list[dict[str, Any]]:
        return self.rows


def menu_view(game_id: int, game: Game) -> discord.ui.View:
    """A private menu for the pending choice."""
    view = discord.ui.View(timeout=None)
    pending = game.state.pending
    if pending is not None:
        texts = option_texts(pending.kind, pending.options, pending.context, game.ruleset)
        view.add_item(PickMenu(list(pending.options), game_id, game.seq, texts))
    return _drawn(view)


def _drawn(view: discord.ui.View) -> discord.ui.View:
    """A view only to draw components with: presses reach the DynamicItems registered with
    the bot, and discord.py keeps no per-message copy of a view made only of them."""
    return view
