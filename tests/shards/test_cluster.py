"""Three bot processes, six shards, one PostgreSQL database, hundreds of actions at once.

Real ``python -m bot`` processes play on the fake Discord (:mod:`tests.cluster`); afterwards the
database is read directly (:mod:`tests.shards.ledger`): every action a player saw acknowledged
is stored exactly once, in order, without gaps, and every game replays to the state it has.
The same holds when a process is killed in the middle of the burst and started again, when
two processes hold one shard during a hand-over (both receive every interaction; the one that
claims it answers, once), and when
the bot is re-sharded from 4 shards over two processes to 6 over three between runs.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from collections.abc import Sequence
from pathlib import Path

from bot.engine import Game
from bot.engine import actions as a
from bot.errors import ClaimedError, ConflictError, DuplicateActionError
from tests.cluster import (
    DONE,
    POLL,
    REFUSED,
    UNANSWERED,
    BotProcess,
    Channel,
    Cluster,
    act,
    act_and_read,
    add_channels,
    answer_of,
    finished,
)
from tests.e2e.table import seed_where, text_of
from tests.fakediscord.payloads import shard_of
from tests.fakediscord.schema import JSON
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.world import LOADING
from tests.shards.ledger import check_ledger, command_of, count, read_ledger, replayed

SHARDS = 6
LAYOUT = [(0, 1), (2, 3), (4, 5)]  # three processes, two shards each
LIFE = 20
ROUNDS = 3  # per game: a chaos roll, then the next turn, one after the other, ROUNDS times...
GAINS = 8  # ...and beside them this many life gains, all sent at once
BURST_WITHIN = 120.0  # a bound on hanging, not a speed goal


def quiet_seed(rounds: int) -> int:
    """A seed whose first `rounds` chaos rolls never leave a choice open, so a referee's roll
    followed by the next turn is always allowed: the burst stays legal whatever else is sent
    meanwhile (life gains don't touch the dice, which follow the seed, turn and kind of
    action)."""

    def quiet(game: Game, seats: list[str]) -> bool:
        for _ in range(rounds):
            game.act(a.RollChaos(actor=seats[0], referee=True))
            if game.state.pending is not None:
                return False
            game.act(a.NextTurn(actor=seats[0], referee=True, override=True))
        return True

    return seed_where("classic", quiet, life=LIFE)


SEED = quiet_seed(ROUNDS + 2)  # the burst, and the rounds played after it


# -- what players do -----------------------------------------------------------------------------


async def set_up(fake: FakeDiscord, channels: Sequence[Channel]) -> None:
    """A two-player game begun in every channel, the channels all at once."""

    async def one(where: Channel) -> None:
        options = {"ruleset": "classic", "life": LIFE, "seed": SEED}
        await act_and_read(fake, where, "game start", options, user=fake.owner)
        await act_and_read(fake, where, "game join", user=fake.player)
        await act_and_read(fake, where, "game begin", user=fake.owner)

    await asyncio.gather(*(one(where) for where in channels))


async def play_round(fake: FakeDiscord, where: Channel) -> None:
    """The referee (the owner, who may manage every server) makes the turn's roll, then ends
    the turn, whoever's turn it is (each once the one before was answered)."""
    await act_and_read(fake, where, "chaos roll", user=fake.owner)
    await act_and_read(fake, where, "turn next", {"override": True}, user=fake.owner)


async def burst(
    fake: FakeDiscord, channels: Sequence[Channel], *, rounds: int = ROUNDS, gains: int = GAINS
) -> None:
    """In every channel at once: `rounds` rounds one after the other, and `gains` life gains
    (half each player's) sent together beside them."""

    async def one(where: Channel) -> None:
        async def rounds_played() -> None:
            for _ in range(rounds):
                await play_round(fake, where)

        players = (fake.owner, fake.player)
        gained = (
            act(fake, where, "life gain", {"amount": 1}, user=players[n % 2]) for n in range(gains)
        )
        await asyncio.gather(rounds_played(), *gained)

    await asyncio.gather(*(one(where) for where in channels))


