"""Dice notation (bot/notation.py, bot/render/dice.py): d20's own evaluation, our dice, our limits.

The property tests build expressions from d20's grammar, roll them with a seeded generator,
then hand the very same faces to the unmodified d20 library (its global ``random`` replaced by
one that gives those faces back) and check that it reaches the same total and the same kept
and dropped dice: our source of dice changes where faces come from, never what they mean.
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Iterator, Sequence
from typing import Any
from unittest import mock

import d20
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import notation, roller
from bot.commands.grammar import parse
from bot.engine.errors import ChaosError
from bot.notation import MAX_ROLL_DICE, DiceRoll, NotationError, replay, roll
from bot.render.dice import _Plain, dice_markdown, dice_plain
from tests.backtrack.clock import cpu_seconds

# -- expressions from d20's grammar ----------------------------------------------------------

_SELECTOR = st.builds(
    lambda cat, n: f"{cat}{n}",
    st.sampled_from(["", "h", "l", "<", ">"]),
    st.integers(min_value=0, max_value=8),
)
_DICE_OP = st.one_of(
    st.builds(lambda op, sel: f"{op}{sel}", st.sampled_from(["k", "p"]), _SELECTOR),
    st.builds(lambda op, sel: f"{op}{sel}", st.sampled_from(["rr", "ro", "ra", "e"]), _SELECTOR),
    st.builds(
        lambda op, n: f"{op}{n}",
        st.sampled_from(["mi", "ma"]),
        st.integers(min_value=1, max_value=8),
    ),
)
_DICE = st.builds(
    lambda n, sides, ops, bang: f"{n}d{sides}{''.join(ops)}{'!' if bang else ''}",
    st.sampled_from(["", "1", "2", "3", "4", "6"]),
    st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20, 100]),
    st.lists(_DICE_OP, max_size=2),
    st.booleans(),
)
_LITERAL = st.integers(min_value=0, max_value=20).map(str)


def _compound(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.builds(
            lambda a, op, b: f"{a}{op}{b}",
            inner,
            st.sampled_from(["+", "-", "*", "//", "%", "/", ">", "<=", "=="]),
            inner,
        ),
        inner.map(lambda a: f"({a})"),
        inner.map(lambda a: f"-{a}"),
        st.builds(
            lambda items, op: f"({', '.join(items)}){op}",
            st.lists(inner, min_size=1, max_size=3),
            st.sampled_from(["", "kh1", "kl1", "p1", "k>3"]),
        ),
    )


EXPRESSIONS = st.recursive(st.one_of(_DICE, _LITERAL), _compound, max_leaves=5).filter(
    lambda text: len(text) <= notation.MAX_CHARS
)


class _Given:
    """Stands in for the ``random`` module inside d20: hands back logged faces in order."""

    def __init__(self, faces: Sequence[int]) -> None:
        self._faces: Iterator[int] = iter(faces)

    def randrange(self, *args: int) -> int:
        assert len(args) == 1, args  # d% is read as d100 before d20 sees it
        face = next(self._faces)
        assert 1 <= face <= args[0]
        return face - 1


def d20_itself(text: str, faces: Sequence[int]) -> Any:
    """The unmodified d20 library's roll of `text`, its dice showing `faces`."""
    with mock.patch.object(d20.expression, "random", _Given(faces)):
        return d20.Roller().roll(text)


def dice_in(tree: Any) -> list[tuple[int, bool]]:
    """Every face in an evaluated tree with whether it counts, in the order they are shown."""
    found: list[tuple[int, bool]] = []

    def visit(node: Any, kept: bool) -> None:
        kept = kept and node.kept
        if isinstance(node, d20.Die):
            found.extend((value.number, kept and value.kept) for value in node.values)
        elif isinstance(node, d20.Dice):
            for die in node.values:
                visit(die, kept)
        else:
            for child in node.children:
                visit(child, kept)

    visit(tree, True)
    return found


@settings(max_examples=400, deadline=None)
@given(text=EXPRESSIONS, seed=st.integers(min_value=0, max_value=2**32))
def test_our_roll_is_d20s_own_roll_given_the_same_dice(text: str, seed: int) -> None:
    try:
        ours = roll(text, random.Random(seed))
    except NotationError:
        return  # refused with a sentence: a bad selector, a division by zero, too many dice
    theirs = d20_itself(ours.text, ours.faces)
    assert ours.total == theirs.total
    # d20 rerolls in an order of its own (see the next test), so the same faces may sit on
    # other dice; which faces there are and which count is the same.
    assert sorted(dice_in(ours.tree)) == sorted(dice_in(theirs.expr))
    if "r" not in ours.text:
        assert dice_plain(ours) == _Plain().stringify(theirs.expr)
    assert len(ours.faces) <= MAX_ROLL_DICE
    # And the log's faces alone give the roll back.
    assert replay(text, ours.faces) == ours


