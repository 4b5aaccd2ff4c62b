"""Multi-rolls that wait for an offer: each roll resolved completely before the next is made.

When a slot of a multi-roll (or a roll that links on, with later rolls pending) comes up with a
result that offers a roll, the resolver stops once that result's own rolls are made
(:attr:`~bot.engine.resolve.Resolution.paused`), and a ``roll_paused`` event keeps what it goes on
from: its pending rolls, the roll budget used, and where its dice stand. After every action,
:func:`settle` lets the newest paused roll go on once none of the offers it waits for is open
(taken and resolved, declined, or withdrawn), with the same dice it would have rolled without
the pause: a pause moves no die.

Meanwhile the turn doesn't end and no other roll is made (:func:`bot.engine.offers.unfinished`
says why). A counter of the paused roll drops its later rolls with the rest of what it did; a
counter of that counter brings the pause back. Offers made outside a multi-roll, or by its last
roll, hold nothing back: they lapse at the end of the turn as before.
"""

from __future__ import annotations

from bot.engine.chaos import emit_steps, resolver_for
from bot.engine.context import Context
from bot.engine.offered import waits_for
from bot.engine.state import PausedRoll, Phase


def settle(ctx: Context) -> None:
    """Let paused rolls go on, newest first, while the offers they wait for are settled."""
    state = ctx.state
    while state.paused and state.pending is None and state.phase is Phase.PLAYING:
        paused = state.paused[-1]
        if any(waits_for(paused, offer) for offer in state.offers.values()):
            return
        _resume(ctx, paused)


def _resume(ctx: Context, paused: PausedRoll) -> None:
    ctx.emit(
        {
            "type": "roll_resumed",
            "paused": paused.item,
            "dropped": False,
            "reason": "the offer it waited for is settled",
        }
    )
    context = paused.context
    dice = context.get("dice")
    rng = ctx.dice_again(dice if isinstance(dice, dict) else None)
    resolver = resolver_for(ctx, paused.player, "", rng)
    used = context["used"]
    assert isinstance(used, int)
    resolver.used = used
    current = ctx.state.current_list
    last = context.get("last_list")
    moved = current != context.get("current")
    resolver.result.last_list = current if moved else last if isinstance(last, str) else None
    emit_steps(ctx, resolver.resume(context), paused.item)
