"""CounterRoll and RollFork: spending them on the most recent item of this turn's stack.

A counter takes back the whole of what the item did (see :mod:`bot.engine.undo`); a counter of a
counter restores exactly what stood before. A fork copies the item under the forker's control.
"""

from __future__ import annotations

from bot.engine import actions as act
from bot.engine.chaos import entry_of, record, resolver_for
from bot.engine.context import Context, require
from bot.engine.errors import RulesError
from bot.engine.events import Roll
from bot.engine.model import PlayerId, Token
from bot.engine.spite import lose
from bot.engine.stack import Outcome
from bot.engine.state import Phase, StackItem, Status
from bot.engine.turns import knock_out
from bot.engine.undo import REASON, take_back


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
        _below_one(ctx)


def fork(ctx: Context, action: act.Fork) -> None:
    source = _spend(ctx, Token.FORK)
    if source.kind == "counter":
        # A copied counter counters the next live item beneath the one it copies.
        below = [i for i in ctx.state.stack if i.live and i.id < source.id]
        _push_counter(ctx, action.actor, below[-1] if below else None)
        return
    assert source.table is not None
    assert source.entry is not None
    entry = entry_of(ctx, source.table, source.entry)
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
    resolver = resolver_for(ctx, action.actor, "fork")
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
    if token is Token.COUNTER and target.spite and target.table in ctx.ruleset.decks:
        # Seed 002: a Chaos card played as a spite can't be countered.
        raise RulesError(
            f"{ctx.state.roll_ref(target.id)} was played as a spite, and a card played as a"
            " spite can't be countered"
        )
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


def _counter(ctx: Context, target: StackItem, by: int, reason: str = REASON) -> None:
    """Counter `target`: take back what it did; if it was a counter, what it countered returns.
    A veto takes a roll back this way too (`reason` says so, and `by` is the roll itself)."""
    ctx.emit({"type": "countered", "item": target.id, "by": by, "countered": True})
    if target.kind == "counter":
        if target.target is not None:
            _restore(ctx, ctx.state.item(target.target), by)
        return
    mark: dict[str, int | None] = {"undoes": target.id}
    settled: set[object] = set()
    for outcome in reversed(target.outcomes):
        lineage = _lineage(outcome)
        if lineage is None:
            take_back(ctx, outcome, mark, reason)
        elif lineage not in settled:
            settled.add(lineage)
            _settle_effect(ctx, target, lineage, mark, reason)


def take_back_roll(ctx: Context, target: StackItem, reason: str) -> None:
    """Take back everything roll `target` did, as a counter would, for `reason` (a veto)."""
    _counter(ctx, target, target.id, reason)


def _lineage(outcome: Outcome) -> object | None:
    """What an effect outcome is about, across restarts: the roll that first made the effect
    (a counter brings an effect back under a fresh id, with its source). None for the rest."""
    event = outcome.event
    if event["type"] == "effect_started":
        return _lineage_of(event.get("source"), event["id"])
    if event["type"] == "effect_ended" and outcome.effect is not None:
        return _lineage_of(outcome.effect.source, outcome.effect.id)
    return None


def _settle_effect(
    ctx: Context,
    target: StackItem,
    lineage: object,
    mark: dict[str, int | None],
    reason: str = REASON,
) -> None:
    """Put one effect back as it stood before `target`: in play if it was (the first thing the
    item did to it was to end it), gone if it wasn't (the item started it). An item can start
    and end the same effect, or end one, start another and end that (a roll that replaced the
    Global twice): only where the effect stood before counts, never each step."""
    about = [o for o in target.outcomes if _lineage(o) == lineage]
    first = about[0]
    for outcome in reversed(about):
        event = outcome.event
        if event["type"] == "effect_started" and event["id"] in ctx.state.effects:
            take_back(ctx, outcome, mark, reason)  # ends it
    if first.event["type"] == "effect_ended" and not _in_play(ctx, lineage):
        take_back(ctx, first, mark, reason)  # starts it again as it was


def _in_play(ctx: Context, lineage: object) -> bool:
    return any(
        _lineage_of(effect.source, effect.id) == lineage for effect in ctx.state.effects.values()
    )


def _lineage_of(source: int | None, effect_id: int) -> object:
    return ("roll", source) if source is not None else ("id", effect_id)


def _restore(ctx: Context, item: StackItem, by: int) -> None:
    """`item`'s counter was countered: it stands again, with what the counter took from it."""
    taken = list(item.undone)
    ctx.emit({"type": "countered", "item": item.id, "by": by, "countered": False})
    if item.kind == "counter":
        if item.target is not None:
            _counter(ctx, ctx.state.item(item.target), by)
        return
    for outcome in reversed(taken):
        take_back(ctx, outcome, {"item": item.id})


def _below_one(ctx: Context) -> None:
    """Life a counter took back may leave a player below 1: they lose as anyone would.

    A countered spite roll's life gain means that spite failed: its roller is out at once, with
    no second spite. Being out is final, even if the counter is countered later.
    """
    dropped = {e["player"] for e in ctx.events if e["type"] == "life" and e["delta"] < 0}
    for player_id in sorted(dropped):
        player = ctx.state.players[player_id]
        if player.status is Status.OUT or player.life is None or player.life >= 1:
            continue
        if player.unsure:  # the bot can't know it is below 1: it waits for `life set`
            continue
        if player.spiting or ctx.state.phase is not Phase.PLAYING:
            continue
        spites = [i for i in ctx.state.stack if i.spite and i.player == player_id]
        if spites and not spites[-1].live:
            knock_out(ctx, player_id, "lost: the life the spite roll gained was countered")
        else:
            # A loss of life, as any other: the ruleset's spite rule applies.
            lose(ctx, player_id, "life")
