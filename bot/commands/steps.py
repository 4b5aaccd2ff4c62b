"""What the table is expected to do next: the buttons a front end offers under a game.

Pure: it reads a game's state and ruleset. Each step names an action a player can take with
one press; what it builds is decided when the press arrives, against the game as it is then.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.engine.model import ChaosSource, Ruleset
from bot.engine.offered import awaited, held_away
from bot.engine.offers import open_offers
from bot.engine.state import GameState, Phase
from bot.engine.turns import nobody_can_play
from bot.engine.veto import ballot

MAX_OPTION_BUTTONS = 5  # more options than this go into one "choose" button and a menu
MAX_OFFER_BUTTONS = 10  # one per offered list; the rest are taken with `/chaos roll list:`

DRAW_LABEL = "Draw chaos card"  # a deck game's chaos roll, as its button says


class StepKind(StrEnum):
    JOIN = "join"
    BEGIN = "begin"
    ROLL = "roll"
    REVEAL = "reveal"
    NEXT = "next"
    CHOOSE = "choose"  # one option of the pending choice (`option` is its number, from 1)
    PICK = "pick"  # open the pending choice privately (a spite look, or many options)
    OFFER = "offer"  # take an offered roll (`option` is its number among the offered lists)
    DECLINE = "decline"  # decline an offer a multi-roll waits for (`option`: as for OFFER)
    VETO = "veto"  # vote to veto the result just shown (`option` is its stack item)


@dataclass(frozen=True)
class Step:
    kind: StepKind
    label: str
    option: int = 0


def next_steps(state: GameState, ruleset: Ruleset) -> list[Step]:
    """The actions worth a button now, most expected first; none once the game is over. While
    the table may vote a result away (a house rule), a Veto button counts the votes."""
    steps = _steps(state, ruleset)
    vote = ballot(state, ruleset)
    if vote is None:
        return steps
    label = f"Veto ({len(vote.votes)}/{vote.needed})"
    return [*steps, Step(StepKind.VETO, label, vote.item)]


def _steps(state: GameState, ruleset: Ruleset) -> list[Step]:
    if state.phase is Phase.ENDED:
        return []
    if state.phase is Phase.LOBBY:
        return [Step(StepKind.JOIN, "Join"), Step(StepKind.BEGIN, "Begin")]
    pending = state.pending
    if pending is not None:
        if pending.kind == "spite" or len(pending.options) > MAX_OPTION_BUTTONS:
            return [Step(StepKind.PICK, "Choose…")]
        return [
            Step(StepKind.CHOOSE, _short(name), number)
            for number, (_, name) in enumerate(pending.options, 1)
        ]
    if ruleset.chaos is ChaosSource.DECK and state.face_down is not None:
        return [Step(StepKind.REVEAL, "Reveal")]
    if state.paused:  # a multi-roll waits: its offers are settled before anything else
        return _waiting_steps(state, ruleset)
    offers = [
        Step(StepKind.OFFER, _short(_offer_label(state, ruleset, offer_id, table)), number)
        for number, (offer_id, table) in enumerate(open_offers(state), 1)
        if not held_away(state, state.offers[offer_id])  # nobody may take it while they're away
    ][:MAX_OFFER_BUTTONS]
    if state.active is not None and not state.rolled and not state.chaos_waits():
        roll = DRAW_LABEL if ruleset.chaos is ChaosSource.DECK else "Roll chaos"
        return [Step(StepKind.ROLL, roll), *offers]  # Next turn would only be refused now
    if nobody_can_play(state):
        return offers  # everyone is away until they come back: Next turn would be refused
    return [*offers, Step(StepKind.NEXT, "Next turn")]


def _waiting_steps(state: GameState, ruleset: Ruleset) -> list[Step]:
    """The buttons while a multi-roll waits for offers: a roll on each list offered, and a
    Decline for each offer (the host or a referee may decline one whose player is away)."""
    steps: list[Step] = []
    declined: set[int] = set()
    for number, (offer_id, table) in enumerate(open_offers(state), 1):
        offer = state.offers[offer_id]
        if not awaited(state, offer):
            continue
        if not held_away(state, offer):
            label = _offer_label(state, ruleset, offer_id, table)
            steps.append(Step(StepKind.OFFER, _short(label), number))
        if offer_id not in declined:
            declined.add(offer_id)
            label = f"Decline {_called(ruleset, table)}"
            steps.append(Step(StepKind.DECLINE, _short(label), number))
    return steps[:MAX_OFFER_BUTTONS]


def _offer_label(state: GameState, ruleset: Ruleset, offer_id: int, table: str) -> str:
    """``Roll on The Vortex`` for the active player's offer; another player's (a spite roll's,
    made off their turn) names them, so the table sees whose button it is."""
    owner = state.offers[offer_id].player
    if owner == state.active or owner not in state.players:
        return f"Roll on {_called(ruleset, table)}"
    return f"{state.players[owner].name}: roll on {_called(ruleset, table)}"


def _called(ruleset: Ruleset, table: str) -> str:
    return ruleset.tables[table].name if table in ruleset.tables else table


def _short(name: str, limit: int = 80) -> str:
    """A button label (Discord allows 80 characters)."""
    return name if len(name) <= limit else name[: limit - 1] + "…"
