"""Dice notation as Discord's dice bots write it, for `/roll dice` and the console's `roll`.

``4d6kh3``, ``2d20kl1``, ``1d20 adv``, ``2d6ro1``, ``1d8rr<3``, ``1d6!``, ``1d6e6``, ``3d6mi2``,
``(1d4+1)*3``: the grammar is Avrae's ``d20`` library's, so a player who knows one of those
bots knows this one, and we don't grow a second parser. Three spellings other bots use are
read first: ``!`` after dice explodes on the highest face (d20 writes ``e6``), ``d%`` is a
d100, and a trailing ``adv`` or ``dis`` rolls a leading 1d20 twice and keeps the higher or
lower.

Table dice (tens and units, bands, sums) and the ``{1d6+1}`` in effect text stay
:mod:`bot.engine.dice`'s own: their draws are part of every logged game, and replays must
not change with a library.

Two things d20 doesn't do are done here:

* **Its dice come from our random source.** d20 throws with the ``random`` module's global
  generator; here every die is one ``rng.random()`` drawn in the order d20 throws them (the
  same draw :mod:`bot.engine.dice` uses), so a seeded console repeats its rolls, and
  :func:`replay` reads the same expression again from the logged faces alone.
* **Our limits as well as its own.** At most :data:`MAX_ROLL_DICE` dice a roll (what one
  table entry may throw, rerolls and exploding dice included: d20's ``RollContext`` counts
  them and stops a runaway ``1d6e>0``), 2 to :data:`MAX_SIDES` sides a die (as table dice)
  and :data:`MAX_CHARS` characters, and its operations may look at a die at most
  :data:`~bot.roller.MAX_LOOKS` times (:mod:`bot.roller` is d20's evaluation with our dice
  and that count). Whatever is wrong is a :class:`NotationError` with a sentence to show.

Evaluation only: how a roll is written out (dropped dice marked and all) is
:mod:`bot.render.dice`'s business.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import d20
from d20 import diceast

from bot import roller
from bot.engine.dice import MAX_SIDES
from bot.engine.errors import DiceError
from bot.engine.limits import MAX_ENTRY_DICE
from bot.roller import Context, Roller, TooMuchWork

MAX_ROLL_DICE = MAX_ENTRY_DICE
MAX_CHARS = 100

EXAMPLE = "like 2d6+1, 4d6kh3, 1d20 adv, 1d6! or (1d4+1)*3"


class NotationError(DiceError):
    """Dice notation that can't be read or would throw too many dice; the text is for players."""


@dataclass(frozen=True)
class DiceRoll:
    """One rolled expression: the notation as read, every face thrown in order, the total.

    ``faces`` is what was drawn, rerolled and exploded dice included, in the order d20 threw
    them: with ``text`` it is all a log needs, since :func:`replay` gives this roll back from
    them. ``tree`` is d20's evaluated expression (which dice were kept, dropped, rerolled or
    exploded), for the renderers.
    """

    text: str
    faces: tuple[int, ...]
    total: int
    tree: Any = field(compare=False, repr=False)

    def to_dict(self) -> dict[str, object]:
        """Plain data for a log: ``{"expr": ..., "faces": [...], "total": ...}``."""
        return {"expr": self.text, "faces": list(self.faces), "total": self.total}


def roll(text: str, rng: random.Random) -> DiceRoll:
    """Read `text` and throw its dice with `rng` (one ``rng.random()`` a die, in d20's order).

    Raises :class:`NotationError` with a sentence for anything that can't be read or asks for
    too many dice.
    """
    return _evaluate(text, lambda size: int(rng.random() * size) + 1)


