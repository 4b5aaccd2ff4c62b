"""The fold that builds a game's state from events.

:func:`apply` is the only code that changes a :class:`GameState`. It never rolls dice and never
decides anything: every decision is already written in the event. That is what lets a game be
rebuilt from its log, undone, and compared after a replay.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from bot.engine.events import (
    EffectStarted,
    Event,
    Json,
    OfferMade,
    RollPaused,
    TurnOrderChanged,
)
from bot.engine.house import VETOABLE, HouseRules
from bot.engine.model import Lasts, PlayerId
from bot.engine.stack import ActiveEffect, StackItem, record_outcome
from bot.engine.state import (
    DeckState,
    GameState,
    MiddleCard,
    PausedRoll,
    Pending,
    PendingOffer,
    Phase,
    Player,
    Status,
)


def apply(state: GameState, event: Event) -> None:
    """Change `state` as `event` says. Pure bookkeeping: no dice, no decisions."""
    match event["type"]:
        case "action":
            state.seq = event["seq"]
            if state.veto_item is not None and not _keeps_vote(state, event["action"]):
                state.veto_item, state.votes = None, ()  # the next action closes the vote
        case "undone":
            pass  # handled by fold(), which leaves the undone action out
        case "dice":
            state.draws[event["purpose"]] = event["n"] + 1
        case "game_started":
            state.ruleset = event["ruleset"]
            state.revision = event["revision"]
            state.seed = event["seed"]
            state.salt = event.get("salt", "")
            state.commitment = event.get("commitment")
            state.dice = event.get("dice", 1)
            state.host = event["host"]
            state.life = event["life"]
            state.house = HouseRules.from_json(event.get("house"))
            state.players[event["host"]] = Player(event["host"], event["name"], life=event["life"])
        case "player_joined":
            state.players[event["player"]] = Player(event["player"], event["name"], life=state.life)
        case "player_left":
            del state.players[event["player"]]
        case "game_begun":
            state.phase = Phase.PLAYING
            state.order = list(event["order"])
        case "turn_started":
            state.turn = event["turn"]
            if state.round_left <= 0:
                state.round += 1
                state.round_left = len(state.seated())
            state.round_left -= 1
            state.current = state.active = event["player"]
            state.extra_turn = event["extra"]
            if event["extra"]:
                state.extra_queue.pop()
            else:
                state.seat = event["player"]
            state.rolled = False
            state.veto_item, state.votes, state.vetoed = None, (), None
            state.draws = {}
            state.stack = []
            state.paused = []  # none outlasts its turn (turn next waits for them): never kept
            state.middle_plays = {}
            state.middle_ready = set(state.middle)
        case "turn_ended":
            # Effects are replaced, never changed in place, so GameState.copy() can share them.
            for effect_id, effect in list(state.effects.items()):
                if effect.lasts is Lasts.TURNS:
                    state.effects[effect_id] = replace(effect, turns_left=effect.turns_left - 1)
            state.active = None
        case "turn_skipped":
            skipped = state.players[event["player"]]
            if event["why"] == "extra" or event.get("extra"):
                state.extra_queue.pop()
            match event["why"]:
                case "away" if skipped.away_turns is not None:
                    skipped.away_turns -= 1
                case "skip":
                    state.skips[skipped.id] -= 1
        case "turn_order":
            state.order = list(event["order"])
            state.direction = event["direction"]
            _change_order(state, event)
            record_outcome(state.stack, event)
        case "roll_waived" | "chaos_done":
            state.rolled = True
        case "roll":
            state.next_id = max(state.next_id, event["id"] + 1)
            if state.house.repeats == "never":
                table, entry = event["table"], event["entry"]["id"]
                came = frozenset() if event.get("fresh") else state.given.get(table, frozenset())
                state.given = {**state.given, table: came | {entry}}
        case "budget_exhausted":
            pass
        case "stack":
            state.next_id = max(state.next_id, event["item"] + 1)
            state.roll_numbers = _numbered(state.roll_numbers, event["item"])
            state.stack.append(
                StackItem(
                    event["item"],
                    event["kind"],
                    event["player"],
                    event["target"],
                    event["table"],
                    event["entry"],
                    list(event["dice"]),
                    event["result"],
                    spite=_spiting(state, event["player"]),
                    purpose=event.get("purpose"),
                )
            )
            # The newest result is the one a vote may veto (the house rule on, none this turn).
            open_to_vote = (
                state.house.veto
                and state.vetoed is None
                and event["kind"] == "roll"
                and event.get("purpose") in VETOABLE
            )
            state.veto_item = event["item"] if open_to_vote else None
            state.votes = ()
        case "veto_vote":
            state.votes = (*state.votes, event["player"])
        case "vetoed":
            state.vetoed = event["item"]
            state.veto_item, state.votes = None, ()
        case "countered":
            countered = state.writable_item(event["item"])
            countered.live = not event["countered"]
            # What follows is recorded afresh: what the counter takes back, or (when the
            # counter is countered) what the item does again.
            if event["countered"]:
                countered.undone = []
            else:
                countered.outcomes = []
        case "effect_started":
            state.next_id = max(state.next_id, event["id"] + 1)
            state.effect_numbers = _numbered(
                state.effect_numbers, event["id"], _brought_back(state, event)
            )
            state.effects[event["id"]] = ActiveEffect(
                id=event["id"],
                name=event["name"],
                text=event["text"],
                kind=event["kind"],
                owner=event["owner"],
                lasts=Lasts(event["lasts"]),
                turns_left=event["turns"],
                source=event["source"],
                started_turn=state.turn,
                card=event.get("card"),
                deck=event.get("deck"),
                number=state.effect_numbers[event["id"]],
            )
            record_outcome(state.stack, event)
        case "effect_ended":
            ended = state.effects.pop(event["id"], None)
            record_outcome(state.stack, event, effect=ended)
            if state.vetoed is not None and event.get("undoes") == state.vetoed:
                # A vetoed result is voted away as if it hadn't come up: an effect it brought
                # into play leaves its number to the next to come in, the roll made again's
                # first (see GameState.effect_numbers).
                state.effect_numbers = {
                    k: v for k, v in state.effect_numbers.items() if k != event["id"]
                }
        case "tokens":
            tokens = state.players[event["player"]].tokens
            tokens[event["token"]] = tokens.get(event["token"], 0) + event["delta"]
            record_outcome(state.stack, event)
        case "list_changed":
            state.current_list = event["current"]
            state.forced_list = event["forced"]
            record_outcome(state.stack, event)
        case "offer_made":
            state.next_id = max(state.next_id, event["id"] + 1)
            state.offers[event["id"]] = PendingOffer(
                event["id"], event["player"], tuple(event["tables"]), event["source"], event["name"]
            )
            record_outcome(state.stack, event)
        case "offer_taken" | "offer_declined":
            state.offers.pop(event["id"], None)
        case "roll_paused":
            state.paused.append(
                PausedRoll(
                    event["item"],
                    event["player"],
                    tuple(event["waits"]),
                    dict(event["context"]),
                )
            )
            record_outcome(state.stack, event)
        case "roll_resumed":
            stopped = next((p for p in state.paused if p.item == event["paused"]), None)
            if stopped is not None:
                state.paused.remove(stopped)
                # A counter dropped it: remember it, so countering that counter brings it back.
                again: RollPaused = {
                    "type": "roll_paused",
                    "item": stopped.item,
                    "player": stopped.player,
                    "waits": list(stopped.waits),
                    "context": dict(stopped.context),
                }
                record_outcome(state.stack, event, paused=again)
        case "offer_lapsed":
            gone = state.offers.pop(event["id"], None)
            if gone is not None:
                # A counter withdrew it: remember it, so countering that counter brings it back.
                made: OfferMade = {
                    "type": "offer_made",
                    "id": gone.id,
                    "player": gone.player,
                    "tables": list(gone.tables),
                    "source": gone.source,
                    "name": gone.name,
                }
                record_outcome(state.stack, event, offer=made)
        case "card_drawn":
            deck = state.decks[event["deck"]]
            deck.draw.remove(event["card"])
            if event["face_down"] and event["player"] is not None:
                purpose = event.get("purpose", "turn")
                state.face_down = (event["deck"], event["card"], event["player"], purpose)
            elif event["player"] is not None:
                deck.looking.append(event["card"])
        case "card_revealed":
            looking = state.decks[event["deck"]].looking
            if event["card"] in looking:
                looking.remove(event["card"])  # picked from a spite look
            else:
                state.face_down = None  # the turn's face-down card (a spite leaves it alone)
        case "cards_to_bottom":
            deck = state.decks[event["deck"]]
            for card in event["cards"]:
                deck.looking.remove(card)
            deck.draw.extend(event["cards"])
        case "card_discarded":
            state.decks[event["deck"]].discard.append(event["card"])
        case "deck_shuffled":
            state.decks[event["deck"]] = DeckState(
                draw=list(event["order"]), looking=_looking(state, event["deck"])
            )
        case "choice_offered":
            state.pending = Pending(
                event["player"],
                event["kind"],
                [(o["id"], o["name"]) for o in event["options"]],
                dict(event["context"]),
            )
        case "choice_made":
            state.pending = None
        case "life":
            state.players[event["player"]].life = event["life"]
            record_outcome(state.stack, event)
        case "life_unsure":
            state.players[event["player"]].unsure = event["unsure"]
            record_outcome(state.stack, event)
        case "spite_started":
            player = state.players[event["player"]]
            player.spiting = True
            player.spited = True
        case "spite_ended":
            state.players[event["player"]].spiting = False
        case "player_out":
            state.players[event["player"]].status = Status.OUT
            if state.active == event["player"]:
                state.active = None
        case "player_away":
            player = state.players[event["player"]]
            record_outcome(state.stack, event, active=state.active == player.id)
            player.status = Status.AWAY
            player.away_turns = event["turns"]
            if state.active == event["player"]:
                state.active = None
        case "player_back":
            player = state.players[event["player"]]
            record_outcome(state.stack, event, away=player.away_turns)
            player.status = Status.PLAYING
            player.away_turns = None
            if event.get("active"):
                state.active = player.id
        case "middle_added":
            state.next_id = max(state.next_id, event["card"] + 1)
            state.middle_numbers = _numbered(state.middle_numbers, event["card"])
            state.middle[event["card"]] = MiddleCard(
                event["card"],
                event["name"],
                event["player"],
                event["turn"],
                number=state.middle_numbers[event["card"]],
            )
        case "middle_played":
            del state.middle[event["card"]]
            state.middle_ready.discard(event["card"])
            state.middle_plays[event["player"]] = state.middle_plays.get(event["player"], 0) + 1
        case "game_ended":
            state.phase = Phase.ENDED
            state.winner = event["winner"]
            state.active = None
        case "seed_revealed":
            pass  # the seed was in the log from the start; now front ends may show it


def fold(events: Iterable[Event]) -> GameState:
    """Build a game's state from its whole log, leaving out the actions that were undone."""
    events = list(events)
    undone = {e["seq"] for e in events if e["type"] == "undone"}
    state = GameState()
    skipping = False
    for event in events:
        if event["type"] == "action":
            skipping = event["seq"] in undone
        if not skipping:
            apply(state, event)
    return state


