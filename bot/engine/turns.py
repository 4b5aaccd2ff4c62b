"""Seats and turns: beginning, passing the turn, extra and skipped turns, reversal, absences.

Turn order walks the seats in the current direction from the seat whose turn just ended. Players
who are out or away are passed over (their neighbours become adjacent); a queued skip passes a
player over once; extra turns are taken before the order moves on, the newest first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, cast

from bot.engine import actions as act
from bot.engine.context import Context, require
from bot.engine.errors import GameAlreadyStartedError, RollRequiredError, RulesError
from bot.engine.events import EffectEnded, TurnOrderChanged, TurnSkipped
from bot.engine.model import ChaosSource, Lasts, PlayerId
from bot.engine.offers import lapse_offers, unfinished, withdraw_offer
from bot.engine.state import GameState, Phase, Status

# A table has at most this many seats: enough for any Chaos Magic pod, and few enough that the
# lobby's board fits in one Discord message (tests/client measures it with long names).
MAX_SEATS = 16


def join(ctx: Context, action: act.Join) -> None:
    if ctx.state.phase is not Phase.LOBBY:
        raise GameAlreadyStartedError("seats are locked: this game has already begun")
    require(action.actor not in ctx.state.players, "you're already in this game")
    require(
        len(ctx.state.players) < MAX_SEATS,
        f"this game is full: a table has at most {MAX_SEATS} seats",
    )
    require(bool(action.player_name.strip()), "a player needs a name")
    ctx.emit({"type": "player_joined", "player": action.actor, "name": action.player_name})


def leave(ctx: Context, action: act.Leave) -> None:
    player = ctx.player(action.actor)
    if ctx.state.phase is Phase.LOBBY:
        require(player.id != ctx.state.host, "the host can't leave the lobby: end the game instead")
        ctx.emit({"type": "player_left", "player": player.id})
        return
    ctx.require_playing()
    ctx.require_no_choice()  # a spite in progress, say: leaving would leave it half done
    require(player.status is not Status.OUT, "you're already out of this game")
    knock_out(ctx, player.id, "left the game")


def begin(ctx: Context, action: act.Begin) -> None:
    if ctx.state.phase is not Phase.LOBBY:
        raise GameAlreadyStartedError("this game has already begun")
    order = list(action.order) or list(ctx.state.players)
    if sorted(order) != sorted(ctx.state.players):
        names = ", ".join(ctx.name(p) for p in ctx.state.players)
        raise RulesError(f"the seating must name every player once: {names}")
    require(len(order) >= 1, "nobody has joined")
    ctx.emit({"type": "game_begun", "order": order})


def start_turn(ctx: Context, player: PlayerId, *, extra: bool) -> None:
    """Start `player`'s turn and end the effects that last until it."""
    ctx.emit({"type": "turn_started", "turn": ctx.state.turn + 1, "player": player, "extra": extra})
    for effect in list(ctx.state.effects.values()):
        if effect.lasts is Lasts.NEXT_TURN and effect.owner == player:
            end_effect(ctx, effect.id, f"{ctx.name(player)}'s next turn began")


def next_turn(ctx: Context, action: act.NextTurn) -> None:
    ctx.require_playing()
    ctx.require_no_choice()
    require(
        ctx.state.face_down is None,
        "the face-down chaos card must be revealed first (`chaos reveal`)",
    )
    waiting = unfinished(ctx)
    if waiting is not None:
        # docs/engine.md: the later rolls of a multi-roll are mandatory; the offer is the
        # player's. Neither is decided for them by ending the turn.
        raise RulesError(f"the turn can't end yet: {waiting}")
    state = ctx.state
    if not state.rolled and state.active is not None and not state.chaos_waits():
        if not action.override:
            raise RollRequiredError(_roll_required(ctx, state.active))
        ctx.emit({"type": "roll_waived", "turn": state.turn, "by": action.actor})
    end_turn(ctx)
    start_turn(ctx, following(ctx), extra=bool(state.extra_queue))


