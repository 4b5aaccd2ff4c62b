"""Which open offer an action settles: pure questions about a game's offers (see
:mod:`bot.engine.offers` for making, taking and declining them).

Both the authority table (:mod:`bot.engine.authority`, which asks whose offer an action is
about) and the handlers (which take or decline one) answer with :func:`settled_by`, so the
offer a ruling allows is the offer that is then settled: never one player's checked and
another's rolled.
"""

from __future__ import annotations

from bot.engine.model import PlayerId, TableId
from bot.engine.state import GameState, PausedRoll, PendingOffer, Status


def settled_by(
    state: GameState,
    actor: PlayerId,
    table: TableId | None,
    *,
    referee: bool = False,
    taking: bool = True,
) -> PendingOffer | None:
    """The open offer `actor` settles with a roll on `table` (`taking`), or by declining the
    one on `table` (None: any list); None when they settle none.

    A player settles their own offers; the host and referees anyone's. Nobody takes an offer
    while its player is away (it waits for them), though the officials may decline it for
    them. Of several, the one the newest paused multi-roll waits for comes first (nothing else
    may be rolled before it), then the actor's own (an official who was offered the list too
    rolls for themselves, not for another player, whose roll it is to make or pass up), then
    the oldest.
    """
    official = referee or actor == state.host
    found = [
        offer
        for offer in in_turn(state)
        if (table is None or table in offer.tables)
        and (official or offer.player == actor)
        and not (taking and held_away(state, offer))
    ]
    newest = state.paused[-1] if state.paused else None
    for offer in found:
        if newest is not None and waits_for(newest, offer):
            return offer
    return next((o for o in found if o.player == actor), found[0] if found else None)


def offered_to(
    state: GameState, actor: PlayerId, table: TableId, *, referee: bool = False
) -> PendingOffer | None:
    """The pending offer that lets `actor` roll on `table` now, or None (see
    :func:`settled_by`)."""
    return settled_by(state, actor, table, referee=referee)


def in_turn(state: GameState) -> list[PendingOffer]:
    """The open offers in the order they are settled: those the newest paused multi-roll waits
    for first (nothing else may be rolled before them), then the oldest first."""
    newest = state.paused[-1] if state.paused else None
    return sorted(
        state.offers.values(),
        key=lambda o: (newest is None or not waits_for(newest, o), o.id),
    )


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


def waits_for(paused: PausedRoll, offer: PendingOffer) -> bool:
    """Whether `paused` waits for `offer`: one its own rolls made, or one made since it paused
    (by the roll taken from its offer, say), which is resolved before it goes on, too."""
    since = paused.context.get("since")
    return offer.source in paused.waits or (isinstance(since, int) and offer.id >= since)


def awaited(state: GameState, offer: PendingOffer) -> bool:
    """Whether a multi-roll waits for `offer` before its later rolls."""
    return any(waits_for(paused, offer) for paused in state.paused)
