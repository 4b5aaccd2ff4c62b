"""Whether a spiting player stays in: why they would lose, and what the bot asks when the table
can't know (how much life a result gave, a condition it names, whether a loss still holds).

A loss has a reason: ``life`` (dropping below 1), ``poison``, ``library`` (drawing from an empty
one) or ``card`` (a card's effect). Only a loss of life can be judged from tracked life; for any
other the spiting player is asked, with a choice, whether the reason still holds.
"""

from __future__ import annotations

import re
from typing import Literal

from bot.engine.actions import LOSS_REASONS
from bot.engine.context import Context
from bot.engine.errors import RulesError
from bot.engine.events import EntryRef
from bot.engine.lifechanges import gain_life
from bot.engine.lifegain import MAX_ASKED, MAX_LIFE
from bot.engine.model import Entry, PlayerId, TableId
from bot.engine.state import Pending
from bot.engine.turns import knock_out

REASONS = LOSS_REASONS
KINDS = ("life_if", "life_amount", "loss")  # the choices this module offers and answers
LOST = {
    "life": "dropped below 1 life",
    "poison": "lost to poison",
    "library": "lost by drawing from an empty library",
    "card": "lost to a card's effect",
}
_HOLDS = {
    "life": "is {who} still below 1 life?",
    "poison": "does {who} still have 10 or more poison counters?",
    "library": "does {who} still lose for drawing from an empty library?",
    "card": "does the card's effect still make {who} lose?",
    "": "does the reason {who} would lose still hold?",
}
_YES_NO: list[EntryRef] = [{"id": "yes", "name": "yes"}, {"id": "no", "name": "no"}]
_AMOUNT = re.compile(r"\s*([0-9]{1,7})\s*life\s*", re.IGNORECASE)


def check_reason(reason: str | None) -> None:
    if reason is not None and reason not in REASONS:
        raise RulesError(f"{reason!r} isn't a reason to lose: say {', '.join(REASONS)}")


def after_gain(
    ctx: Context,
    player: PlayerId,
    table: TableId,
    entry: Entry,
    reason: str,
    *,
    x: int = 0,
    rolled: int | None = None,
) -> None:
    """A spite's life-gaining result has resolved (any amount the table gives is counted):
    ask what the table can't know, then settle the spite."""
    gain = entry.life_gain
    if ctx.state.players[player].life is None:
        gain = None  # untracked life counts nothing: settle asks whether the loss still holds
    context: dict[str, object] = {"table": table, "entry": entry.id, "reason": reason, "x": x}
    if gain is not None and gain.rolled and rolled is not None:
        context["rolled"] = rolled
    if gain is not None and gain.condition:
        _offer(ctx, player, "life_if", f"{entry.name}: {gain.condition}", _YES_NO, context)
    elif gain is not None and gain.asks:
        _ask_amount(ctx, player, entry, context)
    else:
        settle(ctx, player, reason)


def settle(ctx: Context, player: PlayerId, reason: str) -> None:
    """The spite is over: a loss of tracked life is judged by it; anything else (a total the
    bot isn't sure of included) is asked."""
    life = ctx.state.players[player].life
    if reason == "life" and life is not None and not ctx.state.players[player].unsure:
        why = "the spite left them below 1 life"
        end(ctx, player, survived=life >= 1, why=f"{LOST['life']}: {why}")
        return
    who = ctx.name(player)
    question = _HOLDS[reason].format(who=who)
    options: list[EntryRef] = [
        {"id": "yes", "name": f"yes: {who} loses"},
        {"id": "no", "name": f"no: {who} plays on"},
    ]
    _offer(ctx, player, "loss", question[0].upper() + question[1:], options, {"reason": reason})


def end(ctx: Context, player: PlayerId, *, survived: bool, why: str) -> None:
    ctx.emit({"type": "spite_ended", "player": player, "survived": survived})
    if not survived:
        knock_out(ctx, player, why)


def match_amount(pending: Pending, typed: str) -> str | None:
    """An amount of life typed as ``N life`` (an option, or more than the options offer)."""
    match = _AMOUNT.fullmatch(typed)
    if match is None:
        return None
    amount = int(match[1])
    if amount > MAX_LIFE:
        raise RulesError(f"life amounts go from 0 to {MAX_LIFE:,}")
    return f"{amount} life"


def answer(ctx: Context, pending: Pending, picked: str) -> None:
    """Carry out the spiting player's answer to one of this module's questions."""
    player, context = pending.player, pending.context
    reason = str(context["reason"])
    if pending.kind == "loss":
        end(ctx, player, survived=picked == "no", why=_lost(reason) + ": it still holds")
        return
    entry = _find(ctx, str(context["table"]), str(context["entry"]))
    gain = entry.life_gain
    assert gain is not None  # only a life-gaining entry asks
    x = context["x"]
    assert isinstance(x, int)
    # The gain belongs to the spite roll, so a CounterRoll on that roll takes it back.
    item = next((i.id for i in reversed(ctx.state.stack) if i.spite and i.player == player), None)
    if pending.kind == "life_if":
        if picked == "yes" and gain.asks:
            _ask_amount(ctx, player, entry, context)
            return
        if picked == "yes":
            rolled = context.get("rolled", 0)
            assert isinstance(rolled, int)
            gain_life(ctx, gain, player, entry.name, x=x, rolled=rolled, item=item)
    else:
        amount = int(picked.split()[0])
        said = f"{entry.name}, as {ctx.name(player)} said"
        gain_life(ctx, gain, player, said, asked=amount, item=item)
    settle(ctx, player, reason)


def _lost(reason: str) -> str:
    return LOST.get(reason, "lost the game")


def _ask_amount(ctx: Context, player: PlayerId, entry: Entry, context: dict[str, object]) -> None:
    who = ctx.name(player)
    question = f"{entry.name}: how much life does it give {who}? (more: `chaos choose N life`)"
    options: list[EntryRef] = [
        {"id": f"{n} life", "name": f"{n} life"} for n in range(MAX_ASKED + 1)
    ]
    _offer(ctx, player, "life_amount", question, options, context)


def _offer(
    ctx: Context,
    player: PlayerId,
    kind: Literal["life_if", "life_amount", "loss"],
    question: str,
    options: list[EntryRef],
    context: dict[str, object],
) -> None:
    ctx.emit(
        {
            "type": "choice_offered",
            "player": player,
            "kind": kind,
            "options": options,
            "context": {**context, "question": question},
        }
    )


def _find(ctx: Context, table: TableId, entry_id: str) -> Entry:
    """An entry of a list, a card of a deck, or half of a split card."""
    if table in ctx.ruleset.decks:
        for card in ctx.ruleset.decks[table].cards:
            for entry in (card.entry, *card.entry.halves):
                if entry.id == entry_id:
                    return entry
    return next(e for e in ctx.ruleset.table(table).entries if e.id == entry_id)
