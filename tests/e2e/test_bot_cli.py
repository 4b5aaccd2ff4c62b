"""`python -m bot` as a host runs it: a real process, its `.env`, and a Discord to talk to.

A refused token and a missing one end in one line and exit 1. Against the fake Discord (served
from a thread with its own event loop), the process really connects, and Ctrl-C stops it
cleanly.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.server
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tests.fakediscord.plugin import assert_contract_kept, assert_no_unknown_routes
from tests.fakediscord.server import FakeDiscord
from tests.watchdog import assert_no_stall_in

T = TypeVar("T")

SETTINGS = (
    "DISCORD_TOKEN",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
    "CHAOS_DB_PATH",
    "CHAOS_DEV_GUILD_ID",
    "CHAOS_LOG_LEVEL",
    "CHAOS_IDLE_DAYS",
    "CHAOS_SHARD_COUNT",
    "CHAOS_SHARDS",
    "CHAOS_HEALTH_SECONDS",
    "CHAOS_DATABASE_URL",
)
# Seconds from starting the process to its first request or IDENTIFY: a bound on hanging, not
# a speed goal (bench/discord_bench.py measures start to ready). A new Python importing
# discord.py takes seconds of a loaded 2-core machine, so the bound is generous.
CONNECT_WITHIN = 30.0
STOP_WITHIN = 5.0


def clean_env() -> dict[str, str]:
    """The caller's environment without any of the bot's settings: `.env` decides."""
    return {k: v for k, v in os.environ.items() if k not in SETTINGS}


def write_env(folder: Path, **settings: str) -> None:
    (folder / ".env").write_text("".join(f"{k}={v}\n" for k, v in settings.items()))


def run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=folder,
        env=clean_env(),
    )


def assert_one_line(stderr: str, *words: str) -> str:
    """The process said what's wrong in one line of its own (log lines aside)."""
    ours = [line for line in stderr.splitlines() if line.startswith("chaos-referee:")]
    assert len(ours) == 1, stderr
    assert "Traceback" not in stderr
    for word in words:
        assert word in ours[0], ours[0]
    return ours[0]


def stop_when(
    folder: Path, ready: Callable[[], None], stop: signal.Signals
) -> subprocess.CompletedProcess[str]:
    """Run the bot in `folder`; once `ready()` returns, send it `stop` and collect how it ended
    (killed if it outlives STOP_WITHIN)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bot"],
        cwd=folder,
        env=clean_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        ready()
        process.send_signal(stop)
        stdout, stderr = process.communicate(timeout=STOP_WITHIN)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert_no_stall_in(stderr)  # its log came through a pipe, not a file the plugin reads
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


class RefusingDiscord(http.server.BaseHTTPRequestHandler):
    """Discord's answer to a bad token: 401 on every request."""

    def do_GET(self) -> None:
        self.server.paths.append(self.path)  # type: ignore[attr-defined]
        body = json.dumps({"message": "401: Unauthorized", "code": 0}).encode()
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def refusing_discord() -> Iterator[http.server.ThreadingHTTPServer]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), RefusingDiscord)
    server.paths = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


class SilentDiscord(http.server.BaseHTTPRequestHandler):
    """A Discord that takes the request and doesn't answer (for as long as the test lasts)."""

    def do_GET(self) -> None:
        self.server.asked.set()  # type: ignore[attr-defined]
        self.server.released.wait(10)  # type: ignore[attr-defined]

    def log_message(self, format: str, *args: object) -> None:
        pass


def test_ctrl_c_while_discord_is_slow_to_answer_stops_at_once(tmp_path: Path) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), SilentDiscord)
    server.asked = threading.Event()  # type: ignore[attr-defined]
    server.released = threading.Event()  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        write_env(
            tmp_path,
            DISCORD_TOKEN="some-token",
            DISCORD_API_BASE=f"http://127.0.0.1:{server.server_address[1]}/api/v10",
            CHAOS_DB_PATH=str(tmp_path / "bot.db"),
        )

        def asked() -> None:
            assert server.asked.wait(CONNECT_WITHIN)  # type: ignore[attr-defined]

        result = stop_when(tmp_path, asked, signal.SIGINT)
    finally:
        server.released.set()  # type: ignore[attr-defined]
        server.shutdown()
        server.server_close()
        thread.join()
    assert result.returncode == 130, result.stderr
    assert "Traceback" not in result.stderr


