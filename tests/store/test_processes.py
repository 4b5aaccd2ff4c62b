"""Two processes on one database: stale caches reload and retry, duplicates apply once.

Each "process" is a GameService over a Store of its own, on the same database (two pools on
one PostgreSQL database, or two connections to one SQLite file), with its own cache: exactly
the state two bot processes hold. One test runs a second OS process as well.

On PostgreSQL the first process to claim an interaction has it, and another that received it
gets ClaimedError before it does anything. What guards an interaction behind the claims (its
key in the store) is tested with a process that doesn't claim (:class:`Unclaiming`), as a
SQLite one doesn't.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import pytest

from bot.engine import Event, Game, Join, Life, NextTurn, RollChaos
from bot.engine.errors import ChaosError
from bot.errors import (
    ClaimedError,
    ConflictError,
    DuplicateActionError,
    GameExistsError,
    StaleActionError,
)
from bot.service import TRIES, GameService, Outcome
from bot.store import GameRecord, Store
from bot.tables import find_ruleset
from bot.tables.snapshot import take_snapshot
from tests.store.helpers import SCOPE, aio, begun, open_service, replayed_events

ROOT = Path(__file__).resolve().parents[2]
GAIN = Life(actor="ann", mode="gain", amount=1)


class Unclaiming:
    """A real store that never claims an interaction (claims always succeed), as a process
    on SQLite: what is left to stop a second delivery is the interaction's key."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def claim(self, interaction: str) -> bool:
        return True


def unclaiming(service: GameService) -> GameService:
    """`service`, from now on a process that claims nothing (see :class:`Unclaiming`)."""
    service.store = cast(Store, Unclaiming(service.store))
    return service


def claims_stored(database: Path | str) -> bool:
    """Whether the store keeps claims: PostgreSQL does, a SQLite file has one process."""
    return isinstance(database, str)


async def stored_log(service: GameService) -> list[Event]:
    stored = await service.store.active_game(SCOPE)
    assert stored is not None
    return stored.events


@aio
async def test_a_game_moved_by_another_process_is_reloaded_and_the_action_applied(
    database: Path | str,
) -> None:
    async with open_service(database) as one, open_service(database) as two:
        start = await begun(one)
        await two.current(SCOPE)  # two caches the game at this version
        await one.act(SCOPE, GAIN)
        moved = await two.act(SCOPE, GAIN)  # two's copy is stale: reload, then apply
        assert moved.version == start.version + 2
        events = await stored_log(one)
        assert events == moved.game.events
        assert replayed_events(Game(moved.game.ruleset, events)) == events


@aio
async def test_the_outcome_given_meanwhile_last_is_the_one_saved(database: Path | str) -> None:
    """The bot draws its answer while the save commits (`meanwhile`); a try that conflicts is
    drawn too, but the last outcome given is the one that was saved, and the very one
    returned, so the answer sent is the one drawn for it (bot.client.play checks that)."""
    async with open_service(database) as one, open_service(database) as two:
        await begun(one)
        await two.current(SCOPE)  # two caches the game at this version
        await one.act(SCOPE, GAIN)
        given: list[Outcome] = []
        moved = await two.act(SCOPE, GAIN, meanwhile=given.append)  # a conflict, then saved
        assert len(given) == 2
        assert given[0].events is not moved.events  # the try on the stale copy
        last = given[-1]
        assert last.events is moved.events
        assert last.game is moved.game
        assert (last.game_id, last.version) == (moved.game_id, moved.version)


@aio
async def test_a_button_pressed_on_a_game_another_process_moved_is_stale(
    database: Path | str,
) -> None:
    """The retry runs every check again on the reloaded game: a version the player saw, and
    which has since gone by in the other process, is refused as stale, not applied."""
    async with open_service(database) as one, open_service(database) as two:
        start = await begun(one)
        await two.current(SCOPE)
        await one.act(SCOPE, GAIN)
        with pytest.raises(StaleActionError, match="an action was taken \\(Ann: life\\)"):
            await two.act(SCOPE, GAIN, version=start.version)
        assert (await one.current(SCOPE)).version == start.version + 1


