"""Reading two keys that say what an entry does to the game state: `life:` and `removes:`.

``life:`` is one change to life totals, or a list of them (at most one gain):

* a gain: ``life: 3``, ``life: 1d6``, ``life: x`` (the card's X), ``life: rolled`` (what the
  dice in the text rolled), ``life: ask`` (the player says how much), with ``per opponent``
  and/or ``each player`` after the amount (``life: 2 per opponent``), or the mapping
  ``{gain: 5, per: opponent, each: player, if: "a yes/no question"}``;
* ``{lose: N}``, ``{pay: N}`` or ``{set: N}``, N a number, dice, x, rolled or unknown, with
  ``who:`` (you, each player, each opponent, opponent, player) and ``per: opponent``;
* ``{swap: opponent}`` or ``{swap: random}``; ``{rotate: left}`` (right, next, previous);
* ``{unsure: WHO}``: the text changes those totals in a way only the table can see.

``removes: [worlds, globals, effects, "Name of an effect"]`` (or one of them, unlisted).
"""

from __future__ import annotations

import re
from dataclasses import replace

from bot.engine.dice import DiceExpr
from bot.engine.lifegain import (
    Amount,
    LifeChange,
    LifeGain,
    LifeOp,
    Rotate,
    Share,
    Swap,
    Table,
    Who,
)
from bot.tables.problems import KeyPath
from bot.tables.schema import LIFE_KEYS, MAX_NAME, Checker, describe

REMOVES = ("worlds", "globals", "effects")
_LIFE_HINT = (
    "an amount of life: a number, dice like 1d6, x, rolled or ask, optionally followed by"
    " 'per opponent' and/or 'each player'"
)
_WORDS = ("per opponent", "each player")
_VERBS = tuple(op.value for op in LifeOp)
_CHANGE_KEYS = ("lose", "pay", "set", "who", "per", "round")
_CHANGE_HINT = (
    "a life change: a gain like 3 or {gain: 5}, or one of"
    " {lose: N}, {pay: N}, {set: N}, {swap: opponent}, {rotate: left}, {unsure: each player}"
)
_AMOUNT_HINT = "a number, dice like 1d6, x, rolled or unknown"
_SHARES = {share.value: share for share in Share}
_TABLE = {table.value: table for table in Table}
MAX_CHANGES = 6  # changes one entry may declare
_LIFE = re.compile(r"\blife\b", re.IGNORECASE)


def mentions_life(text: str) -> bool:
    """True when an entry's text speaks of life (so it may change a total)."""
    return _LIFE.search(text) is not None


def life_key(
    ck: Checker, value: object, path: KeyPath, *, has_x: bool
) -> tuple[LifeGain | None, tuple[LifeChange, ...]] | None:
    """An entry's `life:` key: its gain (if any) and its other changes, or None (with the
    problems noted) if it can't be read."""
    before = len(ck.problems)
    listed = isinstance(value, list)
    items = value if isinstance(value, list) else [value]
    if listed and not 1 <= len(items) <= MAX_CHANGES:
        ck.add(path, f"list 1 to {MAX_CHANGES} life changes, not {len(items)}")
        return None
    gain: LifeGain | None = None
    changes: list[LifeChange] = []
    for i, item in enumerate(items):
        at: KeyPath = (*path, i) if listed else path
        verbs = [v for v in _VERBS if isinstance(item, dict) and v in item]
        if isinstance(item, dict) and not verbs and not any(k in item for k in LIFE_KEYS):
            ck.add(at, f"expected {_CHANGE_HINT}, got a mapping without any of them")
            continue
        if not verbs:  # a gain, in any of its forms
            if gain is not None:
                ck.add(at, "an entry gains life once: add the gains up into one")
            gain = life_gain(ck, item, at, has_x=has_x)
            continue
        if len(verbs) > 1:
            ck.add(at, f"one change at a time: this one has {' and '.join(verbs)}; list them")
            continue
        assert isinstance(item, dict)
        change = _change(ck, LifeOp(verbs[0]), item, at, has_x=has_x)
        if change is not None:
            changes.append(change)
    if len(ck.problems) > before:
        return None
    return gain, tuple(changes)


def _change(
    ck: Checker, op: LifeOp, raw: dict[str, object], path: KeyPath, *, has_x: bool
) -> LifeChange | None:
    at = (*path, op.value)
    value = raw[op.value]
    if op is LifeOp.SWAP:
        ck.keys(raw, path, ("swap",), (), "a swap of life totals")
        swap = ck.choice(value, at, Swap)
        return LifeChange(op, swap=swap) if swap is not None else None
    if op is LifeOp.ROTATE:
        ck.keys(raw, path, ("rotate",), (), "a rotation of life totals")
        rotate = ck.choice(value, at, Rotate)
        return LifeChange(op, rotate=rotate) if rotate is not None else None
    if op is LifeOp.UNSURE:
        ck.keys(raw, path, ("unsure",), (), "an unsure change")
        who = ck.choice(value, at, Who)
        return LifeChange(op, who=who) if who is not None else None
    ck.keys(raw, path, _CHANGE_KEYS, (), f"a change of life ({op.value})")
    amount = _change_amount(ck, op, value, at, has_x=has_x)
    rounds = amount is not None and (amount.share is not None or amount.table is Table.AVERAGE)
    if rounds and "round" not in raw:
        ck.add(path, f"{value} needs round: up or down, as the text says")
    elif "round" in raw and not rounds and amount is not None:
        ck.add((*path, "round"), "only a half, a third or an average is rounded: drop round")
    elif rounds and raw["round"] not in ("up", "down"):
        ck.add((*path, "round"), f"expected up or down, got {describe(raw['round'])}")
    elif rounds and raw["round"] == "up":
        assert amount is not None
        amount = replace(amount, up=True)
    who = ck.choice(raw["who"], (*path, "who"), Who) if "who" in raw else Who.YOU
    per = "per" in raw
    if per and raw["per"] != "opponent":
        ck.add((*path, "per"), f"expected opponent, got {describe(raw['per'])}")
    if amount is None or who is None:
        return None
    return LifeChange(op, amount, who, per_opponent=per)


