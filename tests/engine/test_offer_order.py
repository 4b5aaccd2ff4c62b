"""A roll offered inside a multi-roll is made before the multi-roll's later rolls (issue 23,
ruling 1): the class, over random games.

Hypothesis plays random games (turn, extra and named rolls, offers taken or declined, keep-one
picks, counters, forks, undos, turns ended) on a ruleset dense with multi-rolls, links and
offers, under both nesting rules, and on the bundled lists. Whatever happened, the rolls of the
log must come in the order "each roll resolved completely" gives: a roll, then what it asked
for, then the roll its result offered (if taken), and only then the next slot. And a multi-roll's
later rolls never depend on what was done while it waited: taking the offer, declining it, or
doing anything else first gives them the same dice.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as Phase_
from hypothesis import strategies as st

from bot.engine import (
    Action,
    Begin,
    Budget,
    ChaosError,
    ChaosSource,
    Choose,
    Counter,
    Decline,
    Die,
    Fork,
    Game,
    Join,
    Kind,
    Life,
    MultiMode,
    MultiRoll,
    Nesting,
    NextTurn,
    RollChaos,
    Ruleset,
    StartRoll,
    Token,
    Undo,
    parse_expr,
)
from bot.engine.entries import Offer
from bot.engine.events import FIELDS, Event
from bot.engine.offered import waits_for
from bot.engine.state import Phase, Status
from bot.tables import find_ruleset
from tests.engine.rulesets import entry, plain, table

PLAYERS = ("ann", "bob", "cy")
HOST = "ann"


def _each(*tables: str) -> MultiRoll:
    return MultiRoll(MultiMode.EACH, parse_expr("1"), tables)


def _times(n: str, on: str | None = None, mode: MultiMode = MultiMode.TIMES) -> MultiRoll:
    return MultiRoll(mode, parse_expr(n), (on,) if on else ())


def _chain(letter: str) -> Callable[[int], Any]:
    """A chaos list where most results roll more or offer a roll, or both."""
    following = {"a": "b", "b": "c", "c": "a"}[letter]

    def make(n: int) -> Any:
        match n:
            case 1:
                return entry(n, "Two Stops", kind=Kind.MULTI, multi=_each("door", following))
            case 2:
                return entry(n, "Twice", kind=Kind.MULTI, multi=_times("2", "door"))
            case 3:
                return entry(n, "Through", kind=Kind.LINK, link="door")
            case 4:
                return entry(n, "Gift", offers=(Offer(("vortex",)),))
            case 5:
                return entry(n, "Tour", kind=Kind.MULTI, multi=_each("b", "door", "c"))
            case 6:
                return entry(
                    n, "Fork in the Road", offers=(Offer(("a", "c")),), kind=Kind.LINK, link="door"
                )
            case 7:
                return entry(n, "Pick", kind=Kind.MULTI, multi=_times("2", "door", MultiMode.KEEP))
            case 8:
                return entry(
                    n, "Chaos Twice", kind=Kind.MULTI, multi=_times("2", None, MultiMode.CHAOS)
                )
            case 9:
                return entry(n, "Token", kind=Kind.TOKEN, token=Token.COUNTER, count=2)
            case 10:
                return entry(n, "Fork Token", kind=Kind.TOKEN, token=Token.FORK)
        return plain(n, f"List {letter}")

    return make


def _door(n: int) -> Any:
    match n:
        case 1:
            return entry(n, "Open Door", offers=(Offer(("c",)),))
        case 2:
            return entry(n, "Two Doors", offers=(Offer(("vortex",)), Offer(("b",))))
        case 3:
            return entry(
                n, "Door and Hall", offers=(Offer(("a",)),), kind=Kind.MULTI, multi=_each("b", "c")
            )
        case 4:
            return entry(n, "Revolving Door", kind=Kind.MULTI, multi=_times("2", "vortex"))
    return plain(n, "Door")


def _vortex(n: int) -> Any:
    match n:
        case 1:
            return entry(n, "Out to A", kind=Kind.LINK, link="a")
        case 2:
            return entry(n, "Out to C", kind=Kind.LINK, link="c")
        case 3:
            return entry(n, "Spin", offers=(Offer(("door",)),))
    return plain(n, "Vortex")


def offers_ruleset(nesting: Nesting) -> Ruleset:
    tables = [table(letter, Die(12), _chain(letter)) for letter in "abc"]
    tables += [table("door", Die(6), _door), table("vortex", Die(5), _vortex)]
    return Ruleset(
        id=f"offers-{nesting.value}",
        name="Offers",
        chaos=ChaosSource.PROGRESSION,
        lists=("a", "b", "c"),
        start=StartRoll.NONE,
        nesting=nesting,
        tokens=True,
        budget=Budget(rolls=40, depth=8),
        tables={t.id: t for t in tables},
    )


@cache
def ruleset(name: str) -> Ruleset:
    if name == "bundled lists":
        return find_ruleset("lists").ruleset
    return offers_ruleset(Nesting(name))


def start(name: str, seed: int) -> Game:
    game = Game.start(ruleset(name), seed=seed, host=HOST, name="Ann", life=20, salt="pepper")
    for player in PLAYERS[1:]:
        game.act(Join(actor=player, player_name=player.title()))
    game.act(Begin(actor=HOST))
    return game


# -- the order "each resolved completely" gives ----------------------------------------------

_OFFERED = re.compile(r"offered by .*, roll (\d+)$")


def standing(events: list[Event]) -> list[Event]:
    """The events of the actions that still stand (undone ones and undos left out)."""
    undone = {e["seq"] for e in events if e["type"] == "undone"}
    kept: list[Event] = []
    keep = True
    for event in events:
        if event["type"] == "action":
            keep = event["seq"] not in undone and event["action"]["name"] != "chaos undo"
        elif keep and event["type"] != "undone":
            kept.append(event)
    return kept


def _slot(roll: dict[str, Any]) -> int:
    slot = roll["slot"]
    return int(slot.split("/")[0]) if slot else 0


class Trees:
    """The rolls of a log as trees: a roll, the rolls it asked for (in slot order; all of a
    keep-one's candidates first), then the rolls its result offered that were taken. `order`
    is the order "each resolved completely" makes them in; `ends[r]` the last place of roll
    r's tree in it."""

    def __init__(self, rolls: list[dict[str, Any]]) -> None:
        by_id = {r["id"]: r for r in rolls}
        self.children: dict[int | None, list[dict[str, Any]]] = {}
        self.offered: dict[int, list[dict[str, Any]]] = {}
        self.source: dict[int, int] = {}  # an offered roll: the roll whose offer it took
        for roll in rolls:
            found = _OFFERED.search(roll["reason"] or "") if roll["parent"] is None else None
            if found and int(found[1]) in by_id:
                self.offered.setdefault(int(found[1]), []).append(roll)
                self.source[roll["id"]] = int(found[1])
            else:
                self.children.setdefault(roll["parent"], []).append(roll)
        self.item: dict[int, int] = {}  # each roll's resolution: the first roll of its item
        for roll in rolls:
            top = roll
            while top["parent"] is not None:
                top = by_id[top["parent"]]
            self.item[roll["id"]] = top["id"]
        self.order: list[int] = []
        self.ends: dict[int, int] = {}
        for root in sorted(self.children.get(None, []), key=lambda r: r["id"]):
            self._visit(root)

    def _below(self, roll_id: int) -> list[dict[str, Any]]:
        return sorted(self.children.get(roll_id, []), key=lambda r: (_slot(r), r["id"]))

    def _visit(self, roll: dict[str, Any]) -> None:
        self.order.append(roll["id"])
        below = self._below(roll["id"])
        if any(r["reason"] == "one of the rolls to keep from" for r in below):
            # A keep-one rolls every candidate (and every re-roll) before the kept one goes on.
            self.order.extend(r["id"] for r in below)
            for candidate in below:
                for grandchild in self._below(candidate["id"]):
                    self._visit(grandchild)
                for taken in self.offered.get(candidate["id"], []):
                    self._visit(taken)
                self.ends[candidate["id"]] = len(self.order) - 1
        else:
            for child in below:
                self._visit(child)
        for taken in self.offered.get(roll["id"], []):
            self._visit(taken)
        self.ends[roll["id"]] = len(self.order) - 1

    def chain(self, roll_id: int) -> set[int]:
        """The resolutions `roll_id` is part of: its own, and each whose offer led to it."""
        items = set()
        item = self.item[roll_id]
        while True:
            items.add(item)
            if item not in self.source:
                return items
            item = self.item[self.source[item]]


def assert_each_resolved_completely(events: list[Event]) -> None:
    """The log holds the rolls as "each resolved completely" makes them: every resolution's
    own rolls in order, and a roll taken from an offer (with all it led to) before every later
    roll of the resolutions the offer came from. Offers nothing waits for may be taken in any
    order, any time in the turn (they were before, and are)."""
    rolls = [e for e in standing(events) if e["type"] == "roll"]
    trees = Trees(rolls)  # type: ignore[arg-type]
    logged = {r["id"]: n for n, r in enumerate(rolls)}
    assert sorted(trees.order) == sorted(logged)
    place = {roll_id: n for n, roll_id in enumerate(trees.order)}
    by_item: dict[int, list[int]] = {}
    for roll_id in trees.order:
        by_item.setdefault(trees.item[roll_id], []).append(roll_id)
    for item, own in by_item.items():
        got = sorted(own, key=logged.__getitem__)
        assert got == own, f"R{item}'s rolls were logged as {got}, in order they are {own}"
    for taken, source in trees.source.items():
        start, end = place[taken], trees.ends[taken]
        subtree = trees.order[start : end + 1]
        chain = trees.chain(source)
        later = [
            r
            for r in trees.order[trees.ends[source] + 1 :]
            if trees.item[r] in chain and r not in subtree
        ]
        if later:
            last = max(logged[r] for r in subtree)
            first = min(logged[r] for r in later)
            assert last < first, (
                f"roll {taken}, offered by roll {source}, and what it led to ({subtree}) came"
                f" after roll {rolls[first]['id']}, which each resolved completely puts later"
            )


# -- random games -----------------------------------------------------------------------------


def _actor(game: Game) -> str:
    return game.state.active or HOST


def _offers(game: Game) -> list[Any]:
    return sorted(game.state.offers.values(), key=lambda o: o.id)


def _take(game: Game, pick: int) -> Action | None:
    offers = _offers(game)
    if not offers:
        return None
    offer = offers[pick % len(offers)]
    return RollChaos(actor=offer.player, table=offer.tables[pick % len(offer.tables)])


def _decline(game: Game, pick: int) -> Action | None:
    offers = _offers(game)
    if not offers:
        return None
    offer = offers[pick % len(offers)]
    return Decline(actor=offer.player, table=offer.tables[0])


def _choose(game: Game, pick: int) -> Action | None:
    pending = game.state.pending
    if pending is None:
        return None
    return Choose(actor=pending.player, option=pending.options[pick % len(pending.options)][0])


def _seated(game: Game, pick: int) -> str:
    seated = [p.id for p in game.state.seated()]
    return seated[pick % len(seated)] if seated else HOST


MENU: list[Callable[[Game, int], Action | None]] = [
    lambda g, p: RollChaos(actor=_actor(g)),
    lambda g, p: RollChaos(actor=HOST, referee=True, extra=True),
    lambda g, p: RollChaos(actor=HOST, referee=True, table=sorted(g.ruleset.tables)[p % 5]),
    _take,
    _take,
    _take,
    _decline,
    _decline,
    _choose,
    _choose,
    lambda g, p: Counter(actor=_seated(g, p)),
    lambda g, p: Fork(actor=_seated(g, p)),
    lambda g, p: Undo(actor=HOST, referee=True),
    lambda g, p: NextTurn(actor=_actor(g)),
    lambda g, p: NextTurn(actor=HOST, referee=True, override=True),
    lambda g, p: Life(actor=HOST, referee=True, player=_seated(g, p), mode="lose", amount=p % 9),
]


def _try(game: Game, action: Action | None) -> bool:
    if action is None or game.state.phase is not Phase.PLAYING:
        return False
    try:
        game.act(action)
    except ChaosError:
        return False
    return True


RULESETS = ["sequential", "ignore_nested", "bundled lists"]


@settings(
    max_examples=200,
    phases=[Phase_.explicit, Phase_.reuse, Phase_.generate, Phase_.target],
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    name=st.sampled_from(RULESETS),
    seed=st.integers(0, 2**32),
    intents=st.lists(st.tuples(st.integers(0, 63), st.integers(0, 10_000)), max_size=50),
)
def test_rolls_come_in_the_order_each_resolved_completely_gives(
    name: str, seed: int, intents: list[tuple[int, int]]
) -> None:
    game = start(name, seed)
    for kind, pick in intents:
        _try(game, MENU[kind % len(MENU)](game, pick))
        assert_each_resolved_completely(game.events)
        if game.state.paused and game.state.pending is None:
            # A paused roll always waits for an offer someone can settle (or for a choice).
            assert any(waits_for(game.state.paused[-1], o) for o in game.state.offers.values())
    for event in game.events:  # what a strict reader of the export accepts
        assert event.keys() <= FIELDS[event["type"]], event
    replayed = Game.replay(ruleset(name), game.actions)
    assert replayed.events == game.events


def _decline_all(game: Game) -> None:
    """Decline every offer the newest paused roll waits for (and no other)."""
    paused = game.state.paused[-1] if game.state.paused else None
    for offer in _offers(game):
        if paused is not None and waits_for(paused, offer) and game.state.pending is None:
            game.act(Decline(actor=offer.player, table=offer.tables[0]))


def _after_resume(events: list[Event], item: int) -> list[tuple[Any, ...]]:
    """The rolls a paused roll made once it went on: list, dice, result, inline dice."""
    rolls: list[tuple[Any, ...]] = []
    going = False
    for event in events:
        if event["type"] == "roll_resumed" and event["paused"] == item:
            going = True
        elif going and event["type"] == "roll":
            rolls.append(tuple(event["dice"]))
        elif going and event["type"] in ("roll_paused", "action"):
            break
    return rolls


@settings(
    max_examples=150,
    phases=[Phase_.explicit, Phase_.reuse, Phase_.generate, Phase_.target],
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    name=st.sampled_from(RULESETS[:2]),
    seed=st.integers(0, 2**32),
    intents=st.lists(st.tuples(st.integers(0, 63), st.integers(0, 10_000)), max_size=40),
    meanwhile=st.integers(0, 10_000),
)
def test_what_is_done_while_a_roll_waits_never_moves_its_later_dice(
    name: str, seed: int, intents: list[tuple[int, int]], meanwhile: int
) -> None:
    game = start(name, seed)
    for kind, pick in intents:
        _try(game, MENU[kind % len(MENU)](game, pick))
        if game.state.paused and game.state.pending is None:
            break
    if not game.state.paused or game.state.pending is not None:
        return
    paused = game.state.paused[-1]
    offer = next(o for o in _offers(game) if waits_for(paused, o))
    declined = game.copy()
    _decline_all(declined)
    taken = game.copy()
    _try(taken, RollChaos(actor=offer.player, table=offer.tables[-1]))
    while taken.state.pending is not None:  # a keep-one inside the offered roll
        _try(taken, _choose(taken, meanwhile))
    _decline_all(taken)  # a result may offer two rolls: the other is declined
    later = game.copy()
    _try(later, Life(actor=HOST, referee=True, player="bob", mode="lose", amount=meanwhile % 3))
    if later.state.phase is Phase.PLAYING and later.state.pending is None:
        _decline_all(later)
    first = _after_resume(declined.events, paused.item)
    assert first, "the later slots are rolled once the offer is declined"
    for other in (taken, later):
        again = _after_resume(other.events, paused.item)
        if again:  # taking the offer may end in a pause of its own first
            assert again[0] == first[0]


def _stripped(ruleset: Ruleset) -> Ruleset:
    """`ruleset` with every offer taken out of its results: nothing there ever waits."""
    tables = {
        table_id: replace(
            table,
            bands=tuple(replace(b, entry=replace(b.entry, offers=())) for b in table.bands),
        )
        for table_id, table in ruleset.tables.items()
    }
    return replace(ruleset, tables=tables)


def _own_rolls(events: list[Event], item: int) -> list[tuple[Any, ...]]:
    """The rolls of stack item `item`'s resolution (not the rolls its offers led to)."""
    rolls: list[tuple[Any, ...]] = []
    inside: int | None = None
    for event in events:
        if event["type"] == "stack":
            inside = event["item"]
        elif event["type"] == "roll_resumed":
            inside = event["paused"]
        elif event["type"] == "roll" and inside == item:
            rolls.append((event["table"], event["dice"], event["result"], event["slot"]))
    return rolls


@settings(max_examples=300, deadline=None)
@given(
    nesting=st.sampled_from([Nesting.SEQUENTIAL, Nesting.IGNORE_NESTED]),
    seed=st.integers(0, 2**32),
    on=st.sampled_from(["a", "b", "c", "door"]),
)
def test_a_pause_moves_no_die(nesting: Nesting, seed: int, on: str) -> None:
    # The same roll where no result offers anything rolls the very same dice, slot for slot.
    rolls: dict[bool, list[tuple[Any, ...]]] = {}
    for rules in (offers_ruleset(nesting), _stripped(offers_ruleset(nesting))):
        game = Game.start(rules, seed=seed, host=HOST, name="Ann", life=20, salt="pepper")
        game.act(Join(actor="bob", player_name="Bob"))
        game.act(Begin(actor=HOST))
        game.act(RollChaos(actor=HOST, referee=True, table=on))
        item = game.state.stack[-1].id
        while game.state.paused or game.state.pending is not None:
            if game.state.pending is not None:
                _try(game, _choose(game, 0))
            else:
                _decline_all(game)
        rolls[rules.tables["door"].bands[0].entry.offers != ()] = _own_rolls(game.events, item)
    assert rolls[True] == rolls[False]


def _story(game: Game, inserted: set[int]) -> list[Event]:
    """What the game is, as a story: its events without actions, undone ones and those whose
    seqs are in `inserted`."""
    undone = {e["seq"] for e in game.events if e["type"] == "undone"}
    story: list[Event] = []
    keep = True
    for event in game.events:
        if event["type"] == "action":
            seq = event["seq"]
            keep = seq not in undone | inserted and event["action"]["name"] != "chaos undo"
        elif keep and event["type"] != "undone":
            story.append(event)
    return story


@settings(
    max_examples=120,
    phases=[Phase_.explicit, Phase_.reuse, Phase_.generate, Phase_.target],
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    name=st.sampled_from(RULESETS[:2]),
    seed=st.integers(0, 2**32),
    intents=st.lists(st.tuples(st.integers(0, 63), st.integers(0, 10_000)), max_size=40),
    noops=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 10_000)), min_size=1, max_size=6),
)
def test_actions_that_change_nothing_move_no_die_of_a_waiting_roll(
    name: str, seed: int, intents: list[tuple[int, int]], noops: list[tuple[int, int]]
) -> None:
    # Issue 23, section 2, for the waits: an action taken back at once, or a life total set to
    # itself, before any action, changes no roll, waiting or not.
    original = start(name, seed)
    taken: list[Action] = []
    for kind, pick in intents:
        action = MENU[kind % len(MENU)](original, pick)
        if not isinstance(action, Undo) and _try(original, action):
            assert action is not None
            taken.append(action)
    before: dict[int, list[int]] = {}
    for at, pick in noops:
        before.setdefault(at % (len(taken) + 1), []).append(pick)
    again = start(name, seed)
    inserted: set[int] = set()
    for index in range(len(taken) + 1):
        for pick in before.get(index, []):
            seq = again.seq
            probe = again.copy()
            action = MENU[pick % len(MENU)](again, pick // len(MENU))
            if isinstance(action, Undo):  # a life total set to itself, where it is tracked
                cy = again.state.players["cy"]
                if cy.status is Status.PLAYING and cy.life is not None and cy.life >= 1:
                    same = Life(actor=HOST, referee=True, player="cy", mode="set", amount=cy.life)
                    if _try(again, same):
                        inserted.add(seq)
            elif _try(probe, action) and probe.state.phase is Phase.PLAYING:
                assert action is not None
                again.act(action)
                again.act(Undo(actor=HOST, referee=True))
                inserted |= {seq, seq + 1}
        if index < len(taken):
            again.act(taken[index])
    assert _story(again, inserted) == _story(original, set())