async def answers(fake: FakeDiscord) -> dict[str, tuple[JSON, str]]:
    """Every interaction sent so far, with what its player read."""
    return {i: (p, answer_of(fake, p)) for i, p in fake.interactions.items()}


def chains(sent: dict[str, tuple[JSON, str]]) -> list[list[str]]:
    """Per channel, the interactions sent one after another (all but the life gains, which
    went together), in the order sent: snowflakes grow."""
    runs: dict[str, list[str]] = {}
    for interaction, (payload, _) in sorted(sent.items(), key=lambda kv: int(kv[0])):
        if command_of(payload) != "life gain":
            runs.setdefault(payload["channel_id"], []).append(interaction)
    return list(runs.values())


def tally(sent: dict[str, tuple[JSON, str]]) -> dict[str, int]:
    told = [answer for _, answer in sent.values()]
    return {answer: told.count(answer) for answer in (DONE, REFUSED, UNANSWERED)}


def held_by(bot: BotProcess, channels: Sequence[Channel]) -> list[Channel]:
    """The channels whose guilds are on `bot`'s shards."""
    return [c for c in channels if shard_of(c.guild, bot.shard_count) in bot.shards]


# -- the tests ---------------------------------------------------------------------------------


def test_hundreds_of_actions_at_once_over_three_processes_are_each_stored_once_in_order(
    tmp_path: Path, postgres_url: str
) -> None:
    with Cluster(tmp_path, postgres_url) as cluster:
        fake = cluster.fake
        channels = add_channels(fake, SHARDS, guilds_per_shard=2, channels_per_guild=2)
        bots = cluster.launch(LAYOUT, SHARDS)
        cluster.call(set_up(fake, channels), BURST_WITHIN)
        began = time.monotonic()
        cluster.call(burst(fake, channels), BURST_WITHIN)
        took = time.monotonic() - began
        sent = cluster.call(answers(fake))
        logs = cluster.stop()

    burst_size = len(channels) * (2 * ROUNDS + GAINS)
    assert len(channels) == 24
    assert len(sent) == len(channels) * 3 + burst_size
    assert tally(sent) == {DONE: len(sent), REFUSED: 0, UNANSWERED: 0}, tally(sent)
    ledger = asyncio.run(read_ledger(postgres_url))
    check_ledger(ledger, sent, in_order=chains(sent))
    games = asyncio.run(replayed(postgres_url))
    assert sorted(games) == sorted(c.scope for c in channels)
    for game in games.values():
        assert game.state.turn == 1 + ROUNDS
        assert count(game.actions, name="life") == GAINS
    for log in logs:
        assert "Traceback" not in log, log
    print(f"{burst_size} actions at once over {len(bots)} processes in {took:.1f} s")


async def kill_when_halfway(fake: FakeDiscord, bot: BotProcess, channels: Sequence[Channel]) -> int:
    """SIGKILL `bot` once it has answered a third of the burst sent to `channels`, from the
    fake's own loop, so no answer slips in between; returns how many it had answered."""
    guilds = {c.guild for c in channels}
    sent_before = set(fake.interactions)
    expected = len(channels) * (2 * ROUNDS + GAINS)

    def answered() -> int | None:
        done = sum(
            1
            for i, p in list(fake.interactions.items())
            if i not in sent_before and p["guild_id"] in guilds and i in fake.callbacks
        )
        return done if done >= expected // 3 else None

    done = await fake.recorder.wait_until(answered, BURST_WITHIN)
    assert bot.process is not None
    os.kill(bot.process.pid, signal.SIGKILL)
    return done


async def play_on(fake: FakeDiscord, channels: Sequence[Channel]) -> list[str]:
    """Another turn in every channel: the next turn, its roll and a life gain; the ids."""
    sent_before = set(fake.interactions)

    async def one(where: Channel) -> None:
        await act_and_read(fake, where, "turn next", {"override": True}, user=fake.owner)
        await act_and_read(fake, where, "chaos roll", user=fake.owner)
        await act_and_read(fake, where, "life gain", {"amount": 1}, user=fake.player)

    await asyncio.gather(*(one(where) for where in channels))
    return [i for i in fake.interactions if i not in sent_before]


