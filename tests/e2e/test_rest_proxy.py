"""The bot behind a REST proxy: a real @discordjs/proxy process between a real bot process and
the fake Discord, and the 429s a proxy makes up, which the bot waits out.

A 429 without Discord's ``Via`` header is what a proxy sends when it holds a request back;
discord.py alone takes it for a Cloudflare ban and raises (bot/client/ratelimits.py). The first
tests make the fake answer such a 429 to the in-process bot on each of discord.py's two request
paths; the last ones run everything as separate processes, as a host would.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from tests.e2e.restproxy import Proxy, running_proxy
from tests.e2e.table import JSON, Table, is_ephemeral, text_of
from tests.e2e.test_bot_cli import CONNECT_WITHIN, STOP_WITHIN, FakeInAThread, clean_env, write_env
from tests.fakediscord.plugin import aio, assert_contract_kept, assert_no_unknown_routes
from tests.fakediscord.server import FakeDiscord

T = TypeVar("T")

PROXY_AGENT = "DiscordBot (https://discord.js.org"  # @discordjs/rest's User-Agent
BOT_AGENT = "DiscordBot (https://github.com/Rapptz/discord.py"
WAIT = 0.3  # seconds the made-up 429s ask for
SPENT = 3.0  # seconds a spent bucket stays spent in the proxy's eyes


# -- the in-process bot, a 429 without Via from the fake ---------------------------------------


@aio
async def test_an_answer_refused_with_a_proxy_429_is_sent_again(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with fake, Table.open(fake, tmp_path) as t:
        fake.fail_next("POST /interactions/*/callback", 429, via=False, retry_after=WAIT)
        asked = time.monotonic()
        body = await t.slash("game start", {"ruleset": "classic"}, user=fake.owner)
        assert "Join" in str(body["data"]["components"])
        assert time.monotonic() - asked >= WAIT
        statuses = [c.status for c in fake.calls_to("POST /interactions/*/callback")]
        assert statuses == [429, 204]  # 204: the answer doesn't ask for its message back


@aio
async def test_a_board_edit_refused_with_a_proxy_429_is_sent_again(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with fake, Table.open(fake, tmp_path) as t:
        await t.game("classic", players=2, seed=6)
        await t.settle()
        board = await t.service.board(f"{fake.guild_id}:{fake.channel_id}")
        assert board is not None
        fake.fail_next("PATCH /channels/*/messages/*", 429, via=False, retry_after=WAIT)
        await t.press("Roll chaos", user=fake.owner)
        await t.settle()
        edits = fake.calls_to(f"PATCH /channels/*/messages/{board.message}")
        assert [c.status for c in edits][-2:] == [429, 200]
        assert "— chaos done" in text_of(fake.messages[board.message])


@aio
async def test_a_file_refused_with_a_proxy_429_arrives_whole(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with fake, Table.open(fake, tmp_path) as t:
        await t.game("classic", players=2, seed=6)
        await t.press("Roll chaos", user=fake.owner)
        fake.fail_next("POST /interactions/*/callback", 429, via=False, retry_after=WAIT)
        answer = await t.slash("game export", user=fake.player)
        assert is_ephemeral(answer)
        (refused, sent) = fake.calls_to("POST /interactions/*/callback")[-2:]
        assert (refused.status, sent.status) == (429, 204)  # 204: no message asked back
        assert [f.data for f in refused.files] == [f.data for f in sent.files]
        (attachment,) = fake.ephemeral_messages(fake.player)[-1]["attachments"]
        lines = fake.attachment_data(attachment).decode().splitlines()
        assert f"{len(lines)} events" in text_of(answer)


# -- processes: the fake in a thread, the proxy and the bot --------------------------------------


def within(served: FakeInAThread, work: Coroutine[Any, Any, T], seconds: float = 5.0) -> T:
    """Run `work` in the fake's own event loop and wait for its result."""
    return asyncio.run_coroutine_threadsafe(work, served.loop).result(seconds)


