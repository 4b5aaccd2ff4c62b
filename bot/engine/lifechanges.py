"""What an honoured entry does to life totals: the changes its table declares, counted, and
the totals it changes in a way the bot can't count, marked unsure.

Each change becomes a ``life`` event (a total changed) or a ``life_unsure`` event (the bot
stops being sure of a total), attributed to the entry's stack item so a CounterRoll takes it
back. Dice a change throws are the roll's ``life`` dice (:mod:`bot.engine.streams`), logged on
its event. A total that drops below 1 here starts the ruleset's spite rule once the action is
done (:func:`bot.engine.spite.below_one`), as a `life lose` would.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.engine.context import Context
from bot.engine.dice import parse_expr
from bot.engine.events import InlineDice, LifeChanged, Roll
from bot.engine.lifegain import (
    MAX_LIFE,
    Amount,
    LifeChange,
    LifeGain,
    LifeOp,
    Rotate,
    Swap,
    Who,
    amounts,
    given_x,
    text_roll,
    throws_dice,
)
from bot.engine.model import Entry, PlayerId

LIFE_DICE = "life"  # the purpose of the dice a life change throws (bot.engine.streams)


def apply_life(ctx: Context, entry: Entry, roll: Roll, item: int | None) -> None:
    """Every change `entry` makes to life totals, in order, its gain last."""
    owner = roll["player"]
    if owner not in ctx.state.players:
        return
    inline = roll["inline"]
    for change in entry.life_changes:
        _change(ctx, change, entry.name, owner, inline, item)
    gain = entry.life_gain
    if gain is not None:
        x, rolled = given_x(inline), text_roll(inline)
        countable = (
            gain.known and (not gain.x or x is not None) and (not gain.rolled or rolled is not None)
        )
        if countable:
            gain_life(ctx, gain, owner, entry.name, x=x or 0, rolled=rolled or 0, item=item)
        elif not ctx.state.players[owner].spiting:  # a spite asks instead (survival)
            who = _seated(ctx) if gain.each_player else [owner]
            mark_unsure(ctx, who, entry.name, item)
    if entry.life_undeclared and not entry.changes_life:
        why = f"{entry.name}, whose table doesn't say how it changes life"
        mark_unsure(ctx, _seated(ctx), why, item)


def gain_life(
    ctx: Context,
    gain: LifeGain,
    owner: PlayerId,
    why: str,
    *,
    x: int = 0,
    rolled: int = 0,
    asked: int | None = None,
    item: int | None = None,
) -> None:
    """Tracked life totals go up by what `gain` gives (players whose life isn't tracked: no)."""
    seated = _seated(ctx)
    if owner not in seated:
        seated.append(owner)
    dice = (
        ctx.dice(LIFE_DICE)
        if asked is None
        and gain.amount is not None
        and not gain.x
        and not gain.rolled
        and throws_dice(gain.amount)
        else None
    )
    gains, thrown = amounts(gain, owner, seated, dice, x=x, rolled=rolled, asked=asked)
    for player_id, amount in gains:
        life = ctx.state.players[player_id].life
        if life is not None:
            extra = {"dice": thrown.to_dict()} if thrown is not None else None
            set_total(ctx, player_id, life + amount, why, item, extra)


def set_total(
    ctx: Context,
    player_id: PlayerId,
    new: int,
    why: str,
    item: int | None = None,
    extra: Mapping[str, object] | None = None,
) -> None:
    """A tracked total becomes `new` (kept within ±MAX_LIFE): one ``life`` event."""
    life = ctx.state.players[player_id].life or 0
    new = max(-MAX_LIFE, min(MAX_LIFE, new))
    event: LifeChanged = {
        "type": "life",
        "player": player_id,
        "life": new,
        "delta": new - life,
        "reason": why,
        "item": item,
    }
    if extra:
        event.update(extra)  # type: ignore[typeddict-item]
    ctx.emit(event)


def mark_unsure(
    ctx: Context, players: Sequence[PlayerId], why: str, item: int | None, *, unsure: bool = True
) -> None:
    """The bot stops being sure of these tracked totals (or, with `unsure` False, is sure of
    them again); totals already so are left as they are."""
    for player_id in players:
        player = ctx.state.players[player_id]
        if player.life is None or player.unsure is unsure:
            continue
        ctx.emit(
            {
                "type": "life_unsure",
                "player": player_id,
                "unsure": unsure,
                "reason": why,
                "item": item,
            }
        )


def _seated(ctx: Context) -> list[PlayerId]:
    return [p.id for p in ctx.state.seated()]


def _targets(ctx: Context, who: Who, owner: PlayerId) -> tuple[list[PlayerId], bool]:
    """The players a change touches, and whether the bot knows it is exactly them (a change to
    "an opponent" with several in could be any of them)."""
    seated = _seated(ctx)
    others = [p for p in seated if p != owner]
    match who:
        case Who.YOU:
            return ([owner] if owner in seated else []), True
        case Who.EACH:
            return seated, True
        case Who.OPPONENTS:
            return others, True
        case Who.OPPONENT:
            return others, len(others) <= 1
        case Who.PLAYER:
            return seated, len(seated) <= 1


def _amount(
    ctx: Context, amount: Amount, inline: Sequence[InlineDice]
) -> tuple[int | None, InlineDice | None]:
    """How much a change is (None: the bot can't tell), and the dice it threw, if any."""
    if amount.x:
        return given_x(inline), None
    if amount.rolled:
        return text_roll(inline), None
    if amount.dice is None:
        return None, None
    if not throws_dice(amount.dice):
        return amount.dice.bounds()[0], None
    thrown = amount.dice.roll(ctx.dice(LIFE_DICE))
    return thrown.total, thrown.to_dict()  # type: ignore[return-value]


def _change(
    ctx: Context,
    change: LifeChange,
    name: str,
    owner: PlayerId,
    inline: Sequence[InlineDice],
    item: int | None,
) -> None:
    state = ctx.state
    match change.op:
        case LifeOp.SWAP:
            _swap(ctx, change.swap or Swap.OPPONENT, name, owner, item)
            return
        case LifeOp.ROTATE:
            _rotate(ctx, change.rotate or Rotate.LEFT, name, item)
            return
    players, sure = _targets(ctx, change.who, owner)
    unknown = name
    if change.op is LifeOp.UNSURE or not sure:
        mark_unsure(ctx, players, unknown, item)
        return
    assert change.amount is not None
    if change.amount.share is not None or change.amount.table is not None:
        _from_totals(ctx, change, players, name, item)
        return
    n, thrown = _amount(ctx, change.amount, inline)
    if n is None:
        mark_unsure(ctx, players, unknown, item)
        return
    if change.per_opponent:
        n *= sum(1 for p in _seated(ctx) if p != owner)
    extra = {"dice": thrown} if thrown is not None else None
    for player_id in players:
        life = state.players[player_id].life
        if life is None:
            continue
        new = n if change.op is LifeOp.SET else life - max(n, 0)
        set_total(ctx, player_id, new, name, item, extra)


def _from_totals(
    ctx: Context, change: LifeChange, players: list[PlayerId], name: str, item: int | None
) -> None:
    """A change worked out from the totals themselves: a share of each player's own (lose half
    their life), or a total read off the table (set to the lowest). It is counted on the totals
    as they stand; a total it reads that the bot isn't sure of leaves the totals it sets unsure
    too, and one it doesn't track leaves it unable to count."""
    amount = change.amount
    assert amount is not None
    state = ctx.state
    read = _seated(ctx) if amount.table is not None else players
    totals = [state.players[p].life for p in read]
    known = [t for t in totals if t is not None]
    if len(known) < len(totals) or not known:
        mark_unsure(ctx, players, name, item)
        return
    table = amount.of_table(known) if amount.table is not None else 0
    for player_id in players:
        life = state.players[player_id].life
        assert life is not None
        if change.op is LifeOp.SET:
            new = table
        else:
            new = life - (amount.of_total(life) if amount.share is not None else max(table, 0))
        set_total(ctx, player_id, new, name, item)
    if amount.table is not None and any(state.players[p].unsure for p in read):
        mark_unsure(ctx, players, name, item)


def _swap(ctx: Context, swap: Swap, name: str, owner: PlayerId, item: int | None) -> None:
    """The roller and an opponent exchange totals (and whether the bot is sure of each)."""
    others = [p for p in _seated(ctx) if p != owner]
    if owner not in _seated(ctx) or not others:
        return
    extra: dict[str, object] | None = None
    if len(others) == 1:
        other = others[0]
    elif swap is Swap.RANDOM:
        thrown = parse_expr(f"1d{len(others)}").roll(ctx.dice(LIFE_DICE))
        other = others[thrown.total - 1]
        extra = {"dice": thrown.to_dict()}
    else:  # someone picks the opponent: the bot can't tell whom
        why = f"{name}, with an opponent someone picks"
        mark_unsure(ctx, [owner, *others], why, item)
        return
    _move(ctx, {owner: other, other: owner}, name, item, extra)


def _rotate(ctx: Context, rotate: Rotate, name: str, item: int | None) -> None:
    """Every total moves one seat around the table (out players sit out)."""
    state = ctx.state
    seats = _seated(ctx)
    if len(seats) < 2:
        return
    step = {
        Rotate.LEFT: 1,
        Rotate.RIGHT: -1,
        Rotate.NEXT: state.direction,
        Rotate.PREVIOUS: -state.direction,
    }[rotate]
    _move(ctx, {p: seats[(i + step) % len(seats)] for i, p in enumerate(seats)}, name, item, None)


def _move(
    ctx: Context,
    source: dict[PlayerId, PlayerId],
    name: str,
    item: int | None,
    extra: Mapping[str, object] | None,
) -> None:
    """Each player's total becomes the total `source` names (as it stood before), and the bot is
    as sure of it as it was of that one; an untracked total makes every total moved unsure."""
    players = ctx.state.players
    before = {p: (players[p].life, players[p].unsure) for p in source}
    if any(life is None for life, _ in before.values()):
        mark_unsure(ctx, list(source), f"{name} moves a total the bot doesn't track", item)
        return
    for player_id, origin in source.items():
        life, _ = before[origin]
        assert life is not None
        if life != players[player_id].life:
            set_total(ctx, player_id, life, name, item, extra)
    for player_id, origin in source.items():
        _, unsure = before[origin]
        mark_unsure(ctx, [player_id], name, item, unsure=unsure)