def test_a_process_killed_mid_burst_loses_nothing_acknowledged_and_its_games_play_on(
    tmp_path: Path, postgres_url: str
) -> None:
    with Cluster(tmp_path, postgres_url) as cluster:
        fake = cluster.fake
        channels = add_channels(fake, SHARDS, guilds_per_shard=2, channels_per_guild=2)
        bots = cluster.launch(LAYOUT, SHARDS)
        victim = bots[1]
        theirs = held_by(victim, channels)
        others = [c for c in channels if c not in theirs]
        cluster.call(set_up(fake, channels), BURST_WITHIN)
        loop = cluster.served.loop
        killing = asyncio.run_coroutine_threadsafe(kill_when_halfway(fake, victim, theirs), loop)
        bursts = [
            asyncio.run_coroutine_threadsafe(burst(fake, group), loop) for group in (theirs, others)
        ]
        answered_before_kill = killing.result(BURST_WITHIN)
        victim.kill()  # reaps it (the signal went out from the fake's loop)
        cluster.wait_gone(victim)
        # What was sent to it can't be answered now: stop waiting for it, and start it again.
        bursts[0].cancel()
        began = time.monotonic()
        victim.start()
        cluster.wait_ready(victim)
        restarted = time.monotonic() - began
        bursts[1].result(BURST_WITHIN)
        after = cluster.call(play_on(fake, channels), BURST_WITHIN)
        sent = cluster.call(answers(fake))
        logs = cluster.stop()

    lost_guilds = {c.guild for c in theirs}
    unanswered = [p for p, told in sent.values() if told == UNANSWERED]
    assert unanswered, "the kill came after the burst: it proves nothing"
    assert {p["guild_id"] for p in unanswered} <= lost_guilds
    assert all(sent[i][1] == DONE for i in after), [text_of(sent[i][0]) for i in after]
    ledger = asyncio.run(read_ledger(postgres_url))
    check_ledger(ledger, sent, in_order=chains(sent), may_go_unanswered=lost_guilds)
    games = asyncio.run(replayed(postgres_url))
    assert sorted(games) == sorted(c.scope for c in channels)
    for where in others:
        assert games[where.scope].state.turn == 1 + ROUNDS + 1
        assert count(games[where.scope].actions, name="life") == GAINS + 1
    committed_unanswered = sum(1 for p in unanswered if p["id"] in ledger.interactions)
    for log in logs:
        assert "Traceback" not in log, log
    print(
        f"killed after {answered_before_kill} answers; {len(unanswered)} unanswered, of which"
        f" {committed_unanswered} were stored; restarted in {restarted:.1f} s;"
        f" {len(fake.refused)} IDENTIFYs refused"
    )


HANDOVER_GAINS = 20
SILENT = re.compile(r"interaction (\d+) is another process's to answer")


def callbacks(fake: FakeDiscord, interaction: str) -> list[int]:
    """The statuses the fake gave the first answers sent for an interaction, in order."""
    return [c.status for c in fake.calls_to(f"POST /interactions/{interaction}/*/callback")]


async def all_answered(fake: FakeDiscord, ids: Sequence[str]) -> None:
    """Until the player has read an answer to each of `ids` (a deferred one completed)."""
    await fake.recorder.wait_until(
        lambda: (
            True if all(answer_of(fake, fake.interactions[i]) != UNANSWERED for i in ids) else None
        ),
        BURST_WITHIN,
    )