@aio
async def test_the_same_interaction_twice_is_applied_once(database: Path | str) -> None:
    async with open_service(database) as one, open_service(database) as two:
        unclaiming(two)
        start = await begun(one)
        await two.current(SCOPE)
        applied = await one.act(SCOPE, GAIN, interaction=1234)
        with pytest.raises(DuplicateActionError, match="already done"):
            await two.act(SCOPE, GAIN, interaction=1234)  # stale too: reloads, then refuses
        with pytest.raises(DuplicateActionError):
            await one.act(SCOPE, GAIN, interaction="1234")
        assert (await two.current(SCOPE)).version == applied.version == start.version + 1
        again = await two.act(SCOPE, GAIN, interaction=1235)
        assert again.version == start.version + 2
        assert len(await stored_log(one)) == len(again.game.events)


@aio
async def test_an_interaction_that_started_a_game_is_not_applied_again(
    database: Path | str,
) -> None:
    snapshot, loaded = take_snapshot(find_ruleset("classic"))
    events = Game.start(loaded.ruleset, seed=1, host="ann", name="Ann").events
    async with Store.connect(database) as store:
        await store.create_game(
            scope="a", guild=None, snapshot=snapshot, events=events, now=1.0, interaction="9"
        )
        with pytest.raises(DuplicateActionError):
            await store.create_game(
                scope="b", guild=None, snapshot=snapshot, events=events, now=1.0, interaction="9"
            )
        assert await store.active_game("b") is None


@aio
async def test_a_process_that_lost_the_claim_does_nothing_and_says_nothing(
    database: Path | str,
) -> None:
    """Both processes got the roll during a hand-over; one claimed it first and is still at
    work. two must neither apply it nor refuse it ("try again" while one is saving it): it
    gets ClaimedError before it looks at the game, and one applies the roll."""
    async with open_service(database) as one, open_service(database) as two:
        start = await begun(one)
        await one.claim(321)
        roll = RollChaos(actor="ann")
        if claims_stored(database):
            with pytest.raises(ClaimedError):
                await two.act(SCOPE, roll, interaction=321)
            with pytest.raises(ClaimedError):
                await two.start(SCOPE, "classic", host="ann", host_name="Ann", interaction=321)
            assert two.cached_games == 0  # it never even loaded the game
            rolled = await one.act(SCOPE, roll, interaction=321)  # claimed here: no second claim
            assert rolled.version == start.version + 1
        else:  # one process per SQLite file: nothing is claimed, the key applies it once
            await two.act(SCOPE, roll, interaction=321)
            with pytest.raises(DuplicateActionError):
                await one.act(SCOPE, roll, interaction=321)
        assert await one.store.version(start.game_id) == start.version + 1


@aio
async def test_only_postgres_keeps_claims_and_expiry_keeps_recent_ones(
    database: Path | str,
) -> None:
    async with Store.connect(database) as store, Store.connect(database) as other:
        assert await store.claim("10")
        assert await store.claim("10")  # this process has it already
        assert await other.claim("10") is not claims_stored(database)
        assert await store.claim("11")
        await store.expire(0.0)
        assert await other.claim("10") is not claims_stored(database)  # an hour, not `before`


class Meddling:
    """A real store whose every append is preceded by an action of another process: each save
    finds the game moved (so the service can never win), and everything is really written.
    The other process's actions carry the ids in `interactions`, one per append, then none."""

    def __init__(self, store: Store, other: GameService, interactions: Sequence[str] = ()) -> None:
        self._store = store
        self._other = other
        self._interactions = list(interactions)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def append_events(
        self, game: GameRecord, events: Sequence[Event], **options: Any
    ) -> GameRecord:
        said = self._interactions.pop(0) if self._interactions else None
        await self._other.act(SCOPE, GAIN, interaction=said)
        return await self._store.append_events(game, events, **options)


@aio
async def test_a_conflict_on_every_try_tells_the_player_to_try_again(database: Path | str) -> None:
    async with open_service(database) as one, open_service(database) as two:
        start = await begun(one)
        real = two.store
        two.store = cast(Store, Meddling(real, one))
        try:
            with pytest.raises(ConflictError) as caught:
                await two.act(SCOPE, Life(actor="ann", mode="lose", amount=1))
        finally:
            two.store = real
        assert str(caught.value) == ConflictError.RETRY
        assert ConflictError.RETRY.endswith("try again.")
        assert caught.value.players == str(caught.value)
        # Each try of two lost to one of one's actions; nothing of two's was written.
        now = await two.current(SCOPE)
        assert now.version == start.version + TRIES
        assert all(e.get("reason") != "loss by Ann" for e in now.game.events)


