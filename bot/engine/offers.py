"""Offered rolls: results that name other lists the roller may roll on, if they choose to.

A link is rolled at once; an offer waits. When an entry with ``offers`` is honoured, each of its
offers becomes pending (an ``offer_made`` event), for the player who rolled it. That player, the
host or a referee may then take it once, with a roll on the list it names (``chaos roll LIST``
or its button). The roll is logged as asked for by that result, so taking it is no power of
its own. An offer of "one of" several lists is taken by rolling on any one of them, and the
others are withdrawn with it. The same people may decline it instead (``chaos decline``), and
the officials may decline it for a player who is away, since declining rolls nothing. Offers
nobody takes lapse when the turn ends, and an offer whose roll is countered is withdrawn. Every
step is an event, so a replay or an undo gets it right.

An offer made inside a multi-roll, with later rolls still to come, holds those rolls back until
it is taken (and its roll resolved) or declined (:mod:`bot.engine.pauses`): meanwhile no other
roll is made and the turn doesn't end.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.engine import actions as act
from bot.engine.context import Context
from bot.engine.errors import RulesError
from bot.engine.events import Roll
from bot.engine.model import CHAOS_ROLL, Entry, OfferTo, PlayerId, Ruleset, TableId
from bot.engine.offered import held_away, in_turn, settled_by, waits_for
from bot.engine.state import GameState, PausedRoll, PendingOffer, Status


def make_offers(ctx: Context, entry: Entry, roll: Roll, item: int | None, first_id: int) -> None:
    """Make `entry`'s offers pending for the player who rolled it, or for their killer.

    Offers are numbered like effects (at least `first_id`), and belong to stack item `item`,
    so a CounterRoll on the roll withdraws them. An offer to the killer ("Your killer rolls on
    [x]") goes to the one other player still in, or, with several, waits for the roller (or
    the host or a referee) to say who it was: the bot can't know who dealt the last blow.
    """
    killers = [offer for offer in entry.offers if offer.to is OfferTo.KILLER]
    for offer in entry.offers:
        if offer.to is OfferTo.ROLLER:
            _offer(ctx, offer.tables, roll["player"], roll["id"], entry.name, item, first_id)
    if not killers:
        return
    roller = roll["player"]
    suspects = [
        p for p in ctx.state.order if p != roller and ctx.state.players[p].status is not Status.OUT
    ]
    tables = [list(offer.tables) for offer in killers]
    if len(suspects) == 1:
        for lists in tables:
            _offer(ctx, tuple(lists), suspects[0], roll["id"], entry.name, item, first_id)
        return
    if not suspects:
        return  # nobody is left to have done it: the offer has no one to go to
    ctx.emit(
        {
            "type": "choice_offered",
            "player": roller,
            "kind": "killer",
            "options": [{"id": p, "name": ctx.name(p)} for p in suspects],
            "context": {
                "tables": tables,
                "source": roll["id"],
                "name": entry.name,
                "item": item,
                "question": f"{entry.name} gives {ctx.name(roller)}'s killer a roll: who was it?",
            },
        }
    )


def offer_to_killer(ctx: Context, context: Mapping[str, object], killer: PlayerId) -> None:
    """The roller named their killer (the `killer` choice): the offers go to them."""
    tables, source, name, item = (context[k] for k in ("tables", "source", "name", "item"))
    assert isinstance(tables, list)
    assert isinstance(source, int)
    assert isinstance(item, int | None)
    for lists in tables:
        _offer(ctx, tuple(lists), killer, source, str(name), item, 0)


def _offer(
    ctx: Context,
    tables: tuple[TableId, ...],
    player: PlayerId,
    source: int,
    name: str,
    item: int | None,
    first_id: int,
) -> None:
    ctx.emit(
        {
            "type": "offer_made",
            "id": max(ctx.state.next_id, first_id),
            "player": player,
            "tables": list(tables),
            "source": source,
            "name": name,
            "item": item,
        }
    )


def open_offers(state: GameState) -> list[tuple[int, TableId]]:
    """Every list an open offer names, as ``(offer id, list)``, oldest offer first."""
    return [(o.id, t) for _, o in sorted(state.offers.items()) for t in o.tables]


def take_offer(ctx: Context, offer: PendingOffer, table: TableId) -> None:
    """Close `offer` as taken on `table` (the caller makes the roll); the rest is withdrawn."""
    ctx.emit(
        {
            "type": "offer_taken",
            "id": offer.id,
            "table": table,
            "by": ctx.action.actor,
            "withdrawn": [t for t in offer.tables if t != table],
        }
    )


def offer_reason(offer: PendingOffer) -> str:
    """Why an offered roll was made, as its roll event records it."""
    return f"offered by {offer.name}, roll {offer.source}"


def withdraw_offer(ctx: Context, offer_id: int, reason: str) -> None:
    """End an offer nobody took (if it is still pending)."""
    if offer_id in ctx.state.offers:
        ctx.emit({"type": "offer_lapsed", "id": offer_id, "reason": reason})


def lapse_offers(ctx: Context, reason: str) -> None:
    """Every pending offer ends (the turn is over)."""
    for offer_id in sorted(ctx.state.offers):
        withdraw_offer(ctx, offer_id, reason)


def decline(ctx: Context, action: act.Decline) -> None:
    """Pass up an open offer: the one on `action.table`, or the only one open (who may is
    :mod:`bot.engine.authority`'s business: its player, the host or a referee). Of several on
    the same lists, the one taking it would take (:func:`~bot.engine.offered.settled_by`)."""
    ctx.require_playing()
    ctx.require_no_choice()
    state = ctx.state
    table = action.table
    found = [o for o in in_turn(state) if table is None or table in o.tables]
    if not found:
        if table is not None and state.offers:
            raise RulesError(
                f"no open offer names {_list_name(ctx.ruleset, table)}: the rolls on offer are"
                f" on {_offer_lists(ctx, state)}"
            )
        raise RulesError("no roll is on offer to decline")
    mine = [o for o in found if o.player == action.actor]
    if mine:
        found = mine
    if table is None and any(set(o.tables) != set(found[0].tables) for o in found):
        raise RulesError(
            f"several rolls are on offer ({_offer_lists(ctx, state)}): name the list of the one"
            " to decline, like `chaos decline "
            f"{found[0].tables[0]}`"
        )
    offer = settled_by(state, action.actor, table, referee=action.referee, taking=False)
    if offer is None:  # the authority table refuses it first: the offers are another's
        raise RulesError("no roll on offer is yours to decline")
    ctx.emit({"type": "offer_declined", "id": offer.id, "by": action.actor})


def unfinished(ctx: Context) -> str | None:
    """What the newest multi-roll waiting for an offer waits for, in words; None if none is.

    For example ``R3 isn't finished: Ann takes the roll Offerer offered (`chaos roll c`) or
    declines it (`chaos decline c`), then its roll 2/2 on List B is made``.
    """
    state = ctx.state
    if not state.paused:
        return None
    paused = state.paused[-1]
    offers = [o for o in in_turn(state) if waits_for(paused, o)]
    waiting = "its offered roll is settled"
    if offers:
        offer = offers[0]
        who = ctx.name(offer.player)
        table = offer.tables[0]
        waiting = (
            f"{who} takes the roll {offer.name} offered (`chaos roll {table}`) or declines it"
            f" (`chaos decline {table}`)"
        )
        if held_away(state, offer):
            waiting += (
                f"; {who} is away, so the host or a referee may decline it for them, or"
                " `player back` comes first"
            )
    then = _next_roll(ctx.ruleset, paused)
    return f"{state.roll_ref(paused.item)} isn't finished: {waiting}, then {then}"


def _next_roll(ruleset: Ruleset, paused: PausedRoll) -> str:
    pending = paused.context.get("pending")
    if not isinstance(pending, list) or not pending:
        return "it goes on"
    task = pending[-1]
    slot = f" {task['slot']}" if task.get("slot") else ""
    table = str(task["table"])
    where = "chaos" if table == CHAOS_ROLL else _list_name(ruleset, table)
    return f"its roll{slot} on {where} is made"


def _list_name(ruleset: Ruleset, table: TableId) -> str:
    found = ruleset.tables.get(table)
    return found.name if found is not None else table


def _offer_lists(ctx: Context, state: GameState) -> str:
    return ", ".join(
        f"{_list_name(ctx.ruleset, t)} ({ctx.name(o.player)})"
        for _, o in sorted(state.offers.items())
        for t in o.tables
    )
