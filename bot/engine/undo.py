"""Taking back what a stack item did, one outcome at a time.

Every outcome the engine tracks is recorded on the stack item that made it (see
:class:`bot.engine.state.Outcome`): an effect, world or Global started, a Global it replaced,
tokens granted, life changed (or a total marked unsure), a list change, an extra turn, a skip,
a reversal, an absence. Each has an inverse here. A counter emits the inverses of an item's
outcomes, newest first, marked ``undoes``; a counter of that counter emits the inverses of
those, marked ``item`` again. So countering a counter restores exactly what stood before, and a
token that was spent in between is never handed back: only what the counter actually took is
given back.
"""

from __future__ import annotations

from typing import Any, cast

from bot.engine.context import Context
from bot.engine.events import EffectStarted, Event
from bot.engine.state import Outcome, Status
from bot.engine.turns import end_effect

REASON = "countered"


def take_back(
    ctx: Context, outcome: Outcome, mark: dict[str, int | None], reason: str = REASON
) -> None:
    """Emit the inverse of `outcome`, if it still has one, with `mark` (``undoes`` or ``item``);
    `reason` is why (a counter, or a veto).

    An outcome whose result is already gone (an effect ended by hand, an extra turn no longer
    queued) has nothing left to take back. Nothing of a player who is out comes back or is
    taken: being out is final, and an out player keeps nothing.
    """
    state = ctx.state
    event = cast(dict[str, Any], outcome.event)
    player = str(event.get("player"))
    owner = outcome.effect.owner if outcome.effect is not None else None
    for someone in (state.players.get(player), state.players.get(owner or "")):
        if someone is not None and someone.status is Status.OUT:
            return
    match event["type"]:
        case "effect_started":
            if event["id"] in state.effects:
                end_effect(ctx, event["id"], reason, mark)
        case "effect_ended":
            if outcome.effect is not None:
                _restart(ctx, outcome, mark)
        case "tokens":
            held = state.players[player].tokens.get(event["token"], 0)
            # Only what is still held is taken: a token already spent stays spent.
            delta = -min(event["delta"], held) if event["delta"] > 0 else -event["delta"]
            if delta:
                _emit(ctx, {**event, "delta": delta, "reason": reason}, mark)
        case "list_changed":
            current, forced = event["was"]
            was = [state.current_list, state.forced_list]
            _emit(
                ctx,
                {**event, "current": current, "forced": forced, "was": was, "reason": reason},
                mark,
            )
        case "life":
            life = state.players[player].life
            if life is not None:
                changed = {**event, "life": life - event["delta"], "delta": -event["delta"]}
                changed.pop("dice", None)  # the inverse throws no dice
                _emit(ctx, {**changed, "reason": reason}, mark)
        case "life_unsure":
            if state.players[player].unsure is event["unsure"]:
                _emit(ctx, {**event, "unsure": not event["unsure"], "reason": reason}, mark)
        case "turn_order":
            _turn_order(ctx, event, mark)
        case "player_away":
            if state.players[player].status is Status.AWAY:
                back: dict[str, Any] = {"type": "player_back", "player": player}
                if outcome.active and state.active is None and state.current == player:
                    back["active"] = True
                _emit(ctx, back, mark)
        case "offer_made":
            if event["id"] in state.offers:
                lapsed = {
                    "type": "offer_lapsed",
                    "id": event["id"],
                    "reason": f"its roll was {reason}",
                }
                _emit(ctx, lapsed, mark)
        case "offer_lapsed":
            if outcome.offer is not None:
                # The offer comes back under a fresh id: the old one ended.
                _emit(ctx, {**outcome.offer, "id": state.next_id}, mark)
        case "roll_paused":
            if any(paused.item == event["item"] for paused in state.paused):
                dropped = {
                    "type": "roll_resumed",
                    "paused": event["item"],
                    "dropped": True,
                    "reason": f"its roll was {reason}: the rolls it still had to make are dropped",
                }
                _emit(ctx, dropped, mark)
        case "roll_resumed":
            again = outcome.paused
            if again is not None and all(p.item != again["item"] for p in state.paused):
                _emit(ctx, dict(again), mark)
        case "player_back":
            if state.players[player].status is Status.PLAYING:
                _emit(ctx, {"type": "player_away", "player": player, "turns": outcome.away}, mark)


_OPPOSITE = {
    "extra": "cancel_extra",
    "cancel_extra": "extra",
    "skip": "cancel_skip",
    "cancel_skip": "skip",
    "reverse": "reverse",
}


def _turn_order(ctx: Context, event: dict[str, Any], mark: dict[str, int | None]) -> None:
    state, player = ctx.state, event["player"]
    change = _OPPOSITE.get(event["change"])
    if change is None:
        return
    if change == "cancel_extra" and player not in state.extra_queue:
        return
    if change == "cancel_skip" and state.skips.get(player, 0) < 1:
        return
    direction = -state.direction if change == "reverse" else state.direction
    _emit(
        ctx,
        {**event, "change": change, "order": list(state.order), "direction": direction},
        mark,
    )


def _restart(ctx: Context, outcome: Outcome, mark: dict[str, int | None]) -> None:
    """An effect the item ended (a Global it replaced) comes back, under a fresh id."""
    effect = outcome.effect
    assert effect is not None
    started: EffectStarted = {
        "type": "effect_started",
        "id": ctx.state.next_id,
        "name": effect.name,
        "text": effect.text,
        "kind": cast(Any, effect.kind),
        "owner": effect.owner,
        "lasts": effect.lasts.value,
        "turns": effect.turns_left,
        "source": effect.source,
    }
    if effect.card is not None:
        started["card"] = effect.card
    if effect.deck is not None:
        started["deck"] = effect.deck
    _emit(ctx, cast(dict[str, Any], started), mark)


def _emit(ctx: Context, event: dict[str, Any], mark: dict[str, int | None]) -> None:
    """Emit `event` marked for the item: ``undoes`` when countering, ``item`` when restoring."""
    event.pop("item", None)
    event.pop("undoes", None)
    ctx.emit(cast(Event, {**event, **mark}))
