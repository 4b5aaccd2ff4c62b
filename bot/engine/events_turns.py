"""The events of the turns: one starting, ending or passed over, the order changing, and the
turn's chaos roll being made or waived.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict


class TurnStarted(TypedDict):
    type: Literal["turn_started"]
    turn: int
    player: str
    extra: bool


class TurnEnded(TypedDict):
    type: Literal["turn_ended"]
    turn: int
    player: str


class TurnSkipped(TypedDict):
    """A player's turn is passed over: a skip used up, an absence, or an extra turn lost.

    With ``extra`` true the turn passed over was an extra turn, which is used up as well.
    """

    type: Literal["turn_skipped"]
    player: str
    why: Literal["skip", "extra", "away"]
    extra: NotRequired[bool]


class TurnOrderChanged(TypedDict):
    """Reversal, a new seating, an extra turn or a skip added, or (by a counter) taken away."""

    type: Literal["turn_order"]
    change: Literal["reverse", "seats", "extra", "skip", "cancel_extra", "cancel_skip"]
    player: str | None
    order: list[str]
    direction: int
    item: NotRequired[int | None]
    undoes: NotRequired[int]


class RollRequirementWaived(TypedDict):
    type: Literal["roll_waived"]
    turn: int
    by: str


class ChaosDone(TypedDict):
    """The turn's mandatory chaos roll (or draw) has been made."""

    type: Literal["chaos_done"]
    turn: int
    player: str
