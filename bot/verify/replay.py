"""Checking a finished game's log against its revealed seed: the commitment, then every event.

The log's actions are played again from the revealed seed with the same tables, and each event
the replay gives must equal the event logged in its place, value for value and type for type
(``true`` is not ``1``): every die, every card drawn, every shuffle, every text. The first one
that differs is named by its number (its line in the file), its type, its turn and what differs.

A game started today commits to its whole start (seed, salt, dice scheme, ruleset and revision,
tables, host, starting life; :func:`~bot.engine.fairness.commitment`), so a log rewritten under
another dice scheme or other tables shows another commitment than the one announced.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from bot.engine import streams
from bot.engine.actions import action_from_json
from bot.engine.errors import ChaosError
from bot.engine.events import Event
from bot.engine.fairness import WHOLE_START, commitment, named
from bot.engine.game import Game
from bot.engine.house import HouseRuleError, HouseRules
from bot.engine.model import Ruleset
from bot.render import Names, describe_action
from bot.verify.errors import MismatchError, UnreadableLogError

log = logging.getLogger(__name__)

# Finds the tables a game was played with: its ruleset's id, and the hash of the exact tables
# when the log names them. Raises ChaosError with a sentence when it has no such tables.
FindRuleset = Callable[[str, str | None], Ruleset]

SECONDS = 10.0  # a real 200-turn game replays in well under a tenth of a second
# Hex digits of a commitment someone may type instead of all 64. A forger who rewrites a whole
# log only needs a salt whose commitment starts with the digits compared: 8 digits (2**32 tries)
# take an hour on one core, 16 (2**64) are out of reach.
SHORTEST_PREFIX = 16


@dataclass(frozen=True)
class Verdict:
    """What a log that verified holds."""

    ruleset: str
    seed: int
    salt: str
    commitment: str
    actions: int
    rolls: int
    dice: int
    cards: int
    shuffles: int
    undone: list[str] = field(default_factory=list)
    expected: str | None = None
    scheme: int = streams.BY_ACTION  # how the game rolled its dice (bot.engine.streams)
    house: list[str] = field(default_factory=list)  # the house rules it kept, in words

    def lines(self) -> list[str]:
        """The verdict in sentences, the most important first."""
        lines = [
            f"Verified: this {self.ruleset} game replays exactly from its revealed seed:"
            f" {_count(self.actions, 'action')}, {_count(self.rolls, 'roll')} with"
            f" {_count(self.dice, 'die', 'dice')}, {_count(self.cards, 'card')} drawn,"
            f" {_count(self.shuffles, 'shuffle')}.",
            f"Its commitment {self.commitment} is the SHA-256 of "
            + (
                f"its whole start: seed {self.seed}, salt {self.salt}, dice scheme"
                f" {self.scheme}, the {self.ruleset} tables, the host and the starting life"
                + (f", and its house rules ({'; '.join(self.house)})." if self.house else ".")
                if self.scheme >= WHOLE_START
                else f"seed {self.seed} and salt {self.salt}."
            )
            + (
                " It is the one you gave."
                if self.expected
                else " Compare it with the one shown when the game started."
            ),
        ]
        if self.scheme < streams.BY_ROLL:
            lines.append(
                f"It rolled its dice the older way (scheme {self.scheme}), in which an action"
                " before a roll made inside another action (a spite roll) could move it, and"
                " its commitment covers only the seed and the salt."
            )
        if self.undone:
            listed = "; ".join(self.undone[:10]) + ("; …" if len(self.undone) > 10 else "")
            lines.append(
                f"{len(self.undone)} action{'s were' if len(self.undone) != 1 else ' was'}"
                f" undone (the log keeps them): {listed}."
            )
        if named(self.seed):
            lines.append(
                "The seed is a small number: someone named it when the game started instead of"
                " letting the referee draw one, and whoever knew it could work out every roll."
            )
        return lines


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def verify_events(
    events: list[dict[str, Any]],
    find: FindRuleset,
    *,
    expected: str | None = None,
    seconds: float = SECONDS,
    clock: Callable[[], float] = time.monotonic,
) -> Verdict:
    """Check a finished game's log; MismatchError names what doesn't match, UnreadableLogError
    says why it can't be checked. `expected` is the commitment the caller saw at the start."""
    started = _start(events)
    revealed = _revealed(events)
    seed, salt = revealed["seed"], revealed["salt"]
    committed = started.get("commitment")
    if not isinstance(committed, str):
        raise UnreadableLogError(
            "This game started before games committed to their seed: there is no commitment to"
            " check its seed against."
        )
    scheme = _scheme(events)
    actual = _commitment(events, seed, salt, scheme)
    if actual != committed:
        what = (
            f"its start (seed {seed}, salt {salt}, dice scheme {scheme}, its tables, host, life"
            " and house rules)"
            if scheme >= WHOLE_START
            else f"the revealed seed {seed} and salt {salt}"
        )
        raise MismatchError(
            f"The commitment doesn't match: the game committed to {committed} when it started,"
            f" but {what} give{'s' if scheme >= WHOLE_START else ''} {actual}. The game's"
            " start was changed after it started."
        )
    if expected is not None:
        _check_expected(committed, expected)
    ruleset = find(*tables_of(events))
    game = _replay(events, ruleset, seed, salt, clock() + seconds, clock)
    return _verdict(game, ruleset, seed, salt, committed, expected)