def _roll_required(ctx: Context, player: PlayerId) -> str:
    """Why the turn can't end yet, in the ruleset's words: a deck's chaos is a card drawn."""
    waive = "(a referee may end the turn without it: `turn next override`)"
    if ctx.ruleset.chaos is ChaosSource.DECK:
        return (
            f"{ctx.name(player)} hasn't drawn this turn's chaos card yet: draw it first with"
            f" `chaos roll` {waive}"
        )
    return f"{ctx.name(player)} hasn't made this turn's chaos roll yet: `chaos roll` first {waive}"


def end_turn(ctx: Context) -> None:
    state = ctx.state
    assert state.current is not None  # a game in play always has a turn owner
    lapse_offers(ctx, "the turn ended")
    ctx.emit({"type": "turn_ended", "turn": state.turn, "player": state.current})
    for effect in list(state.effects.values()):
        if effect.lasts is Lasts.END_OF_TURN:
            end_effect(ctx, effect.id, "the turn ended")
        elif effect.lasts is Lasts.TURNS and effect.turns_left <= 0:
            end_effect(ctx, effect.id, "its turns ran out")


def following(ctx: Context) -> PlayerId:
    """Who takes the next turn; the players passed over on the way are logged.

    A skip or an absence falls on the player's next turn, whichever it is: an extra turn of
    theirs is passed over (and used up) just as their seat is, and counts as a turn missed.
    """
    state = ctx.state
    while state.extra_queue:
        player = state.players[state.extra_queue[-1]]
        if _passed_over(ctx, player.id, extra=True):
            continue
        if player.status is not Status.PLAYING:
            ctx.emit({"type": "turn_skipped", "player": player.id, "why": "extra"})
            continue
        return player.id
    seats = state.order
    # After extra turns, play goes on from the seat whose regular turn came last.
    start = seats.index(state.seat) if state.seat in seats else -1
    # Each lap either finds someone or uses up a skip or a missed turn, so this ends.
    misses = sum(p.away_turns or 0 for p in state.players.values())
    for _ in range(len(seats) * (1 + sum(state.skips.values()) + misses) + 1):
        start = (start + state.direction) % len(seats)
        candidate = state.players[seats[start]]
        if _passed_over(ctx, candidate.id, extra=False):
            continue
        if candidate.status is not Status.PLAYING:
            continue
        return candidate.id
    raise RulesError(
        "nobody can take the next turn: everyone left is away (`player back` brings a player back)"
    )


def nobody_can_play(state: GameState) -> bool:
    """Whether no next turn can start: nobody is at the table, and every player who is away
    stays away until `player back` (a counted absence ends by itself)."""
    players = state.players.values()
    return all(p.status is not Status.PLAYING for p in players) and not any(
        p.status is Status.AWAY and p.away_turns is not None for p in players
    )


def _passed_over(ctx: Context, player_id: PlayerId, *, extra: bool) -> bool:
    """Bring back a player whose absence is over; log and use up a missed or skipped turn.

    True when `player_id`'s turn (an extra one if `extra`) is passed over for one of those.
    """
    player = ctx.state.players[player_id]
    why: Literal["away", "skip"] | None = None
    if player.status is Status.AWAY and player.away_turns is not None:
        if player.away_turns == 0:
            ctx.emit({"type": "player_back", "player": player.id})
        else:
            why = "away"
    if player.status is Status.PLAYING and ctx.state.skips.get(player.id, 0) > 0:
        why = "skip"
    if why is None:
        return False
    skipped: TurnSkipped = {"type": "turn_skipped", "player": player.id, "why": why}
    if extra:
        skipped["extra"] = True
    ctx.emit(skipped)
    return True


def extra_turn(ctx: Context, action: act.ExtraTurn) -> None:
    ctx.require_playing()
    change_order(ctx, "extra", _still_in(ctx, action.player))


def skip_turn(ctx: Context, action: act.SkipTurn) -> None:
    ctx.require_playing()
    change_order(ctx, "skip", _still_in(ctx, action.player))


def _still_in(ctx: Context, player_id: PlayerId | None) -> PlayerId:
    player = ctx.player(player_id)
    require(player.status is not Status.OUT, f"{player.name} is out of the game: no more turns")
    return player.id


def reverse(ctx: Context, action: act.Reverse) -> None:
    ctx.require_playing()
    change_order(ctx, "reverse", None)


