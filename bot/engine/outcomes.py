"""What an honoured entry leaves behind: lasting effects, worlds, the Global, tokens, life,
a forced list, a change to the turn order. Each becomes an event attributed to its stack item, so
a CounterRoll can take it back.
"""

from __future__ import annotations

from bot.engine.context import Context
from bot.engine.events import EffectStarted, Roll
from bot.engine.model import Entry, Kind, Lasts, TableId, TurnChange
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
    """What an honoured entry leaves behind, as events.

    `card` names the chaos or Global card the entry came from, so that a card whose effect lasts
    goes to its discard pile only when the effect ends. A new effect's id is at least `first_id`
    (the caller passes the id after the rolls it has yet to emit, so ids stay unique).
    """
    owner = roll["player"]
    if entry.kind is Kind.GLOBAL:
        for effect in list(ctx.state.effects.values()):
            if effect.kind == "global":
                end_effect(ctx, effect.id, f"replaced by {entry.name}")
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
    if entry.life is not None and owner in ctx.state.players:
        life = ctx.state.players[owner].life
        if life is not None:
            gained = entry.life.roll(ctx.rng).total
            ctx.emit(
                {
                    "type": "life",
                    "player": owner,
                    "life": life + gained,
                    "delta": gained,
                    "reason": entry.name,
                }
            )
    if entry.next_list is not None:
        change_list(
            ctx,
            ctx.state.current_list,
            entry.next_list,
            f"{entry.name} sends the next chaos roll to {entry.next_list}",
            item,
        )
    if entry.turn is not None and owner in ctx.state.players:
        change_order(ctx, entry.turn.value, None if entry.turn is TurnChange.REVERSE else owner)


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
