"""The veto vote's lines (a house rule, :mod:`bot.engine.veto`): a vote, and the veto."""

from __future__ import annotations

from bot.engine import events as ev
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