@aio
async def test_the_store_answers_the_lookups_a_refusal_makes(database: Path | str) -> None:
    """Which interactions were applied, and a game's stored version, by key."""
    async with open_service(database) as service:
        started = await service.start(SCOPE, "classic", host="ann", host_name="Ann", interaction=90)
        joined = await service.act(SCOPE, Join(actor="bob", player_name="Bob"), interaction="91")
        assert await service.store.applied("90")
        assert await service.store.applied("91")
        assert not await service.store.applied("92")
        assert await service.store.version(started.game_id) == joined.version == 2
        assert await service.store.version(started.game_id + 1) is None


@aio
async def test_an_action_refused_on_a_copy_another_process_moved_is_tried_as_stored(
    database: Path | str,
) -> None:
    """two remembers Ann's turn; one has since passed it to Bob. Bob's roll, refused by two's
    copy ("not your turn"), is tried again on the game as stored, and made."""
    async with open_service(database) as one, open_service(database) as two:
        start = await begun(one)
        await two.current(SCOPE)
        await one.act(SCOPE, RollChaos(actor="ann"))
        await one.act(SCOPE, NextTurn(actor="ann"))
        rolled = await two.act(SCOPE, RollChaos(actor="bob"), interaction="800")
        assert rolled.version == start.version + 3
        assert rolled.game.state.rolled
        with pytest.raises(ChaosError):  # refused on a current copy: refused, once
            await two.act(SCOPE, RollChaos(actor="bob"), interaction="801")
        assert await one.store.version(rolled.game_id) == start.version + 3


@aio
async def test_an_interaction_refused_because_another_process_applied_it_is_a_duplicate(
    database: Path | str,
) -> None:
    """During a hand-over both processes get the roll: the second finds it made (the engine
    would refuse a second roll) and says what is true, that it counts once."""
    async with open_service(database) as one, open_service(database) as two:
        unclaiming(two)
        start = await begun(one)
        await two.current(SCOPE)  # two caches the game from before the roll
        roll = RollChaos(actor="ann")
        await one.act(SCOPE, roll, interaction=555)
        with pytest.raises(DuplicateActionError):
            await two.act(SCOPE, roll, interaction=555)
        with pytest.raises(ChaosError) as refused:  # another roll is the engine's to refuse
            await two.act(SCOPE, roll, interaction=556)
        assert not isinstance(refused.value, DuplicateActionError)
        assert (await two.current(SCOPE)).version == start.version + 1


@aio
async def test_a_start_delivered_to_two_processes_opens_one_game_and_says_so(
    database: Path | str,
) -> None:
    async with open_service(database) as one, open_service(database) as two:
        unclaiming(two)
        await one.start(SCOPE, "classic", host="ann", host_name="Ann", interaction=600)
        with pytest.raises(DuplicateActionError):
            await two.start(SCOPE, "classic", host="ann", host_name="Ann", interaction=600)
        with pytest.raises(GameExistsError):
            await two.start(SCOPE, "classic", host="ann", host_name="Ann", interaction=601)


@aio
async def test_conflicts_over_an_interaction_applied_elsewhere_are_a_duplicate(
    database: Path | str,
) -> None:
    """The other process (one that doesn't claim) saves this very interaction first, then
    something else each time: two gives up after its last try, and says the action counts
    once instead of "try again" (another try would gain the life twice)."""
    async with open_service(database) as one, open_service(database) as two:
        unclaiming(one)
        start = await begun(one)
        real = two.store
        two.store = cast(Store, Meddling(real, one, interactions=["700"]))
        bob = Life(actor="bob", mode="gain", amount=1)  # two's, told apart from one's gains
        try:
            with pytest.raises(DuplicateActionError):
                await two.act(SCOPE, bob, interaction="700")
        finally:
            two.store = real
        # (SQLite finds the interaction stored before it looks at the version: one try.)
        events = await stored_log(one)
        lives = [e["action"]["actor"] for e in events if e["type"] == "action"][start.version :]
        assert lives
        assert set(lives) == {"ann"}  # one's gains only: two's was never applied
        assert start.version < (await one.current(SCOPE)).version <= start.version + TRIES


