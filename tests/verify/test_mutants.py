"""Verify nobody can fool: thousands of mutants of real finished games (issue 23, section 3).

Real games are played through the engine on the bundled rulesets, with the tables' snapshot
hash as the service logs it, and exported when they end. Each export is then changed at random,
seeded: lines deleted, duplicated, swapped; any field of any line edited (to another value of
its type or of another type); action lines inserted; keys written twice; numbers written as
fractions or NaN; empty lines. Forgers go further and play the game again from its revealed seed
with actions that change nothing slipped in (a life total set to itself, an action undone at
once), or with another start (dice scheme, salt, seed, host), which makes a log that agrees with
itself.

For every mutant, `verify` with the commitment shown at the start either refuses it with a
sentence (a ChaosError, never another exception), or the mutant tells exactly the original's
story: the same rolls, cards, shuffles, effects, tokens, life totals and outcome. Never
"Verified" for a different story.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from bot.engine import (
    Action,
    Back,
    Begin,
    ChaosError,
    Choose,
    Counter,
    Decline,
    End,
    Fork,
    Game,
    Join,
    Life,
    NextTurn,
    Reveal,
    RollChaos,
    Undo,
    Veto,
    action_from_json,
)
from bot.engine.house import HouseRules
from bot.engine.model import Ruleset
from bot.engine.offered import in_turn
from bot.engine.state import Phase, Status
from bot.tables.registry import find_ruleset
from bot.tables.snapshot import Snapshot, take_snapshot
from bot.verify import verify
from bot.verify.tables import matching
from tests.engine.test_dice_identity import MENU

RULESETS = ("classic", "lists", "deck")
# Seeds whose games have undos, spites and choices among their rolls.
GAMES = [("classic", 3), ("classic", 7), ("lists", 1), ("lists", 2), ("deck", 2), ("deck", 5)]
RAW_MUTANTS = 420  # of each game: 2,520 in all
FORGERIES = 40  # of each game, replayed from the seed: 240 in all
NAMES = ("Ann", "Bob", "Cy")


@cache
def bundled(ruleset: str) -> tuple[Snapshot, Any]:
    return take_snapshot(find_ruleset(ruleset))


def find(ruleset: str, tables: str | None) -> Ruleset:
    if ruleset not in RULESETS:
        return find_ruleset(ruleset).ruleset  # raises a ChaosError naming the rulesets there are
    return matching(bundled(ruleset), ruleset, tables, "the bundled")


@cache
def played(ruleset: str, seed: int, house: HouseRules | None = None) -> Game:
    """A real game of about ten turns: the turn's rolls and reveals, choices answered at random,
    offers taken, extra rolls, tokens spent, life lost (now and then to a spite), undos; under
    `house` rules."""
    snapshot, loaded = bundled(ruleset)
    rng = random.Random(f"mutants/{ruleset}/{seed}")
    salt = f"{rng.getrandbits(128):032x}"
    game = Game.start(
        loaded.ruleset,
        seed=seed,
        host="ann",
        name="Ann",
        salt=salt,
        tables=snapshot.hash,
        house=house,
    )
    for name in NAMES[1:]:
        game.act(Join(actor=name.lower(), player_name=name))
    game.act(Begin(actor="ann"))

    def answer() -> None:
        for _ in range(6):
            pending = game.state.pending
            if pending is None or game.state.phase is not Phase.PLAYING:
                return
            option = rng.choice(pending.options)[0]
            _try(game, Choose(actor=pending.player, option=option))

    def seated() -> str:
        return rng.choice([p.id for p in game.state.seated()] or ["ann"])

    while game.state.phase is Phase.PLAYING and game.state.turn <= 10:
        actor = game.state.active or "ann"
        _try(game, RollChaos(actor=actor))
        _try(game, Reveal(actor=actor))
        answer()
        if house is not None and house.veto and rng.random() < 0.5:  # the table votes it away
            for name in NAMES:
                _try(game, Veto(actor=name.lower()))
            answer()
        offers = list(game.state.offers.values())
        if offers and rng.random() < 0.5:
            _try(game, RollChaos(actor=offers[0].player, table=offers[0].tables[0]))
            answer()
        while game.state.paused and game.state.phase is Phase.PLAYING:  # a multi-roll waits
            table = in_turn(game.state)[0].tables[0]
            if not _try(game, Decline(actor="ann", referee=True, table=table)):
                break
            answer()
        if rng.random() < 0.2:
            _try(game, RollChaos(actor="ann", referee=True, extra=True))
            _try(game, Reveal(actor=actor))
            answer()
        if rng.random() < 0.3:
            token = Counter if rng.random() < 0.5 else Fork
            _try(game, token(actor=seated()))
            answer()
        if rng.random() < 0.3:
            _try(
                game,
                Life(
                    actor="ann",
                    referee=True,
                    player=seated(),
                    mode="lose",
                    amount=rng.randint(1, 6),
                ),
            )
            answer()
        if rng.random() < 0.1:
            _try(game, Life(actor="ann", referee=True, player=seated(), mode="lose", amount=40))
            answer()
        if rng.random() < 0.12:
            _try(game, Undo(actor="ann", referee=True))
        _try(game, NextTurn(actor="ann", referee=True, override=True))
    _try(game, Back(actor="ann"))
    if game.state.phase is not Phase.ENDED:
        game.act(End(actor="ann", referee=True))
    return game


@cache
def waited() -> Game:
    """A lists game where multi-rolls wait for their offers (issue 23, ruling 1): seed 11176's
    fourth chaos roll is Staircase, whose roll on A is Gift Economy. One wait is taken (the
    Vortex), one declined and undone, and the game ends while nothing waits."""
    snapshot, loaded = bundled("lists")
    game = Game.start(
        loaded.ruleset, seed=11176, host="ann", name="Ann", salt="0" * 32, tables=snapshot.hash
    )
    for name in NAMES[1:]:
        game.act(Join(actor=name.lower(), player_name=name))
    game.act(Begin(actor="ann"))
    for _ in range(3):
        game.act(RollChaos(actor=game.state.active or "ann"))
        game.act(NextTurn(actor="ann", referee=True, override=True))
    game.act(RollChaos(actor="ann"))
    assert game.state.paused
    game.act(Decline(actor="ann", table="vortex"))
    game.act(Undo(actor="ann", referee=True))
    game.act(RollChaos(actor="ann", table="vortex"))
    assert not game.state.paused
    game.act(NextTurn(actor="ann"))
    game.act(End(actor="ann", referee=True))
    return game


def test_mutants_of_a_game_whose_rolls_waited_are_refused_or_tell_the_same_story() -> None:
    original = waited()
    assert [e["type"] for e in original.events].count("roll_resumed") >= 1
    lines = lines_of(original)
    assert judge(original, original.export(), "the export itself") == "same story"
    rng = random.Random("mutants/waited/raw")
    verdicts: dict[str, int] = {}
    for n in range(RAW_MUTANTS):
        mutation = RAW[n % len(RAW)]
        mutant = mutation(rng, lines)
        verdict = judge(original, "\n".join(mutant) + "\n", f"mutant {n} ({mutation.__name__})")
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
    assert verdicts.get("refused", 0) > RAW_MUTANTS * 0.8


# All but 20 of the Chaos List denied, with no repeats: a game of about ten turns meets both.
DENIED = tuple(("chaos", str(n)) for n in range(1, 201) if n % 10)
HOUSES = {
    "chaos from 2 (lists)": ("lists", HouseRules(chaos_from=2)),
    "chaos from 2 (deck)": ("deck", HouseRules(chaos_from=2)),
    "deny and no repeats": ("classic", HouseRules(deny=DENIED, repeats="never")),
    "veto (classic)": ("classic", HouseRules(veto=True)),
    "veto (lists)": ("lists", HouseRules(veto=True)),
    "veto, creature excluded (lists)": ("lists", HouseRules(veto=True, exclude=("creature",))),
}
OTHER_HOUSES = [
    None,
    {},
    {"chaos_from": 1},
    {"chaos_from": 3},
    {"chaos_from": "2"},
    {"repeats": "never"},
    {"repeats": "allowed"},
    {"deny": [list(DENIED[0])]},
    {"deny": [list(p) for p in DENIED[1:]], "repeats": "never"},
    {"deny": [list(p) for p in DENIED]},
    {"veto": True},
    {"veto": False},
    {"veto": True, "repeats": "never"},
    {"veto": True, "exclude": ["creature"]},
    {"veto": True, "exclude": ["slow"]},
    {"exclude": ["creature"]},
]


@pytest.mark.parametrize("case", HOUSES)
def test_a_house_rule_changed_in_an_export_fails_verify(case: str) -> None:
    """The house rules are committed with the start: other rules (or none), written into the
    export or played again from the revealed seed, are refused."""
    ruleset, house = HOUSES[case]
    original = played(ruleset, 2, house)
    assert judge(original, original.export(), "the export itself") == "same story"
    kinds = {e["type"] for e in original.events} | {
        key for e in original.events if e["type"] == "roll" for key in e
    }
    if house.deny:  # the game met both rules
        assert {"denied", "repeat"} <= kinds
    if house.veto:  # the game has vetoes in it
        assert "vetoed" in kinds
    if house.exclude:  # and an entry left out
        assert "denied" in kinds
    assert_other_houses_refused(original, house, OTHER_HOUSES)


def assert_other_houses_refused(
    original: Game, house: HouseRules, others: list[dict[str, Any] | None]
) -> None:
    """Each of `others` (None: no house rules at all) in place of the game's house rules is
    refused: written into its export, and played again from the revealed seed under them."""
    events = json.loads(json.dumps(original.events))
    for other in others:
        if other == house.to_json():
            continue
        mutant = copy.deepcopy(events)
        for where in (mutant[0]["action"], mutant[1]):
            if other is None:
                where.pop("house", None)
            else:
                where["house"] = other
        text = "".join(json.dumps(e) + "\n" for e in mutant)
        assert judge(original, text, f"house rules {other}") == "refused"
        actions = [copy.deepcopy(a) for a in original.actions]
        if other is None:
            actions[0].pop("house", None)
        else:
            actions[0]["house"] = other
        try:
            forged = Game.replay(original.ruleset, actions[:1])
        except (ChaosError, ValueError):
            continue  # damaged house rules: no game starts with them
        for logged in actions[1:]:
            _try(forged, action_from_json(logged))
        assert judge(original, forged.export(), f"replayed with {other}") == "refused"


def _try(game: Game, action: Action | None) -> bool:
    if action is None:
        return False
    try:
        game.act(action)
    except ChaosError:
        return False
    return True


# -- what a game tells ---------------------------------------------------------------------------


def story(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Everything that stands in the game, in order, without the actions themselves: undone
    actions and undos left out, and life totals set to what they were (they say nothing)."""
    undone = {e["seq"] for e in events if e["type"] == "undone"}
    told: list[dict[str, Any]] = []
    keep = True
    for event in events:
        if event["type"] == "action":
            keep = event["seq"] not in undone and event["action"]["name"] != "chaos undo"
            continue
        if not keep or event["type"] == "undone":
            continue
        if event["type"] == "life" and event["delta"] == 0:
            continue
        told.append(event)
    return told


