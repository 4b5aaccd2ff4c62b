"""Chaos rolls and what they leave behind: outcomes, the stack of this turn's rolls, tokens.

Every roll the resolver honours is turned into events here, in order: the effect that lasts, the
world enchantment or Global, tokens, life, a forced list, a change to the turn order.
"""

from __future__ import annotations

from bot.engine import actions as act
from bot.engine.context import Context, require
from bot.engine.decks import draw, play_card, reveal_global
from bot.engine.errors import RulesError
from bot.engine.events import Roll
from bot.engine.model import (
    ChaosSource,
    Entry,
    PlayerId,
    TableId,
    Token,
)
from bot.engine.outcomes import apply_entry, change_list
from bot.engine.resolve import Resolution, Resolver
from bot.engine.state import StackItem
from bot.engine.turns import end_effect


def roll_chaos(ctx: Context, action: act.RollChaos) -> None:
    """The turn's chaos roll (on the right list, or the top of the Chaos deck), or a named roll."""
    ctx.require_playing()
    ctx.require_turn()
    ctx.require_no_choice()
    ruleset, state = ctx.ruleset, ctx.state
    if ruleset.chaos is ChaosSource.DECK:
        require(action.table is None, "this ruleset draws chaos cards; it has no lists to roll on")
        require(state.face_down is None, "reveal the face-down chaos card first")
        deck = ruleset.chaos_table
        assert deck is not None  # checked when the ruleset was built
        card = draw(ctx, deck)
        require(card is not None, "the Chaos deck and its discard pile are both empty")
        assert card is not None
        ctx.emit(
            {
                "type": "card_drawn",
                "deck": deck,
                "card": card,
                "face_down": True,
                "player": ctx.roller(),
            }
        )
        mark_chaos_done(ctx)
        return
    if action.table is not None:
        table = action.table
    elif ruleset.chaos is ChaosSource.PROGRESSION:
        table = state.forced_list or state.current_list or ruleset.lists[0]
        if state.forced_list is not None:
            change_list(ctx, state.current_list, None, f"the roll goes to {table} as forced", None)
    else:
        assert ruleset.chaos_table is not None
        table = ruleset.chaos_table
    resolver = resolver_for(ctx, ctx.roller())
    resolution = resolver.roll(table)
    record(ctx, resolution, kind="roll")
    if ruleset.is_chaos_list(table):
        mark_chaos_done(ctx)


def roll_global(ctx: Context, action: act.RollGlobal) -> None:
    ctx.require_playing()
    ctx.require_turn()
    ctx.require_no_choice()
    start = ctx.ruleset.start_table
    if ctx.ruleset.chaos is ChaosSource.DECK:
        for effect in list(ctx.state.effects.values()):
            if effect.kind == "global":
                end_effect(ctx, effect.id, "replaced by the next Global")
        reveal_global(ctx)
        return
    require(start is not None, "this ruleset has no start list (Global or world) to roll on")
    assert start is not None
    record(ctx, resolver_for(ctx, ctx.roller()).roll(start), kind="roll")


def mark_chaos_done(ctx: Context) -> None:
    state = ctx.state
    if not state.rolled and state.current is not None:
        ctx.emit({"type": "chaos_done", "turn": state.turn, "player": state.current})


def resolver_for(ctx: Context, player: PlayerId) -> Resolver:
    return Resolver(
        ctx.ruleset, ctx.rng, player=player, turn=ctx.state.turn, next_id=ctx.state.next_id
    )


def record(
    ctx: Context, resolution: Resolution, *, kind: str, target: int | None = None
) -> int | None:
    """Emit a resolution: its stack item, each roll and what each honoured roll does."""
    if not resolution.steps:
        return None
    root = resolution.steps[0].roll
    item = root["id"]
    ctx.emit(
        {
            "type": "stack",
            "item": item,
            "kind": "fork" if kind == "fork" else "roll",
            "player": root["player"],
            "target": target,
            "table": root["table"],
            "entry": root["entry"]["id"],
            "dice": root["dice"],
            "result": root["result"],
        }
    )
    emit_steps(ctx, resolution, item)
    return item


