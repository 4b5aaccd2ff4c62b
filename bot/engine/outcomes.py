"""What an honoured entry leaves behind: lasting effects, worlds, the Global, tokens, life,
a forced list, a change to the turn order, an absence. Each becomes an event attributed to its
stack item, so a CounterRoll can take it back.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.engine.context import Context
from bot.engine.events import EffectStarted, PlayerAway, Roll
from bot.engine.lifechanges import apply_life
from bot.engine.model import Entry, Kind, Lasts, TableId, TurnChange
from bot.engine.offers import make_offers
from bot.engine.state import Status
from bot.engine.turns import change_order, end_effect


def apply_entry(
    ctx: Context,
    entry: Entry,
    roll: Roll,
    item: int | None,
    *,
    card: str | None = None,
    first_id: int = 0,
) -> None:
    """What an honoured entry leaves behind, as events (its offered rolls last).

    `card` names the chaos or Global card the entry came from, so that a card whose effect lasts
    goes to its discard pile only when the effect ends. A new effect's id is at least `first_id`
    (the caller passes the id after the rolls it has yet to emit, so ids stay unique).
    """
    owner = roll["player"]
    seated = ctx.state.players.get(owner)
    # An out player has no turns and keeps nothing lasting (a spite roll made on the way out).
    out = seated is not None and seated.status is Status.OUT
    mark = {"item": item} if item is not None else None
    if entry.removes:
        remove(ctx, entry.removes, f"removed by {entry.name}", mark)
    if entry.kind is Kind.GLOBAL:
        for effect in list(ctx.state.effects.values()):
            if effect.kind == "global":
                end_effect(ctx, effect.id, f"replaced by {entry.name}", mark)
    if entry.kind in (Kind.WORLD, Kind.GLOBAL) or entry.duration is not None:
        lasts = entry.duration.lasts if entry.duration else Lasts.PERMANENT
        started: EffectStarted = {
            "type": "effect_started",
            "id": max(ctx.state.next_id, first_id),
            "name": entry.name,
            "text": roll["text"],
            "kind": "world"
            if entry.kind is Kind.WORLD
            else "global"
            if entry.kind is Kind.GLOBAL
            else "effect",
            # Worlds and Globals belong to the game, not to whoever rolled them: they stay
            # when that player leaves.
            "owner": None if entry.kind in (Kind.WORLD, Kind.GLOBAL) else owner,
            "lasts": lasts.value,
            "turns": entry.duration.turns if entry.duration else 0,
            "source": roll["id"],
            "item": item,
        }
        if card is not None:
            started["card"] = card
            started["deck"] = roll["table"]  # a chaos card can be a Global: it goes back here
        ctx.emit(started)
        if out and started["owner"] is not None:
            end_effect(ctx, started["id"], f"{ctx.name(owner)} is out of the game")
    if entry.kind is Kind.TOKEN and entry.token is not None and owner in ctx.state.players:
        ctx.emit(
            {
                "type": "tokens",
                "player": owner,
                "token": entry.token.value,
                "delta": entry.count,
                "reason": f"granted by {entry.name}",
                "source": roll["id"],
                "item": item,
            }
        )
    apply_life(ctx, entry, roll, item)
    if entry.next_list is not None:
        change_list(
            ctx,
            ctx.state.current_list,
            entry.next_list,
            f"{entry.name} sends the next chaos roll to {entry.next_list}",
            item,
        )
    if entry.turn is TurnChange.REVERSE:
        change_order(ctx, "reverse", None, item)
    elif entry.turn is TurnChange.AWAY:
        if seated is not None and seated.status is Status.PLAYING:
            away: PlayerAway = {"type": "player_away", "player": owner, "turns": 0}
            if item is not None:
                away["item"] = item
            ctx.emit(away)
    elif entry.turn is not None and seated is not None and not out:
        change_order(ctx, "extra" if entry.turn is TurnChange.EXTRA else "skip", owner, item)
    if entry.offers:
        make_offers(ctx, entry, roll, item, first_id)


def remove(
    ctx: Context,
    what: tuple[str, ...],
    reason: str,
    mark: Mapping[str, int | None] | None = None,
) -> None:
    """End the effects in play that `what` names: worlds, globals, effects, or by name."""
    kinds = {"worlds": "world", "globals": "global", "effects": "effect"}
    names = {w.casefold() for w in what if w not in kinds}
    wanted = {kinds[w] for w in what if w in kinds}
    for effect in list(ctx.state.effects.values()):
        if effect.kind in wanted or effect.name.casefold() in names:
            end_effect(ctx, effect.id, reason, mark)


def change_list(
    ctx: Context, current: TableId | None, forced: TableId | None, reason: str, item: int | None
) -> None:
    state = ctx.state
    ctx.emit(
        {
            "type": "list_changed",
            "current": current,
            "forced": forced,
            "was": [state.current_list, state.forced_list],
            "reason": reason,
            "item": item,
        }
    )
