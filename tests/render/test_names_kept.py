"""Names.of keeps what it collected from a game's log: for the game, and for its copies (every
published version is one). What it returns must be what the whole log says, always."""

from __future__ import annotations

from bot.engine import actions as a
from bot.engine.errors import ChaosError
from bot.engine.game import Game
from bot.render.names import Names
from bot.tables import find_ruleset


def whole(game: Game) -> Names:
    return Names.collect(game.events, game.ruleset, game.state)


def played() -> Game:
    game = Game.start(find_ruleset("classic").ruleset, seed=7, host="ann", name="Ann")
    game.act(a.Join(actor="bob", player_name="Bob"))
    game.act(a.Begin(actor="ann"))
    return game


def step(game: Game) -> None:
    """One more action of any kind that the game takes."""
    for action in (
        a.RollChaos(actor="ann", extra=True),
        a.NextTurn(actor="ann"),
        a.NextTurn(actor="bob"),
        a.RollChaos(actor="bob", extra=True),
    ):
        try:
            game.act(action)
            return
        except ChaosError:
            continue
    pending = game.state.pending
    assert pending is not None
    game.act(a.Choose(actor=pending.player, option=pending.options[0][0]))


def test_copies_newer_older_and_diverging_all_get_their_own_logs_names() -> None:
    live = played()
    copies = []
    for _ in range(12):
        step(live)
        assert Names.of(live) == whole(live)
        copy = live.copy()
        assert Names.of(copy) == whole(copy)
        copies.append(copy)
    # An older copy asked again, after newer ones: its own log's names, not the newest's.
    for copy in copies:
        assert Names.of(copy) == whole(copy)
    # A copy that went another way (as after a failed save) from an older version, and is
    # now longer than the log last read.
    fork = copies[3].copy()
    fork.act(a.Away(actor="bob"))  # an action live never took: the logs differ from here
    while len(fork.events) <= len(live.events):
        step(fork)
    assert Names.of(live) == whole(live)
    assert Names.of(fork) == whole(fork)
    assert Names.of(live) == whole(live)
    step(live)
    assert Names.of(live) == whole(live)
    assert Names.of(fork) == whole(fork)


def test_a_game_rebuilt_from_the_same_log_reads_its_own_names() -> None:
    live = played()
    for _ in range(6):
        step(live)
    rebuilt = Game(live.ruleset, [dict(e) for e in live.events])  # type: ignore[misc]
    assert Names.of(live) == whole(live)
    assert Names.of(rebuilt) == whole(rebuilt)


def test_names_asked_again_copy_nothing_of_the_log() -> None:
    """Every answer and board asks for its game's names: what was collected is looked up in
    place, not copied again (a copy of every roll's and action's name, each time, made a long
    game's answers dearer the longer it went)."""
    game = played()
    for _ in range(30):
        step(game)
    first = Names.of(game)
    step(game)
    again = Names.of(game)
    for table in ("players", "items", "actions", "options", "roots"):
        assert getattr(again, table) is getattr(first, table), table
    assert again.items == whole(game).items  # and what it says is still the whole log's