def replay(text: str, faces: Sequence[int]) -> DiceRoll:
    """The roll of `text` whose dice showed `faces`: the same total and the same kept and
    dropped dice as when it was made. NotationError if the faces don't fit the expression."""
    given: Iterator[int] = iter(faces)

    def draw(size: int) -> int:
        face = next(given, None)
        if face is None or not 1 <= face <= size:
            raise NotationError(f"The logged faces {list(faces)} don't fit {text!r}.")
        return face

    rolled = _evaluate(text, draw)
    if next(given, None) is not None:
        raise NotationError(f"The logged faces {list(faces)} don't fit {text!r}: too many.")
    return rolled


# -- reading -------------------------------------------------------------------------------------

# What d20 may read after dice before a `!`: an operation, its selector's kind, then a number
# (`kh1`, `rr<3`, `mi2`). Read by hand, not with a regular expression: with `kh` and `k`
# then `h` both spelling `kh`, a pattern repeating them backtracked 2^n ways on `1d6kh1kh1...`.
_OPERATIONS = ("kh", "kl", "ph", "pl", "k", "p", "rr", "ro", "ra", "e", "mi", "ma")
_OPERATION_WORDS = frozenset(op + kind for op in _OPERATIONS for kind in ("", "l", "h", "<", ">"))
_DIGITS = frozenset("0123456789")
_ADVANTAGE = {
    "adv": d20.AdvType.ADV,
    "advantage": d20.AdvType.ADV,
    "dis": d20.AdvType.DIS,
    "disadvantage": d20.AdvType.DIS,
}
_PARSER = d20.Roller()  # for its parse cache; each roll evaluates with its own context


@dataclass(frozen=True)
class _Read:
    tree: Any  # d20's AST, advantage applied
    text: str


def _read(typed: str) -> _Read:
    text = _check_characters(typed)
    advantage, text = _advantage(text)
    if "[" in text or "]" in text:
        raise _unreadable(typed, "labels in [brackets] aren't read; write the dice alone")
    text = _explode(text.replace("d%", "d100"))
    if "!" in text:
        raise _unreadable(typed, "'!' explodes dice when it comes right after them, like 1d6!")
    try:
        tree = _PARSER.parse(text)
    except d20.RollSyntaxError as error:
        got = str(error.got)
        where = "the end" if got in ("", "$END") else f"{got!r} (character {error.col})"
        raise _unreadable(typed, f"it can't go on at {where}") from None
    except Exception as error:  # lark's other errors: the parser's, never our bug to show
        raise _unreadable(typed, "that isn't dice notation") from error
    if advantage is not d20.AdvType.NONE:
        plain = str(tree)
        tree = d20.utils.ast_adv_copy(tree, advantage)
        if str(tree) == plain:
            word = "advantage" if advantage is d20.AdvType.ADV else "disadvantage"
            raise NotationError(
                f"{typed!r}: {word} rolls a leading 1d20 twice; start with 1d20, like"
                f" '1d20+5 {'adv' if advantage is d20.AdvType.ADV else 'dis'}'."
            )
    _check_tree(typed, tree)
    return _Read(tree, str(tree.roll))


def _advantage(text: str) -> tuple[Any, str]:
    """A last word ``adv`` or ``dis`` (or ``advantage``, ``disadvantage``) taken off `text`,
    whose spaces are single: d20's AdvType for it, and the rest of the text."""
    rest, space, last = text.rpartition(" ")
    if space and last in _ADVANTAGE:
        return _ADVANTAGE[last], rest
    return d20.AdvType.NONE, text


def _explode(text: str) -> str:
    """`!` right after dice and their operations as d20's explosion on the highest face:
    ``1d6!`` is ``1d6e6``, ``4d6kh3!`` is ``4d6kh3e6``. A `!!` (compounding in other bots) and a
    `!` anywhere else are left as they are, for d20 to refuse.

    Each `!` looks back over the text since the one before it, so this is linear in the text.
    """
    parts: list[str] = []
    done = 0
    for at, char in enumerate(text):
        if char != "!" or text.startswith("!", at + 1):
            continue
        sides = _sides_before(text, at)
        if sides is not None:
            parts += [text[done:at], "e", sides]
            done = at + 1
    return "".join(parts) + text[done:]