@settings(max_examples=300, deadline=None)
@given(
    text=st.one_of(
        st.text(max_size=120),
        st.text(alphabet="0123456789dkhlpremia!<>()+-*/%,. %[]advs", max_size=110),
    ),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_any_text_is_a_roll_or_a_sentence(text: str, seed: int) -> None:
    try:
        rolled = roll(text, random.Random(seed))
    except NotationError as error:
        refusal = str(error)
    else:
        assert len(rolled.faces) <= MAX_ROLL_DICE
        assert dice_plain(rolled).endswith(f" = {rolled.total}")
        return
    assert refusal.endswith(".")


# -- our dice ------------------------------------------------------------------------------------


def test_the_same_seed_throws_the_same_dice_one_draw_a_die() -> None:
    first = roll("4d6kh3+1d20", random.Random("game/1"))
    again = roll("4d6kh3+1d20", random.Random("game/1"))
    assert first == again
    rng = random.Random("game/1")
    draws = [rng.random() for _ in range(5)]
    expected = [int(d * 6) + 1 for d in draws[:4]] + [int(draws[4] * 20) + 1]
    assert list(first.faces) == expected


def test_rerolls_land_on_the_same_dice_every_time() -> None:
    """d20 alone rerolls the dice it picked in the order of a set of them (by memory address):
    the same draws can land on other dice from one roll to the next. Ours go left to right."""
    shown = {dice_plain(roll("8d6ro<4rr1kh4", random.Random("same"))) for _ in range(200)}
    assert len(shown) == 1, shown


def test_rerolls_and_exploding_dice_draw_from_the_same_source_and_replay() -> None:
    for seed in range(200):
        rolled = roll("3d6rr1e6", random.Random(seed))
        assert replay("3d6rr1e6", rolled.faces) == rolled
        if len(rolled.faces) > 3:
            break
    else:
        pytest.fail("no reroll or explosion in 200 seeds")


def test_replay_refuses_faces_that_dont_fit() -> None:
    with pytest.raises(NotationError, match="don't fit"):
        replay("2d6", [3, 9])
    with pytest.raises(NotationError, match="don't fit"):
        replay("2d6", [3])
    with pytest.raises(NotationError, match="too many"):
        replay("2d6", [3, 4, 5])


def test_the_global_random_is_left_alone() -> None:
    random.seed(5)
    expected = random.random()
    random.seed(5)
    roll("10d20e20", random.Random(1))
    assert random.random() == expected


# -- what players type ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "faces", "total", "plain"),
    [
        ("4d6kh3", [1, 6, 5, 2], 13, "4d6kh3 (1 dropped, 6, 5, 2) = 13"),
        ("2d20kl1", [10, 9], 9, "2d20kl1 (10 dropped, 9) = 9"),
        ("1d20+5 adv", [14, 16], 21, "2d20kh1 (14 dropped, 16) + 5 = 21"),
        ("1d20 dis", [14, 16], 14, "2d20kl1 (14, 16 dropped) = 14"),
        ("2d6ro1", [1, 3, 4], 7, "2d6ro1 (1 dropped, 4, 3) = 7"),
        ("1d8rr<3", [1, 2, 7], 7, "1d8rr<3 (1 dropped, 2 dropped, 7) = 7"),
        ("1d6!", [6, 6, 2], 14, "1d6e6 (6!, 6!, 2) = 14"),
        ("2d6e6", [6, 3, 4], 13, "2d6e6 (6!, 3, 4) = 13"),
        ("3d6mi3", [1, 5, 2], 11, "3d6mi3 (1 -> 3, 5, 2 -> 3) = 11"),
        ("3d6ma4", [6, 5, 2], 10, "3d6ma4 (6 -> 4, 5 -> 4, 2) = 10"),
        ("(1d4+1)*3", [2], 9, "(1d4 (2) + 1) * 3 = 9"),
        ("d%", [37], 37, "1d100 (37) = 37"),
        ("2D6 + 1", [3, 4], 8, "2d6 (3, 4) + 1 = 8"),
        ("(1d6, 2d6)kh1", [4, 6, 3], 9, "(1d6 (4) dropped, 2d6 (6, 3))kh1 = 9"),
    ],
)
def test_the_notation_of_discords_dice_bots(
    typed: str, faces: list[int], total: int, plain: str
) -> None:
    rolled = replay(typed, faces)
    assert rolled.total == total
    assert dice_plain(rolled) == plain
    assert d20_itself(rolled.text, faces).total == total


