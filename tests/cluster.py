"""Real bot processes sharing one bot's shards, on the fake Discord and one PostgreSQL database.

Each process is what a host runs: ``python -m bot`` in a folder of its own, configured by its
``.env`` (the fake's URLs, ``CHAOS_SHARD_COUNT``, ``CHAOS_SHARDS``, ``CHAOS_DATABASE_URL``). A
:class:`Cluster` serves the fake Discord from a thread of the test process, starts processes
against it, publishes the commands once with ``python -m bot sync`` (as the owner would), waits
until processes are ready, and stops, kills or restarts any of them. Ready means the process
logged its health line, which the bot writes once every one of its shards has its guilds: a
condition waited for, never a sleep, since a process takes seconds to import discord.py on a
loaded 2-core machine.

Players act through the fake (:func:`act`, run in the fake's loop with :meth:`Cluster.call`).
Whether an action was acknowledged is read afterwards from what the fake recorded
(:func:`answer_of`), so an interaction whose process died unanswered is known too. For the
tests in ``tests/shards``, and for benchmarks that run the bot as a cluster. A benchmark serves
the fake from its own event loop (the fake's CPU is its to count), so it makes each
:class:`BotProcess` itself and waits with :func:`until_ready` and :func:`until_stopped`, which
leave that loop serving meanwhile.

On Linux every process is told to die with the one that started it (more exactly, with the
thread that did: start them from the main thread), so not even a SIGKILL of a test run or a
benchmark leaves bots running.
"""

from __future__ import annotations

import asyncio
import ctypes
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Coroutine, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from tests.e2e.test_bot_cli import FakeInAThread, clean_env, write_env
from tests.fakediscord.schema import JSON
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.world import EPHEMERAL

T = TypeVar("T")

# Bounds on hanging, not speed goals: several processes importing discord.py at once on a
# loaded 2-core machine take seconds each.
READY_WITHIN = 60.0
STOP_WITHIN = 10.0
ANSWER_WITHIN = 30.0  # the bot defers after 2 s; a loaded machine may take longer to get there
POLL = 0.05
HEALTH = re.compile(
    r"health: shards (\S+) of (\d+), servers (\d+), games cached (\d+), boards pending (\d+),"
    r" gateway [0-9.]+ ms, database [0-9.]+ ms"
)
# Enough identify buckets for every shard of a test: shards identify at once, not 5 s apart.
BUCKETS = 16
PR_SET_PDEATHSIG = 1

DONE, REFUSED, UNANSWERED = "done", "refused", "unanswered"


