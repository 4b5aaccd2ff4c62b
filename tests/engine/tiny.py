"""Tiny purpose-made tables, a scripted rng and game helpers for the resolution, list progression
and token tests.

Two ways to force what a roll gives: a :class:`ScriptedRandom` (each table roll is one
``random()`` draw, see :mod:`bot.engine.dice`), or a table whose every face gives the same entry
(:func:`fixed`), which keeps a whole game predictable whatever its seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, cast

from bot.engine import (
    Band,
    Begin,
    Budget,
    ChaosSource,
    Die,
    Entry,
    Event,
    Game,
    Join,
    MultiMode,
    MultiRoll,
    Nesting,
    Resolution,
    Resolver,
    RollTable,
    Ruleset,
    fold,
    parse_expr,
)
from bot.engine.events import Roll

# Every key a roll event has, as events.py declares it.
# Every roll has these; one that a house rule touched may have `denied`, `drawn`, `repeat` and
# `fresh` too.
ROLL_KEYS = frozenset(Roll.__annotations__) - {"denied", "drawn", "repeat", "fresh"}


class ScriptedRandom(random.Random):
    """A Random whose random() hands out the queued draws in order, and complains when out."""

    def __init__(self, draws: Iterable[float]) -> None:
        super().__init__(0)
        self.draws = list(draws)

    def random(self) -> float:
        if not self.draws:
            raise AssertionError("the test's dice script ran out: the engine rolled more dice")
        return self.draws.pop(0)


def face(n: int, sides: int) -> float:
    """The random() draw that throws face `n` on a die of `sides` sides."""
    return (n - 0.5) / sides


def entry(key: str, name: str | None = None, **kw: Any) -> Entry:
    return Entry(id=key, name=name or key, **kw)


def times(n: int | str, *tables: str, mode: MultiMode = MultiMode.TIMES) -> MultiRoll:
    """A multi-roll: `n` times (TIMES/KEEP) on `tables` (none: the entry's own list)."""
    return MultiRoll(mode, parse_expr(str(n)), tables)


def each(*tables: str) -> MultiRoll:
    return MultiRoll(MultiMode.EACH, parse_expr("1"), tables)


def fixed(table_id: str, item: Entry, sides: int = 2) -> RollTable:
    """A d`sides` list on which every face gives `item`: any roll on it is predictable."""
    return RollTable(table_id, table_id, Die(sides), (Band(1, sides, item),))


def faces(table_id: str, *items: Entry) -> RollTable:
    """A d`len(items)` list on which face n gives items[n - 1]."""
    bands = tuple(Band(n, n, item) for n, item in enumerate(items, start=1))
    return RollTable(table_id, table_id, Die(len(items)), bands)


def ruleset(
    *tables: RollTable,
    nesting: Nesting = Nesting.IGNORE_NESTED,
    budget: Budget | None = None,
    chaos: str = "chaos",
    lists: tuple[str, ...] = (),
    tokens: bool = True,
    life: int | None = None,
) -> Ruleset:
    """A ruleset over `tables`: one chaos list, or a progression over `lists` when given."""
    return Ruleset(
        id="tiny",
        name="Tiny",
        chaos=ChaosSource.PROGRESSION if lists else ChaosSource.TABLE,
        chaos_table=None if lists else chaos,
        lists=lists,
        nesting=nesting,
        tokens=tokens,
        budget=budget or Budget(),
        life=life,
        tables={t.id: t for t in tables},
    )


def resolve(
    rules: Ruleset, draws: Iterable[float], table: str = "chaos", *, next_id: int = 1
) -> Resolution:
    """Resolve one roll on `table` with scripted dice; every scripted draw must be used."""
    rng = ScriptedRandom(draws)
    resolution = Resolver(rules, rng, player="ann", turn=1, next_id=next_id).roll(table)
    assert rng.draws == [], f"{len(rng.draws)} scripted draws were left unused"
    return resolution


def new_game(rules: Ruleset, *, seed: int = 7, players: Iterable[str] = ("ann", "bob")) -> Game:
    """A begun game hosted by the first player; the first player's turn has started."""
    host, *others = players
    game = Game.start(rules, seed=seed, host=host, name=host.title())
    for player in others:
        game.act(Join(actor=player, player_name=player.title()))
    game.act(Begin(actor=host))
    return game


def as_dicts(events: Iterable[Event]) -> list[dict[str, Any]]:
    """Events as plain dicts, to pick them apart without the TypedDict union in the way."""
    return [cast(dict[str, Any], e) for e in events]


def of_type(events: Iterable[Event], kind: str) -> list[dict[str, Any]]:
    return [e for e in as_dicts(events) if e["type"] == kind]


def assert_consistent(game: Game) -> None:
    """The state is the fold of the log, and replaying the actions rebuilds the same log."""
    assert fold(game.events) == game.state
    assert Game.replay(game.ruleset, game.actions).events == game.events