def emit_steps(ctx: Context, resolution: Resolution, item: int) -> None:
    """Each roll of a resolution, what each honoured one does, and how the resolution ended."""
    root = resolution.steps[0].roll if resolution.steps else None
    # The resolver numbered every roll already; what the rolls leave behind is numbered after
    # them, so an effect never shares an id with a roll that is emitted later.
    first_id = max((step.roll["id"] for step in resolution.steps), default=0) + 1
    for step in resolution.steps:
        ctx.emit(step.roll)
        if step.honoured:
            apply_entry(ctx, step.entry, step.roll, item, first_id=first_id)
    if resolution.exhausted is not None:
        ctx.emit(resolution.exhausted)
    if resolution.last_list is not None and resolution.last_list != ctx.state.current_list:
        change_list(
            ctx,
            resolution.last_list,
            ctx.state.forced_list,
            f"the last chaos list rolled on was {resolution.last_list}",
            item,
        )
    if resolution.keep is not None:
        context = dict(resolution.keep)
        context["item"] = item
        ctx.emit(
            {
                "type": "choice_offered",
                "player": (root["player"] if root else ctx.roller()),
                "kind": "keep",
                "options": [
                    {"id": str(c["roll"]), "name": _entry_name(ctx, c["table"], c["entry"])}
                    for c in context["candidates"]
                ],
                "context": context,
            }
        )


# -- tokens: CounterRoll and RollFork ---------------------------------------------------------


def counter(ctx: Context, action: act.Counter) -> None:
    target = _spend(ctx, Token.COUNTER)
    _push_counter(ctx, action.actor, target)


def _push_counter(ctx: Context, player: PlayerId, target: StackItem | None) -> None:
    """A counter goes on the stack and, if it has a target, counters it."""
    item = ctx.state.next_id
    ctx.emit(
        {
            "type": "stack",
            "item": item,
            "kind": "counter",
            "player": player,
            "target": target.id if target else None,
            "table": None,
            "entry": None,
            "dice": [],
            "result": 0,
        }
    )
    if target is not None:
        _counter(ctx, target, item)


def fork(ctx: Context, action: act.Fork) -> None:
    source = _spend(ctx, Token.FORK)
    if source.kind == "counter":
        # A copied counter counters the next live item beneath the one it copies.
        below = [i for i in ctx.state.stack if i.live and i.id < source.id]
        _push_counter(ctx, action.actor, below[-1] if below else None)
        return
    assert source.table is not None
    assert source.entry is not None
    entry = _entry(ctx, source.table, source.entry)
    copy_of: Roll = {
        "type": "roll",
        "id": source.id,
        "turn": ctx.state.turn,
        "player": source.player,
        "table": source.table,
        "dice": list(source.dice),
        "result": source.result,
        "entry": {"id": entry.id, "name": entry.name},
        "depth": 0,
        "parent": None,
        "ignored": False,
        "reason": None,
        "text": entry.text,
        "inline": [],
        "slot": None,
    }
    resolver = resolver_for(ctx, action.actor)
    resolution = resolver.copy(copy_of, entry, f"copy of roll {source.id} (RollFork)")
    record(ctx, resolution, kind="fork", target=source.id)


def _spend(ctx: Context, token: Token) -> StackItem:
    ctx.require_playing()
    ctx.require_no_choice()
    require(ctx.ruleset.tokens, "this ruleset has no CounterRoll or RollFork tokens")
    holder = ctx.player(ctx.action.actor)
    require(holder.tokens.get(token.value, 0) > 0, f"{holder.name} has no {token.label}")
    target = ctx.state.live_item()
    if target is None:
        raise RulesError(f"there's no roll on the stack this turn for a {token.label}")
    ctx.emit(
        {
            "type": "tokens",
            "player": holder.id,
            "token": token.value,
            "delta": -1,
            "reason": f"spent on item {target.id}",
            "source": None,
            "item": None,
        }
    )
    return target


