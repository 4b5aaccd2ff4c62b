"""Verifying a finished game's export: it verifies as exported, and every tampering is named."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest

from bot.engine import Begin, ChaosError, End, Game, Join, RollChaos, Undo
from bot.engine.fairness import commitment
from bot.engine.model import Ruleset
from bot.verify import MAX_BYTES, MAX_EVENTS, MismatchError, UnreadableLogError, verify
from bot.verify.replay import verify_events
from bot.verify.tables import folder_finder
from tests.engine.make_golden import PLAYERS, Driver
from tests.engine.rulesets import RULESETS

SALT = "5a1t" * 8
SEED = 2**100 + 12345  # as large as the seeds the service draws


def find(ruleset: str, tables: str | None) -> Ruleset:
    return RULESETS[ruleset]()


def finished(ruleset: str = "classic", turns: int = 6, seed: int = SEED) -> Game:
    driver = Driver(ruleset, seed, PLAYERS, salt=SALT)
    for _ in range(turns):
        if driver.over:
            break
        driver.turn()
    if not driver.over:
        driver.act(End(actor="ann"))
    return driver.game


def lines(game: Game) -> list[dict[str, Any]]:
    return [json.loads(line) for line in game.export().splitlines()]


def encode(events: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(e) + "\n" for e in events).encode()


def recommitted(events: list[dict[str, Any]]) -> str:
    """The commitment of a log's start as it stands (what an untouched log of it would hold)."""
    first, started = events[0]["action"], events[1]
    return commitment(
        first["seed"],
        first["salt"],
        dice=first.get("dice", 1),
        ruleset=started["ruleset"],
        revision=started["revision"],
        tables=first.get("tables", ""),
        host=first["actor"],
        name=first["host_name"],
        life=first["life"],
    )


def recommit(events: list[dict[str, Any]]) -> None:
    """Write the commitment of the log's start where the log keeps it, as the referee would have
    for a game that began this way."""
    for event in events:
        if event["type"] in ("game_started", "seed_revealed"):
            event["commitment"] = recommitted(events)


def refusal(data: bytes, error: type[Exception] = UnreadableLogError) -> str:
    with pytest.raises(error) as raised:
        verify(data, find)
    return str(raised.value)


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_a_finished_game_verifies_as_exported(ruleset: str) -> None:
    game = finished(ruleset)
    verdict = verify(game.export().encode(), find)
    assert verdict.commitment == game.state.commitment == recommitted(lines(game))
    assert verdict.actions == game.seq
    assert verdict.rolls > 0
    text = "\n".join(verdict.lines())
    assert "Verified" in text
    assert SALT in text
    assert str(SEED) in text
    assert "small number" not in text  # a drawn seed
    assert verify(gzip.compress(game.export().encode()), find) == verdict  # a compressed export


def test_changing_one_die_fails_naming_that_event() -> None:
    events = lines(finished("classic"))
    index = next(
        i for i, e in enumerate(events) if e["type"] == "roll" and e["turn"] == 3 and e["dice"]
    )
    events[index]["dice"][0] = events[index]["dice"][0] % 20 + 1
    message = refusal(encode(events), MismatchError)
    assert message.startswith(f"Event {index + 1} (roll, turn 3) doesn't match the replay")
    assert "the log has dice" in message
    assert "the seed gives" in message


def test_changing_a_drawn_card_fails_naming_that_event() -> None:
    events = lines(finished("deck"))
    drawn = [i for i, e in enumerate(events) if e["type"] == "card_drawn"]
    index = drawn[2]
    others = {events[i]["card"] for i in drawn} - {events[index]["card"]}
    events[index]["card"] = sorted(others)[0]
    message = refusal(encode(events), MismatchError)
    assert message.startswith(f"Event {index + 1} (card_drawn")
    assert "the seed draws" in message


@pytest.mark.parametrize("field", ["seed", "salt"])
def test_a_changed_seed_or_salt_breaks_the_commitment(field: str) -> None:
    events = lines(finished("lists"))
    for event in events:
        for holder in (event, event.get("action") or {}):
            if field in holder:
                holder[field] = holder[field] + 1 if field == "seed" else "0" * 32
    message = refusal(encode(events), MismatchError)
    assert message.startswith("The commitment doesn't match")


def test_a_consistent_rewrite_still_fails_against_the_commitment_people_saw() -> None:
    # A host who rewrites seed, salt and commitment alike makes a log that agrees with itself:
    # only the commitment shown at the start tells it apart.
    shown = finished("classic").state.commitment
    assert shown is not None
    game = finished("classic", seed=SEED + 1)
    with pytest.raises(MismatchError, match="isn't the one you gave"):
        verify(game.export().encode(), find, expected=shown[:16])
    assert verify(finished("classic").export().encode(), find, expected=shown[:16]).expected
    # A rewrite only needs a salt whose commitment starts with the digits compared: 8 digits
    # are 2**32 tries (an hour on one core), 16 are 2**64.
    for short in ("xyz", shown[:8], shown[:15]):
        with pytest.raises(UnreadableLogError, match="64 hex digits"):
            verify(game.export().encode(), find, expected=short)


def test_a_game_still_going_on_has_no_seed_to_check() -> None:
    driver = Driver("classic", 3, PLAYERS)
    driver.turn()
    assert "isn't over yet" in refusal(driver.game.export().encode())


