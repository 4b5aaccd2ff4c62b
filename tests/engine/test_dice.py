"""Tests for bot.engine.dice: physical readings, distributions, notation parsing, inline rolls."""

from __future__ import annotations

import contextlib
import math
import random
from collections import Counter
from collections.abc import Callable, Iterable
from typing import cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine.dice import (
    Dice,
    DiceExpr,
    Die,
    InlineRoll,
    Sum,
    TensUnits,
    inline_exprs,
    parse_expr,
    render_inline,
)
from bot.engine.errors import ChaosError, DiceError

CLASSIC = TensUnits(20, tens_max_is_zero=True, units_zero_is_ten=True)
TOP = 1.0 - 2.0**-53  # the largest value random() can return


class ScriptedRandom(random.Random):
    """A Random whose random() hands out queued values, so a test picks the faces exactly."""

    def __init__(self, draws: Iterable[float]) -> None:
        super().__init__(0)
        self.draws = list(draws)

    def random(self) -> float:
        return self.draws.pop(0)


def pick(index: int, size: int) -> float:
    """The random() value that lands in the middle of slice `index` out of `size`."""
    return (index + 0.5) / size


# --- Table dice: readings ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "faces", "expected"),
    [
        (CLASSIC, (20, 0), 10),
        (CLASSIC, (20, 7), 7),
        (CLASSIC, (20, 1), 1),
        (CLASSIC, (19, 0), 200),
        (CLASSIC, (19, 9), 199),
        (CLASSIC, (1, 3), 13),
        (CLASSIC, (1, 0), 20),
        (CLASSIC, (10, 0), 110),
        (TensUnits(8), (1, 0), 10),
        (TensUnits(8), (3, 4), 34),
        (TensUnits(8), (8, 9), 89),
        (TensUnits(12), (1, 0), 10),
        (TensUnits(12), (12, 9), 129),
        (TensUnits(20, tens_max_is_zero=True), (20, 0), 0),
        (TensUnits(20, tens_max_is_zero=True), (19, 9), 199),
        (TensUnits(20, units_zero_is_ten=True), (20, 0), 210),
        (TensUnits(20, units_zero_is_ten=True), (1, 1), 11),
    ],
)
def test_tens_units_reads_faces_like_the_table_does(
    dice: TensUnits, faces: tuple[int, int], expected: int
) -> None:
    tens_face, units_face = faces
    # One draw per roll, tens die as the slow digit of the odometer (see the module docstring).
    draw = pick((tens_face - 1) * 10 + units_face, dice.tens * 10)
    assert dice.roll(ScriptedRandom([draw])) == (faces, expected)


def test_every_face_combination_has_exactly_one_slice_of_the_draw() -> None:
    seen = [CLASSIC.roll(ScriptedRandom([pick(i, 200)]))[0] for i in range(200)]
    assert sorted(seen) == [(t, u) for t in range(1, 21) for u in range(10)]


@pytest.mark.parametrize(
    ("dice", "draws", "low", "high"),
    [
        (Die(7), 1, ((1,), 1), ((7,), 7)),
        (Sum(2, 10), 1, ((1, 1), 2), ((10, 10), 20)),
        (CLASSIC, 1, ((1, 0), 20), ((20, 9), 9)),
        (Sum(3, 20), 3, ((1, 1, 1), 3), ((20, 20, 20), 60)),  # 8000 combinations: die by die
    ],
)
def test_extreme_draws_stay_on_the_dice(
    dice: Dice, draws: int, low: tuple[tuple[int, ...], int], high: tuple[tuple[int, ...], int]
) -> None:
    assert dice.roll(ScriptedRandom([0.0] * draws)) == low
    assert dice.roll(ScriptedRandom([TOP] * draws)) == high


def test_small_sum_uses_one_draw_and_big_sum_one_per_die() -> None:
    assert Sum(2, 10).roll(ScriptedRandom([pick(26, 100)])) == ((3, 7), 10)
    assert Sum(3, 20).roll(ScriptedRandom([0.0, 0.5, TOP])) == ((1, 11, 20), 32)


def test_die_reads_its_face() -> None:
    assert Die(20).roll(ScriptedRandom([pick(16, 20)])) == ((17,), 17)


@pytest.mark.parametrize(
    ("dice", "notation"),
    [
        (Die(20), "d20"),
        (Sum(2, 10), "2d10"),
        (CLASSIC, "d20×d10 (20 counts as 0, 0 counts as 10)"),
        (TensUnits(8), "d8×d10"),
        (TensUnits(20, tens_max_is_zero=True), "d20×d10 (20 counts as 0)"),
    ],
)
def test_notation(dice: Dice, notation: str) -> None:
    assert dice.notation == notation