def _keeps_vote(state: GameState, action: Json) -> bool:
    """A vote leaves the vote open, and so does an undo (the vote stands as it stood before the
    action undone) and picking the roll to keep of the very result voted on ("roll N, keep
    one"): the result is shown whole only once it is picked."""
    if action.get("name") in ("chaos veto", "chaos undo"):
        return True
    pending = state.pending
    return (
        action.get("name") == "chaos choose"
        and pending is not None
        and pending.kind == "keep"
        and pending.context.get("item") == state.veto_item
    )


def _numbered(numbers: dict[int, int], thing: int, number: int | None = None) -> dict[int, int]:
    """`numbers` with `thing` numbered `number`, else the next number, unless it has one."""
    if thing in numbers:
        return numbers
    return {**numbers, thing: number or max(numbers.values(), default=0) + 1}


def _brought_back(state: GameState, event: EffectStarted) -> int | None:
    """The number of the effect `event` brings back, if it does: a counter takes back what an
    item ended (a Global it replaced), or a counter of that counter what the counter ended, and
    the effect comes back under a new id (bot.engine.undo). To players it is the same effect,
    so it keeps its number: the one the item's outcomes remember, of an effect that has this
    name and source and whose number isn't in play."""
    marked = event.get("undoes", event.get("item"))
    item = next((i for i in state.stack if i.id == marked), None)
    if item is None:
        return None
    in_play = {effect.number for effect in state.effects.values()}
    for outcome in reversed([*item.outcomes, *item.undone]):
        ended = outcome.effect
        if (
            outcome.event["type"] == "effect_ended"
            and ended is not None
            and (ended.name, ended.source) == (event["name"], event["source"])
            and ended.number not in in_play
        ):
            return ended.number
    return None


def _spiting(state: GameState, player: PlayerId) -> bool:
    seated = state.players.get(player)
    return seated is not None and seated.spiting


def _change_order(state: GameState, event: TurnOrderChanged) -> None:
    """Queue or take back an extra turn or a skip (a reversal or new seating changed the order)."""
    player = event["player"]
    if player is None:
        return
    match event["change"]:
        case "extra":
            state.extra_queue.append(player)
        case "cancel_extra":
            # The most recently queued one, the last to be taken.
            at = len(state.extra_queue) - 1 - state.extra_queue[::-1].index(player)
            del state.extra_queue[at]
        case "skip":
            state.skips[player] = state.skips.get(player, 0) + 1
        case "cancel_skip":
            state.skips[player] -= 1


def _looking(state: GameState, deck: str) -> list[str]:
    old = state.decks.get(deck)
    return list(old.looking) if old else []