def test_discord_strikes_dropped_dice_and_bolds_ones_and_highest_faces() -> None:
    assert dice_markdown(replay("4d6kh3", [1, 6, 5, 2])) == "4d6kh3 (~~**1**~~, **6**, 5, 2) = `13`"
    # A lone * between numbers would start italics in Discord's markdown.
    assert dice_markdown(replay("(1d4+1)*3", [2])) == "(1d4 (2) + 1) \\* 3 = `9`"


def test_a_roll_too_long_to_show_is_summed_up_within_the_limit() -> None:
    rolled = roll("200d1000mi999", random.Random(3))
    full = dice_markdown(rolled)
    assert len(full) > 2000
    short = dice_markdown(rolled, 1998)
    assert short == f"200d1000mi999 = `{rolled.total}` (200 dice: too many to show each one here)"
    assert dice_plain(rolled).count(" -> ") > 100  # the console shows them all


# -- limits and hostile input --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("201d6", "'201d6': it throws 201 dice; one roll may throw at most 200."),
        ("100d6+101d6", "'100d6+101d6': it throws 201 dice; one roll may throw at most 200."),
        ("1000000d1000000", "'1000000d1000000': a die must have 2 to 1000 sides; got 1000000."),
        ("9" * 60 + "d6", "it throws 9999"),
        ("1d1001", "a die must have 2 to 1000 sides; got 1001"),
        ("1d0", "a die must have 2 to 1000 sides; got 0"),
        ("1d6e>0", "it would throw more than 200 dice (rerolled and exploding dice count)"),
        ("1d2rr<3", "it would throw more than 200 dice"),
        ("100d6e>0", "it would throw more than 200 dice"),
        ("1d6" + "e>0" * 32, "it would throw more than 200 dice"),
        ("((1d6!)!)", "'!' explodes dice when it comes right after them"),
        ("1d6!!", "'!' explodes dice when it comes right after them"),
        ("1d6/0", "'1d6/0': Cannot divide by zero."),
        ("4d6mi<3", "<3 is not a valid selector for minimums"),
        ("2d6 adv", "advantage rolls a leading 1d20 twice"),
        ("1d6[fire]", "labels in [brackets] aren't read"),
        ("1d20 the dragon", "Can't read '1d20 the dragon' as dice"),
        ("banana", "Can't read 'banana' as dice"),
        ("1d6+", "it can't go on at the end"),
        ("", "Dice notation is empty"),
        ("1d6\x00", "can't contain a control character (U+0000)"),
        ("1d6\x1b[2J", "can't contain a control character (U+001B)"),
        ("1d\u200b6", "can't contain a control character (U+200B)"),
        ("1d6\ufffd", "bytes that aren't valid text"),
        pytest.param("1d6" + chr(0xDCFF), "bytes that aren't valid text", id="surrogate"),
        ("٣d6", "write numbers with the digits 0 to 9, like 3d6; got '٣'"),
        ("３d6", "write numbers with the digits 0 to 9, like 3d6; got '３'"),
        ("²d6", "write numbers with the digits 0 to 9, like 3d6; got '²'"),
        ("1d6+" * 30, "at most 100 characters long; got 120"),
    ],
)
def test_bombs_and_hostile_input_get_a_sentence(typed: str, message: str) -> None:
    with pytest.raises(NotationError) as caught:
        roll(typed, random.Random(0))
    assert message in str(caught.value)
    assert isinstance(caught.value, ChaosError)  # what every front end shows as it is


# The operations d20 reads after dice, each written as a player would (with its number).
_OPERATIONS = [f"{op}{kind}1" for op in ("k", "p", "rr", "ro", "ra", "e") for kind in "hl<>"]
_OPERATIONS += ["k1", "p1", "e6", "mi2", "ma5"]
# What repeats in dice notation: dice, operations, their letters alone, signs, brackets, words.
_GRAMMAR = [*_OPERATIONS, "1d6", "d20", "d%", "d", "6", "!", "!!", "k", "h", "l", "<", ">"]
_GRAMMAR += ["+", "-", "*", "/", "//", "%", "==", "!=", "<=", "(", ")", ",", " ", ".", "adv"]
# Repeated, a limit long, after dice, and inside a set; with a ! or a word that fails it last.
_BOMBS = [
    "1d6" + "kh1" * 23,  # the 72-character one that stalled every server for 6 to 9 s
    "1d6" + "pl1" * 32,
    "1d20" + "kl1" * 32,
    "2d6" + "ph1" * 32,
    "1d6" + "khh1" * 24,
    "1d6" + "k1" * 48,
    "1d6" + "rr<1" * 24,
    "1d6" + "kh1" * 31 + "!!",
    "1d6" + "kh1" * 30 + "x!",
    "(1d6" + "kh1" * 30 + ")",
    "1d20" + "kh1" * 28 + " adv",
    "1d6kh1" * 16,
    "d" * 100,
    "1d" * 50,
    "!" * 100,
]
_LIMIT = 0.25  # processor seconds: a roll takes a few milliseconds