def _counter(ctx: Context, target: StackItem, by: int) -> None:
    """Counter `target`: take back what it did; if it was a counter, what it countered returns."""
    ctx.emit({"type": "countered", "item": target.id, "by": by, "countered": True})
    if target.kind == "counter":
        if target.target is not None:
            _restore(ctx, ctx.state.item(target.target), by)
        return
    for outcome in reversed(target.outcomes):
        if outcome["type"] == "effect_started":
            if outcome["id"] in ctx.state.effects:
                end_effect(ctx, outcome["id"], "countered")
        elif outcome["type"] == "tokens":
            # Take back the grant, but only what is still held: a token may already be spent.
            held = ctx.state.players[outcome["player"]].tokens.get(outcome["token"], 0)
            back = min(outcome["delta"], held)
            if back > 0:
                ctx.emit({**outcome, "delta": -back, "reason": "countered", "item": None})
        else:
            current, forced = outcome["was"]
            change_list(ctx, current, forced, "countered", None)


def _restore(ctx: Context, item: StackItem, by: int) -> None:
    """`item`'s counter was countered: it stands again, and so does what it did."""
    saved = list(item.outcomes)
    ctx.emit({"type": "countered", "item": item.id, "by": by, "countered": False})
    if item.kind == "counter":
        if item.target is not None:
            _counter(ctx, ctx.state.item(item.target), by)
        return
    for outcome in saved:
        if outcome["type"] == "effect_started":
            ctx.emit({**outcome, "id": ctx.state.next_id})
        else:
            ctx.emit(outcome)


def choose(ctx: Context, action: act.Choose) -> None:
    """Answer the pending choice: keep one roll, pick a split half, or pick a spite card."""
    ctx.require_playing()
    pending = ctx.state.pending
    require(pending is not None, "nobody has a choice to make")
    assert pending is not None
    ctx.require_self_or_official(pending.player)
    picked = _match_option(pending.options, action.option)
    ctx.emit({"type": "choice_made", "player": pending.player, "option": picked})
    context = pending.context
    if pending.kind == "keep":
        candidates = context["candidates"]
        assert isinstance(candidates, list)
        chosen = next(c for c in candidates if str(c["roll"]) == picked)
        entry = _entry(ctx, chosen["table"], chosen["entry"])
        kept: Roll = {
            "type": "roll",
            "id": chosen["roll"],
            "turn": ctx.state.turn,
            "player": pending.player,
            "table": chosen["table"],
            "dice": [],
            "result": 0,
            "entry": {"id": entry.id, "name": entry.name},
            "depth": 0,
            "parent": None,
            "ignored": False,
            "reason": None,
            "text": chosen.get("text", entry.text),  # as rolled, inline dice filled in
            "inline": [],
            "slot": None,
        }
        item = context["item"]
        assert isinstance(item, int)
        # The kept entry applies first, so the rolls that follow it are numbered after it.
        apply_entry(ctx, entry, kept, item)
        resolver = resolver_for(ctx, pending.player)
        used = context["used"]
        assert isinstance(used, int)
        resolver.used = used
        resolution = resolver.keep(kept, entry, context)
        emit_steps(ctx, resolution, item)
        return
    play_card(ctx, pending, picked)


def _match_option(options: list[tuple[str, str]], wanted: str) -> str:
    """The option whose id or name matches `wanted` (names are matched without case)."""
    for option_id, name in options:
        if wanted == option_id or wanted.casefold() == name.casefold():
            return option_id
    listed = ", ".join(f"{name} ({option_id})" for option_id, name in options)
    raise RulesError(f"{wanted!r} isn't one of the choices: {listed}")


def _entry(ctx: Context, table: TableId, entry_id: str) -> Entry:
    if table in ctx.ruleset.decks:
        return ctx.ruleset.decks[table].card(entry_id)
    return next(e for e in ctx.ruleset.table(table).entries if e.id == entry_id)


def _entry_name(ctx: Context, table: TableId, entry_id: str) -> str:
    return _entry(ctx, table, entry_id).name
