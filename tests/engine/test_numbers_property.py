"""Effects and middle cards are numbered as people count them: E1, E2, … and M1, M2, … (issue 24).

The engine's ids come from one counter shared with rolls, stack items and offers, so the first
card in the middle of a game used to be M15 and effects jumped from E2 to E17. The numbers
players see are folded from the log instead (GameState.effect_numbers, middle_numbers). Over
the random games of the cheater property test (tests/engine/test_cheater_property.py), with
cards going into and out of the middle and a referee undoing now and then:

- the effect numbers the log's lines show, in the order they first show, are 1, 2, …, n, and
  each number names one effect for the whole game; the middle cards' likewise;
- the state's numbers are those, in the order the effects (cards) came into the game (an
  effect a counter brings back keeps its number; one the table vetoed has none, and the roll
  made again takes it);
- the fold of the log, and a replay of its actions, give the same numbers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import (
    Action,
    Begin,
    ChaosError,
    EndEffect,
    Game,
    Join,
    MiddleAdd,
    MiddlePlay,
    NextTurn,
    RollChaos,
    Undo,
    Veto,
    ZonePolicy,
    fold,
)
from bot.engine.events import Event
from bot.engine.house import HouseRules
from bot.render import Names, render_lines
from bot.render.recap import standing_events
from tests.engine.test_cheater_property import (
    ACTORS,
    PLAYERS,
    RULES,
    _move,
    play,
)
from tests.engine.tiny import of_type

RULES_WITH_MIDDLE = replace(RULES, zone=ZonePolicy.MIDDLE_WORLD, zone_plays=2)


def _vetoed_roll(table: str) -> list[Action]:
    """The host rolls on `table` (a lasting effect, a new Global) and the table vetoes it."""
    return [RollChaos(actor="ann", referee=True, table=table), *(Veto(actor=p) for p in PLAYERS)]


CARDS = st.sampled_from(("Shock", "Fog", "Black Lotus"))


def _numbered_moves() -> st.SearchStrategy[Action | list[Action]]:
    """The cheater test's moves, with the middle, by-number endings, a referee's undo, and
    a roll the whole table vetoes."""
    return st.one_of(
        _move(),
        *[st.builds(lambda p, c: MiddleAdd(actor=p, card=c), ACTORS, CARDS)] * 2,
        # By the numbers players count by, as the front ends send them, and by the engine's id,
        # as logs from before the numbers name them.
        st.builds(
            lambda p, n, b: MiddlePlay(actor=p, card=n, by_number=b),
            ACTORS,
            st.integers(1, 8),
            st.booleans(),
        ),
        st.builds(
            lambda n: EndEffect(actor="ann", referee=True, effect=n, by_number=True),
            st.integers(1, 6),
        ),
        *[st.just(Undo(actor="ann", referee=True))] * 2,
        *[st.builds(lambda: RollChaos(actor="ann", referee=True, extra=True))] * 2,
        *[st.builds(_vetoed_roll, st.sampled_from(("fog", "global", "fog")))] * 4,
        st.builds(lambda: NextTurn(actor="ann", referee=True)),
    )


def shown(lines: list[str], letter: str) -> list[tuple[int, str]]:
    """Each number written `letter`N in `lines`, with what follows it, in order."""
    found = []
    written = re.compile(rf"\b{letter}([0-9]+) (.+?)(?= stays| \(effect| ends| goes| from)")
    for line in lines:
        for match in written.finditer(line):
            found.append((int(match.group(1)), match.group(2)))
    return found


def assert_counted(found: list[tuple[int, str]]) -> None:
    """First shown in the order 1, 2, …, n; each number always with the same name."""
    first: list[int] = []
    named: dict[int, str] = {}
    for number, name in found:
        if number not in named:
            first.append(number)
            named[number] = name
        assert named[number] == name, f"{number} named {named[number]!r} and {name!r}"
    assert first == list(range(1, len(first) + 1)), first


def in_order(events: list[Event], kind: str, key: str) -> list[int]:
    """The ids of the `kind` events, each once, in the order they first came."""
    return list(dict.fromkeys(e[key] for e in of_type(events, kind)))


def begun(seed: int, started: Callable[[Game], object] = lambda _: None) -> Game:
    """A game of the players, begun, in the ruleset with a middle, with the veto vote on;
    `started` sees it as it starts, before anyone joins."""
    host, *others = PLAYERS
    game = Game.start(
        RULES_WITH_MIDDLE, seed=seed, host=host, name=host.title(), house=HouseRules(veto=True)
    )
    started(game)
    for player in others:
        game.act(Join(actor=player, player_name=player.title()))
    game.act(Begin(actor=host))
    return game


def played(game: Game, moves: list[Action | list[Action]]) -> Iterator[Action]:
    """Play `moves` on `game`, yielding each one the engine took (refusals are skipped)."""
    for move in moves:
        for one in move if isinstance(move, list) else [move]:
            try:
                play(game, one)
            except ChaosError:
                continue
            yield one


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moves=st.lists(_numbered_moves(), min_size=10, max_size=70), seed=st.integers(0, 2**16))
def test_effects_middle_cards_and_rolls_are_numbered_as_people_count(
    moves: list[Action | list[Action]], seed: int
) -> None:
    game = begun(seed)
    for _ in played(game, moves):
        pass
    state = game.state
    kept = standing_events(game.events)
    vetoed = {e["item"] for e in of_type(kept, "vetoed")}
    voted_away = {e["id"] for e in of_type(kept, "effect_ended") if e.get("undoes") in vetoed}
    effects = [i for i in in_order(kept, "effect_started", "id") if i not in voted_away]
    cards = in_order(kept, "middle_added", "card")
    # In the order they came; an effect a counter brings back keeps its number (a new id).
    numbers = list(dict.fromkeys(state.effect_numbers[i] for i in effects))
    assert numbers == list(range(1, len(numbers) + 1))
    assert [state.middle_numbers[c] for c in cards] == list(range(1, len(cards) + 1))
    assert set(state.effect_numbers) == set(effects)
    assert set(state.middle_numbers) == set(cards)
    assert all(e.number == state.effect_numbers[e.id] for e in state.effects.values())
    assert all(c.number == state.middle_numbers[c.id] for c in state.middle.values())
    lines = render_lines(kept, Names.of(game))
    assert_counted(shown(lines, "E"))
    assert_counted(shown(lines, "M"))
    # Rolls, counters and forks: R1, R2, … in the order they went on the stack, and every R
    # shown is one of them (never an engine id).
    items = in_order(kept, "stack", "item")
    assert [state.roll_numbers[i] for i in items] == list(range(1, len(items) + 1))
    assert set(state.roll_numbers) == set(items)
    refs = {int(n) for line in lines for n in re.findall(r"\bR([0-9]+)\b", line)}
    assert refs <= set(range(1, len(items) + 1)), refs
    for again in (fold(game.events), Game.replay(game.ruleset, game.actions).state):
        assert again.effect_numbers == state.effect_numbers
        assert again.middle_numbers == state.middle_numbers
        assert again.roll_numbers == state.roll_numbers
