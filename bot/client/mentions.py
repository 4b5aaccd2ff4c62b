"""The "your turn" mention: whom an action's answer pings, once per turn, where the server
turned turn mentions on (``/settings turn_mentions``) and the player didn't turn them off for
themselves (``/player notify``). Only that member is pinged: the answer's allowed mentions name
them alone (:func:`bot.client.interactions.reply`)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.events import Event
from bot.engine.state import GameState, Phase
from bot.store import GuildSettings

REMEMBERED = 10_000  # channels whose last ping is kept; past this, the memory starts over


def turn_started(events: Sequence[Event], state: GameState) -> tuple[str, int] | None:
    """The player whose turn these events started, and the turn, if it is still theirs."""
    started = next((e for e in reversed(events) if e["type"] == "turn_started"), None)
    if started is None or state.phase is not Phase.PLAYING:
        return None
    if state.active != started["player"] or state.turn != started["turn"]:
        return None
    return started["player"], started["turn"]


class Mentions:
    """Which turn of which game each channel was last pinged for: a turn is pinged once, even
    if an undo and a redo start it again."""

    def __init__(self) -> None:
        self._last: dict[str, tuple[int, int]] = {}

    def whom(
        self,
        scope: str,
        game_id: int,
        events: Sequence[Event],
        state: GameState,
        settings: GuildSettings,
        caller: int,
    ) -> int | None:
        """The member to ping for the turn these events started, if any (never the caller:
        they are looking at the answer already)."""
        if not settings.turn_mentions:
            return None
        turn = turn_started(events, state)
        if turn is None:
            return None
        player, number = turn
        if not player.isdigit() or player in settings.quiet or int(player) == caller:
            return None
        if self._last.get(scope) == (game_id, number):
            return None
        if len(self._last) >= REMEMBERED:
            self._last.clear()
        self._last[scope] = (game_id, number)
        return int(player)


def mention_line(member: int, turn: int) -> str:
    """What the answer says above its embeds to the member whose turn it is."""
    return f"<@{member}>, it's your turn (turn {turn})."