def test_table_dice_satisfy_the_protocol() -> None:
    shapes: list[Dice] = [Die(6), Sum(2, 6), CLASSIC]
    assert all(isinstance(dice, Dice) for dice in shapes)


def test_table_dice_compare_by_their_declared_fields() -> None:
    assert Die(20) == Die(20)
    assert hash(CLASSIC) == hash(TensUnits(20, True, True))
    assert repr(Sum(2, 10)) == "Sum(count=2, sides=10)"


@pytest.mark.parametrize(
    ("make", "word"),
    [
        pytest.param(lambda: Die(1), "sides", id="d1"),
        pytest.param(lambda: Die(0), "sides", id="d0"),
        pytest.param(lambda: Die(10_001), "sides", id="d10001"),
        pytest.param(lambda: Die(True), "sides", id="bool"),
        pytest.param(lambda: Die(cast(int, "6")), "sides", id="text"),
        pytest.param(lambda: Sum(0, 6), "dice", id="0d6"),
        pytest.param(lambda: Sum(101, 6), "dice", id="101d6"),
        pytest.param(lambda: Sum(2, 1), "sides", id="2d1"),
        pytest.param(lambda: TensUnits(1), "tens die", id="tens-d1"),
        pytest.param(lambda: TensUnits(1001), "tens die", id="tens-d1001"),
    ],
)
def test_constructors_reject_impossible_dice(make: Callable[[], object], word: str) -> None:
    with pytest.raises(DiceError, match=word) as caught:
        make()
    assert isinstance(caught.value, ChaosError)
    assert isinstance(caught.value, ValueError)


# --- Table dice: outcomes and weights ------------------------------------------------------


def test_die_outcomes_and_weights() -> None:
    assert Die(20).outcomes() == range(1, 21)
    assert Die(20).weights() == dict.fromkeys(range(1, 21), 1)


def test_two_d10_is_triangular() -> None:
    dice = Sum(2, 10)
    weights = dice.weights()
    assert list(dice.outcomes()) == list(weights) == list(range(2, 21))
    assert len(weights) == 19
    assert (weights[2], weights[11], weights[20]) == (1, 10, 1)
    assert sum(weights.values()) == 100


@pytest.mark.parametrize(("count", "sides"), [(1, 6), (2, 12), (3, 8), (4, 3), (3, 20)])
def test_sum_weights_match_brute_force(count: int, sides: int) -> None:
    faces = [range(1, sides + 1)] * count
    combos: list[tuple[int, ...]] = [()]
    for die in faces:
        combos = [(*combo, face) for combo in combos for face in die]
    brute = Counter(sum(combo) for combo in combos)
    assert Sum(count, sides).weights() == dict(sorted(brute.items()))


@pytest.mark.parametrize(
    ("dice", "span"),
    [
        (CLASSIC, range(1, 201)),
        (TensUnits(8), range(10, 90)),
        (TensUnits(12), range(10, 130)),
        (TensUnits(20, tens_max_is_zero=True), range(0, 200)),
        (TensUnits(20, units_zero_is_ten=True), range(11, 211)),
    ],
)
def test_tens_units_outcomes_are_flat(dice: TensUnits, span: range) -> None:
    assert dice.outcomes() == span
    assert dice.weights() == dict.fromkeys(span, 1)


# --- Table dice: chi-square on seeded rolls ------------------------------------------------


def chi_square_critical(df: int, z: float = 3.0902) -> float:
    """Upper critical value of chi-square with `df` degrees of freedom (z = 3.0902 is p = 0.001).

    Wilson–Hilferty: the cube root of chi-square/df is close to normal with mean 1 - 2/(9 df)
    and variance 2/(9 df).
    """
    h = 2.0 / (9.0 * df)
    return df * (1.0 - h + z * math.sqrt(h)) ** 3


def chi_square(observed: Counter[int], weights: dict[int, int]) -> float:
    rolls = sum(observed.values())
    total_weight = sum(weights.values())
    assert set(observed) <= set(weights), "a roll produced a number the dice can't make"
    statistic = 0.0
    for value, weight in weights.items():
        expected = rolls * weight / total_weight
        statistic += (observed[value] - expected) ** 2 / expected
    return statistic


def test_wilson_hilferty_matches_printed_tables() -> None:
    assert chi_square_critical(10) == pytest.approx(29.588, rel=0.01)
    assert chi_square_critical(100) == pytest.approx(149.449, rel=0.002)


ROLLS = 100_000