@contextmanager
def bot_process(folder: Path, fake: FakeDiscord, proxy: Proxy) -> Iterator[list[str]]:
    """`python -m bot` with its REST calls sent to the proxy and its gateway at the fake;
    stopped with SIGTERM afterwards, which must end it cleanly. Yields a list that holds the
    process's log (stderr) once it has stopped."""
    write_env(
        folder,
        DISCORD_TOKEN="fake-token",
        DISCORD_API_BASE=proxy.api_base,
        DISCORD_GATEWAY_URL=fake.gateway_url,
        CHAOS_DEV_GUILD_ID=fake.guild_id,
        CHAOS_DB_PATH=str(folder / "bot.db"),
    )
    logged = folder / "bot.log"  # a file, not a pipe nobody reads until the end
    with logged.open("w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "bot"],
            cwd=folder,
            env=clean_env(),
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    log: list[str] = []
    try:
        yield log
        process.send_signal(signal.SIGTERM)
        process.wait(STOP_WITHIN)
        log.append(logged.read_text())
        assert process.returncode == 0, log[0]
        assert "Traceback" not in log[0], log[0]
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def slash(served: FakeInAThread, path: str, options: JSON | None = None, *, user: JSON) -> JSON:
    _, body = within(served, served.fake.slash(path, options, user=user))
    assert body["type"] == 4, body
    return body


def assert_all_through_the_proxy(fake: FakeDiscord, proxy: Proxy) -> None:
    """Every REST call the fake got came from the proxy, and the proxy logged each one."""
    api = [c for c in fake.calls if not c.path.startswith("/attachments")]
    assert api
    agents = {c.headers.get("User-Agent") for c in api}
    assert all(c.headers.get("User-Agent", "").startswith(PROXY_AGENT) for c in api), agents
    assert not any(BOT_AGENT in c.headers.get("User-Agent", "") for c in api)
    logged = [(m, p) for m, p, status in proxy.requests() if status < 400]
    assert len(logged) == len(api)


def test_the_bot_plays_through_the_proxy(tmp_path: Path) -> None:
    served = FakeInAThread()
    with served as fake, running_proxy(f"{fake.base}/api") as proxy:
        with bot_process(tmp_path, fake, proxy):
            served.wait_connected(CONNECT_WITHIN)
            slash(served, "game start", {"ruleset": "classic", "seed": 3}, user=fake.owner)
            slash(served, "game join", user=fake.player)
            slash(served, "game begin", user=fake.owner)
            rolled = slash(served, "chaos roll", user=fake.owner)
            assert "rolls" in text_of(rolled)
        assert {c["name"] for c in fake.guild_commands[fake.guild_id]} >= {"game", "chaos"}
        assert_all_through_the_proxy(fake, proxy)
        paths = {p for _, p, _ in proxy.requests()}
        assert "/api/v10/users/@me" in paths
        callbacks = [p for p in paths if p.endswith("/:token/callback")]
        assert callbacks, paths  # the interaction tokens are not in the proxy's log
    assert_no_unknown_routes(fake)
    assert_contract_kept(fake)


def test_a_429_the_proxy_makes_up_is_waited_out(tmp_path: Path) -> None:
    """The proxy owns the buckets: the fake tells it, not the bot (the proxy keeps rate-limit
    headers to itself), that the board's bucket is spent for a while, so the proxy answers the
    next board edit with a 429 of its own; the bot waits it out and the board is redrawn."""
    served = FakeInAThread()
    edits = "PATCH /channels/*/messages/*"
    with (
        served as fake,
        running_proxy(f"{fake.base}/api", reject_when_limited=True) as proxy,
        bot_process(tmp_path, fake, proxy) as stderr,
    ):
        served.wait_connected(CONNECT_WITHIN)
        slash(served, "game start", {"ruleset": "classic", "seed": 3}, user=fake.owner)
        slash(served, "game join", user=fake.player)
        slash(served, "game begin", user=fake.owner)
        within(served, fake.wait_for_call("POST /channels/*/messages", status=200, timeout=5))
        fake.exhaust_next(edits, reset_after=SPENT)
        slash(served, "chaos roll", user=fake.owner)
        within(served, fake.wait_for_call(edits, status=200, timeout=5))
        slash(served, "turn next", user=fake.owner)  # its board edit comes within SPENT
        within(served, edited_twice(fake, edits), 10)
        held = [p for m, p, status in proxy.requests() if status == 429]
        assert held, proxy.lines
        assert all(p.startswith(f"/api/v10/channels/{fake.channel_id}/messages/") for p in held)
        assert 429 not in {c.status for c in fake.calls}  # the 429s never came from the fake
        board = fake.messages[fake.calls_to(edits)[-1].path.rsplit("/", 1)[-1]]
        assert "turn 2" in text_of(board)
    assert "the REST proxy answered 429" in "".join(stderr)
    assert_no_unknown_routes(fake)
    assert_contract_kept(fake)


async def edited_twice(fake: FakeDiscord, pattern: str) -> None:
    def twice() -> bool | None:
        return len([c for c in fake.calls_to(pattern) if c.status == 200]) >= 2 or None

    await fake.recorder.wait_until(twice, timeout=10)