def left_alone(bots: Sequence[BotProcess], ids: Sequence[str]) -> dict[str, int]:
    """Once every one of `ids` has been left to the other process by one of `bots` (as its
    log says), how many each left; fails after BURST_WITHIN."""
    deadline = time.monotonic() + BURST_WITHIN
    while True:
        silent = [set(SILENT.findall(bot.log())) for bot in bots]
        if set(ids) <= set().union(*silent) or time.monotonic() > deadline:
            break
        time.sleep(POLL)
    missing = set(ids) - set().union(*silent)
    assert not missing, f"{len(missing)} interactions reached one process only"
    assert not silent[0] & silent[1], "an interaction left alone by both processes"
    return {repr(bot): len(ids_) for bot, ids_ in zip(bots, silent, strict=True)}


async def read_answers(fake: FakeDiscord, ids: Sequence[str]) -> dict[str, list[JSON]]:
    """The messages a player was shown for each of `ids` (a completed "thinking…" is one)."""
    shown: dict[str, list[JSON]] = {i: [] for i in ids}
    for message in fake.messages.values():
        asked = (message.get("interaction_metadata") or {}).get("id")
        if asked in shown:
            shown[asked].append(message)
    return shown


def test_two_processes_holding_one_shard_during_a_hand_over_answer_each_interaction_once(
    tmp_path: Path, postgres_url: str
) -> None:
    """Discord sends a shard's interactions to every session holding it: while the new
    process for shard 1 has connected and the old one hasn't let go, both get each one. The
    first to claim an interaction carries it out and answers; the other leaves it alone. So
    the player reads one answer, the real one: never "already done", never a "try again" for
    something that was applied, and each answer is what is stored."""
    with Cluster(tmp_path, postgres_url) as cluster:
        fake = cluster.fake
        moving = add_channels(fake, 2, guilds_per_shard=2, channels_per_guild=1)
        staying = [c for c in moving if shard_of(c.guild, 2) == 0]
        moving = [c for c in moving if c not in staying]
        old = cluster.add([0, 1], 2)
        new = cluster.add([1], 2)
        sync = cluster.publish_commands()
        old.start()
        finished(sync)
        cluster.wait_ready(old)
        cluster.call(set_up(fake, moving + staying), BURST_WITHIN)
        new.start()
        cluster.wait_ready(new)
        both = [s for s in fake.gateway.live_sessions() if (s.shard_id, s.num_shards) == (1, 2)]
        assert len(both) == 2
        before = set(fake.interactions)
        cluster.call(burst(fake, moving + staying, gains=HANDOVER_GAINS), BURST_WITHIN)
        during = [i for i in fake.interactions if i not in before]
        moved = {c.guild for c in moving}
        doubled = [i for i in during if fake.interactions[i]["guild_id"] in moved]
        cluster.call(all_answered(fake, during), BURST_WITHIN + 1)
        silent = left_alone([old, new], doubled)
        shown = cluster.call(read_answers(fake, during))
        statuses = {i: callbacks(fake, i) for i in during}
        old.stop()  # the hand-over is over: shard 1 is the new process's alone
        cluster.wait_gone(old)
        after = cluster.call(play_on(fake, moving), BURST_WITHIN)
        sent = cluster.call(answers(fake))
        logs = [old.log(), new.stop()]

    # One message per interaction, complete: the one real answer, from whichever claimed it.
    for i in during:
        assert len(shown[i]) == 1, [text_of({"data": m}) for m in shown[i]]
        assert not shown[i][0]["flags"] & LOADING
    # The process left out answers nothing; only if it had deferred ("thinking…") before its
    # claim failed is the real answer a follow-up completing that message.
    # (A first answer is 204 when it asks for no message back, bot.client.quietly; the
    # "thinking…" is discord.py's own, and asks: 200.)
    followed_up = [i for i in doubled if statuses[i] == [200, 400]]
    answered_once = ([204], [200])
    assert all(statuses[i] in answered_once for i in during if i not in followed_up), statuses
    texts = {i: text_of({"data": shown[i][0]}) for i in during}
    assert not {t for t in texts.values() if t in (DuplicateActionError.SAID, ClaimedError.SAID)}
    # "Try again" only from the process that had the interaction, lost every try to the other's
    # saves of other actions, and so applied nothing (check_ledger: refused, not stored).
    raced = [i for i in during if texts[i] == ConflictError.RETRY]
    # A round's refusal that follows a 'try again' in the same chain is its consequence (a
    # roll after a next turn that wasn't made: "already rolled this turn"), true as well.
    after_raced = set()
    for run in chains(sent):
        for n, j in enumerate(run):
            if any(k in raced for k in run[:n]) and sent[j][1] == REFUSED:
                after_raced.add(j)
    odd = [
        i
        for i in during
        if sent[i][1] != DONE and texts[i] != ConflictError.RETRY and i not in after_raced
    ]
    assert not odd, [
        [(command_of(sent[j][0]), texts[j][:60]) for j in run if j in during]
        for run in chains(sent)
        if set(run) & set(odd)
    ]
    assert all(sent[i][1] == DONE for i in after)
    ledger = asyncio.run(read_ledger(postgres_url))
    assert not [i for i in raced if i in ledger.interactions]
    check_ledger(ledger, sent, in_order=chains(sent))
    games = asyncio.run(replayed(postgres_url))
    for where in moving + staying:
        game = games[where.scope]
        done = [p for p, told in sent.values() if told == DONE and p["channel_id"] == where.channel]
        assert count(game.actions, name="life") == sum(command_of(p) == "life gain" for p in done)
        assert game.state.turn == 1 + sum(command_of(p) == "turn next" for p in done)
    for log in logs:
        assert "Traceback" not in log, log
    print(
        f"{len(doubled)} interactions to both processes, each left alone by one of them"
        f" ({silent}); {len(followed_up)} answered by a follow-up after the other's deferral;"
        f" {len(raced)} 'try again' (not applied), {len(after_raced)} refusals following one"
    )


