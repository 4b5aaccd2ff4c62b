"""The veto vote, a house rule (``veto``): the table takes a result back and rolls it again.

Once a roll's result is shown, the players at the table other than its roller may vote to veto
it, until the next action (a vote is no such action; neither is picking the roll to keep of a
"roll N, keep one" voted on). A strict majority of the players at the table, the roller
counted among them, vetoes it: more than half of those still in the game and not away. The
roller never votes, so with two players at the table a veto would need both: a table of two
can't veto. A player who is away doesn't count, since they can't vote (coming back is an
action, which closes the vote). An undo leaves the vote as it stood before the undone action.

A vetoed roll is taken back the way a CounterRoll takes one back
(:func:`~bot.engine.counters.take_back_roll`: its effects, the rolls it led to, life, tokens,
offers, list changes) and rolled again on the same list, for the same player and the same
purpose, with dice of its own from the committed seed (purpose ``veto``:
:mod:`bot.engine.streams`), so a replay and ``game verify`` throw them again. A turn has one
veto at most: the roll made again can't be vetoed, so a table can't veto forever. A veto needs
no token; the ``vetoed`` event names the voters.

Which rolls (:data:`~bot.engine.house.VETOABLE`): the turn's, an extra roll, a roll on a named
list or one a result offered, and a Global or world rolled in play. Not a spite roll, a
RollFork's copy or a counter, nor a card (dealt, not rolled), nor the roll the game begins with
(the first turn has begun by the time it is shown).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import actions as act
from bot.engine.chaos import record, resolver_for
from bot.engine.context import Context
from bot.engine.counters import take_back_roll
from bot.engine.errors import RulesError
from bot.engine.model import PlayerId, Ruleset
from bot.engine.state import GameState, Phase, Player, Status

OFF = (
    "this game has no veto: a server's managers turn it on with `/house veto on` (at the"
    " console, `house veto on`), for the games started after"
)


@dataclass(frozen=True)
class Ballot:
    """The vote open now: on stack item `item`, rolled by `roller`; `votes` of `needed` in."""

    item: int
    roller: PlayerId
    votes: tuple[PlayerId, ...]
    needed: int


def at_the_table(state: GameState) -> list[Player]:
    """The players a majority is counted among: still in the game and not away."""
    return [p for p in state.seated() if p.status is Status.PLAYING]


def needed(state: GameState) -> int:
    """Votes a veto needs: a strict majority of the players at the table, the roller counted."""
    return len(at_the_table(state)) // 2 + 1


def ballot(state: GameState, ruleset: Ruleset) -> Ballot | None:
    """The result a vote may veto now, with its votes; None when nothing can be vetoed (the
    rule off, no result open, this turn's veto used, a choice open, or too few voters)."""
    if not state.house.veto or state.phase is not Phase.PLAYING or state.pending is not None:
        return None
    if state.veto_item is None or state.vetoed is not None:
        return None
    item = state.item(state.veto_item)
    if item.table in ruleset.decks or not item.live:
        return None
    need = needed(state)
    if len([p for p in at_the_table(state) if p.id != item.player]) < need:
        return None
    return Ballot(item.id, item.player, state.votes, need)


def vote(ctx: Context, action: act.Veto) -> None:
    """A vote to veto the result open to one; the vote that makes a majority vetoes it.

    Who may vote is :mod:`bot.engine.authority`'s question (a player at the table, not the
    roller); here, whether there is a result to veto and this player hasn't voted on it yet."""
    ctx.require_playing()
    state, ruleset = ctx.state, ctx.ruleset
    if not state.house.veto:
        raise RulesError(OFF)
    ctx.require_no_choice()
    if state.vetoed is not None:
        raise RulesError(
            f"{state.roll_ref(state.vetoed)} was vetoed this turn, and a turn has one veto at"
            " most: the roll made again stands"
        )
    if state.veto_item is None or (action.item is not None and action.item != state.veto_item):
        which = (
            f"the vote on {state.roll_ref(action.item)} is closed"
            if action.item is not None
            else None
        )
        raise RulesError(
            f"{which or 'there is no result to veto'}: a result can be vetoed from when it is"
            " shown until the next action"
        )
    item = state.item(state.veto_item)
    if item.table in ruleset.decks:
        raise RulesError("a chaos card is dealt, not rolled: the veto is for rolls on lists")
    voter = ctx.player(action.actor)
    if voter.id in state.votes:
        raise RulesError(f"{voter.name} has voted to veto {state.roll_ref(item.id)} already")
    need = needed(state)
    others = [p for p in at_the_table(state) if p.id != item.player]
    if len(others) < need:
        raise RulesError(
            f"a veto needs a majority of the {len(at_the_table(state))} players at the table"
            f" ({need} votes), and {ctx.name(item.player)}, who rolled it, doesn't vote: this"
            " table can't veto"
        )
    votes = (*state.votes, voter.id)
    ctx.emit(
        {
            "type": "veto_vote",
            "item": item.id,
            "player": voter.id,
            "votes": len(votes),
            "needed": need,
        }
    )
    if len(votes) < need:
        return
    ctx.emit({"type": "vetoed", "item": item.id, "voters": list(votes)})
    take_back_roll(ctx, item, "vetoed")
    assert item.table is not None  # a roll open to a vote has its list and its purpose
    assert item.purpose is not None
    again = resolver_for(ctx, item.player, item.purpose, ctx.dice("veto")).roll(item.table)
    # The log names the roll by its id, as it always did (a replay must write the same):
    # the renderers read it as players count (bot.render.names, Names.reason).
    again.steps[0].roll["reason"] = f"rolled again: R{item.id} was vetoed"
    record(ctx, again, kind="roll", purpose=item.purpose)
