"""Small rulesets built in code, one per variant, for the engine tests and golden games.

They use every entry kind the engine knows, at frequencies high enough that a few turns meet
each of them. The real default content is YAML under tables/ (loaded by bot.tables).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from bot.engine import (
    Band,
    Budget,
    ChaosSource,
    Deck,
    DeckCard,
    Die,
    Duration,
    Entry,
    Kind,
    Lasts,
    LifeGain,
    MultiMode,
    MultiRoll,
    Nesting,
    RollTable,
    Ruleset,
    SpitePolicy,
    StartRoll,
    Sum,
    TensUnits,
    Token,
    TurnChange,
    ZonePolicy,
    parse_expr,
)
from bot.engine.dice import Dice


def entry(n: int | str, name: str, **kw: Any) -> Entry:
    return Entry(id=str(n), name=name, **kw)


def times(n: int | str, table: str | None = None, mode: MultiMode = MultiMode.TIMES) -> MultiRoll:
    return MultiRoll(mode, parse_expr(str(n)), (table,) if table else ())


def lasting(lasts: Lasts, turns: int = 0) -> Duration:
    return Duration(lasts, turns)


def table(
    table_id: str, dice: Dice, make: Callable[[int], Entry], name: str | None = None
) -> RollTable:
    """A table with one entry per number the dice can make."""
    bands = tuple(Band(n, n, make(n)) for n in dice.outcomes())
    return RollTable(table_id, name or table_id, dice, bands)


def plain(n: int, prefix: str) -> Entry:
    return entry(n, f"{prefix} {n}", text=f"Do the {prefix.lower()} thing number {n}.")


def classic_chaos(n: int) -> Entry:
    match n % 25:
        case 1:
            return entry(n, "Roll three times", kind=Kind.MULTI, multi=times(3))
        case 2:
            return entry(n, "Off to WackyLand", kind=Kind.LINK, link="wacky")
        case 3:
            return entry(n, "Persona time", kind=Kind.LINK, link="persona")
        case 4:
            return entry(n, "A CounterRoll", kind=Kind.TOKEN, token=Token.COUNTER)
        case 5:
            return entry(n, "A RollFork", kind=Kind.TOKEN, token=Token.FORK)
        case 6:
            return entry(
                n,
                "Fog of chaos",
                text="Creatures deal no combat damage.",
                duration=lasting(Lasts.NEXT_TURN),
            )
        case 7:
            return entry(
                n,
                "Healing rain",
                text="Gain {1d6} life.",
                gains_life=True,
                life=LifeGain(parse_expr("1d6")),
            )
        case 8:
            return entry(n, "Two, keep one", kind=Kind.MULTI, multi=times(2, mode=MultiMode.KEEP))
        case 9:
            return entry(n, "Fireball", kind=Kind.CARD, card="Fireball", x=parse_expr("1d6+1"))
        case 10:
            return entry(n, "Backwards", text="Play passes the other way.", turn=TurnChange.REVERSE)
        case 11:
            return entry(n, "Slow time", text="No spells over 3.", duration=lasting(Lasts.TURNS, 2))
        case 12:
            return entry(n, "New world", kind=Kind.LINK, link="ewl")
        case _:
            return plain(n, "Chaos")


def wacky(n: int) -> Entry:
    if n == 11:
        return entry(
            n,
            "All the lists",
            kind=Kind.MULTI,
            multi=MultiRoll(MultiMode.EACH, parse_expr("1"), ("chaos", "persona", "ewl")),
        )
    if n == 2:
        return entry(n, "Time warp", text="Take another turn.", turn=TurnChange.EXTRA)
    if n == 20:
        return entry(n, "Lost turn", text="Skip your next turn.", turn=TurnChange.SKIP)
    return plain(n, "Wacky")


CLASSIC_BUDGET = Budget(rolls=40, depth=6)
LISTS_BUDGET = Budget(rolls=60, depth=10)


def classic(budget: Budget = CLASSIC_BUDGET) -> Ruleset:
    tables = [
        table("chaos", TensUnits(20, tens_max_is_zero=True, units_zero_is_ten=True), classic_chaos),
        table("wacky", Sum(2, 10), wacky),
        table("persona", Die(20), lambda n: plain(n, "Persona")),
        table("ewl", Die(20), lambda n: entry(n, f"World {n}", kind=Kind.WORLD, text="A rule.")),
    ]
    return Ruleset(
        id="classic",
        name="Classic",
        chaos=ChaosSource.TABLE,
        chaos_table="chaos",
        start=StartRoll.WORLD,
        start_table="ewl",
        nesting=Nesting.IGNORE_NESTED,
        spite=SpitePolicy.LIFE_GAIN_ROLL,
        spite_table="chaos",
        tokens=True,
        budget=budget,
        life=20,
        tables={t.id: t for t in tables},
    )


LETTERS = "ABCDEF"


def list_entry(letter: str) -> Callable[[int], Entry]:
    following = LETTERS[(LETTERS.index(letter) + 1) % len(LETTERS)]

    def make(n: int) -> Entry:
        if n % 10 == 9 and n // 10 <= 8 - LETTERS.index(letter):
            return entry(n, f"On to list {following}", kind=Kind.LINK, link=following)
        if n == 15:
            return entry(n, "Into the Vortex", kind=Kind.LINK, link="vortex")
        if n == 25:
            return entry(n, "A new Global", kind=Kind.LINK, link="global")
        if n == 35:
            return entry(n, "Twice more", kind=Kind.MULTI, multi=times(2))
        if n == 45:
            return entry(n, "Straight to E", text="Your next chaos roll is on E.", next_list="E")
        if n == 55:
            return entry(n, "Lingering", text="Lands are blue.", duration=lasting(Lasts.NEXT_TURN))
        if n == 65:
            return entry(n, "Spiky", kind=Kind.CARD, card="Pestilence")
        return plain(n, f"List {letter}")

    return make


def lists_global(n: int) -> Entry:
    if n % 20 == 10:
        return entry(n, "Roll Global again", kind=Kind.LINK, link="global")
    return entry(n, f"Global {n}", kind=Kind.GLOBAL, text=f"Global rule {n}.")


def vortex(n: int) -> Entry:
    if 3 <= n <= 8:
        letter = LETTERS[n - 3]
        return entry(n, f"Out to {letter}", kind=Kind.LINK, link=letter)
    if n == 12:
        return entry(n, "Spin again", kind=Kind.MULTI, multi=times(2))
    return plain(n, "Vortex")


def spite_table() -> RollTable:
    edges = [1, 2, 4, 10, 20, 35, 50, 65, 76, 86, 92, 96, 98, 100]
    bands = []
    for i, low in enumerate(edges):
        high = edges[i + 1] - 1 if i + 1 < len(edges) else 100
        label = f"{low}" if low == high else f"{low}-{high}"
        bands.append(Band(low, high, entry(label, f"Spite {low}")))
    return RollTable("spite", "Spite", Die(100), tuple(bands))


def lists(budget: Budget = LISTS_BUDGET) -> Ruleset:
    tables = [table(letter, TensUnits(8), list_entry(letter)) for letter in LETTERS]
    tables += [
        table("global", TensUnits(12), lists_global),
        table("vortex", Sum(3, 8), vortex),
        table("extreme", Sum(2, 12), lambda n: plain(n, "Extreme")),
        spite_table(),
    ]
    return Ruleset(
        id="lists",
        name="Lists A-F",
        chaos=ChaosSource.PROGRESSION,
        lists=tuple(LETTERS),
        start=StartRoll.GLOBAL,
        start_table="global",
        nesting=Nesting.SEQUENTIAL,
        spite=SpitePolicy.SPITE_TABLE,
        spite_table="spite",
        zone=ZonePolicy.MIDDLE_WORLD,
        budget=budget,
        tables={t.id: t for t in tables},
    )


def deck_cards() -> Iterable[DeckCard]:
    for n in range(1, 11):
        kw: dict[str, Any] = {}
        if n == 3:
            kw["duration"] = lasting(Lasts.END_OF_TURN)
        if n == 4:
            kw["duration"] = lasting(Lasts.NEXT_TURN)
        if n == 5:
            kw.update(gains_life=True, life=LifeGain(parse_expr("5")))
        yield DeckCard(entry(f"c{n}", f"Chaos card {n}", text=f"Card {n} does a thing.", **kw))
    for n in (1, 2):
        halves = (
            entry(f"s{n}-fire", f"Fire {n}", text="Deal {2} damage to each creature."),
            entry(f"s{n}-ice", f"Ice {n}", text="Tap all creatures."),
        )
        yield DeckCard(entry(f"s{n}", f"Fire // Ice {n}", halves=halves))


def deck(chaos_copies: int = 1) -> Ruleset:
    chaos = Deck(
        "chaos",
        "Chaos deck",
        tuple(DeckCard(c.entry, chaos_copies) for c in deck_cards()),
    )
    globals_ = Deck(
        "globals",
        "Global deck",
        tuple(
            DeckCard(entry(f"g{n}", f"Global card {n}", kind=Kind.GLOBAL, text="A world rule."))
            for n in range(1, 5)
        ),
    )
    return Ruleset(
        id="deck",
        name="Chaos deck",
        chaos=ChaosSource.DECK,
        chaos_table="chaos",
        start=StartRoll.GLOBAL_DECK,
        start_table="globals",
        spite=SpitePolicy.DECK_LOOK,
        zone=ZonePolicy.MIDDLE,
        decks={chaos.id: chaos, globals_.id: globals_},
    )


RULESETS: dict[str, Callable[[], Ruleset]] = {"classic": classic, "lists": lists, "deck": deck}
