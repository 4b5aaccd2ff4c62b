"""The REST proxy of ``proxy/`` (@discordjs/proxy, from npm) as a real process for tests.

``npm ci`` installs it from ``proxy/package-lock.json`` into ``proxy/node_modules`` (which git
ignores) the first time a test needs it, or again once the lock file changes; ``make test`` does
the same beforehand. A file lock keeps parallel test workers from installing it twice at once.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

PROXY = Path(__file__).resolve().parents[2] / "proxy"
INSTALLED = PROXY / "node_modules" / ".installed"  # the stamp `make` uses too
REQUEST = re.compile(r"([A-Z]+) (/\S*) (\d{3})")  # a request line of its log
START_WITHIN = 15.0  # seconds for node to load the proxy and listen


def install() -> None:
    """``npm ci`` in ``proxy/`` unless the stamp is newer than the lock file."""
    lock = PROXY / "package-lock.json"
    npm = shutil.which("npm")
    assert npm, "the REST proxy tests need Node.js and npm (https://nodejs.org)"
    with open(PROXY / ".install.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        if INSTALLED.exists() and INSTALLED.stat().st_mtime >= lock.stat().st_mtime:
            return
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"],
            cwd=PROXY,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, f"npm ci failed in proxy/:\n{done.stderr}"
        INSTALLED.touch()


@dataclass
class Proxy:
    """A running proxy: its URL, the base URL to give the bot, and what it has logged since
    it started listening."""

    url: str
    api_base: str
    lines: list[str] = field(default_factory=list)

    def requests(self) -> list[tuple[str, str, int]]:
        """Every request it answered, as (method, path, status), tokens left out."""
        found = (REQUEST.fullmatch(line) for line in list(self.lines))
        return [(m[1], m[2], int(m[3])) for m in found if m]


@contextlib.contextmanager
def running_proxy(upstream: str, *, reject_when_limited: bool = False) -> Iterator[Proxy]:
    """``node proxy/server.mjs`` forwarding to `upstream` (a base like ``http://HOST:PORT/api``)
    on a free loopback port; stopped with SIGTERM afterwards."""
    install()
    node = shutil.which("node")
    assert node, "the REST proxy tests need Node.js (https://nodejs.org)"
    args = [node, "server.mjs", "--port", "0", "--upstream", upstream]
    if reject_when_limited:
        args.append("--reject-when-limited")
    process = subprocess.Popen(
        args,
        cwd=PROXY,
        env={**os.environ, "NODE_NO_WARNINGS": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # its errors land among the request lines
        text=True,
    )
    assert process.stdout is not None
    listening: list[str] = []
    ready = threading.Event()
    lines: list[str] = []

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            if not listening and line.startswith("listening on "):
                listening.append(line.strip().removeprefix("listening on "))
                ready.set()
            else:
                lines.append(line.strip())
        ready.set()  # it ended

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        if not ready.wait(START_WITHIN) or not listening:
            process.kill()
            raise AssertionError(f"the proxy didn't start: {lines}")
        url = listening[0]
        yield Proxy(url, f"{url}/api/v10", lines)
    finally:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        reader.join(5)
