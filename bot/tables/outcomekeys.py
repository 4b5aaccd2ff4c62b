"""Reading two keys that say what an entry does to the game state: `life:` and `removes:`.

``life: 3``, ``life: 1d6``, ``life: x`` (the card's X), ``life: ask`` (the player says how
much), with ``per opponent`` and/or ``each player`` after the amount (``life: 2 per
opponent``), or the mapping ``{gain: 5, per: opponent, each: player, if: "a yes/no question"}``.

``removes: [worlds, globals, effects, "Name of an effect"]`` (or one of them, unlisted).
"""

from __future__ import annotations

from bot.engine.dice import DiceExpr
from bot.engine.lifegain import LifeGain
from bot.tables.problems import KeyPath
from bot.tables.schema import LIFE_KEYS, MAX_NAME, Checker, describe

REMOVES = ("worlds", "globals", "effects")
_LIFE_HINT = (
    "an amount of life: a number, dice like 1d6, x or ask, optionally followed by"
    " 'per opponent' and/or 'each player'"
)
_WORDS = ("per opponent", "each player")


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
        amount,
        x,
        per_opponent="per opponent" in flags,
        each_player="each player" in flags,
        condition=condition,
    )


def _amount(
    ck: Checker, value: object, path: KeyPath, has_x: bool
) -> tuple[DiceExpr | None, bool] | None:
    """(dice, is X) for a number, dice, ``x`` or ``ask`` (None, False)."""
    if value == "ask":
        return None, False
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
