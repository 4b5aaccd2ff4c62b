"""Golden scenarios: every file in tests/data/scenarios replays to exactly its recorded events.

The files are written by ``python -m tests.engine.make_golden``. A failure here means the engine
now behaves differently on a recorded game: review the difference before regenerating.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Game
from tests.engine.make_golden import SCENARIOS, SCRIPTS, dumps
from tests.engine.rulesets import RULESETS

FILES = sorted(SCENARIOS.glob("*.json"))
MISSING = object()


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def first_difference(expected: list[Any], actual: list[Any]) -> str | None:
    """Where two event lists part: the index, the action it belongs to, and both events."""
    action = None
    for index, (want, got) in enumerate(zip(expected, actual, strict=False)):
        if want.get("type") == "action":
            action = want
        if want != got:
            keys = sorted(
                k for k in want.keys() | got.keys() if want.get(k, MISSING) != got.get(k, MISSING)
            )
            return (
                f"event {index} differs in {', '.join(keys)}\n"
                f"  during:   {json.dumps(action, sort_keys=True)}\n"
                f"  expected: {json.dumps(want, sort_keys=True)}\n"
                f"  actual:   {json.dumps(got, sort_keys=True)}"
            )
    if len(expected) != len(actual):
        index = min(len(expected), len(actual))
        longer, which = (
            (expected, "expected only") if index < len(expected) else (actual, "actual only")
        )
        return (
            f"the file has {len(expected)} events, the replay {len(actual)}\n"
            f"  event {index} ({which}): {json.dumps(longer[index], sort_keys=True)}"
        )
    return None


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_scenario_replays_to_its_recorded_events(path: Path) -> None:
    scenario = load(path)
    game = Game.replay(RULESETS[scenario["ruleset"]](), scenario["actions"])
    actual = json.loads(json.dumps(game.events))
    difference = first_difference(scenario["events"], actual)
    if difference is not None:
        pytest.fail(
            f"{path.name}: {difference}\n"
            "If the change is intended, regenerate with `python -m tests.engine.make_golden`"
            " and review the diff.",
            pytrace=False,
        )


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_scenario_header_agrees_with_its_actions(path: Path) -> None:
    scenario = load(path)
    start, *rest = scenario["actions"]
    assert start["name"] == "game start"
    assert start["seed"] == scenario["seed"]
    joined = [a["actor"] for a in rest if a["name"] == "game join"]
    assert [start["actor"], *joined] == scenario["players"]
    assert scenario["events"][0] == {"type": "action", "seq": 0, "action": start}


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_scenario_file_is_written_as_the_generator_writes_it(path: Path) -> None:
    """Hand edits show up here: the files are output, not input."""
    assert path.read_text(encoding="utf-8") == dumps(load(path))


def test_every_script_has_its_file_and_every_ruleset_a_twenty_turn_game() -> None:
    names = {path.stem for path in FILES}
    assert names == set(SCRIPTS)
    for ruleset in RULESETS:
        assert f"{ruleset}-20" in names
        assert sum(1 for name in names if name.startswith(f"{ruleset}-")) >= 2


def test_first_difference_points_at_the_first_changed_event() -> None:
    expected = [{"type": "action", "seq": 1}, {"type": "roll", "dice": [3]}, {"type": "x"}]
    actual = [{"type": "action", "seq": 1}, {"type": "roll", "dice": [4]}, {"type": "x"}]
    message = first_difference(expected, actual)
    assert message is not None
    assert message.startswith("event 1 differs in dice")
    assert '"dice": [3]' in message
    assert '"dice": [4]' in message
    assert first_difference(expected, expected) is None
    shorter = first_difference(expected, actual[:1])
    assert shorter is not None
    assert "event 1 (expected only)" in shorter
