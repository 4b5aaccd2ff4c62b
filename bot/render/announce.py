"""What an action did, in a few words a games master would say aloud: "Bob joined", "Turn 3 —
Carol", "Ann rolls chaos" (pure, no I/O).

A front end puts these where people look first (a Discord embed's title), instead of the
command as it was typed ("Bob: game join Bob"). A roll also gets a title of what came up:
"Carnival Ride → Life Rotation" (see :func:`roll_title`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.engine.events import Event, Json, Roll
from bot.engine.model import ChaosSource
from bot.render.events import render_lines
from bot.render.ids import effect_ref, middle_ref
from bot.render.lines import event_line
from bot.render.names import Names

# A chain of single sub-rolls longer than this is cut in the middle: the start and the end of
# what happened are what the table wants to hear.
_CHAIN = 4


def roll_title(events: Sequence[Event], top: Roll) -> str:
    """What a roll came to, from the entry it started on: its name alone; then, for as long as
    each result made exactly one further roll that counted, that roll's entry ("Carnival Ride
    → Life Rotation"); where a result made several, how many ("Grand Tour → 3 rolls"). Ignored
    rolls don't count. A long chain keeps its first entry and its last two."""
    children: dict[int, list[Roll]] = {}
    for event in events:
        if event["type"] == "roll" and event["parent"] is not None and not event["ignored"]:
            children.setdefault(event["parent"], []).append(event)
    chain = [top["entry"]["name"]]
    node = top
    while len(under := children.get(node["id"], [])) == 1:
        node = under[0]
        chain.append(node["entry"]["name"])
    if len(under) > 1:
        chain.append(f"{len(under)} rolls")
    if len(chain) > _CHAIN:
        chain = [chain[0], "…", *chain[-2:]]
    return " → ".join(chain)


def announcement(events: Sequence[Event], names: Names) -> str | None:
    """The first action of `events` as an announcement ("Bob joined"); None without one."""
    action = next((e["action"] for e in events if e["type"] == "action"), None)
    if action is None:
        return None
    say = _SAY.get(str(action.get("name")))
    who = names.player(str(action.get("actor")))
    if say is None:  # an action added later, before it has words of its own
        return f"{who} acts"
    return say(action, events, names, who)


def unsaid(
    lines: Sequence[str], events: Sequence[Event], names: Names, said: str | None
) -> list[str]:
    """`lines` (the events' lines) without those that say again what the announcement `said`
    says ("Bob joins the game." under "Bob joined", "Turn 3 — Carol" under "Turn 3 — Carol"):
    the line of what the announcement tells in full, and a line that reads as it does ("Ann
    chooses Wax." under "Ann chooses Wax"). What is left adds something; it may be nothing."""
    if said is None:
        return list(lines)
    action = next((e["action"] for e in events if e["type"] == "action"), None)
    tell = _TOLD.get(str(action.get("name"))) if action is not None else None
    told = {said, *(tell(events, names) if tell is not None else ())}
    return [line for line in lines if line not in told and line.strip("─ .") != said]


def _of(events: Sequence[Event], kind: str) -> Any:
    """The last event of a kind, or None."""
    return next((e for e in reversed(events) if e["type"] == kind), None)


def _roller(events: Sequence[Event], names: Names, who: str) -> str:
    """Whose roll it was: the top roll's player (a referee may have asked), else the actor."""
    top = next((e for e in events if e["type"] == "roll" and e["parent"] is None), None)
    return who if top is None else names.player(top["player"])


def _deck(names: Names) -> bool:
    return names.ruleset is not None and names.ruleset.chaos is ChaosSource.DECK


def _start(action: Json, events: Sequence[Event], names: Names, who: str) -> str:
    started = _of(events, "game_started")
    if started is None:
        return f"{who} opens a game"
    ruleset = names.ruleset.name if names.ruleset is not None else started["ruleset"]
    return f"{started['name']} opens a {ruleset} game"


def _leave(action: Json, events: Sequence[Event], names: Names, who: str) -> str:
    return f"{who} concedes" if _of(events, "player_out") else f"{who} left"


def _begin(action: Json, events: Sequence[Event], names: Names, who: str) -> str:
    turn = _of(events, "turn_started")
    first = f" — {names.player(turn['player'])} goes first" if turn else ""
    return f"The game begins{first}"


def _end(action: Json, events: Sequence[Event], names: Names, who: str) -> str:
    ended = _of(events, "game_ended")
    winner = f" — {names.player(ended['winner'])} wins" if ended and ended["winner"] else ""
    return f"Game over{winner}"


def _roll(action: Json, events: Sequence[Event], names: Names, who: str) -> str:
    roller = _roller(events, names, who)
    if action.get("extra"):
        return f"An extra chaos {'card' if _deck(names) else 'roll'} for {roller}"
    if action.get("table"):
        return f"{roller} rolls on {names.table(str(action['table']))}"  # offered, or named
    if _deck(names):
        return f"{roller} draws a chaos card"
    return f"{roller} rolls chaos"


def _decline(action: Json, events: Sequence[Event], names: Names, who: str) -> str:
    table = action.get("table")
    on = f" on {names.table(str(table))}" if table else ""
    return f"{who} declines the roll{on}"


def _turn(action: Json, events: Sequence[Event], names: Names, who: str) -> str:
    ended = _of(events, "game_ended")
    if ended is not None:
        return _end(action, events, names, who)
    turn = _of(events, "turn_started")
    if turn is None:
        return f"{who} ends the turn"
    extra = " (extra turn)" if turn["extra"] else ""
    return f"Turn {turn['turn']} — {names.player(turn['player'])}{extra}"


