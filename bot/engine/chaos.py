"""Chaos rolls and what they leave behind: outcomes, the stack of this turn's rolls, tokens.

Every roll the resolver honours is turned into events here, in order: the effect that lasts, the
world enchantment or Global, tokens, life, a forced list, a change to the turn order.
"""

from __future__ import annotations

import random

from bot.engine import actions as act
from bot.engine import survival
from bot.engine.context import Context, require
from bot.engine.decks import draw, play_card, reveal_global
from bot.engine.errors import RulesError
from bot.engine.events import CardDrawn, Roll
from bot.engine.model import (
    ChaosSource,
    Entry,
    PlayerId,
    StartRoll,
    TableId,
)
from bot.engine.offered import awaited, offered_to, waiting_offer
from bot.engine.offers import offer_reason, offer_to_killer, take_offer, unfinished
from bot.engine.outcomes import apply_entry, change_list
from bot.engine.resolve import Resolution, Resolver
from bot.engine.state import PendingOffer
from bot.engine.turns import end_effect


def roll_chaos(ctx: Context, action: act.RollChaos) -> None:
    """The turn's chaos roll (on the right list, or the top of the Chaos deck), an extra roll made
    the same way, or a roll on a named list.

    A turn has one chaos roll: a second is refused, naming the first. An extra roll (a referee's
    call) and a named-list roll never count as the turn's roll, and a named-list roll never moves
    the current list. Who may ask for which is :mod:`bot.engine.authority`'s business. A named
    roll that a pending result offered takes that offer (see :mod:`bot.engine.offers`). While a
    multi-roll waits for an offer, taking that offer is the one roll allowed.
    """
    ctx.require_playing()
    require_chaos_started(ctx)
    if action.table is not None and not action.extra:
        offer = offered_to(ctx.state, action.actor, action.table, referee=action.referee)
        if offer is not None:
            ctx.require_no_choice()
            _require_nothing_paused(ctx, offer)
            take_offer(ctx, offer, action.table)
            resolution = resolver_for(ctx, offer.player, "offered").roll(action.table)
            resolution.steps[0].roll["reason"] = offer_reason(offer)
            record(ctx, resolution, kind="roll", purpose="offered")
            return
        waiting = waiting_offer(ctx.state, action.table)
        if waiting is not None:
            who = ctx.name(waiting.player)
            raise RulesError(
                f"the roll {waiting.name} offered is {who}'s, and {who} is away: nobody rolls"
                f" for a player who is away. It waits for {who} (`player back`) until the turn"
                " ends"
            )
    ctx.require_no_choice()
    _require_nothing_paused(ctx)
    ruleset, state = ctx.ruleset, ctx.state
    purpose = "extra" if action.extra else "list" if action.table is not None else "turn"
    require(
        not (action.extra and action.table is not None),
        "an extra roll is made like the turn's roll: leave the list out",
    )
    if state.active is None:
        raise RulesError(
            f"nobody is active this turn ({ctx.name(state.current)} isn't at the table):"
            " it ends without a chaos roll, with `turn next`"
        )
    if ruleset.chaos is ChaosSource.DECK:
        require(action.table is None, "this ruleset draws chaos cards; it has no lists to roll on")
        require(state.face_down is None, "reveal the face-down chaos card first (`chaos reveal`)")
    if purpose == "turn" and state.rolled:
        raise RulesError(already_rolled(ctx))
    if ruleset.chaos is ChaosSource.DECK:
        deck = ruleset.chaos_table
        assert deck is not None  # checked when the ruleset was built
        card = draw(ctx, deck)
        require(card is not None, "the Chaos deck and its discard pile are both empty")
        assert card is not None
        drawn: CardDrawn = {
            "type": "card_drawn",
            "deck": deck,
            "card": card,
            "face_down": True,
            "player": ctx.roller(),
        }
        if purpose != "turn":
            drawn["purpose"] = purpose
        ctx.emit(drawn)
        if purpose == "turn":
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
    resolver = resolver_for(ctx, ctx.roller(), purpose)
    resolution = resolver.roll(table)
    record(ctx, resolution, kind="roll", purpose=purpose)
    if purpose == "turn":
        mark_chaos_done(ctx)