@aio
async def test_two_processes_hammering_one_game_lose_nothing_and_double_nothing(
    database: Path | str,
) -> None:
    async with open_service(database) as one, open_service(database) as two:
        start = await begun(one)

        async def press(service: GameService, n: int) -> bool:
            try:
                await service.act(SCOPE, GAIN, interaction=f"press-{n}")
            except (ConflictError, DuplicateActionError):
                return False
            return True

        # Every interaction is delivered to both processes, as during a hand-over.
        presses = [press(s, n) for n in range(40) for s in (one, two)]
        done = await asyncio.gather(*presses)
        events = await stored_log(one)
        gains = [e for e in events if e["type"] == "life"]
        assert len(gains) == sum(done) <= 40
        assert sum(done) >= 20  # each of the 40 was applied once at most, most of them once
        # (one's cached copy may be behind: stored is what counts)
        assert await one.store.version(start.game_id) == start.version + sum(done)
        game = Game(start.game.ruleset, events)
        assert replayed_events(game) == events


CHILD = """
import asyncio, sys
sys.path.insert(0, sys.argv[3])
from bot.engine import Life
from bot.errors import DuplicateActionError
from tests.store.helpers import SCOPE, open_service

async def main():
    async with open_service(sys.argv[1]) as service:
        await service.current(SCOPE)
        print("ready", flush=True)
        sys.stdin.readline()
        try:
            gain = Life(actor="ann", mode="gain", amount=1)
            await service.act(SCOPE, gain, interaction=sys.argv[2])
        except DuplicateActionError:
            print("duplicate", flush=True)
        else:
            print("applied", flush=True)

asyncio.run(main())
"""


@aio
async def test_another_os_process_given_the_same_interaction_applies_it_once(
    database: Path | str,
) -> None:
    async with open_service(database) as service:
        start = await begun(service)
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(database), "77", str(ROOT)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert child.stdout is not None
        assert child.stdin is not None
        try:
            assert await asyncio.to_thread(child.stdout.readline) == "ready\n"
            child.stdin.write("go\n")
            child.stdin.flush()
            try:
                await service.act(SCOPE, GAIN, interaction="77")
                mine = "applied"
            except DuplicateActionError:
                mine = "duplicate"
            theirs = (await asyncio.to_thread(child.stdout.readline)).strip()
        finally:
            child.stdin.close()
            child.wait(30)
        assert sorted([mine, theirs]) == ["applied", "duplicate"]
        assert await service.store.version(start.game_id) == start.version + 1


BURST = """
import asyncio, sys
sys.path.insert(0, sys.argv[3])
from bot.engine import Life
from bot.errors import ConflictError, DuplicateActionError
from tests.store.helpers import SCOPE, open_service

async def main():
    async with open_service(sys.argv[1]) as service:
        await service.current(SCOPE)
        print("ready", flush=True)
        sys.stdin.readline()
        numbers = list(range(int(sys.argv[2])))
        for n in numbers if sys.argv[4] == "up" else reversed(numbers):
            try:
                gain = Life(actor="ann", mode="gain", amount=1)
                await service.act(SCOPE, gain, interaction=f"i{n}")
            except (ConflictError, DuplicateActionError) as error:
                print(type(error).__name__, n, flush=True)
            else:
                print("applied", n, flush=True)

asyncio.run(main())
"""


def finish(child: subprocess.Popen[str]) -> str:
    """All a child printed, once it has ended well."""
    assert child.stdout is not None
    out = child.stdout.read()
    assert child.wait(60) == 0
    return out


@aio
async def test_two_os_processes_given_every_interaction_apply_each_once(
    database: Path | str,
) -> None:
    """A hand-over at full speed: two processes receive the same 60 interactions, one game."""
    count = 60
    async with open_service(database) as service:
        start = await begun(service)
        children = [
            subprocess.Popen(
                [sys.executable, "-c", BURST, str(database), str(count), str(ROOT), order],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            for order in ("up", "down")  # so they meet half-way, and fight over the middle
        ]
        for child in children:
            assert child.stdout is not None
            assert await asyncio.to_thread(child.stdout.readline) == "ready\n"
        for child in children:
            assert child.stdin is not None
            child.stdin.write("go\n")
            child.stdin.close()
        outputs = [await asyncio.to_thread(finish, child) for child in children]
        applied = [
            {int(n) for what, n in (line.split() for line in out.splitlines()) if what == "applied"}
            for out in outputs
        ]
        assert not applied[0] & applied[1]  # none applied twice
        assert len(applied[0] | applied[1]) >= count // 2
        events = await stored_log(service)
        assert sum(1 for e in events if e["type"] == "life") == len(applied[0] | applied[1])
        stored = await service.store.active_game(SCOPE)  # this process's cache is stale now
        assert stored is not None
        assert stored.record.version == start.version + len(applied[0] | applied[1])
        assert replayed_events(Game(start.game.ruleset, events)) == events
