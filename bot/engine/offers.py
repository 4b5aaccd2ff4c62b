"""Offered rolls: results that name other lists the roller may roll on, if they choose to.

A link is rolled at once; an offer waits. When an entry with ``offers`` is honoured, each of its
offers becomes pending (an ``offer_made`` event), for the player who rolled it. That player, the
host or a referee may then take it once, with a roll on the list it names (``chaos roll LIST``
or its button). The roll is logged as asked for by that result, so taking it is no power of
its own. An offer of "one of" several lists is taken by rolling on any one of them, and the
others are withdrawn with it. Offers nobody takes lapse when the turn ends, and an offer whose
roll is countered is withdrawn. Every step is an event, so a replay or an undo gets it right.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.engine.context import Context
from bot.engine.events import Roll
from bot.engine.model import Entry, OfferTo, PlayerId, TableId
from bot.engine.state import GameState, PendingOffer, Status


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


def offered_to(
    state: GameState, actor: PlayerId, table: TableId, *, referee: bool = False
) -> PendingOffer | None:
    """The pending offer that lets `actor` roll on `table` now, or None.

    The player it was made to may take it, and the host and referees may take anyone's, but
    not while that player is away: nobody rolls for a player who is away (the offer waits for
    them until the turn ends). With several, the oldest comes first.
    """
    official = referee or actor == state.host
    for offer_id in sorted(state.offers):
        offer = state.offers[offer_id]
        if table not in offer.tables or held_away(state, offer):
            continue
        if official or offer.player == actor:
            return offer
    return None


def held_away(state: GameState, offer: PendingOffer) -> bool:
    """Whether the player `offer` was made to is away (so nobody may take it for now)."""
    owner = state.players.get(offer.player)
    return owner is not None and owner.status is Status.AWAY


def waiting_offer(state: GameState, table: TableId) -> PendingOffer | None:
    """An open offer on `table` whose player is away, if there is one (the oldest)."""
    for offer_id in sorted(state.offers):
        offer = state.offers[offer_id]
        if table in offer.tables and held_away(state, offer):
            return offer
    return None


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