def already_rolled(ctx: Context) -> str:
    """The refusal of a second turn roll, naming the one already made."""
    state = ctx.state
    who = ctx.name(state.current)
    made = state.turn_roll()
    if made is None or made.table is None or made.entry is None:
        what = "this turn's chaos card" if ctx.ruleset.chaos is ChaosSource.DECK else "its roll"
        first = f"{who} already made {what}"
    elif made.table in ctx.ruleset.decks:
        card = _entry_name(ctx, made.table, made.entry)
        first = f"{who} already drew this turn's chaos card ({state.roll_ref(made.id)}, {card})"
    else:
        table = ctx.ruleset.table(made.table).name
        dice = f"{made.result} on " if made.dice else ""
        entry = _entry_name(ctx, made.table, made.entry)
        made_as = f"{state.roll_ref(made.id)}: {dice}{table}, {entry}"
        first = f"{who} already made this turn's chaos roll ({made_as})"
    return (
        f"{first}: one chaos roll a turn. A referee can ask for an extra one (`chaos roll extra`)"
    )


def _require_nothing_paused(ctx: Context, offer: PendingOffer | None = None) -> None:
    """Refuse a roll while a multi-roll waits for an offer, unless it takes that offer: each
    roll is resolved completely, its offered rolls included, before anything else is rolled."""
    if offer is not None and awaited(ctx.state, offer):
        return
    waiting = unfinished(ctx)
    if waiting is not None:
        raise RulesError(f"{waiting}; no other roll comes before that")


def require_chaos_started(ctx: Context) -> None:
    """Refuse chaos before the round the house rules start it in."""
    state = ctx.state
    if state.chaos_waits():
        raise RulesError(
            f"chaos starts in round {state.house.chaos_from} (a house rule), and this is round"
            f" {state.round}: no chaos roll or card before then"
        )


def roll_global(ctx: Context, action: act.RollGlobal) -> None:
    ctx.require_playing()
    require_chaos_started(ctx)
    ctx.require_no_choice()
    _require_nothing_paused(ctx)
    start = ctx.ruleset.start_table
    if ctx.ruleset.chaos is ChaosSource.DECK:
        for effect in list(ctx.state.effects.values()):
            if effect.kind == "global":
                end_effect(ctx, effect.id, "replaced by the next Global")
        reveal_global(ctx)
        return
    require(start is not None, "this ruleset has no start list (Global or world) to roll on")
    assert start is not None
    resolution = resolver_for(ctx, ctx.roller(), "global").roll(start)
    record(ctx, resolution, kind="roll", purpose="global")


def mark_chaos_done(ctx: Context) -> None:
    state = ctx.state
    if not state.rolled and state.current is not None:
        ctx.emit({"type": "chaos_done", "turn": state.turn, "player": state.current})


def resolver_for(
    ctx: Context, player: PlayerId, purpose: str, rng: random.Random | None = None
) -> Resolver:
    """A resolver for a roll made for `player`, with that roll's dice (see Context.dice), or
    with `rng` (the dice a paused roll goes on with)."""
    ruleset = ctx.ruleset
    chaos = None  # where a result's "roll chaos" goes: a chaos deck has no list
    if ruleset.chaos is ChaosSource.PROGRESSION:
        chaos = ctx.state.current_list or ruleset.lists[0]
    elif ruleset.chaos is ChaosSource.TABLE:
        chaos = ruleset.chaos_table
    return Resolver(
        ruleset,
        ctx.dice(purpose) if rng is None else rng,
        player=player,
        turn=ctx.state.turn,
        next_id=ctx.state.next_id,
        chaos=chaos,
        denied=ctx.state.house.barred(ruleset),
        given=ctx.state.given if ctx.state.house.repeats == "never" else None,
    )


def record(
    ctx: Context,
    resolution: Resolution,
    *,
    kind: str,
    target: int | None = None,
    purpose: str | None = None,
) -> int | None:
    """Emit a resolution: its stack item, each roll and what each honoured roll does.

    `purpose` says why a roll was made (see :class:`~bot.engine.events.StackPushed`).
    """
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
            "purpose": purpose,
        }
    )
    emit_steps(ctx, resolution, item)
    return item


def _on_the_global(ctx: Context, roll: Roll) -> bool:
    """A roll actually made on the Global list of a ruleset whose Global is rolled."""
    rules = ctx.ruleset
    return (
        rules.start is StartRoll.GLOBAL
        and roll["table"] == rules.start_table
        and not roll["ignored"]
    )