def test_a_refused_token_is_one_line_and_exit_1(tmp_path: Path) -> None:
    with refusing_discord() as server:
        port = server.server_address[1]
        write_env(
            tmp_path,
            DISCORD_TOKEN="not-a-real-token",
            DISCORD_API_BASE=f"http://127.0.0.1:{port}/api/v10",
            CHAOS_DB_PATH=str(tmp_path / "bot.db"),
        )
        result = run(tmp_path)
    assert result.returncode == 1, result.stderr
    assert server.paths == ["/api/v10/users/@me"]  # type: ignore[attr-defined]
    line = assert_one_line(result.stderr, "refused the token", "DISCORD_TOKEN")
    assert "not-a-real-token" not in line
    assert result.stdout == ""


def test_an_unreachable_discord_is_one_line_and_exit_1(tmp_path: Path) -> None:
    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
        write_env(
            tmp_path,
            DISCORD_TOKEN="some-token",
            DISCORD_API_BASE=f"http://127.0.0.1:{port}/api/v10",
            CHAOS_DB_PATH=str(tmp_path / "bot.db"),
        )
        result = run(tmp_path)
    assert result.returncode == 1, result.stderr
    assert_one_line(result.stderr, "can't be reached", "network")


def test_sync_without_a_token_is_one_line_and_exit_1(tmp_path: Path) -> None:
    write_env(tmp_path, DISCORD_TOKEN="")
    result = run(tmp_path, "sync")
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        assert_one_line(result.stderr, "DISCORD_TOKEN", "not set")
    ]
    assert result.stdout == ""


class FakeInAThread:
    """The fake Discord served by a thread of its own, for a bot in another process.
    ``options`` are :class:`FakeDiscord`'s."""

    def __init__(self, **options: Any) -> None:
        self.loop = asyncio.new_event_loop()
        self.fake = FakeDiscord(**options)
        self._stop = asyncio.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        async def serve() -> None:
            async with self.fake:
                self._ready.set()
                await self._stop.wait()

        self.loop.run_until_complete(serve())
        self.loop.close()

    def __enter__(self) -> FakeDiscord:
        self._thread.start()
        assert self._ready.wait(5), "the fake Discord didn't start"
        return self.fake

    def __exit__(self, *exc: object) -> None:
        self.loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(5)

    def call(self, work: Coroutine[Any, Any, T], seconds: float) -> T:
        """Run `work` in the fake's own loop and return its result."""
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(seconds)

    def wait_connected(self, seconds: float) -> None:
        """Wait until a client has identified and been sent READY (in the fake's own loop)."""
        future = asyncio.run_coroutine_threadsafe(self.fake.wait_connected(seconds), self.loop)
        try:
            future.result(seconds + 1)
        except TimeoutError as error:
            raise AssertionError(f"the bot didn't connect within {seconds} s") from error


@pytest.mark.parametrize(
    ("stop", "status"),
    [(signal.SIGINT, 130), (signal.SIGTERM, 0)],  # Ctrl-C's status; SIGTERM is a normal stop
    ids=["ctrl-c", "sigterm"],
)
def test_the_bot_connects_to_discord_and_stops_on_a_signal(
    tmp_path: Path, stop: signal.Signals, status: int
) -> None:
    served = FakeInAThread()
    with served as fake:
        write_env(
            tmp_path,
            DISCORD_TOKEN="fake-token",
            DISCORD_API_BASE=fake.api_base,
            DISCORD_GATEWAY_URL=fake.gateway_url,
            CHAOS_DEV_GUILD_ID=fake.guild_id,
            CHAOS_DB_PATH=str(tmp_path / "bot.db"),
        )
        started = time.monotonic()

        def connected() -> None:
            served.wait_connected(CONNECT_WITHIN)
            assert time.monotonic() - started < CONNECT_WITHIN

        result = stop_when(tmp_path, connected, stop)
        (identify,) = fake.identifies
        assert identify["token"] == "fake-token"
        assert {c["name"] for c in fake.guild_commands[fake.guild_id]} >= {"game", "chaos"}
    stderr = result.stderr
    assert result.returncode == status, stderr
    assert "Traceback" not in stderr
    assert "Unclosed" not in stderr
    assert "was never awaited" not in stderr
    # The bot never uses voice: discord.py's notes about voice's missing libraries are off.
    assert "PyNaCl" not in stderr
    assert "davey" not in stderr
    assert "voice will NOT be supported" not in stderr
    assert result.stdout == ""
    assert (tmp_path / "bot.db").exists()
    assert_no_unknown_routes(fake)
    assert_contract_kept(fake)