def test_resharding_from_four_shards_over_two_processes_to_six_over_three_keeps_every_game(
    tmp_path: Path, postgres_url: str
) -> None:
    with Cluster(tmp_path, postgres_url) as cluster:
        fake = cluster.fake
        channels = add_channels(fake, SHARDS, guilds_per_shard=2, channels_per_guild=1)
        cluster.launch([(0, 1), (2, 3)], 4)
        cluster.call(set_up(fake, channels), BURST_WITHIN)
        cluster.call(burst(fake, channels, rounds=1, gains=2), BURST_WITHIN)
        first_run = cluster.stop()
        began = time.monotonic()
        cluster.launch(LAYOUT, SHARDS, publish=False)
        restarted = time.monotonic() - began
        after = cluster.call(play_on(fake, channels), BURST_WITHIN)
        sent = cluster.call(answers(fake))
        second_run = cluster.stop()
        shards = {tuple(i["shard"]) for i in fake.identifies}

    assert shards == {(s, 4) for s in range(4)} | {(s, 6) for s in range(6)}
    # The first run's processes kept their identify turns until their time was up.
    assert fake.refused == [], f"Discord refused IDENTIFYs: {fake.refused}"
    # Most guilds now live in another process than before (two shards per process).
    moved = [c for c in channels if shard_of(c.guild, 4) // 2 != shard_of(c.guild, 6) // 2]
    assert len(moved) >= len(channels) // 3, moved
    assert tally(sent) == {DONE: len(sent), REFUSED: 0, UNANSWERED: 0}, tally(sent)
    assert len(after) == 3 * len(channels)
    ledger = asyncio.run(read_ledger(postgres_url))
    check_ledger(ledger, sent, in_order=chains(sent))
    games = asyncio.run(replayed(postgres_url))
    assert sorted(games) == sorted(c.scope for c in channels)
    for game in games.values():
        assert game.state.turn == 1 + 1 + 1
        assert count(game.actions, name="life") == 2 + 1
    for log in first_run + second_run:
        assert "Traceback" not in log, log
    print(
        f"{len(moved)} of {len(channels)} games moved process; the six shards were ready"
        f" {restarted:.1f} s after the four stopped; {len(fake.refused)} IDENTIFYs refused"
    )