def emit_steps(ctx: Context, resolution: Resolution, item: int) -> None:
    """Each roll of a resolution, what each honoured one does, and how the resolution ended:
    with every roll made, out of budget, waiting for a pick, or waiting for an offer."""
    root = resolution.steps[0].roll if resolution.steps else None
    # The resolver numbered every roll already; what the rolls leave behind is numbered after
    # them, so an effect never shares an id with a roll that is emitted later.
    first_id = max((step.roll["id"] for step in resolution.steps), default=0) + 1
    for step in resolution.steps:
        ctx.emit(step.roll)
        if _on_the_global(ctx, step.roll):
            # Seed 001: a player who would roll on Global first removes the current Global,
            # whatever the roll then gives (another roll on Global, or no Global at all). It
            # is logged under the roll's line, and ends before anything the roll does.
            for effect in list(ctx.state.effects.values()):
                if effect.kind == "global":
                    end_effect(ctx, effect.id, "a new Global is rolled", {"item": item})
        if step.honoured:
            apply_entry(ctx, step.entry, step.roll, item, first_id=first_id)
    if resolution.exhausted is not None:
        ctx.emit(resolution.exhausted)
    if (
        resolution.last_list is not None
        and resolution.last_list != ctx.state.current_list
        and _moves_list(ctx, item)
    ):
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
    if resolution.paused is not None:
        # Its dice wait with it: where they stand is noted after everything above drew on them.
        paused = dict(resolution.paused)
        settle = paused.pop("settle")
        paused["dice"] = ctx.dice_position()
        # Where its "roll chaos" slots go: the last list it rolled on, unless a roll made while
        # it waits moves the current list (then that list was rolled on last).
        paused["last_list"] = resolution.last_list
        paused["current"] = ctx.state.current_list
        # Offers made from now on (by the roll taken from its offer) are resolved first too.
        paused["since"] = ctx.state.next_id
        ctx.emit(
            {
                "type": "roll_paused",
                "item": item,
                "player": (root["player"] if root else ctx.roller()),
                "waits": list(settle),
                "context": paused,
            }
        )


def _moves_list(ctx: Context, item: int) -> bool:
    """A roll on a named list (or a RollFork's copy of one) never moves the current list."""
    on_stack = ctx.state.item(item)
    if on_stack.kind == "fork" and on_stack.target is not None:
        on_stack = ctx.state.item(on_stack.target)
    return on_stack.purpose != "list"


def choose(ctx: Context, action: act.Choose) -> None:
    """Answer the pending choice: keep one roll, pick a split half or a spite card, or answer
    a spite's question (how much life, a condition, whether a loss still holds)."""
    ctx.require_playing()
    pending = ctx.state.pending
    require(pending is not None, "nobody has a choice to make")
    assert pending is not None
    amount = (
        survival.match_amount(pending, action.option) if pending.kind == "life_amount" else None
    )
    picked = amount or _match_option(pending.options, action.option, private=pending.private)
    ctx.emit({"type": "choice_made", "player": pending.player, "option": picked})
    context = pending.context
    if pending.kind in survival.KINDS:
        survival.answer(ctx, pending, picked)
        return
    if pending.kind == "killer":
        offer_to_killer(ctx, context, picked)
        return
    if pending.kind == "keep":
        candidates = context["candidates"]
        assert isinstance(candidates, list)
        chosen = next(c for c in candidates if str(c["roll"]) == picked)
        entry = entry_of(ctx, chosen["table"], chosen["entry"])
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
        # The dice are named first: the kept entry's own (a life gain in dice) are theirs too.
        rng = ctx.dice("keep")
        # The kept entry applies first, so the rolls that follow it are numbered after it.
        apply_entry(ctx, entry, kept, item)
        # Its "roll chaos" slots go where a chaos roll would go now (they were once dropped).
        resolver = resolver_for(ctx, pending.player, "keep", rng)
        used = context["used"]
        assert isinstance(used, int)
        resolver.used = used
        resolution = resolver.keep(kept, entry, context)
        emit_steps(ctx, resolution, item)
        return
    play_card(ctx, pending, picked)


def _match_option(options: list[tuple[str, str]], wanted: str, *, private: bool = False) -> str:
    """The option whose id or name matches `wanted` (names are matched without case). The
    refusal lists the options, but not a spite look's cards: whoever mistyped may not be the
    one allowed to see them."""
    for option_id, name in options:
        if wanted == option_id or wanted.casefold() == name.casefold():
            return option_id
    if private:
        raise RulesError(
            f"{wanted!r} isn't one of the choices: the cards of a spite look are shown to the"
            " spiting player, who picks one by its name or its number"
        )
    listed = ", ".join(f"{name} ({option_id})" for option_id, name in options)
    raise RulesError(f"{wanted!r} isn't one of the choices: {listed}")


def entry_of(ctx: Context, table: TableId, entry_id: str) -> Entry:
    if table in ctx.ruleset.decks:
        return ctx.ruleset.decks[table].card(entry_id)
    return next(e for e in ctx.ruleset.table(table).entries if e.id == entry_id)


def _entry_name(ctx: Context, table: TableId, entry_id: str) -> str:
    return entry_of(ctx, table, entry_id).name
