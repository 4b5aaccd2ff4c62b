"""Chaos and Global decks: shuffling, drawing without replacement, revealing, split cards, the
seven-card spite look, and reshuffling a discard pile once a deck runs out.
"""

from __future__ import annotations

from dataclasses import replace

from bot.engine import actions as act
from bot.engine import survival
from bot.engine.context import Context
from bot.engine.dice import render_inline
from bot.engine.errors import RulesError
from bot.engine.events import Roll
from bot.engine.lifegain import card_x, text_roll
from bot.engine.model import Entry, Kind, PlayerId, TableId
from bot.engine.outcomes import apply_entry
from bot.engine.resolve import inline_record
from bot.engine.state import Pending
from bot.engine.streams import SHUFFLE
from bot.engine.turns import knock_out

SPITE_REASON = "played as a spite: it can't be countered"


def shuffle_decks(ctx: Context) -> None:
    """Shuffle every deck the ruleset uses, before the game's first turn; a card carrying a
    tag the house rules exclude is left out (unless that would leave the deck empty: refused
    when the rule is set, but the tables may have changed since)."""
    barred = ctx.state.house.barred(ctx.ruleset) if ctx.state.house.exclude else {}
    for deck in ctx.ruleset.decks.values():
        order = deck.fresh_order()
        kept = [card for card in order if card not in barred.get(deck.id, ())]
        order = kept or order
        ctx.dice(SHUFFLE + deck.id).shuffle(order)
        ctx.emit({"type": "deck_shuffled", "deck": deck.id, "order": order, "reshuffle": False})


def draw(ctx: Context, deck: TableId) -> str | None:
    """The id of the top card of `deck`, reshuffling its discard pile into it if it ran out.

    Returns None only when both the deck and its discard pile are empty. The caller emits the
    draw itself, since where the card goes depends on why it was drawn.
    """
    pile = ctx.state.decks[deck]
    if not pile.draw:
        if not pile.discard:
            return None
        order = list(pile.discard)
        ctx.dice(SHUFFLE + deck).shuffle(order)
        ctx.emit({"type": "deck_shuffled", "deck": deck, "order": order, "reshuffle": True})
    return ctx.state.decks[deck].draw[0]


def reveal(ctx: Context, action: act.Reveal) -> None:
    """Turn the face-down chaos card face up; a split card first asks which half to play."""
    ctx.require_playing()
    ctx.require_no_choice()
    face_down = ctx.state.face_down
    if face_down is None:
        raise RulesError("there's no face-down chaos card to reveal: draw one with `chaos roll`")
    deck, card, controller, purpose = face_down
    ctx.emit({"type": "card_revealed", "deck": deck, "card": card})
    entry = ctx.ruleset.deck(deck).card(card)
    if entry.halves:
        offer_halves(ctx, deck, card, entry, controller, spite=None, purpose=purpose)
        return
    resolve_card(ctx, deck, card, entry, controller, reason=None, purpose=purpose)


def offer_halves(
    ctx: Context,
    deck: TableId,
    card: str,
    entry: Entry,
    controller: PlayerId,
    *,
    spite: str | None,
    purpose: str = "turn",
) -> None:
    """Ask for a half of a split card; `spite` is the loss reason when it's a spite card."""
    context: dict[str, object] = {"deck": deck, "card": card, "spite": spite}
    if purpose not in ("turn", "spite"):
        context["purpose"] = purpose  # an extra card; older logs have turn cards only
    ctx.emit(
        {
            "type": "choice_offered",
            "player": controller,
            "kind": "half",
            "options": [{"id": half.id, "name": half.name} for half in entry.halves],
            "context": context,
        }
    )


def resolve_card(
    ctx: Context,
    deck: TableId,
    card: str,
    entry: Entry,
    controller: PlayerId,
    *,
    reason: str | None,
    stack: bool = True,
    purpose: str = "turn",
) -> Roll:
    """Play a face-up card: log it like a roll, apply it, and discard it unless it lasts.

    `purpose` says why it was drawn (see :class:`~bot.engine.events.StackPushed`).
    """
    item = ctx.state.next_id
    rng = ctx.dice(purpose)  # the card's inline dice, its X and the life it gives
    text, rolled = render_inline(entry.text, rng) if "{" in entry.text else (entry.text, ())
    roll: Roll = {
        "type": "roll",
        "id": item,
        "turn": ctx.state.turn,
        "player": controller,
        "table": deck,
        "dice": [],
        "result": 0,
        "entry": {"id": entry.id, "name": entry.name},
        "depth": 0,
        "parent": None,
        "ignored": False,
        "reason": reason,
        "text": text,
        "inline": [inline_record(r) for r in rolled],
        "slot": None,
    }
    if stack:
        ctx.emit(
            {
                "type": "stack",
                "item": item,
                "kind": "roll",
                "player": controller,
                "target": None,
                "table": deck,
                "entry": card,
                "dice": [],
                "result": 0,
                "purpose": purpose,
            }
        )
    if entry.x is not None:
        roll["inline"].append(inline_record(entry.x.roll(rng), label="X"))
    ctx.emit(roll)
    apply_entry(ctx, entry, roll, item if stack else None, card=card)
    lasts = entry.kind in (Kind.WORLD, Kind.GLOBAL) or entry.duration is not None
    if not lasts:
        ctx.emit({"type": "card_discarded", "deck": deck, "card": card})
    return roll


