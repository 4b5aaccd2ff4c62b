"""No action moves a roll's dice except the roll itself (issue 23, section 2).

Hypothesis plays random games (turn, extra, named-list and offered rolls, Globals, reveals,
choices, keep-one picks, life lost to spite rolls and spite looks, counters, forks, turns ended)
on the three test rulesets, then plays the very same game again with actions that change nothing
slipped in before its actions: a life total set to what it is, or any action taken back at once
with an undo. Every roll, card, shuffle and outcome of the second game must be the first's,
event for event: a game's dice depend on its seed and on which roll it is, never on what else was
typed first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as Phase_
from hypothesis import strategies as st

from bot.engine import (
    Action,
    ChaosError,
    Choose,
    Counter,
    Fork,
    Game,
    Life,
    NextTurn,
    Reveal,
    RollChaos,
    RollGlobal,
    Spite,
    Undo,
)
from bot.engine.events import FIELDS, Event
from bot.engine.state import Phase, Status
from tests.engine.make_golden import Driver

PLAYERS = ("ann", "bob", "cy")
HOST = "ann"
REASONS = (None, "life", "poison", "card")

# An intent is a number; what it asks for depends on the game at that moment.
Intent = tuple[int, int]


def _seated(game: Game, pick: int) -> str:
    seated = [p.id for p in game.state.seated()]
    return seated[pick % len(seated)] if seated else HOST


def _actor(game: Game) -> str:
    return game.state.active or HOST


def _choose(game: Game, pick: int) -> Action | None:
    pending = game.state.pending
    if pending is None:
        return None
    return Choose(actor=pending.player, option=pending.options[pick % len(pending.options)][0])


def _offered(game: Game, pick: int) -> Action | None:
    offers = sorted(game.state.offers.values(), key=lambda o: o.id)
    if not offers:
        return None
    offer = offers[pick % len(offers)]
    return RollChaos(actor=offer.player, table=offer.tables[pick % len(offer.tables)])


def _named(game: Game, pick: int) -> Action | None:
    tables = sorted(game.ruleset.tables)
    if not tables:
        return None
    return RollChaos(actor=HOST, referee=True, table=tables[pick % len(tables)])


MENU: list[Callable[[Game, int], Action | None]] = [
    lambda g, p: RollChaos(actor=_actor(g)),
    lambda g, p: RollChaos(actor=_actor(g)),
    lambda g, p: RollChaos(actor=HOST, referee=True, extra=True),
    _named,
    _offered,
    lambda g, p: RollGlobal(actor=HOST, referee=True),
    lambda g, p: Reveal(actor=_actor(g)),
    _choose,
    _choose,
    lambda g, p: NextTurn(actor=HOST, referee=True, override=True),
    lambda g, p: NextTurn(actor=_actor(g)),
    lambda g, p: Life(actor=HOST, referee=True, player=_seated(g, p), mode="lose", amount=p % 31),
    lambda g, p: Life(actor=HOST, referee=True, player=_seated(g, p), mode="gain", amount=p % 5),
    lambda g, p: Spite(actor=HOST, referee=True, player=_seated(g, p), reason=REASONS[p % 4]),
    lambda g, p: Counter(actor=_seated(g, p)),
    lambda g, p: Fork(actor=_seated(g, p)),
]


def _try(game: Game, action: Action | None) -> bool:
    if action is None or game.state.phase is not Phase.PLAYING:
        return False
    try:
        game.act(action)
    except ChaosError:
        return False
    return True


def _noop(game: Game, pick: int) -> set[int]:
    """Take actions that leave the game as it was (a life total set to itself, or an action
    undone at once); the seqs of those taken."""
    seq = game.seq
    if pick % 2 == 0:
        tracked = [
            p
            for p in game.state.players.values()
            if p.status is not Status.OUT and p.life is not None and p.life >= 1
        ]
        if tracked:
            player = tracked[pick % len(tracked)]
            assert player.life is not None
            same = Life(actor=HOST, referee=True, player=player.id, mode="set", amount=player.life)
            return {seq} if _try(game, same) else set()
    action = MENU[pick % len(MENU)](game, pick // len(MENU))
    probe = game.copy()
    if _try(probe, action) and probe.state.phase is Phase.PLAYING:  # an end can't be undone
        assert action is not None
        game.act(action)
        game.act(Undo(actor=HOST, referee=True))
        return {seq, seq + 1}
    return set()


def play(ruleset: str, seed: int, intents: list[Intent]) -> tuple[Game, list[Action]]:
    """The game the intents make, and the actions that were taken (refused ones left out)."""
    game = Driver(ruleset, seed, PLAYERS, life=20, salt="pepper").game
    taken: list[Action] = []
    for kind, pick in intents:
        action = MENU[kind % len(MENU)](game, pick)
        if _try(game, action):
            assert action is not None
            taken.append(action)
    return game, taken


def standing(game: Game, inserted: set[int]) -> list[Event]:
    """The game's events, without the actions themselves, the undone ones and those of the
    actions in `inserted` (their seqs): what the game is, as a story."""
    undone = {e["seq"] for e in game.events if e["type"] == "undone"}
    story: list[Event] = []
    keep = True
    for event in game.events:
        if event["type"] == "action":
            seq = event["seq"]
            keep = (
                seq not in undone
                and seq not in inserted
                and event["action"]["name"] != "chaos undo"
            )
            continue
        if keep and event["type"] != "undone":
            story.append(event)
    return story


@settings(
    max_examples=60,
    phases=[Phase_.explicit, Phase_.reuse, Phase_.generate, Phase_.target],  # no long shrinks
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    ruleset=st.sampled_from(["classic", "lists", "deck"]),
    seed=st.integers(0, 2**64),
    intents=st.lists(st.tuples(st.integers(0, 63), st.integers(0, 10_000)), max_size=60),
    noops=st.lists(st.tuples(st.integers(0, 60), st.integers(0, 10_000)), min_size=1, max_size=8),
)
def test_actions_that_change_nothing_never_move_a_roll(
    ruleset: str, seed: int, intents: list[Intent], noops: list[tuple[int, int]]
) -> None:
    original, taken = play(ruleset, seed, intents)
    before: dict[int, list[int]] = {}
    for at, pick in noops:
        before.setdefault(at % (len(taken) + 1), []).append(pick)
    again = Driver(ruleset, seed, PLAYERS, life=20, salt="pepper").game
    inserted: set[int] = set()
    for index in range(len(taken) + 1):
        for pick in before.get(index, []):
            inserted |= _noop(again, pick)
        if index < len(taken):
            again.act(taken[index])  # the same action works on the same game
    assert standing(again, inserted) == standing(original, set())
    assert again.state.players == original.state.players
    for event in again.events:  # what a strict reader of the export accepts (bot.verify.read)
        assert event.keys() <= FIELDS[event["type"]], event


def _rolled(events: list[Any]) -> list[Any]:
    return [e for e in events if e["type"] in ("roll", "dice", "card_drawn", "deck_shuffled")]


def test_an_undone_spite_roll_comes_again_after_a_life_set_that_changes_nothing() -> None:
    # The case in the engine: a life change moved a spite roll of scheme 2.
    driver = Driver("classic", 11, PLAYERS, life=20, salt="pepper")
    game = driver.game
    driver.roll()
    first = game.act(Life(actor=HOST, player="bob", mode="lose", amount=25))
    assert [e for e in first if e["type"] == "spite_started"]
    game.act(Undo(actor=HOST))
    game.act(Life(actor=HOST, player="cy", mode="set", amount=20))
    again = game.act(Life(actor=HOST, player="bob", mode="lose", amount=25))
    assert _rolled(again) == _rolled(first)
