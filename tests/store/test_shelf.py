"""The shelf of published versions keeps what readers need and no more: the live games, and a
bounded few others (by count, by events, by time unread); a version never goes back."""

from __future__ import annotations

from pathlib import Path

from bot.engine import End, Join
from bot.engine.game import Game
from bot.published import KEPT, Published, Shelf
from bot.store import GameRecord
from bot.tables import find_ruleset
from tests.store.helpers import aio, begun, open_service

CLASSIC = find_ruleset("classic")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def version(game_id: int, scope: str, seq: int = 1, *, players: int = 1) -> Published:
    """Game `game_id` of `scope` at `seq` actions (Ann and `players - 1` others joined)."""
    game = Game.start(CLASSIC.ruleset, seed=game_id, host="ann", name="Ann")
    for n in range(1, players):
        game.act(Join(actor=f"p{n}", player_name=f"P{n}"))
    record = GameRecord(game_id, scope, None, "classic", "hash", seq, 0.0, 0.0, None, True)
    return Published(record, game, CLASSIC)


def test_a_few_versions_are_kept_besides_the_live_ones() -> None:
    shelf = Shelf(kept=3)
    for n in range(1, 11):
        shelf.live(version(n, f"s{n}"))
    assert shelf.counts[:2] == (10, 0)  # the live ones are the service's to bound
    for n in range(1, 11):
        shelf.retire(f"s{n}")
    assert shelf.counts[:2] == (0, 3)
    assert [shelf.scope(f"s{n}") is not None for n in (7, 8, 9, 10)] == [False, True, True, True]
    shelf.game("s8", 8)  # read: the least recently read goes first
    shelf.keep(version(11, "s11"))
    assert shelf.scope("s9") is None
    assert shelf.scope("s8") is not None


def test_the_kept_versions_hold_a_bounded_number_of_events() -> None:
    big = version(1, "a", players=8)
    shelf = Shelf(kept=100, kept_events=big.events * 2)
    for n in range(1, 6):
        shelf.keep(version(n, f"s{n}", players=8))
    _, kept, events = shelf.counts
    assert kept == 2
    assert events <= big.events * 2


def test_a_kept_version_unread_for_long_is_let_go() -> None:
    clock = Clock()
    shelf = Shelf(kept_seconds=60, clock=clock)
    shelf.keep(version(1, "a"))
    clock.now = 30
    assert shelf.scope("a") is not None  # read: its hour starts again
    clock.now = 80
    assert shelf.scope("a") is not None
    clock.now = 141
    assert shelf.scope("a") is None
    assert shelf.counts == (0, 0, 0)


def test_a_version_never_goes_back() -> None:
    shelf = Shelf()
    newer = version(1, "a", seq=5)
    shelf.live(newer)
    assert shelf.keep(version(1, "a", seq=3)) is newer  # a reader's slower read
    assert shelf.scope("a") is newer
    newest = version(1, "a", seq=7)  # read from the store: another process moved it
    assert shelf.keep(newest) is newest
    assert shelf.scope("a") is newest
    assert shelf.game("a", 1) is newest
    shelf.keep(version(2, "a"))  # the scope's next game
    assert shelf.scope("a") is not None
    assert shelf.scope("a").game_id == 2  # type: ignore[union-attr]
    assert shelf.game("a", 1) is newest  # the old one is still there for its page
    assert shelf.game("b", 1) is None  # a game is found in its own scope only


@aio
async def test_the_service_keeps_ended_games_within_the_bound(database: Path | str) -> None:
    async with open_service(database, cache_size=4) as service:
        for n in range(KEPT + 8):
            scope = f"scope:{n}"
            await begun(service, scope, seed=n)
            ended = await service.act(scope, End(actor="ann"))
        live, kept, _ = service._shelf.counts
        assert live == 0
        assert kept == KEPT
        last = service.published(scope, ended.game_id)
        assert last is not None
        assert last.version == ended.version
        assert last.game.events == ended.game.events
        assert service.published("scope:0") is None  # let go: its page reads the database
        again = await service.watched("scope:0")
        assert again.game.state.phase.value == "ended"