def test_undone_actions_are_listed_and_a_named_seed_is_pointed_out() -> None:
    game = finished("classic", turns=2, seed=7)
    verdict = verify(game.export().encode(), find)
    assert not verdict.undone
    driver = Driver("classic", 7, PLAYERS, salt=SALT)
    game = driver.game
    driver.roll()
    game.act(Undo(actor="ann"))
    game.act(End(actor="ann"))
    text = "\n".join(verify(game.export().encode(), find).lines())
    assert "1 action was undone (the log keeps them): Ann: chaos roll" in text
    assert "small number" in text


def test_added_dropped_and_damaged_events_are_named() -> None:
    events = lines(finished("classic"))
    extra = [*events[:10], {"type": "life", "player": "ann"}, *events[10:]]
    assert "Event 11 (life" in refusal(encode(extra), MismatchError)
    turn = next(i for i, e in enumerate(events) if e["type"] == "turn_started" and i > 10)
    dropped = events[:turn] + events[turn + 1 :]
    assert f"Event {turn + 1} (" in refusal(encode(dropped), MismatchError)
    damaged = [dict(e) for e in events]
    action = next(i for i, e in enumerate(damaged) if i > 5 and e["type"] == "action")
    damaged[action] = {**damaged[action], "action": {"name": "chaos roll", "actor": [1, {}]}}
    message = refusal(encode(damaged), MismatchError)
    assert message.startswith(f"Event {action + 1} (action 'chaos roll'")
    unknown = [*events[:action], {**events[action], "action": {"name": "rm -rf"}}]
    assert "unknown action" in refusal(encode(unknown + events[action + 1 :]), MismatchError)


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"", "empty"),
        (b"\xff\xfe\x00garbage", "UTF-8"),
        (b"hello\n", "Line 1 isn't a JSON object"),
        (b'{"type": "action"}\n[1, 2]\n', "Line 2 isn't an event"),
        (b"[" * 100_000 + b"]" * 100_000 + b"\n", "Line 1 isn't a JSON object"),
        (b'{"type": "x", "n": ' + b"9" * 10_000 + b"}\n", "Line 1 isn't a JSON object"),
        (b'{"type": "roll"}\n', "doesn't begin with the start of a game"),
        (gzip.compress(b'{"type": "roll"}\n'), "doesn't begin with the start"),
        (b"\x1f\x8b\x08\x00broken", "can't be unpacked"),
    ],
    ids=["empty", "binary", "text", "array", "deep", "long-int", "no-start", "gzip", "bad-gzip"],
)
def test_hostile_files_get_a_sentence(data: bytes, says: str) -> None:
    assert says in refusal(data)


def test_huge_files_stop_at_the_caps() -> None:
    assert "larger than 8 MB" in refusal(b" " * (MAX_BYTES + 1))
    bomb = gzip.compress(b" " * (64 * 1024 * 1024))  # 64 MB of spaces in about 64 KB
    assert len(bomb) < 100_000
    assert "larger than 8 MB" in refusal(bomb)
    many = b'{"type":"undone","seq":1}\n' * (MAX_EVENTS + 1)
    assert "more than 100,000 events" in refusal(many)


def test_a_replay_that_runs_too_long_is_stopped() -> None:
    events = lines(finished("classic"))
    ticks = iter(range(0, 10_000, 10))
    with pytest.raises(UnreadableLogError, match="took too long"):
        verify_events(events, find, clock=lambda: float(next(ticks)), seconds=25)


def test_an_unknown_ruleset_is_a_sentence() -> None:
    events = lines(finished("classic"))
    events[1]["ruleset"] = "no-such"
    recommit(events)  # a log of a ruleset this bot doesn't have, untouched

    with pytest.raises(ChaosError, match="there is no ruleset 'no-such'"):
        verify(encode(events), folder_finder())


def test_a_game_begun_before_dice_streams_still_verifies() -> None:
    game = Game.start(RULESETS["classic"](), seed=SEED, host="ann", name="Ann", salt=SALT, dice=1)
    for action in (Join(actor="bob", player_name="Bob"), Begin(actor="ann")):
        game.act(action)
    game.act(RollChaos(actor="ann"))
    game.act(End(actor="ann"))
    assert verify(game.export().encode(), find).rolls > 0
    events = lines(game)
    events[0]["action"]["dice"] = 2  # as if it had rolled the newer way
    assert "Event 2 (game_started) doesn't match" in refusal(encode(events), MismatchError)
    events[0]["action"]["dice"] = "many"
    assert "Event 1 (the start of the game) names dice scheme many" in refusal(
        encode(events), MismatchError
    )


def test_a_log_of_other_tables_than_these_is_refused_with_a_sentence() -> None:
    # A log whose tables hash isn't the bundled tables' would replay every result differently
    # for a reason that has nothing to do with fairness: refused, and the way out is named.
    events = lines(finished("classic"))
    events[0]["action"]["tables"] = events[1]["tables"] = "0" * 64
    recommit(events)  # as another server's untouched log would be
    with pytest.raises(UnreadableLogError) as refused:
        verify(encode(events), folder_finder())
    assert "played with other classic tables than the bundled ones (tables 000000000000" in str(
        refused.value
    )
    assert "`/table export`" in str(refused.value)