def _scheme(events: list[dict[str, Any]]) -> int:
    """The dice scheme the log's start action names (1 when it names none)."""
    scheme = events[0]["action"].get("dice", streams.BY_ACTION)
    if isinstance(scheme, bool) or scheme not in streams.SCHEMES:
        raise MismatchError(
            f"Event 1 (the start of the game) names dice scheme {_short(scheme)}, and there is"
            f" no such scheme (there are {', '.join(map(str, streams.SCHEMES))})."
        )
    return int(scheme)


def _commitment(events: list[dict[str, Any]], seed: int, salt: str, scheme: int) -> str:
    """What the log's start commits to, worked out from the start as logged."""
    first, started = events[0]["action"], events[1]
    try:
        return commitment(
            seed,
            salt,
            dice=scheme,
            ruleset=_text(started.get("ruleset")),
            revision=_text(started.get("revision")),
            tables=_text(first.get("tables") or ""),
            host=_text(first["actor"]),
            name=_text(first.get("host_name") or first["actor"]),
            life=None if first.get("life") is None else _int(first.get("life")),
            house=_house(first.get("house")).to_json(),
        )
    except (KeyError, TypeError):
        raise MismatchError("Event 1 (the start of the game) is damaged.") from None


def _house(value: object) -> HouseRules:
    """The house rules the start action logs (MismatchError if they are damaged)."""
    try:
        return HouseRules.from_json(value)
    except HouseRuleError:
        raise MismatchError("Event 1 (the start of the game) has damaged house rules.") from None


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError("not a text")
    return value


def tables_of(events: list[dict[str, Any]]) -> tuple[str, str | None]:
    """The id of the ruleset a log's game was played with, and the hash of its exact tables
    when the log names them (what a :data:`FindRuleset` is asked for)."""
    started = _start(events)
    tables = started.get("tables")
    return str(started.get("ruleset"))[:100], tables if isinstance(tables, str) else None


def _start(events: list[dict[str, Any]]) -> dict[str, Any]:
    first = events[0]
    action = first.get("action")
    if (
        first["type"] != "action"
        or not isinstance(action, dict)
        or action.get("name") != "game start"
        or len(events) < 2
        or events[1]["type"] != "game_started"
    ):
        raise UnreadableLogError(
            "That log doesn't begin with the start of a game, so it isn't a whole game's export."
        )
    return events[1]