def _target(action: Json, names: Names, who: str) -> str:
    player = action.get("player")
    return names.player(str(player)) if player else who


def _life(action: Json, events: Sequence[Event], names: Names, who: str) -> str:
    target, amount = _target(action, names, who), action.get("amount", 0)
    match action.get("mode"):
        case "gain":
            return f"{target} gains {amount} life"
        case "lose":
            return f"{target} loses {amount} life"
        case _:
            return f"{target} is at {amount} life"


def _choose(action: Json, events: Sequence[Event], names: Names, who: str) -> str:
    made = _of(events, "choice_made")
    option = str(action.get("option", ""))
    picked = names.options.get(made["option"] if made else option, option)
    chooser = names.player(made["player"]) if made else who
    return f"{chooser} chooses {picked}"


def _effect_end(action: Json, events: Sequence[Event], names: Names, who: str) -> str:
    # The action names the effect as it was typed: by its number (E2), or, in older logs, by
    # the engine's id. The event says which effect it was, so the title names it as the body.
    ended = _of(events, "effect_ended")
    if ended is not None:
        return f"{names.effect(ended['id'])} ends"
    return f"{effect_ref(int(action.get('effect', 0)))} ends"


def _middle_add(action: Json, events: Sequence[Event], names: Names, who: str) -> str:
    added = _of(events, "middle_added")
    if added is None:
        return f"{who} adds {action.get('card')} to the middle"
    return f"{names.middle_card(added['card'], added['name'])} goes into the middle"


def _middle_play(action: Json, events: Sequence[Event], names: Names, who: str) -> str:
    played = _of(events, "middle_played")  # as `effects end`: the event says which card
    if played is not None:
        return f"{who} plays {names.middle_card(played['card'])}"
    return f"{who} plays {middle_ref(int(action.get('card', 0)))}"


def _veto(action: Json, events: Sequence[Event], names: Names, who: str) -> str:
    vetoed = _of(events, "vetoed")
    if vetoed is not None:  # the vote that made the majority: the roll made again is the title
        return f"{names.item(vetoed['item'])} is vetoed — {_roller(events, names, who)} rolls again"
    vote = _of(events, "veto_vote")
    if vote is None:
        return f"{who} votes to veto the result"
    return f"{who} votes to veto {names.item(vote['item'])} ({vote['votes']} of {vote['needed']})"


def _undo(action: Json, events: Sequence[Event], names: Names, who: str) -> str:
    return f"{who} takes back the last action"


Say = Callable[[Json, Sequence[Event], Names, str], str]

# One for every action the log can hold ("game start" is logged though no player types it).
# A test checks every action has its words, and that none reads as a command.
_SAY: dict[str, Say] = {
    "game start": _start,
    "game join": lambda action, events, names, who: f"{who} joined",
    "game leave": _leave,
    "game begin": _begin,
    "game end": _end,
    "chaos roll": _roll,
    "chaos decline": _decline,
    "chaos reveal": lambda a, e, names, who: f"{_roller(e, names, who)} reveals the chaos card",
    "chaos counter": lambda action, events, names, who: f"{who} plays a CounterRoll",
    "chaos fork": lambda action, events, names, who: f"{who} copies the roll with a RollFork",
    "chaos spite": lambda a, e, names, who: f"{_target(a, names, who)} gets a spite",
    "chaos global": lambda action, events, names, who: f"{who} rolls a new Global",
    "chaos choose": _choose,
    "chaos veto": _veto,
    "chaos undo": _undo,
    "turn next": _turn,
    "turn extra": lambda a, e, names, who: f"{_target(a, names, who)} gets an extra turn",
    "turn skip": lambda a, e, names, who: f"{_target(a, names, who)} skips their next turn",
    "turn reverse": lambda action, events, names, who: "Play changes direction",
    "turn seats": lambda action, events, names, who: "New seating",
    "effects end": _effect_end,
    "middle add": _middle_add,
    "middle play": _middle_play,
    "life": _life,
    "player away": lambda a, e, names, who: f"{_target(a, names, who)} steps away",
    "player back": lambda a, e, names, who: f"{_target(a, names, who)} is back",
}

ANNOUNCED = frozenset(_SAY)  # the actions that have words of their own

Told = Callable[[Sequence[Event], Names], list[str]]


def _line_of(kind: str, wanted: Callable[[Any], bool] = lambda e: True) -> Told:
    """The line of the action's last event of a kind, if it is the one `wanted`."""

    def told(events: Sequence[Event], names: Names) -> list[str]:
        event = _of(events, kind)
        line = event_line(event, names) if event is not None and wanted(event) else None
        return [] if line is None else [line]

    return told


def _revealed(events: Sequence[Event], names: Names) -> list[str]:
    """The card's own line, "A card from the Chaos deck": the card is the title, and "Ann
    reveals the chaos card" above it says where it came from."""
    top = next((e for e in events if e["type"] == "roll" and e["parent"] is None), None)
    return [] if top is None else render_lines([top], names, titled=top["id"])[:1]


# What an action's words tell in full, for the actions whose lines include one that says
# nothing more than the title ("Bob joins the game." under "Bob joined"): the body leaves it
# out. Other actions' lines add something: who ended an effect, a life total, the new seating.
_TOLD: dict[str, Told] = {
    "game join": _line_of("player_joined"),
    "game leave": _line_of("player_left"),  # from the lobby; a concession's lines say more
    "turn next": _line_of("turn_started"),  # the last turn started is the title's
    "turn skip": _line_of("turn_order", lambda e: e["change"] == "skip"),
    "chaos reveal": _revealed,
    "middle play": _line_of("middle_played"),
    "player back": _line_of("player_back"),
}