@pytest.mark.parametrize(
    ("dice", "seed"),
    [(CLASSIC, 20240601), (Sum(2, 10), 7), (TensUnits(8), 88), (Die(20), 1), (Sum(3, 20), 3)],
    ids=["classic-d200", "2d10", "d8xd10", "d20", "3d20-per-die"],
)
def test_rolls_match_the_declared_weights(dice: Dice, seed: int) -> None:
    rng = random.Random(seed)
    observed = Counter(dice.roll(rng)[1] for _ in range(ROLLS))
    weights = dice.weights()
    assert chi_square(observed, weights) < chi_square_critical(len(weights) - 1)


def test_chi_square_catches_a_biased_d200() -> None:
    # Reducing a 0..255 draw modulo 200 favours 1..56: the check above must be able to see that.
    rng = random.Random(5)
    observed = Counter(int(rng.random() * 256) % 200 + 1 for _ in range(ROLLS))
    assert chi_square(observed, CLASSIC.weights()) > chi_square_critical(199)


# --- Table dice: properties ----------------------------------------------------------------

any_dice = st.one_of(
    st.builds(Die, st.integers(2, 1000)),
    st.builds(Sum, st.integers(1, 100), st.integers(2, 1000)),
    st.builds(Sum, st.integers(1, 4), st.integers(2, 12)),  # the table-backed sizes
    st.builds(TensUnits, st.integers(2, 1000), st.booleans(), st.booleans()),
)


@given(dice=any_dice, seed=st.integers(0, 2**64))
def test_any_roll_is_a_possible_outcome_on_real_faces(dice: Dice, seed: int) -> None:
    faces, result = dice.roll(random.Random(seed))
    assert result in dice.outcomes()
    if isinstance(dice, Die):
        assert faces == (result,)
        assert 1 <= result <= dice.sides
    elif isinstance(dice, Sum):
        assert len(faces) == dice.count
        assert all(1 <= face <= dice.sides for face in faces)
        assert sum(faces) == result
    else:
        assert isinstance(dice, TensUnits)
        tens_face, units_face = faces
        assert 1 <= tens_face <= dice.tens
        assert 0 <= units_face <= 9
    assert dice.roll(random.Random(seed)) == (faces, result)


@given(
    dice=st.one_of(
        st.builds(Die, st.integers(2, 50)),
        st.builds(Sum, st.integers(1, 3), st.integers(2, 12)),
        st.builds(TensUnits, st.integers(2, 30), st.booleans(), st.booleans()),
    )
)
def test_weights_cover_outcomes_and_every_combination(dice: Dice) -> None:
    weights = dice.weights()
    assert list(weights) == list(dice.outcomes())
    if isinstance(dice, Die):
        assert sum(weights.values()) == dice.sides
    elif isinstance(dice, Sum):
        assert sum(weights.values()) == dice.sides**dice.count
    else:
        assert isinstance(dice, TensUnits)
        assert sum(weights.values()) == dice.tens * 10


# --- Inline expressions: parsing -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "normalised", "bounds"),
    [
        ("1d6+1", "1d6+1", (2, 7)),
        ("d6", "d6", (1, 6)),
        ("2d6 + 3", "2d6+3", (5, 15)),
        ("d20-1", "d20-1", (0, 19)),
        ("4", "4", (4, 4)),
        ("0", "0", (0, 0)),
        ("1d6+1d4+2", "1d6+1d4+2", (4, 12)),
        ("2D6", "2d6", (2, 12)),
        (" 3 d 8 ", "3d8", (3, 24)),
        ("-d4+10", "-d4+10", (6, 9)),
        ("+5", "5", (5, 5)),
        ("007 + d02", "7+d2", (8, 9)),
        ("1d6-1d6", "1d6-1d6", (-5, 5)),
        ("100d1000", "100d1000", (100, 100_000)),
        ("10000", "10000", (10_000, 10_000)),
        ("+".join(["1"] * 20), "+".join(["1"] * 20), (20, 20)),
    ],
)
def test_parse_good_expressions(text: str, normalised: str, bounds: tuple[int, int]) -> None:
    expr = parse_expr(text)
    assert expr.text == normalised
    assert expr.bounds() == bounds
    assert parse_expr(normalised) == expr


def test_parse_terms() -> None:
    assert parse_expr("d20-1").terms == ((1, 1, 20), (-1, 1, 0))
    assert parse_expr("2d6+1d4+3").terms == ((1, 2, 6), (1, 1, 4), (1, 3, 0))


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("d", "sides"),
        ("3d+1", "sides"),
        ("1d1", "sides"),
        ("1d100000", "sides"),
        ("101d6", "at most 100"),
        ("50d6+51d6", "101 dice"),
        ("0d6", "at least 1 die"),
        ("1d6+", "ends with '\\+'"),
        ("1d6--2", "not a number or a die"),
        ("abc", "'abc' is not a number or a die"),
        ("2d6*2", "expected \\+ or -"),
        ("2d6(3)", "expected \\+ or -"),
        ("1d6d6", "expected \\+ or -"),
        ("10001", "plain numbers"),
        ("+".join(["1"] * 21), "at most 20"),
        ("1" * 101, "100 characters"),
        ("1d6+" * 40 + "1", "100 characters"),
    ],
)
def test_parse_bad_expressions(text: str, word: str) -> None:
    with pytest.raises(DiceError, match=word):
        parse_expr(text)