def _revealed(events: list[dict[str, Any]]) -> dict[str, Any]:
    found = [e for e in events if e["type"] == "seed_revealed"]
    if not found:
        raise UnreadableLogError(
            "This game isn't over yet: its seed is revealed when it ends (`game end`), and"
            " only then can its log be checked. Export it again after the end."
        )
    revealed = found[-1]
    seed, salt = revealed.get("seed"), revealed.get("salt")
    if isinstance(seed, bool) or not isinstance(seed, int) or not isinstance(salt, str):
        raise MismatchError(
            f"Event {events.index(revealed) + 1} (seed_revealed) is damaged: it has no seed"
            " and salt to check."
        )
    return revealed


def _check_expected(committed: str, expected: str) -> None:
    wanted = expected.strip().lower()
    if len(wanted) < SHORTEST_PREFIX or any(c not in "0123456789abcdef" for c in wanted):
        raise UnreadableLogError(
            f"A commitment is 64 hex digits (at least the first {SHORTEST_PREFIX} will do);"
            f" {expected!r} isn't one."
        )
    if not committed.startswith(wanted):
        raise MismatchError(
            f"This log's commitment {committed} isn't the one you gave ({wanted}): the log is"
            " another game's, or it was rewritten from the start."
        )


def _replay(
    logged: list[dict[str, Any]],
    ruleset: Ruleset,
    seed: int,
    salt: str,
    deadline: float,
    clock: Callable[[], float],
) -> Game:
    """Play the logged actions again from the revealed seed and salt, comparing each event the
    replay gives with the log's (so a seed changed at the start shows there)."""
    first = logged[0]["action"]
    try:
        game = Game.start(
            ruleset,
            seed=seed,
            host=str(first["actor"]),
            name=str(first.get("host_name") or first["actor"]),
            life=None if first.get("life") is None else _int(first.get("life")),
            salt=salt,
            tables=str(first.get("tables") or ""),
            dice=_scheme(logged),
            house=_house(first.get("house")),
        )
    except (KeyError, TypeError, ValueError):
        raise MismatchError("Event 1 (the start of the game) is damaged.") from None
    _compare(logged, 0, game.events)
    at = len(game.events)
    while at < len(logged):
        if clock() > deadline:
            raise UnreadableLogError(
                "Replaying this log took too long, so it was stopped: a real game's log is"
                " checked in well under a second."
            )
        event = logged[at]
        if event["type"] != "action" or not isinstance(event.get("action"), dict):
            raise MismatchError(
                f"{_where(logged, at)} isn't in the replay: the events of the action before it"
                " ended there. It was added to the log."
            )
        produced = _act(game, logged, at)
        _compare(logged, at, produced)
        at += len(produced)
    return game


def _act(game: Game, logged: list[dict[str, Any]], at: int) -> list[Event]:
    """The events of the action logged at `at` (where it is, worked out only for an error)."""
    try:
        return game.act(action_from_json(logged[at]["action"]))
    except ChaosError as error:
        raise MismatchError(f"{_where(logged, at)} can't be replayed: {error}.") from None
    except Exception:  # a hostile file's action may be any shape: say so, don't crash
        log.debug("a logged action failed to replay", exc_info=True)
        raise MismatchError(
            f"{_where(logged, at)} can't be replayed: the action is damaged."
        ) from None


def _compare(logged: list[dict[str, Any]], at: int, produced: list[Event]) -> None:
    for offset, event in enumerate(produced):
        index = at + offset
        replayed = json.loads(json.dumps(event))
        if index >= len(logged):
            raise MismatchError(
                f"The log stops early: the replay goes on with event {index + 1}"
                f" ({replayed['type']})."
            )
        if not same(logged[index], replayed):
            difference = _difference(logged[index], replayed)
            raise MismatchError(f"{_where(logged, index)} doesn't match the replay: {difference}.")


def same(logged: object, replayed: object) -> bool:
    """Whether two JSON values are the same, type for type: ``true`` isn't ``1``, as Python's
    ``==`` would have it, and no key is missing or added at any depth."""
    return logged == replayed and _same_types(logged, replayed)


