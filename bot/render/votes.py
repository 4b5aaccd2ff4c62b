"""The veto vote's lines (a house rule, :mod:`bot.engine.veto`): a vote, and the veto."""

from __future__ import annotations

from bot.engine import events as ev
from bot.engine.model import Ruleset
from bot.engine.state import GameState
from bot.engine.veto import ballot
from bot.render.names import Names


def people(players: list[str], names: Names) -> str:
    """``Bob``, ``Bob and Cy``, ``Bob, Cy and Dan``."""
    called = [names.player(p) for p in players]
    return called[0] if len(called) == 1 else f"{', '.join(called[:-1])} and {called[-1]}"


def vote_line(e: ev.VetoVote, names: Names) -> str:
    return (
        f"✕ {names.player(e['player'])} votes to veto {names.item(e['item'])}"
        f" ({e['votes']} of {e['needed']} votes)."
    )


def vetoed_line(e: ev.Vetoed, names: Names) -> str:
    return (
        f"✕ {names.item(e['item'])} is vetoed by {people(e['voters'], names)}: taken back,"
        " and rolled again."
    )


def ballot_lines(state: GameState, ruleset: Ruleset, names: Names) -> list[str]:
    """The vote open on the result just shown, for the board: none when nothing can be vetoed."""
    open_vote = ballot(state, ruleset)
    if open_vote is None:
        return []
    voted = f": {people(list(open_vote.votes), names)}" if open_vote.votes else ""
    item = state.item(open_vote.item)
    table = ruleset.tables.get(item.table or "")
    entry = next((e.name for e in table.entries if e.id == item.entry), "") if table else ""
    return [
        f"Veto {state.roll_ref(item.id)} {entry}? {len(open_vote.votes)} of"
        f" {open_vote.needed} votes{voted}"
        " (`chaos veto`, until the next action)."
    ]