def _within(text: str) -> list[str]:
    """`text` repeated to the length limit, alone and after dice."""
    times = notation.MAX_CHARS // len(text)
    return [text * times, "1d6" + text * ((notation.MAX_CHARS - 3) // len(text))][: times and 2]


_SWEEP = sorted(
    {bomb for word in _GRAMMAR for bomb in _within(word)}
    | {bomb for a in _GRAMMAR for b in _GRAMMAR[-24:] for bomb in _within(a + b)}
    | set(_BOMBS)
)


@pytest.mark.parametrize("typed", _BOMBS)
def test_repeated_operations_read_in_well_under_a_second(typed: str) -> None:
    """The notation is read in one pass: repeating an operation costs in proportion, not 2^n."""
    assert len(typed) <= notation.MAX_CHARS
    try:
        took = cpu_seconds(lambda: roll(typed, random.Random(0)), give_up=5)
    except NotationError:
        return  # refused: also in time, or the alarm would have ended it as a Runaway
    assert took < _LIMIT, f"{typed!r} took {took:.2f} s of processor time"


def test_every_repetition_of_the_grammar_rolls_and_replays_in_time() -> None:
    """Each piece of the notation, and each pair, repeated to the limit: a roll or a sentence,
    and either in well under a second; a roll's faces replay in time too."""
    slow = []
    for typed in _SWEEP:
        rolled: list[DiceRoll] = []

        def once(typed: str = typed, rolled: list[DiceRoll] = rolled) -> None:
            with contextlib.suppress(NotationError):
                rolled.append(roll(typed, random.Random(typed)))

        def again(typed: str = typed, rolled: list[DiceRoll] = rolled) -> None:
            assert replay(typed, rolled[0].faces) == rolled[0]

        took = cpu_seconds(once, give_up=5)
        if rolled:
            took = max(took, cpu_seconds(again, give_up=5))
        if took >= _LIMIT:
            slow.append(f"{typed!r}: {took:.2f} s")
    assert len(_SWEEP) > 500
    assert not slow, slow


def test_a_roll_whose_operations_would_look_too_long_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Within 100 characters the operations look at the dice a few thousand times at most;
    the limit stands guard past that, with a sentence."""
    monkeypatch.setattr(roller, "MAX_LOOKS", 300)
    assert roll("100d6kh1kh2", random.Random(0)).total > 0  # one select, two selectors: 200
    with pytest.raises(NotationError, match="go over the dice more than 300 times; write fewer"):
        roll("100d6kh1kh2kh3kh4", random.Random(0))


def test_deep_nesting_within_the_length_limit_is_read() -> None:
    assert roll("(" * 48 + "1d6" + ")" * 48, random.Random(0)).total in range(1, 7)
    assert roll("-" * 99 + "1", random.Random(0)).total == -1


# -- the console's `roll` ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expr"),
    [
        ("roll 4d6", "4d6"),
        ("roll 4d6kh3", "4d6kh3"),
        ("roll d20 adv", "d20 adv"),
        ("roll (1d4+1)*3", "(1d4+1)*3"),
        ("roll 1d6!", "1d6!"),
        ("roll dice 2d6+1", "2d6+1"),
        ("ROLL D20", "D20"),
        ("roll ٣d6", "٣d6"),  # read as dice, so the dice say what is wrong
    ],
)
def test_roll_without_the_word_dice_is_roll_dice(line: str, expr: str) -> None:
    command = parse(line)
    assert command is not None
    assert (command.name, dict(command.args)) == ("roll dice", {"expr": expr})


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("roll", "say which dice, like `roll 2d6+1`"),
        ("roll dcie 2d6", "did you mean `roll dice`?"),
        ("roll chaos", "the turn's chaos roll is `chaos roll`"),
        ("roll banana", "`roll` has no 'banana'"),
    ],
)
def test_roll_with_a_word_that_isnt_dice_says_so(line: str, message: str) -> None:
    with pytest.raises(ChaosError, match=re.escape(message)):
        parse(line)


def test_chaos_roll_is_still_the_chaos_roll() -> None:
    command = parse("chaos roll")
    assert command is not None
    assert command.name == "chaos roll"