def _same_types(logged: object, replayed: object) -> bool:
    """For two values already equal by ``==``: whether every value has the same type in both
    (a walk of the containers only, since the values themselves compared equal)."""
    if type(logged) is not type(replayed):
        return False
    pairs: Iterable[tuple[Any, Any]]
    if isinstance(logged, dict):
        assert isinstance(replayed, dict)
        pairs = ((value, replayed[key]) for key, value in logged.items())
    elif isinstance(logged, list):
        assert isinstance(replayed, list)
        pairs = zip(logged, replayed, strict=True)  # equal lists: of one length
    else:
        return True
    for value, other in pairs:
        kind = type(value)
        if kind is not type(other):
            return False
        if (kind is dict or kind is list) and not _same_types(value, other):
            return False
    return True


def _where(logged: list[dict[str, Any]], index: int) -> str:
    """``Event 57 (roll, turn 3, Ann)``: its number is its line in the export."""
    event = logged[index]
    about = [str(event.get("type"))[:40]]
    if event["type"] == "action" and isinstance(event.get("action"), dict):
        about = [f"action {str(event['action'].get('name'))[:40]!r}"]
    turn = event.get("turn")
    if not isinstance(turn, int):
        turn = next(
            (e.get("turn") for e in reversed(logged[:index]) if e["type"] == "turn_started"), None
        )
    if isinstance(turn, int) and turn > 0:
        about.append(f"turn {turn}")
    return f"Event {index + 1} ({', '.join(about)})"


def _difference(logged: dict[str, Any], replayed: dict[str, Any]) -> str:
    if logged.get("type") != replayed["type"]:
        return (
            f"the log has a {str(logged.get('type'))[:40]} event, the replay a {replayed['type']}"
        )
    if replayed["type"] == "roll" and logged.get("dice") != replayed["dice"]:
        return (
            f"the log has dice {_short(logged.get('dice'))}, the seed gives"
            f" {replayed['dice']} ({replayed['entry']['name']})"
        )
    if replayed["type"] == "card_drawn" and logged.get("card") != replayed["card"]:
        return f"the log draws {_short(logged.get('card'))}, the seed draws {replayed['card']}"
    extra = sorted(logged.keys() - replayed.keys())
    if extra:
        return f"it has the field {_short(extra[0])}, which the replay's doesn't"
    keys = sorted(
        k
        for k in logged.keys() | replayed.keys()
        if k not in logged or k not in replayed or not same(logged[k], replayed[k])
    )
    shown = ", ".join(_short(k) for k in keys[:5])
    return f"its {shown} differ{'s' if len(keys) == 1 else ''} from what the seed and actions give"


def _short(value: object) -> str:
    text = json.dumps(value) if not isinstance(value, str) else value
    return text if len(text) <= 60 else text[:57] + "…"


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("not an integer")
    return value


def _verdict(
    game: Game, ruleset: Ruleset, seed: int, salt: str, committed: str, expected: str | None
) -> Verdict:
    events = game.events
    rolls = [e for e in events if e["type"] == "roll"]
    dice = sum(len(r["dice"]) + sum(len(i["faces"]) for i in r["inline"]) for r in rolls)
    undone_seqs = {e["seq"] for e in events if e["type"] == "undone"}
    names = Names.of(game)
    undone = []
    for event in events:
        if event["type"] == "action" and event["seq"] in undone_seqs:
            who = names.player(str(event["action"].get("actor")))
            undone.append(f"{who}: {describe_action(event['action'], names)}")
    return Verdict(
        ruleset=ruleset.id,
        seed=seed,
        salt=salt,
        commitment=committed,
        actions=game.seq,
        rolls=len(rolls),
        dice=dice,
        cards=sum(1 for e in events if e["type"] == "card_drawn"),
        shuffles=sum(1 for e in events if e["type"] == "deck_shuffled"),
        undone=undone,
        expected=expected,
        scheme=game.state.dice,
        house=game.state.house.summary(),
    )


__all__ = ["FindRuleset", "Verdict", "tables_of", "verify_events"]