def _sides_before(text: str, end: int) -> str | None:
    """The sides of the dice that `text[:end]` ends with (``6`` for ``2d6kh1``), or None.

    From the end back: numbers and operations taking turns (each operation exactly one of
    :data:`_OPERATION_WORDS`, with a number before it), until a ``d`` before a number.
    """
    at = end
    while True:
        number = at
        while at > 0 and text[at - 1] in _DIGITS:
            at -= 1
        if at == number:
            return None  # dice, and each of their operations, end with a number
        if at > 0 and text[at - 1] == "d":
            return text[at:number]
        word = at  # the letters back to the number before them: at most 3 make an operation
        while word > 0 and at - word <= 3 and text[word - 1] not in _DIGITS:
            word -= 1
        if word == 0 or text[word:at] not in _OPERATION_WORDS:
            return None
        at = word


def _check_characters(typed: str) -> str:
    if len(typed) > MAX_CHARS:
        raise NotationError(
            f"Dice notation may be at most {MAX_CHARS} characters long; got {len(typed)}"
            f" characters starting {typed[:20]!r}."
        )
    for char in typed:
        kind = unicodedata.category(char)
        if kind == "Cs" or char == "\ufffd":
            raise NotationError("Dice notation can't contain bytes that aren't valid text.")
        if kind in ("Cc", "Cf") and not char.isspace():
            raise NotationError(
                f"Dice notation can't contain a control character (U+{ord(char):04X})."
            )
        if (char.isdigit() and not char.isascii()) or kind == "No":
            raise NotationError(
                f"{typed!r}: write numbers with the digits 0 to 9, like 3d6; got {char!r}."
            )
    text = " ".join(typed.split()).lower()
    if not text:
        raise NotationError(f"Dice notation is empty; write something {EXAMPLE}.")
    return text


def _check_tree(typed: str, tree: Any) -> None:
    """Our limits on what d20 would accept: dice counts and sides, before anything is thrown."""
    dice = 0
    for node in _walk(tree):
        if isinstance(node, diceast.Dice):
            dice += node.num
            if not isinstance(node.size, int) or not 2 <= node.size <= MAX_SIDES:
                raise NotationError(
                    f"{typed!r}: a die must have 2 to {MAX_SIDES} sides; got {node.size}."
                )
    if dice > MAX_ROLL_DICE:
        raise NotationError(
            f"{typed!r}: it throws {dice} dice; one roll may throw at most {MAX_ROLL_DICE}."
        )


def _walk(node: Any) -> Iterator[Any]:
    stack = [node]
    while stack:
        here = stack.pop()
        yield here
        stack.extend(here.children)


def _unreadable(typed: str, why: str) -> NotationError:
    return NotationError(f"Can't read {typed!r} as dice: {why}. Write it {EXAMPLE}.")


def _evaluate(typed: str, draw: Callable[[int], int]) -> DiceRoll:
    read = _read(typed)
    context = Context(draw, MAX_ROLL_DICE)
    try:
        result = Roller(context).roll(read.tree)
        total = int(result.total)
    except d20.TooManyRolls:
        raise NotationError(
            f"{typed!r}: it would throw more than {MAX_ROLL_DICE} dice (rerolled and exploding"
            f" dice count); one roll may throw at most {MAX_ROLL_DICE}."
        ) from None
    except TooMuchWork:
        raise NotationError(
            f"{typed!r}: its operations would go over the dice more than"
            f" {roller.MAX_LOOKS:,} times;"
            " write fewer of them."
        ) from None
    except d20.RollValueError as error:
        raise NotationError(f"{typed!r}: {str(error).rstrip('.')}.") from None
    except (ArithmeticError, ValueError) as error:
        raise NotationError(f"{typed!r}: the total can't be worked out ({error}).") from None
    return DiceRoll(read.text, tuple(context.faces), total, result.expr)