def _die_with_parent() -> None:
    """In the child, before exec: SIGTERM it when its parent dies (Linux; elsewhere a no-op).
    libc is the interpreter's own, found without a search, which could run a program here."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class BotProcess:
    """One ``python -m bot`` running `shards` of `shard_count` in `folder`, configured by the
    ``.env`` written there (`settings`, and the shards). Restartable: each run logs to a file
    of its own (``log.1``, ``log.2``, …) so a restart's readiness is its own."""

    def __init__(
        self, folder: Path, shards: Sequence[int], shard_count: int, settings: dict[str, str]
    ) -> None:
        self.folder = folder
        self.shards = tuple(shards)
        self.shard_count = shard_count
        self.settings = {
            "CHAOS_SHARD_COUNT": str(shard_count),
            "CHAOS_SHARDS": ",".join(map(str, self.shards)),
            **settings,
        }
        self.runs = 0
        self.process: subprocess.Popen[str] | None = None
        folder.mkdir(parents=True, exist_ok=True)
        write_env(folder, **self.settings)

    def __repr__(self) -> str:
        return f"<bot {self.folder.name}: shards {self.shards} of {self.shard_count}>"

    @property
    def log_path(self) -> Path:
        return self.folder / f"log.{self.runs}"

    def log(self) -> str:
        """What the current (or last) run logged."""
        return self.log_path.read_text() if self.runs else ""

    def logs(self) -> str:
        """What every run logged, oldest first."""
        return "".join((self.folder / f"log.{n}").read_text() for n in range(1, self.runs + 1))

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    @property
    def pid(self) -> int:
        assert self.process is not None, f"{self} never started"
        return self.process.pid

    def start(self) -> None:
        assert not self.running, f"{self} is running already"
        self.runs += 1
        with self.log_path.open("w") as log:  # the child keeps its own copy of the file
            self.process = subprocess.Popen(
                [sys.executable, "-m", "bot"],
                cwd=self.folder,
                env=clean_env(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
                text=True,
                preexec_fn=_die_with_parent,
            )

    def ready(self) -> bool:
        """Whether this run logged its health line; fails at once if the process ended."""
        log = self.log()
        if self.process is not None and self.process.poll() is not None:
            raise AssertionError(f"{self} ended with {self.process.returncode}:\n{log[-3000:]}")
        return HEALTH.search(log) is not None

    def stop(self) -> str:
        """SIGTERM (a normal stop); what this run logged. Fails if it didn't end well."""
        self.terminate()
        return self.wait_stopped()

    def terminate(self) -> None:
        """SIGTERM, unless it has ended already."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)

    def wait_stopped(self) -> str:
        """Until it has ended, SIGKILLing it if it outlives STOP_WITHIN; what this run logged.
        Fails if it didn't end well."""
        assert self.process is not None
        try:
            self.process.wait(timeout=STOP_WITHIN)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
        log, status = self.log(), self.process.returncode
        assert status == 0, f"{self} stopped with {status}:\n{log}"
        return log

    def kill(self) -> None:
        """SIGKILL: no goodbye to Discord or PostgreSQL, as when a machine loses power."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        assert self.process.wait(timeout=STOP_WITHIN) == -signal.SIGKILL


class Cluster:
    """The fake Discord (in a thread) and the bot processes playing on it, in `folder`, over
    the PostgreSQL database at `database_url`. ``options`` are :class:`FakeDiscord`'s; by
    default every shard is an identify bucket of its own, so processes connect at once.

    ``with Cluster(...) as cluster:`` kills whatever still runs on the way out.
    """

    def __init__(self, folder: Path, database_url: str, **options: Any) -> None:
        self.folder = folder
        self.database_url = database_url
        options.setdefault("max_concurrency", BUCKETS)
        self.served = FakeInAThread(**options)
        self.fake: FakeDiscord = self.served.fake
        self.processes: list[BotProcess] = []

    def __enter__(self) -> Cluster:
        self.served.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            for bot in self.processes:
                if bot.running:
                    bot.kill()
        finally:
            self.served.__exit__(*exc)

    def call(self, work: Coroutine[Any, Any, T], seconds: float = READY_WITHIN) -> T:
        """Run `work` in the fake's loop (where players act) and return its result."""
        return self.served.call(work, seconds)

    def settings(self, **extra: str) -> dict[str, str]:
        """A process's ``.env`` (:func:`env_for`) on this cluster's database."""
        return env_for(self.fake, self.database_url, **extra)

    def add(self, shards: Iterable[int], shard_count: int, **extra: str) -> BotProcess:
        """A process (not started yet) for `shards` of `shard_count`; ``extra`` settings go
        into its ``.env`` too."""
        folder = self.folder / f"bot{len(self.processes)}"
        bot = BotProcess(folder, tuple(shards), shard_count, self.settings(**extra))
        self.processes.append(bot)
        return bot

    def publish_commands(self) -> subprocess.Popen[str]:
        """``python -m bot sync``: the owner publishes the commands everywhere, once (the
        processes themselves publish only to a development server). Collect it with
        :func:`finished`."""
        folder = self.folder / "sync"
        folder.mkdir(parents=True, exist_ok=True)
        write_env(folder, **self.settings())
        return subprocess.Popen(
            [sys.executable, "-m", "bot", "sync"],
            cwd=folder,
            env=clean_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def launch(
        self, layout: Sequence[Sequence[int]], shard_count: int, *, publish: bool = True
    ) -> list[BotProcess]:
        """Start one process per entry of `layout` (its shards), publish the commands
        meanwhile (unless done before), and return once all are ready."""
        bots = [self.add(shards, shard_count) for shards in layout]
        sync = self.publish_commands() if publish else None
        for bot in bots:
            bot.start()
        if sync is not None:
            finished(sync)
        self.wait_ready(*bots)
        return bots

    def wait_ready(self, *bots: BotProcess, within: float = READY_WITHIN) -> None:
        """Until each of `bots` (started) has logged that it is ready."""
        wait_ready(*bots, within=within)

    def wait_gone(self, bot: BotProcess, within: float = STOP_WITHIN) -> None:
        """Until the fake has seen the sessions of a stopped or killed process close: its
        shards have no more live sessions than the other running processes hold."""
        others = [b for b in self.processes if b is not bot and b.running]
        held = Counter((shard, b.shard_count) for b in others for shard in b.shards)
        mine = [(shard, bot.shard_count) for shard in bot.shards]

        def closed() -> bool | None:
            live = Counter((s.shard_id, s.num_shards) for s in self.fake.gateway.live_sessions())
            return True if all(live[key] <= held[key] for key in mine) else None

        self.call(self.fake.recorder.wait_until(closed, within), within + 1)

    def stop(self) -> list[str]:
        """Stop every running process at once (SIGTERM); what each logged."""
        running = [bot for bot in self.processes if bot.running]
        for bot in running:
            bot.terminate()
        return [bot.wait_stopped() for bot in running]


def env_for(fake: FakeDiscord, database_url: str | None, **extra: str) -> dict[str, str]:
    """A process's ``.env``: the fake's URLs, the PostgreSQL database at `database_url` (None:
    the SQLite file the settings name) and a health line every second (the first one says the
    process is ready); ``extra`` adds to them or overrides them."""
    base = {
        "DISCORD_TOKEN": "fake-token",
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "CHAOS_HEALTH_SECONDS": "1",
    }
    if database_url is not None:
        base["CHAOS_DATABASE_URL"] = database_url
    return base | extra


def _unready(bots: Sequence[BotProcess], deadline: float, within: float) -> list[BotProcess]:
    """Those of `bots` not ready yet; fails once `deadline` has passed with any of them."""
    waiting = [bot for bot in bots if not bot.ready()]
    if waiting and time.monotonic() > deadline:
        logs = "\n".join(f"{bot}:\n{bot.log()[-2000:]}" for bot in waiting)
        raise AssertionError(f"not ready within {within} s:\n{logs}")
    return waiting


def wait_ready(*bots: BotProcess, within: float = READY_WITHIN) -> None:
    """Until each of `bots` (started) has logged that it is ready, for a caller whose fake
    Discord runs in another thread."""
    deadline = time.monotonic() + within
    while _unready(bots, deadline, within):
        time.sleep(POLL)


async def until_ready(*bots: BotProcess, within: float = READY_WITHIN) -> None:
    """:func:`wait_ready` for a caller whose own event loop serves the fake Discord: it goes on
    serving the processes meanwhile."""
    deadline = time.monotonic() + within
    while _unready(bots, deadline, within):
        await asyncio.sleep(POLL)


async def until_stopped(bots: Iterable[BotProcess], within: float = STOP_WITHIN) -> None:
    """SIGTERM to each of `bots` still running, and SIGKILL to any that outlives `within`, with
    the caller's loop serving the fake meanwhile (a stopping bot says goodbye to the gateway).
    For a clean-up: how they ended is not checked."""
    stopping = [bot for bot in bots if bot.running]
    for bot in stopping:
        bot.terminate()
    deadline = time.monotonic() + within
    while any(bot.running for bot in stopping) and time.monotonic() < deadline:
        await asyncio.sleep(POLL)
    for bot in stopping:
        if bot.process is not None and bot.running:
            bot.process.kill()
            bot.process.wait()


def finished(process: subprocess.Popen[str], within: float = READY_WITHIN) -> str:
    """A helper process's output, once it has ended well."""
    out, err = process.communicate(timeout=within)
    assert process.returncode == 0, err
    return out


# -- players ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Channel:
    """A channel to play in, and the guild it belongs to."""

    guild: str
    channel: str

    @property
    def scope(self) -> str:
        """The scope the bot keeps this channel's game under."""
        return f"{self.guild}:{self.channel}"


def add_channels(
    fake: FakeDiscord, shard_count: int, *, guilds_per_shard: int, channels_per_guild: int
) -> list[Channel]:
    """Guilds spread evenly over the shards of `shard_count`, each with its channels. Made
    before the processes connect, they arrive in each shard's READY."""
    channels = []
    for shard in range(shard_count):
        for n in range(guilds_per_shard):
            guild = fake.add_guild(f"shard {shard} guild {n}", shard=(shard, shard_count))
            for c in range(channels_per_guild):
                channel = fake.add_channel(f"table-{c}", guild=guild)
                channels.append(Channel(guild, channel))
    return channels


async def act(
    fake: FakeDiscord,
    where: Channel,
    path: str,
    options: dict[str, Any] | None = None,
    *,
    user: JSON,
    within: float = ANSWER_WITHIN,
) -> JSON | None:
    """Run ``/path`` as `user` in a channel; the first answer, or None when there was none
    (no process held the channel's shard, or none answered within `within`). What the
    player finally read is :func:`answer_of`'s business."""
    sent = await _send(fake, where, path, options, user=user, within=within)
    return None if sent is None else sent[1]


async def _send(
    fake: FakeDiscord,
    where: Channel,
    path: str,
    options: dict[str, Any] | None,
    *,
    user: JSON,
    within: float,
) -> tuple[JSON, JSON] | None:
    """The interaction sent and its first answer, or None when none came."""
    try:
        return await fake.slash(path, options, user=user, channel=where.channel, timeout=within)
    except (RuntimeError, TimeoutError, ConnectionError):  # ConnectionError: its process just died
        return None


async def act_and_read(
    fake: FakeDiscord,
    where: Channel,
    path: str,
    options: dict[str, Any] | None = None,
    *,
    user: JSON,
    within: float = ANSWER_WITHIN,
) -> str:
    """Run ``/path`` as `user` in a channel, and return once the player has read the answer
    (:func:`answer_of`): after a deferral ("thinking…"), once the follow-up came. A player
    sends the next command once they read the last one's result, so actions chained with this
    are really one after the other, however slow the bot is (:func:`act` returns at the
    deferral, when the action may not be carried out yet)."""
    sent = await _send(fake, where, path, options, user=user, within=within)
    if sent is None:
        return UNANSWERED
    payload = sent[0]
    try:
        return await fake.recorder.wait_until(
            lambda: None if (told := answer_of(fake, payload)) == UNANSWERED else told, within
        )
    except TimeoutError:
        return UNANSWERED


def answer_of(fake: FakeDiscord, payload: JSON) -> str:
    """What the player read for an interaction sent: DONE for a public answer (the action was
    carried out), REFUSED for a private one (nothing was), UNANSWERED when no answer came (a
    deferred one whose follow-up never came counts as none). Call it in the fake's loop."""
    first = fake.callbacks.get(payload["id"])
    if first is None:
        return UNANSWERED
    data = first.get("data") or {}
    if first["type"] == 5:  # "thinking…": the follow-up is the answer
        followups = [
            c for c in fake.calls_to(f"POST /webhooks/*/{payload['token']}") if c.status == 200
        ]
        if not followups:
            return UNANSWERED
        data = followups[0].json or {}
    return REFUSED if (data.get("flags") or 0) & EPHEMERAL else DONE