def _change_amount(
    ck: Checker, op: LifeOp, value: object, path: KeyPath, *, has_x: bool
) -> Amount | None:
    if isinstance(value, str) and value in _SHARES:
        if op is LifeOp.SET:
            ck.add(
                path, f"a total is set to a number or to lowest, highest or average, not {value}"
            )
            return None
        return Amount(share=_SHARES[value])
    if isinstance(value, str) and value in _TABLE:
        if op is not LifeOp.SET:
            ck.add(path, f"{value} is a total to set to: write {{set: {value}}}")
            return None
        return Amount(table=_TABLE[value])
    if value == "unknown":
        return Amount()
    if value == "rolled":
        return Amount(rolled=True)
    if value in ("x", "X"):
        if not has_x:
            ck.add(path, "x is the card's X, so the entry needs x: DICE")
            return None
        return Amount(x=True)
    expr = ck.expr(value, path, _AMOUNT_HINT)
    if expr is None:
        return None
    if expr.bounds()[0] < 0:
        ck.add(path, f"{expr.text} can come out below 0; write the amount as it is lost or set")
        return None
    return Amount(expr)


def life_gain(ck: Checker, value: object, path: KeyPath, *, has_x: bool) -> LifeGain | None:
    """The `life:` key of an entry, or None (with a problem noted) if it can't be read."""
    before = len(ck.problems)
    flags: set[str] = set()
    if isinstance(value, dict):
        ck.keys(value, path, LIFE_KEYS, ("gain",), "a life gain")
        gain = _amount(ck, value.get("gain"), (*path, "gain"), has_x) if "gain" in value else None
        for key, word in (("per", "opponent"), ("each", "player")):
            if key in value:
                if value[key] != word:
                    ck.add((*path, key), f"expected {word}, got {describe(value[key])}")
                flags.add(f"{key} {word}")
        condition = ck.text(value, "if", path, required=True, limit=MAX_NAME) or ""
    else:
        words = str(value).strip().lower() if isinstance(value, str | int) else ""
        for _ in _WORDS:  # the phrases may come in either order
            for phrase in _WORDS:
                if phrase not in flags and words.endswith(phrase):
                    words = words.removesuffix(phrase).strip()
                    flags.add(phrase)
        if isinstance(value, bool) or not words:
            ck.add(path, f"expected {_LIFE_HINT}, got {describe(value)}")
            return None
        gain = _amount(ck, words, path, has_x)
        condition = ""
    if gain is None or len(ck.problems) > before:
        return None
    amount, x = gain
    return LifeGain(
        amount if amount != _ROLLED else None,
        x,
        per_opponent="per opponent" in flags,
        each_player="each player" in flags,
        condition=condition,
        rolled=amount == _ROLLED,
    )


def _amount(
    ck: Checker, value: object, path: KeyPath, has_x: bool
) -> tuple[DiceExpr | None, bool] | None:
    """(dice, is X) for a number, dice, ``x``, ``rolled`` (_ROLLED) or ``ask`` (None, False)."""
    if value in ("ask", "unknown"):
        return None, False
    if value == "rolled":
        return _ROLLED, False
    if value in ("x", "X"):
        if not has_x:
            ck.add(path, "life: x gains the card's X, so the entry needs x: DICE")
            return None
        return None, True
    expr = ck.expr(value, path, _LIFE_HINT)
    if expr is None:
        return None
    if expr.bounds()[0] < 0:
        ck.add(path, f"{expr.text} can come out below 0; a life gain can't")
        return None
    return expr, False


_ROLLED = DiceExpr(((1, 0, 0),), "rolled")  # stands for "what the text's dice rolled"


def removes(ck: Checker, value: object, path: KeyPath) -> tuple[str, ...] | None:
    """What an entry takes out of play: worlds, globals, effects, or effects by name."""
    items = [value] if isinstance(value, str) else ck.items(value, path, "things to remove")
    if items is None:
        return None
    found: list[str] = []
    for i, item in enumerate(items):
        at = path if isinstance(value, str) else (*path, i)
        if not isinstance(item, str) or not item.strip() or len(item) > MAX_NAME:
            ck.add(
                at,
                f"expected {', '.join(REMOVES)} or the name of an effect, got {describe(item)}",
            )
            continue
        found.append(item.strip())
    if not found and not isinstance(value, str):
        ck.add(path, f"name something to remove: {', '.join(REMOVES)} or an effect's name")
        return None
    return tuple(found)
