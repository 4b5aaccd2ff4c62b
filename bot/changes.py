"""What happened in a game since a given version, in words: why a stale action is refused.

A button on an old message carries the version (the number of actions) the game had when the
message was sent. If the game has moved on, the service refuses the press and says what moved,
e.g. "the turn moved on to Bob (turn 5)", so nobody ends a turn twice by pressing twice.
"""

from __future__ import annotations

from bot.engine.events import Event
from bot.engine.game import Game

MAX_LISTED = 3


def what_changed(game: Game, version: int) -> str:
    """A sentence telling a player why an action issued at `version` no longer applies."""
    current = game.seq
    if version > current or version < 0:
        return (
            "That was meant for another game than the one in progress here"
            f" (it is at step {current}, not {version}). Check the latest message."
        )
    since = _since(game.events, version)
    return (
        f"That was for an earlier moment of the game: since then, {_summary(game, since)}."
        " Check the latest message and try again."
    )


def _since(events: list[Event], version: int) -> list[Event]:
    """The events of every action from number `version` on."""
    for i, event in enumerate(events):
        if event["type"] == "action" and event["seq"] == version:
            return events[i:]
    return []


def _summary(game: Game, since: list[Event]) -> str:
    names = {pid: player.name for pid, player in game.state.players.items()}
    for event in reversed(since):
        if event["type"] == "game_ended":
            return "the game ended"
    for event in reversed(since):
        if event["type"] == "turn_started":
            player = names.get(event["player"], event["player"])
            return f"the turn moved on to {player} (turn {event['turn']})"
    taken = [e["action"] for e in since if e["type"] == "action"]
    listed = [f"{names.get(a['actor'], a['actor'])}: {a['name']}" for a in taken[-MAX_LISTED:]]
    if len(taken) > MAX_LISTED:
        listed.insert(0, "…")
    what = "an action was" if len(taken) == 1 else f"{len(taken)} actions were"
    return f"{what} taken ({'; '.join(listed)})"
