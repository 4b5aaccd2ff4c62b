"""The commitment to the seed: what it is over, where it is logged, and that it replays."""

from __future__ import annotations

import hashlib

from bot.engine import Game
from bot.engine.fairness import commitment
from tests.engine.rulesets import RULESETS


def test_the_commitment_is_sha256_of_the_prefix_the_seed_and_the_salt() -> None:
    expected = hashlib.sha256(b"chaos-referee:123456789:c0ffee").hexdigest()
    assert commitment(123456789, "c0ffee") == expected
    assert commitment(123456789, "c0ffef") != expected
    assert commitment(123456788, "c0ffee") != expected


def test_a_game_logs_its_commitment_at_the_start_and_a_replay_gives_the_same() -> None:
    game = Game.start(RULESETS["lists"](), seed=99, host="ann", name="Ann", salt="s", tables="t")
    started = game.events[1]
    assert started["type"] == "game_started"
    assert started["commitment"] == commitment(99, "s")
    assert started["tables"] == "t"
    assert game.state.commitment == commitment(99, "s")
    assert Game.replay(game.ruleset, game.actions).events == game.events


def test_a_log_from_before_commitments_still_loads() -> None:
    game = Game.start(RULESETS["classic"](), seed=4, host="ann", name="Ann")
    old = [dict(e) for e in game.events]
    for event in old:
        event.pop("commitment", None)
        event.pop("salt", None)
    loaded = Game(game.ruleset, old)  # type: ignore[arg-type]
    assert loaded.state.commitment is None
    assert loaded.state.salt == ""