def reveal_global(ctx: Context) -> None:
    """Put the Global deck's top card into play under no one's control (if any card is left)."""
    deck = ctx.ruleset.start_table
    assert deck is not None  # a ruleset with a Global deck names it
    card = draw(ctx, deck)
    if card is None:
        return
    ctx.emit({"type": "card_drawn", "deck": deck, "card": card, "face_down": False, "player": None})
    entry = replace(ctx.ruleset.deck(deck).card(card), kind=Kind.GLOBAL)
    why = "the next Global"
    resolve_card(ctx, deck, card, entry, ctx.roller(), reason=why, stack=False, purpose="global")


def spite_look(ctx: Context, player: PlayerId, reason: str) -> None:
    """Show `player` the top cards of the Chaos deck; they will put one on the stack.

    `reason` is why they would lose (see survival), or "" when nobody said.
    """
    deck = ctx.ruleset.chaos_table
    assert deck is not None
    looked: list[str] = []
    for _ in range(ctx.ruleset.spite_look):
        card = draw(ctx, deck)
        if card is None:
            break
        ctx.emit(
            {"type": "card_drawn", "deck": deck, "card": card, "face_down": False, "player": player}
        )
        looked.append(card)
    if not looked:
        ctx.emit({"type": "spite_ended", "player": player, "survived": False})
        knock_out(ctx, player, "lost: the Chaos deck was empty, so the spite found nothing")
        return
    cards = ctx.ruleset.deck(deck)
    ctx.emit(
        {
            "type": "choice_offered",
            "player": player,
            "kind": "spite",
            "options": [{"id": card, "name": cards.card(card).name} for card in looked],
            "context": {"deck": deck, "reason": reason},
        }
    )


def play_card(ctx: Context, pending: Pending, picked: str) -> None:
    """Carry out a split-half or spite choice."""
    deck = str(pending.context["deck"])
    cards = ctx.ruleset.deck(deck)
    reason = str(pending.context.get("reason") or "")
    if pending.kind == "spite":
        rest = list(ctx.state.decks[deck].looking)
        rest.remove(picked)  # one copy: the deck may hold several of the same card
        ctx.dice("spite look").shuffle(rest)
        ctx.emit({"type": "card_revealed", "deck": deck, "card": picked})
        if rest:
            ctx.emit({"type": "cards_to_bottom", "deck": deck, "cards": rest})
        entry = cards.card(picked)
        if entry.halves:
            offer_halves(ctx, deck, picked, entry, pending.player, spite=reason)
            return
        played = resolve_card(
            ctx, deck, picked, entry, pending.player, reason=SPITE_REASON, purpose="spite"
        )
        finish_spite(ctx, pending.player, deck, entry, played, reason)
        return
    card = str(pending.context["card"])
    half = next(h for h in cards.card(card).halves if h.id == picked)
    spite = pending.context.get("spite")  # why the spiting player would lose, if it is a spite
    if isinstance(spite, bool):  # logs from before loss reasons kept a flag
        spite = "life" if spite else None
    logged = SPITE_REASON if spite is not None else f"the {half.name} half"
    purpose = "spite" if spite is not None else str(pending.context.get("purpose", "turn"))
    played = resolve_card(ctx, deck, card, half, pending.player, reason=logged, purpose=purpose)
    if spite is not None:
        finish_spite(ctx, pending.player, deck, half, played, str(spite))


def finish_spite(
    ctx: Context, player_id: PlayerId, deck: TableId, entry: Entry, played: Roll, reason: str
) -> None:
    """After a deck spite the player stays unless the reason they would lose still holds.

    A loss of tracked life is judged by the life total once the card (and any life it gives
    that the bot has to ask about) has resolved; any other loss is asked about (survival).
    """
    if reason == "life" and entry.life_gain is not None:
        inline = played["inline"]
        x, rolled = card_x(inline), text_roll(inline)
        survival.after_gain(ctx, player_id, deck, entry, reason, x=x, rolled=rolled)
    else:
        survival.settle(ctx, player_id, reason)