def lines_of(game: Game) -> list[str]:
    return game.export().splitlines()


# -- raw mutations of the file -------------------------------------------------------------------

Mutation = Callable[[random.Random, list[str]], list[str]]


def delete(rng: random.Random, lines: list[str]) -> list[str]:
    at = rng.randrange(len(lines))
    return lines[:at] + lines[at + 1 :]


def duplicate(rng: random.Random, lines: list[str]) -> list[str]:
    at, to = rng.randrange(len(lines)), rng.randrange(len(lines) + 1)
    return [*lines[:to], lines[at], *lines[to:]]


def swap(rng: random.Random, lines: list[str]) -> list[str]:
    a = rng.randrange(len(lines))
    b = min(len(lines) - 1, a + 1) if rng.random() < 0.6 else rng.randrange(len(lines))
    changed = list(lines)
    changed[a], changed[b] = changed[b], changed[a]
    return changed


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value (keys and list indexes), the value itself last."""
    found: list[tuple[Any, ...]] = []
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _paths(inner, (*prefix, index))
    found.append(prefix)
    return found


def _other(rng: random.Random, value: Any) -> Any:
    """Another value for a field: nearby or anything at all, of its type or of another."""
    if rng.random() < 0.25:
        return rng.choice([None, True, False, 0, 1, -1, "", "x", [], {}, 2**70, "ann", "bob"])
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice([-1, 1, 2, -2, 7, 100]) if rng.random() < 0.8 else bool(value)
    if isinstance(value, str):
        if not value:
            return "a"
        at = rng.randrange(len(value))
        return value[:at] + rng.choice("abcdefxyz0123456789 ") + value[at + 1 :]
    if isinstance(value, list):
        if value and rng.random() < 0.5:
            return value[:-1]
        return [*value, copy.deepcopy(value[0]) if value else 1]
    if isinstance(value, dict):
        if value and rng.random() < 0.5:
            key = rng.choice(list(value))
            return {k: v for k, v in value.items() if k != key}
        return {**value, rng.choice(["extra", "id", "n", "type"]): 1}
    return 0  # None


def edit(rng: random.Random, lines: list[str]) -> list[str]:
    at = rng.randrange(len(lines))
    event = json.loads(lines[at])
    path = rng.choice(_paths(event)[:-1] or [()])
    if not path:
        return lines
    holder = event
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = _other(rng, holder[path[-1]])
    return [*lines[:at], json.dumps(event, separators=(",", ":")), *lines[at + 1 :]]


def add_field(rng: random.Random, lines: list[str]) -> list[str]:
    at = rng.randrange(len(lines))
    event = json.loads(lines[at])
    event[rng.choice(["note", "dice", "n", "extra", "seed"])] = rng.choice([1, "x", None])
    return [*lines[:at], json.dumps(event), *lines[at + 1 :]]


ACTIONS = [
    {"name": "life", "actor": "ann", "referee": True, "player": "cy", "mode": "set", "amount": 20},
    {"name": "chaos roll", "actor": "ann", "referee": True, "table": None, "extra": True},
    {"name": "turn next", "actor": "ann", "referee": True, "override": True},
    {"name": "chaos undo", "actor": "ann", "referee": True},
]


def insert_action(rng: random.Random, lines: list[str]) -> list[str]:
    at = rng.randrange(1, len(lines))
    seqs = [json.loads(line).get("seq") for line in lines[:at]]
    seq = max((s for s in seqs if isinstance(s, int)), default=0) + rng.choice([0, 1])
    action = {"type": "action", "seq": seq, "action": dict(rng.choice(ACTIONS))}
    return [*lines[:at], json.dumps(action), *lines[at:]]


def key_twice(rng: random.Random, lines: list[str]) -> list[str]:
    at = rng.randrange(len(lines))
    event = json.loads(lines[at])
    key = rng.choice(list(event))
    first = json.dumps({key: _other(rng, event[key])})[1:-1]
    if rng.random() < 0.5:
        changed = "{" + first + "," + lines[at][1:]  # the other value first: Python keeps the last
    else:
        changed = lines[at][:-1] + "," + first + "}"
    return [*lines[:at], changed, *lines[at + 1 :]]


def numbers(rng: random.Random, lines: list[str]) -> list[str]:
    at = rng.randrange(len(lines))
    event = json.loads(lines[at])
    ints = [p for p in _paths(event)[:-1] if isinstance(_get(event, p), int)]
    if not ints:
        return [*lines[:at], "", *lines[at:]]  # an empty line between events
    path = rng.choice(ints)
    holder = _get(event, path[:-1])
    marker = 7_777_777_777_777
    holder[path[-1]] = marker
    spelled = rng.choice([f"{_get(event, path) or 0}.0", "NaN", "Infinity", "-Infinity", "1e1"])
    text = json.dumps(event).replace(str(marker), spelled, 1)
    return [*lines[:at], text, *lines[at + 1 :]]


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


RAW: list[Mutation] = [
    delete,
    duplicate,
    swap,
    edit,
    edit,
    edit,
    add_field,
    insert_action,
    key_twice,
    numbers,
]


# -- forgeries: the game played again from its revealed seed --------------------------------------


def forge(rng: random.Random, game: Game) -> str:
    """A log that agrees with itself: the actions played again, with no-op actions slipped in,
    or from another start."""
    actions = [copy.deepcopy(a) for a in game.actions]
    start = actions[0]
    kind = rng.randrange(6)
    if kind == 0:
        start.pop("dice")
    elif kind == 1:
        start["dice"] = rng.choice([1, 2])
    elif kind == 2:
        start[rng.choice(["salt", "host_name"])] += "x"
    elif kind == 3:
        start["seed"] += 1
    forged = Game.replay(game.ruleset, actions[:1])  # kinds 4 and 5: the same start
    for logged in actions[1:]:
        # Not right before an undo of the log: that undo would take back the no-op instead.
        undo = logged["name"] == Undo.name
        if kind >= 4 and not undo and forged.state.phase is Phase.PLAYING and rng.random() < 0.3:
            _noop(rng, forged, kind == 4)
        try:
            forged.act(action_from_json(logged))
        except ChaosError:
            continue  # another start may refuse an action: the forger leaves it out
    return forged.export()


def _noop(rng: random.Random, game: Game, life: bool) -> None:
    if life:
        tracked = [
            p
            for p in game.state.players.values()
            # a total the bot is unsure of is no no-op to set: a player says what it is
            if p.status is not Status.OUT and p.life is not None and p.life >= 1 and not p.unsure
        ]
        if tracked:
            player = rng.choice(tracked)
            assert player.life is not None
            same = Life(actor="ann", referee=True, player=player.id, mode="set", amount=player.life)
            _try(game, same)
        return
    action = MENU[rng.randrange(len(MENU))](game, rng.randrange(10_000))
    probe = game.copy()
    if action is not None and _try(probe, action) and probe.state.phase is Phase.PLAYING:
        game.act(action)
        game.act(Undo(actor="ann", referee=True))


# -- the check -----------------------------------------------------------------------------------


def judge(original: Game, text: str, what: str) -> str:
    """ "refused" or "same story"; fails the test on a crash or a different story verified."""
    shown = original.state.commitment
    assert shown is not None
    try:
        verify(text.encode(), find, expected=shown)
    except ChaosError as refused:
        sentence = str(refused)
        assert sentence, what
        assert sentence[0].isupper(), (what, sentence)
        assert len(sentence) < 2_000, (what, sentence)
        return "refused"
    except Exception as error:  # what the test is there to catch
        pytest.fail(f"{what}: verify crashed with {error!r}")
    told = _told(story(json.loads(json.dumps(original.events))))
    # Read as Python reads it (the last of a key written twice) and as another reader might
    # (the first), type for type (true isn't 1, 1.0 isn't 1): the same story either way.
    for pairs in (dict, _first):
        mutant = [
            json.loads(line, object_pairs_hook=pairs) for line in text.splitlines() if line.strip()
        ]
        assert _told(story(mutant)) == told, f"{what}: verified, telling another story"
    return "same story"


def _first(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    kept: dict[str, Any] = {}
    for key, value in pairs:
        kept.setdefault(key, value)
    return kept


def _told(events: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(event, sort_keys=True) for event in events]


@pytest.mark.parametrize(("ruleset", "seed"), GAMES, ids=[f"{r}-{s}" for r, s in GAMES])
def test_every_mutant_is_refused_or_tells_the_same_story(ruleset: str, seed: int) -> None:
    original = played(ruleset, seed)
    assert original.state.phase is Phase.ENDED
    assert sum(1 for e in original.events if e["type"] == "roll") >= 5
    lines = lines_of(original)
    assert judge(original, original.export(), "the export itself") == "same story"
    rng = random.Random(f"mutants/{ruleset}/{seed}/raw")
    verdicts: dict[str, int] = {}
    for n in range(RAW_MUTANTS):
        mutation = RAW[n % len(RAW)]
        mutant = mutation(rng, lines)
        verdict = judge(original, "\n".join(mutant) + "\n", f"mutant {n} ({mutation.__name__})")
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
    assert verdicts.get("refused", 0) > RAW_MUTANTS * 0.8  # most mutants change the story


@pytest.mark.parametrize(("ruleset", "seed"), GAMES, ids=[f"{r}-{s}" for r, s in GAMES])
def test_every_forgery_is_refused_or_tells_the_same_story(ruleset: str, seed: int) -> None:
    original = played(ruleset, seed)
    rng = random.Random(f"mutants/{ruleset}/{seed}/forged")
    verdicts: dict[str, int] = {}
    for n in range(FORGERIES):
        verdict = judge(original, forge(rng, original), f"forgery {n}")
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
    assert verdicts.get("same story", 0) > 0  # the no-op ones, which verify: nothing moved
    assert verdicts.get("refused", 0) > 0  # another start: the commitment shown says no
