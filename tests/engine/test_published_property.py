"""A version given to readers stays as it was, whatever the game does after (issue 27).

After every committed action the service publishes the game for readers (bot.published) as
:meth:`Game.copy`, which copies nothing: the copy shares the state and the log's list with the
game played on. Over the random games of the numbers property test (the cheater test's moves,
the middle, a referee's undos, rolls the whole table vetoes), publishing after every action:

- every version published equals, after all the actions that followed, what it was when it
  was published: its log, its state, its count of actions;
- whether a reader read its log at once or only at the end;
- each version's state is the fold of its own log;
- and the game played on still replays exactly from its actions.
"""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import Action, Game, fold
from bot.engine.state import GameState
from tests.engine.test_numbers_property import RULES_WITH_MIDDLE, _numbered_moves, begun, played

# What a version was when published: its log as text, a deep copy of its state, its count of
# actions and of events.
Seen = tuple[str, GameState, int, int]


def publish(game: Game, read_now: bool) -> tuple[Game, Seen]:
    """The game's copy for readers, and what it is now; `read_now` reads its log at once."""
    shown = game.copy()
    if read_now:
        assert len(shown.events) == len(game.events)
    return shown, (game.export(), copy.deepcopy(game.state), game.seq, len(game.events))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    moves=st.lists(_numbered_moves(), min_size=10, max_size=70),
    seed=st.integers(0, 2**16),
    reads=st.lists(st.booleans(), min_size=1),
)
def test_every_published_version_stays_as_it_was(
    moves: list[Action | list[Action]], seed: int, reads: list[bool]
) -> None:
    published = []
    game = begun(seed, lambda started: published.append(publish(started, reads[0])))
    for _ in played(game, moves):
        published.append(publish(game, reads[len(published) % len(reads)]))
    for shown, (log, state, seq, count) in published:
        assert shown.event_count == count
        assert shown.export() == log
        assert shown.state == state
        assert shown.seq == seq
        assert fold(shown.events) == shown.state
    assert Game.replay(RULES_WITH_MIDDLE, game.actions).export() == game.export()
