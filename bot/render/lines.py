"""One event, one line: the words for every event that isn't a roll (rolls are drawn as trees
in :mod:`bot.render.events`). Events that only keep the books print nothing.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from bot.engine import events as ev
from bot.engine.events import Event, Json
from bot.engine.house import HouseRuleError, HouseRules
from bot.engine.model import CHAOS_ROLL, ChaosSource
from bot.render.choices import option_texts
from bot.render.ids import EFFECT, MIDDLE
from bot.render.names import Names
from bot.render.votes import vetoed_line, vote_line

WIDTH = 100

TOKENS = {"counter_roll": "CounterRoll", "roll_fork": "RollFork"}
_LASTS = {
    "end_of_turn": "until end of turn",
    "permanent": "for the rest of the game",
    "until_removed": "until removed",
}
_SPITE = {
    "life_gain_roll": "one roll on {table}, where only a result that gains life counts",
    "spite_table": "a roll on {table}",
    "deck_look": "a look at the top of {table}, to play one card face up",
}
_CHOICE = {
    "keep": "{who} keeps one of these rolls",
    "half": "{who} picks a half of the split card",
    "spite": "{who} picks a card to play face up",
}
_SKIPPED = {
    "skip": "skips this turn",
    "away": "is away: their turn is passed over",
    "extra": "isn't at the table: their extra turn is lost",
}


def wrap(text: str, indent: str, width: int = WIDTH) -> list[str]:
    """Text from a table, wrapped to `width` with every line under `indent`."""
    return list(_wrapped(text, indent, width))


# Wrapping is the dearest part of drawing an answer or a board (textwrap splits and measures
# every word), and the texts are a table's entries and effects: the same few, again and again.
@lru_cache(maxsize=2048)
def _wrapped(text: str, indent: str, width: int) -> tuple[str, ...]:
    lines = textwrap.wrap(
        text, width, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False
    )
    return tuple(lines) or (indent,)


def lasts(kind: str, turns: int, owner: str | None, names: Names) -> str:
    """How long an effect lasts, in words."""
    if kind == "next_turn":
        return f"until {names.player(owner)}'s next turn" if owner else "until the next turn"
    if kind == "turns":
        return f"for {turns} turn{'s' * (turns != 1)}"
    return _LASTS.get(kind, kind.replace("_", " "))


_QUIET_ARGS = frozenset(
    {"actor", "referee", "name", "host_name", "mode", "tables", "dice", "by_number"}
)
_NAMED_ARGS = frozenset({"seed", "salt", "life", "turns"})


def describe_action(action: Json, names: Names) -> str:
    """An action as typed, with names for ids: ``life lose Bob 3``."""
    args = []
    for key, value in action.items():
        if key in _QUIET_ARGS or value in (None, False, "", [], ()):
            continue
        if isinstance(value, (list, tuple)):
            args.append(",".join(names.player(str(v)) for v in value))
        elif isinstance(value, str) and value in names.players:
            args.append(names.player(value))
        elif value is True:
            args.append(key)
        elif key in _NAMED_ARGS:
            args.append(f"{key} {value}")
        elif key in ("effect", "card") and isinstance(value, int):
            args.append(_numbered(action, key, value, names))
        elif key == "option" and isinstance(value, str) and value in names.options:
            # The option the player picked, by name: its id is a roll id or a card id, which
            # nobody typed (they typed its number in the list, or its name).
            args.append(names.options[value])
        else:
            args.append(str(value))
    name = str(action.get("name", "?"))
    if "mode" in action:
        name += f" {action['mode']}"  # life set|gain|lose
    return " ".join([name, *args])


def _numbered(action: Json, key: str, value: int, names: Names) -> str:
    """The effect or middle card an action names, as typed: ``E2``, ``M1``. A log from before
    they were numbered (issue 24) names it by its id: shown by its number all the same."""
    letter, named = (EFFECT, names.effect) if key == "effect" else (MIDDLE, names.middle_card)
    if action.get("by_number"):
        return f"{letter}{value}"
    return named(value, "") or str(value)


def action_line(action: Json, names: Names) -> str:
    """An action as the log shows it: ``» Ann: life lose Bob 3``."""
    return f"» {names.player(str(action.get('actor')))}: {describe_action(action, names)}"


def event_line(event: Event, names: Names) -> str | None:
    """One event as text (a choice lists its options on further lines); None when it prints
    nothing."""
    text = _TEXT.get(event["type"])
    return None if text is None else text(event, names)


def _game_started(e: ev.GameStarted, names: Names) -> str:
    # A front end may leave the seed out while the game goes on (see bot/client/embeds.py).
    about = [f"seed {seed}"] if (seed := e.get("seed")) is not None else []
    about += [f"{e['life']} life"] if e["life"] is not None else []
    try:
        house = HouseRules.from_json(e.get("house")).summary()
    except HouseRuleError:  # a damaged log: verify says so; here it is simply not shown
        house = []
    about += [f"house rules: {', '.join(house)}"] if house else []
    details = f" ({', '.join(about)})" if about else ""
    opens = f"{e['name']} opens a {e['ruleset']} game{details}."
    if "commitment" not in e:  # logged before games committed to their seed
        return opens
    return f"{opens}\n{commitment_line(e['commitment'])}"


def commitment_line(commitment: str) -> str:
    """The commitment to the seed, as the start message and the board show it."""
    return f"Seed commitment (SHA-256): {commitment}"


def _revealed(e: ev.SeedRevealed, names: Names) -> str:
    if e["commitment"] is None:
        return f"The seed was {e['seed']}."
    return (
        f"The seed was {e['seed']}, the salt {e['salt']}: the commitment made at the start was"
        " over these two. Export the log and check every roll with `game verify`."
    )


def _begun(e: ev.GameBegun, names: Names) -> str:
    return f"Seats are locked: {', '.join(names.player(p) for p in e['order'])}."


def _turn(e: ev.TurnStarted, names: Names) -> str:
    extra = " (extra turn)" if e["extra"] else ""
    return f"── Turn {e['turn']} — {names.player(e['player'])}{extra} ──"


def _turn_order(e: ev.TurnOrderChanged, names: Names) -> str:
    who = names.player(e["player"])
    if e["change"] == "extra":
        return f"↻ {who} takes an extra turn after this one."
    if e["change"] == "skip":
        return f"↷ {who} skips their next turn."
    if e["change"] == "cancel_extra":
        return f"✕ {who}'s extra turn is taken back."
    if e["change"] == "cancel_skip":
        return f"✕ {who}'s skip is taken back: they play their next turn."
    seats = [names.player(p) for p in e["order"]]
    if e["direction"] < 0:
        seats.reverse()
    if e["change"] == "reverse":
        return f"⇄ play changes direction: {' → '.join(seats)}."
    return f"New seating: {' → '.join(seats)}."


def _deck(names: Names) -> bool:
    """Whether the game draws its chaos from a deck: a card is drawn there, not rolled."""
    return names.ruleset is not None and names.ruleset.chaos is ChaosSource.DECK


def _chaos(names: Names) -> str:
    return "chaos card" if _deck(names) else "chaos roll"


def _waived(e: ev.RollRequirementWaived, names: Names) -> str:
    by = names.player(e["by"])
    return f"Turn {e['turn']} ends without its {_chaos(names)} (waived by {by})."


def _effect_started(e: ev.EffectStarted, names: Names) -> str:
    if e["kind"] == "world":
        return f"+ {names.effect(e['id'], e['name'])} stays in play as a world enchantment."
    if e["kind"] == "global":
        return f"+ {names.effect(e['id'], e['name'])} stays in play as the Global."
    how = lasts(e["lasts"], e["turns"], e["owner"], names)
    whose = f", {names.player(e['owner'])}'s" if e["owner"] else ""
    return f"+ {names.effect(e['id'], e['name'])} (effect{whose}) lasts {how}."


def _effect_ended(e: ev.EffectEnded, names: Names) -> str:
    return f"− {names.effect(e['id'])} ends: {e['reason']}."


def _tokens(e: ev.TokensChanged, names: Names) -> str:
    token = TOKENS.get(e["token"], e["token"])
    who = names.player(e["player"])
    size = abs(e["delta"])
    count = f"{size} {token}s" if size > 1 else f"a {token}"
    if e["delta"] > 0:
        return f"+ {who} gets {count}."
    if e["reason"].startswith("spent"):
        return f"− {who} spends {count}."
    return f"− {who} loses {count} ({e['reason']})."


def _list_changed(e: ev.ListChanged, names: Names) -> str:
    if e["forced"] is not None:
        return f"→ the next chaos roll goes to {names.table(e['forced'])} ({e['reason']})."
    return f"→ the current list is {names.table(e['current'])} ({e['reason']})."


def offered(tables: list[str] | tuple[str, ...], names: Names) -> str:
    """The lists of an offer in words: ``Vortex`` or ``one of Mild Creature or Strong Creature``."""
    called = [names.table(t) for t in tables]
    if len(called) == 1:
        return called[0]
    return f"one of {', '.join(called[:-1])} or {called[-1]}"


def _offer_made(e: ev.OfferMade, names: Names) -> str:
    commands = [f"`chaos roll {t}`" for t in e["tables"]]
    how = commands[0] if len(commands) == 1 else f"{', '.join(commands[:-1])} or {commands[-1]}"
    who = names.player(e["player"])
    return f"? {who} may roll on {offered(e['tables'], names)} (offered by {e['name']}): {how}."


def _offer_taken(e: ev.OfferTaken, names: Names) -> str:
    others = f"; {offered(e['withdrawn'], names)} is withdrawn" if e["withdrawn"] else ""
    return f"{names.player(e['by'])} takes the offered roll on {names.table(e['table'])}{others}."


def _offer_lapsed(e: ev.OfferLapsed, names: Names) -> str:
    what = names.offers.get(e["id"])
    on = f" on {offered(what, names)}" if what else ""
    return f"− the offered roll{on} lapses: {e['reason']}."


def _offer_declined(e: ev.OfferDeclined, names: Names) -> str:
    what = names.offers.get(e["id"])
    on = f" on {offered(what, names)}" if what else ""
    return f"{names.player(e['by'])} declines the offered roll{on}."


def _paused(e: ev.RollPaused, names: Names) -> str:
    pending = e["context"].get("pending") or []
    task = pending[-1] if pending else {}
    slot = f" {task['slot']}" if task.get("slot") else ""
    table = str(task.get("table", ""))
    where = "chaos" if table == CHAOS_ROLL else names.table(table)
    lists = [t for roll in e["waits"] for t in names.offered_by.get(roll, ())]
    take = f"`chaos roll {lists[0]}`" if lists else "`chaos roll LIST`"
    decline = f"`chaos decline {lists[0]}`" if lists else "`chaos decline`"
    return (
        f"‖ {names.item(e['item'])} waits before its roll{slot} on {where}: the offered roll"
        f" comes first, taken ({take}) or declined ({decline})."
    )


def _resumed(e: ev.RollResumed, names: Names) -> str:
    if e["dropped"]:
        return f"− {names.item(e['paused'])} makes no more rolls: {e['reason']}."
    return f"→ {names.item(e['paused'])} goes on with its next roll."


def _stack(e: ev.StackPushed, names: Names) -> str | None:
    who, target = names.player(e["player"]), names.item(e["target"])
    if e["kind"] == "counter":
        return f"{who} plays a CounterRoll on {target}."
    if e["kind"] == "fork":
        return f"{who} copies {target} with a RollFork:"
    if e.get("purpose") == "extra":
        if _deck(names):
            return f"An extra chaos card for {who} (it isn't the turn's chaos card):"
        return f"An extra roll for {who} (it isn't the turn's chaos roll):"
    return None  # a roll: the roll event itself says it all


def _countered(e: ev.StackCountered, names: Names) -> str | None:
    if e["by"] == e["item"]:
        return None  # a veto took it back, and its line said so (bot.render.votes)
    return f"{names.item(e['item'])} {'is countered' if e['countered'] else 'stands again'}."


def _drawn(e: ev.CardDrawn, names: Names) -> str | None:
    if not e["face_down"] or e["player"] is None:
        return None  # a Global or a spite look: the roll or the choice that follows shows it
    return (
        f"{names.player(e['player'])} draws a chaos card face down;"
        " `chaos reveal` turns it up once everyone has passed."
    )


def _to_bottom(e: ev.CardsToBottom, names: Names) -> str:
    count = len(e["cards"])
    return f"{count} card{'s' * (count != 1)} go to the bottom of the {names.table(e['deck'])}."


def _shuffled(e: ev.DeckShuffled, names: Names) -> str:
    how = "reshuffled from its discard pile" if e["reshuffle"] else "shuffled"
    return f"The {names.table(e['deck'])} is {how} ({len(e['order'])} cards)."


def _offered(e: ev.ChoiceOffered, names: Names) -> str:
    return "\n".join(choice_lines(e, names))


def choice_lines(e: ev.ChoiceOffered, names: Names, width: int = WIDTH) -> list[str]:
    """A choice: who chooses, then each option numbered, with what it does indented under it
    (wrapped to `width`)."""
    head = _CHOICE.get(e["kind"], "{who} chooses").format(who=names.player(e["player"]))
    if question := e["context"].get("question"):  # a spite asks what the table can't know
        head = f"{question} ({names.player(e['player'])} answers)"
    if not e["options"]:  # a front end that shows the options to the chooser alone
        return [f"? {head}: the choices are shown to them only."]
    choices = [(o["id"], o["name"]) for o in e["options"]]
    texts = option_texts(e["kind"], choices, e["context"], names.ruleset)
    lines = [f"? {head} — `chaos choose N`:"]
    for n, ((_, name), text) in enumerate(zip(choices, texts, strict=True), 1):
        lines.append(f"   {n}) {name}")
        if text:
            lines += wrap(text, "      ", width)
    return lines


def _chosen(e: ev.ChoiceMade, names: Names) -> str:
    option = names.options.get(e["option"], e["option"])
    return f"{names.player(e['player'])} chooses {option}."


def _life(e: ev.LifeChanged, names: Names) -> str:
    change = f"{e['delta']:+d}" if e["delta"] else "±0"
    thrown = e.get("dice")
    dice = f"; {thrown['expr']} {thrown['faces']}" if thrown is not None else ""
    return f"{names.player(e['player'])}: {e['life']} life ({change}, {e['reason']}{dice})."


def _life_unsure(e: ev.LifeUnsure, names: Names) -> str:
    who = names.player(e["player"])
    if e["unsure"]:
        return f"{who}'s life is unsure now ({e['reason']}): `life set {who} N` once you know it."
    return f"{who}'s life is sure again ({e['reason']})."


def _spite_started(e: ev.SpiteStarted, names: Names) -> str:
    ruleset = names.ruleset
    where = "the spite list"
    if ruleset is not None:
        deck = e["policy"] == "deck_look"
        table = ruleset.chaos_table if deck else ruleset.spite_table
        name, kind = names.table(table), "deck" if deck else "list"
        # "the Chaos List" and "the Chaos deck", but "the Spite list"
        where = f"the {name}" if name.casefold().endswith(kind) else f"the {name} {kind}"
    spite = _SPITE.get(e["policy"], e["policy"]).format(table=where)
    return f"{names.player(e['player'])} would lose, and gets a spite: {spite}."


def _spite_ended(e: ev.SpiteEnded, names: Names) -> str:
    end = "survives the spite" if e["survived"] else "has had their spite"
    return f"{names.player(e['player'])} {end}."


def _skipped(e: ev.TurnSkipped, names: Names) -> str:
    who = names.player(e["player"])
    if e.get("extra") and e["why"] == "skip":
        return f"{who} skips their extra turn: it is their next turn."
    if e.get("extra"):
        return f"{who} is away: their extra turn is passed over, and counts as missed."
    return f"{who} {_SKIPPED[e['why']]}."


def _away(e: ev.PlayerAway, names: Names) -> str:
    turns = e["turns"]
    if turns is None:
        span = " until they're back"
    elif turns == 0:
        span = " until their next turn"
    else:
        span = " and misses their next turn" if turns == 1 else f" and misses {turns} turns"
    return f"{names.player(e['player'])} steps away{span}."


def _middle_added(e: ev.MiddleAdded, names: Names) -> str:
    who = names.player(e["player"])
    return f"{names.middle_card(e['card'], e['name'])} goes into the middle ({who})."


def _middle_played(e: ev.MiddlePlayed, names: Names) -> str:
    return f"{names.player(e['player'])} plays {names.middle_card(e['card'])} from the middle."


def _undone(e: ev.ActionUndone, names: Names) -> str:
    action = names.actions.get(e["seq"])
    if action is None:
        return f"Undone: action {e['seq']}."
    return f"Undone: {describe_action(action, names)} (by {names.player(action.get('actor'))})."


def _ended(e: ev.GameEnded, names: Names) -> str:
    winner = f" {names.player(e['winner'])} wins!" if e["winner"] else ""
    return f"Game over: {e['reason']}.{winner}"


# Each takes its own event type; the table is typed loosely because the key picks the type.
_TEXT: dict[str, Callable[[Any, Names], str | None]] = {
    "game_started": _game_started,
    "player_joined": lambda e, names: f"{e['name']} joins the game.",
    "player_left": lambda e, names: f"{names.player(e['player'])} leaves the lobby.",
    "game_begun": _begun,
    "turn_started": _turn,
    "turn_skipped": _skipped,
    "turn_order": _turn_order,
    "roll_waived": _waived,
    "budget_exhausted": lambda e, names: f"! the resolution stopped: {e['message']}.",
    "effect_started": _effect_started,
    "effect_ended": _effect_ended,
    "tokens": _tokens,
    "list_changed": _list_changed,
    "offer_made": _offer_made,
    "offer_taken": _offer_taken,
    "offer_lapsed": _offer_lapsed,
    "offer_declined": _offer_declined,
    "roll_paused": _paused,
    "roll_resumed": _resumed,
    "stack": _stack,
    "countered": _countered,
    "veto_vote": vote_line,
    "vetoed": vetoed_line,
    "card_drawn": _drawn,
    "cards_to_bottom": _to_bottom,
    "deck_shuffled": _shuffled,
    "choice_offered": _offered,
    "choice_made": _chosen,
    "life": _life,
    "life_unsure": _life_unsure,
    "spite_started": _spite_started,
    "spite_ended": _spite_ended,
    "player_out": lambda e, names: f"{names.player(e['player'])} is out: {e['reason']}.",
    "player_away": _away,
    "player_back": lambda e, names: f"{names.player(e['player'])} is back at the table.",
    "middle_added": _middle_added,
    "middle_played": _middle_played,
    "undone": _undone,
    "game_ended": _ended,
    "seed_revealed": _revealed,
}