def seats(ctx: Context, action: act.Seats) -> None:
    ctx.require_playing()
    if sorted(action.order) != sorted(ctx.state.order):
        raise RulesError(
            "the new seating must name every player once: "
            + ", ".join(ctx.name(p) for p in ctx.state.order)
        )
    ctx.emit(
        {
            "type": "turn_order",
            "change": "seats",
            "player": None,
            "order": list(action.order),
            "direction": ctx.state.direction,
        }
    )


def change_order(
    ctx: Context,
    change: Literal["reverse", "extra", "skip"],
    player: PlayerId | None,
    item: int | None = None,
) -> None:
    """Queue an extra turn or a skip for `player`, or reverse the direction of play.

    `item` is the stack item whose result made the change, so a counter can take it back.
    """
    direction = -ctx.state.direction if change == "reverse" else ctx.state.direction
    changed: TurnOrderChanged = {
        "type": "turn_order",
        "change": change,
        "player": player,
        "order": list(ctx.state.order),
        "direction": direction,
    }
    if item is not None:
        changed["item"] = item
    ctx.emit(changed)


def away(ctx: Context, action: act.Away) -> None:
    ctx.require_playing()
    player = ctx.player(action.player or action.actor)
    require(player.status is Status.PLAYING, f"{player.name} isn't at the table right now")
    require(
        action.turns is None or 0 <= action.turns <= 1000,
        "say how many of their turns the player misses (0 means back for their next turn)",
    )
    ctx.emit({"type": "player_away", "player": player.id, "turns": action.turns})


def back(ctx: Context, action: act.Back) -> None:
    ctx.require_playing()
    player = ctx.player(action.player or action.actor)
    require(player.status is Status.AWAY, f"{player.name} isn't away")
    state = ctx.state
    if state.current == player.id and state.active is None:
        # Back in the turn they stepped away from: it is theirs again, its chaos roll still owed.
        ctx.emit({"type": "player_back", "player": player.id, "active": True})
        return
    ctx.emit({"type": "player_back", "player": player.id})


def end_game(ctx: Context, action: act.End) -> None:
    require(ctx.state.phase is not Phase.ENDED, "this game is already over")
    ctx.emit({"type": "game_ended", "reason": "ended by " + ctx.name(action.actor), "winner": None})


def end_effect(
    ctx: Context, effect_id: int, reason: str, mark: Mapping[str, int | None] | None = None
) -> None:
    """End an effect; a chaos card that lasted goes to its discard pile.

    `mark` attributes the end to a stack item (``item``: it replaced the effect; ``undoes``: a
    counter took the effect back from it), so that a counter can undo the end in turn.
    """
    effect = ctx.state.effects[effect_id]
    ended: EffectEnded = {"type": "effect_ended", "id": effect_id, "reason": reason}
    ctx.emit(cast(EffectEnded, {**ended, **(mark or {})}))
    if effect.card is not None:
        deck = effect.deck
        if deck is None:  # logged before effects named their deck: a Global came from its deck
            deck = ctx.ruleset.start_table if effect.kind == "global" else ctx.ruleset.chaos_table
        if deck is not None and deck in ctx.state.decks:
            ctx.emit({"type": "card_discarded", "deck": deck, "card": effect.card})


def knock_out(ctx: Context, player: PlayerId, reason: str) -> None:
    """`player` is out of the game: their effects and open offers end; the last one standing
    wins."""
    ctx.emit({"type": "player_out", "player": player, "reason": reason})
    for offer_id, offer in sorted(ctx.state.offers.items()):
        if offer.player == player:
            withdraw_offer(ctx, offer_id, f"{ctx.name(player)} is out of the game")
    for effect in list(ctx.state.effects.values()):
        if effect.owner == player:
            end_effect(ctx, effect.id, f"{ctx.name(player)} left the game")
    remaining = ctx.state.seated()
    if len(remaining) <= 1 and ctx.state.phase is Phase.PLAYING:
        winner = remaining[0].id if remaining else None
        reason = f"{remaining[0].name} is the last one standing" if remaining else "nobody is left"
        ctx.emit({"type": "game_ended", "reason": reason, "winner": winner})
