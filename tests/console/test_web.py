"""``chaos-referee play --web PORT``: the console prints its table's live page link, and the
page follows the game typed at the keyboard, as the real command line runs it."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import aiohttp

from bot.console.queries import PAGE_OFF
from tests.console.test_transcripts import play
from tests.store.helpers import aio
from tests.web.browser import free_port
from tests.web.helpers import EventReader

LINK = re.compile(r"(http://127\.0\.0\.1:\d+/g/[A-Za-z0-9_-]{32})")


def console(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "--db", str(tmp_path / "games.db"), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "CHAOS_LOG_LEVEL": "WARNING"},
    )


async def line_with(process: subprocess.Popen[str], pattern: re.Pattern[str]) -> re.Match[str]:
    assert process.stdout is not None
    while True:
        line = await asyncio.to_thread(process.stdout.readline)
        assert line, "the console ended before printing the link"
        found = pattern.search(line)
        if found:
            return found


@aio
async def test_the_console_serves_its_tables_page_and_prints_the_link(tmp_path: Path) -> None:
    port = free_port()
    process = console(tmp_path, "--web", str(port), "--players", "Ann,Bob", "--seed", "3")
    try:
        async with asyncio.timeout(30):
            url = (await line_with(process, LINK)).group(1)
            assert url.startswith(f"http://127.0.0.1:{port}/g/")
            async with aiohttp.ClientSession() as http:
                async with http.get(url + "/view") as answer:
                    view = await answer.json()
                assert [s["name"] for s in view["seats"]] == ["Ann", "Bob"]
                async with http.get(url + "/stream") as response:
                    events = EventReader(response)
                    first = await events.view()
                    assert process.stdin is not None
                    started = time.perf_counter()
                    process.stdin.write("chaos roll\n")
                    process.stdin.flush()
                    after = await events.view()
                    assert time.perf_counter() - started < 1.0
                    assert after["version"] == first["version"] + 1
                    assert after["roll"]["player"] == "Ann"
                    # `game link` says it again; a new game at the table shows on the same link.
                    process.stdin.write("game link\n")
                    process.stdin.write("game end\ngame start lists\n")
                    process.stdin.flush()
                    while (view := await events.view())["game"] == first["game"]:
                        pass
                    assert view["ruleset"] == "Chaos Lists A–F"
            process.stdin.close()
            code = await asyncio.to_thread(process.wait)
            assert code == 0, process.stderr.read() if process.stderr else ""
            assert process.stdout is not None
            assert url in process.stdout.read()  # `game link` said it again
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_a_port_in_use_is_refused_with_a_sentence(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process = console(tmp_path, "--web", str(port), "--players", "Ann,Bob")
        _, err = process.communicate("", timeout=60)
    assert process.returncode == 1
    assert f"the live page can't listen on 127.0.0.1:{port}" in err
    assert "Traceback" not in err


def test_without_web_game_link_says_how_to_serve_the_page(tmp_path: Path) -> None:
    stdout = play(tmp_path, "--players", "Ann,Bob", stdin="game link\n")
    assert PAGE_OFF in stdout
