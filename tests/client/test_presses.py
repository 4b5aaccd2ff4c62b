"""A member's button presses and menu picks take turns like their slash commands
(bot.client.presses): every component the bot registers, and a flood of presses end to end."""

from __future__ import annotations

from bot.client.bot import PERSISTENT
from bot.client.presses import TakesTurns

PRESSES = 100


def test_every_component_the_bot_answers_takes_the_members_turns() -> None:
    assert PERSISTENT
    for component in PERSISTENT:
        assert issubclass(component, TakesTurns), component
        # Its work is `pressed`; a `callback` of its own would skip the turns.
        assert component.callback is TakesTurns.callback, component
        assert component.pressed is not TakesTurns.pressed, component