def test_parse_error_quotes_the_input() -> None:
    with pytest.raises(DiceError) as caught:
        parse_expr("2 goblins")
    assert repr("2 goblins") in str(caught.value)


def test_direct_construction_is_checked_too() -> None:
    with pytest.raises(DiceError, match="sign"):
        DiceExpr(((2, 1, 6),), "2d6")
    with pytest.raises(DiceError, match="sides"):
        DiceExpr(((1, 1, 1),), "1d1")


@given(st.text())
def test_arbitrary_text_parses_or_raises_dice_error(text: str) -> None:
    with contextlib.suppress(DiceError):
        parse_expr(text)


@given(st.text(alphabet="0123456789dD+- ", max_size=40), st.integers(0, 2**32))
def test_whatever_parses_rolls_within_its_bounds(text: str, seed: int) -> None:
    try:
        expr = parse_expr(text)
    except DiceError:
        return
    low, high = expr.bounds()
    rolled = expr.roll(random.Random(seed))
    assert low <= rolled.total <= high
    assert len(rolled.faces) == sum(count for _, count, sides in expr.terms if sides)
    assert rolled.expr == expr.text
    assert parse_expr(expr.text) == expr


def test_expression_roll_records_each_face() -> None:
    rolled = parse_expr("2d6-d4+3").roll(ScriptedRandom([pick(4, 6), pick(0, 6), pick(3, 4)]))
    assert rolled == InlineRoll("2d6-d4+3", (5, 1, 4), 5)
    assert rolled.to_dict() == {"expr": "2d6-d4+3", "faces": [5, 1, 4], "total": 5}


# --- Inline expressions: rendering ---------------------------------------------------------


def test_render_substitutes_totals_in_order() -> None:
    rng = ScriptedRandom([pick(5, 6), pick(0, 4)])
    text, rolls = render_inline("Deals {1d6+1} damage, then {d4} more.", rng)
    assert text == "Deals 7 damage, then 1 more."
    assert [r.to_dict() for r in rolls] == [
        {"expr": "1d6+1", "faces": [6], "total": 7},
        {"expr": "d4", "faces": [1], "total": 1},
    ]
    assert rng.draws == []


@pytest.mark.parametrize("text", ["Draw a card.", "", "A lone { stays", "so does } this"])
def test_render_leaves_plain_text_alone(text: str) -> None:
    rng = ScriptedRandom([])
    rendered, rolls = render_inline(text, rng)
    assert rendered == text
    assert rolls == ()


def test_render_without_braces_returns_the_same_object() -> None:
    text = "Each player sacrifices a creature."
    assert render_inline(text, random.Random(0))[0] is text


def test_render_rejects_a_dice_bomb() -> None:
    with pytest.raises(DiceError, match="1000 dice"):
        render_inline("Mill {1000d6} cards.", random.Random(0))


@pytest.mark.parametrize("text", ["Pay {2}{W}: gain {} life.", "Add {G/U} or {T}, {X}."])
def test_braces_without_a_die_are_mana_symbols_left_as_written(text: str) -> None:
    assert render_inline(text, random.Random(0)) == (text, ())
    assert inline_exprs(text) == ()


def test_a_bad_die_in_braces_is_refused() -> None:
    with pytest.raises(DiceError, match="needs its number of sides"):
        render_inline("Deal {1dx} damage.", random.Random(0))  # a typo, not mana


def test_render_is_reproducible_from_a_seed() -> None:
    text = "Create {d4} tokens with power {2d6-1}; X is {1d20+1d4}."
    first = render_inline(text, random.Random(99))
    second = render_inline(text, random.Random(99))
    assert first == second
    assert first[0].startswith("Create ")
    assert "{" not in first[0]


def test_inline_exprs_parses_without_rolling() -> None:
    assert inline_exprs("Deals {1d6 + 1} damage to {D4} players") == (
        parse_expr("1d6+1"),
        parse_expr("d4"),
    )
    assert inline_exprs("No dice here") == ()
    with pytest.raises(DiceError, match="not a number or a die"):
        inline_exprs("Deals {Xd6} damage")
