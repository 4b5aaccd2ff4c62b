"""A PostgreSQL server of a test's own, to kill and start again.

The tests that share the server on 5432 (:mod:`tests.postgres`) must never stop it: other
tests, and other people, use it. A test of what a restart does to the bot starts its own
instead: ``initdb`` into a fresh folder, ``pg_ctl start`` on a free port of 127.0.0.1, then
:meth:`OwnServer.crash` (``pg_ctl stop -m immediate``: every server process quits at once, with
no checkpoint, and the next start recovers from the write-ahead log, as after a power cut) and
:meth:`OwnServer.start` again on the same port and folder.

PostgreSQL refuses to run as root, so under root every command runs as the ``postgres`` user
(``runuser``), in a folder that user owns. The binaries come from ``pg_config --bindir``, or the
PATH. Without them (a machine with no PostgreSQL installed), the test is skipped like every
PostgreSQL test there, or fails under ``CHAOS_REQUIRE_POSTGRES=1``.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests import postgres

START_WITHIN = 60  # seconds: recovery after a crash replays the log, on a loaded machine
OWNER = "postgres"  # the system user that runs the server when the tests run as root


def _bindir() -> Path | None:
    found = shutil.which("pg_config")
    if found is not None:
        out = subprocess.run([found, "--bindir"], capture_output=True, text=True, check=False)
        folder = Path(out.stdout.strip())
        if (folder / "initdb").exists():
            return folder
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


def free_port() -> int:
    """A port of 127.0.0.1 nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class OwnServer:
    """One PostgreSQL server in a folder of its own (see the module's notes)."""

    def __init__(self, bindir: Path, folder: Path) -> None:
        self.bindir = bindir
        self.folder = folder
        self.data = folder / "data"
        self.port = free_port()
        self.starts = 0

    @property
    def admin_url(self) -> str:
        return self.url("postgres")

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, *command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        argv = [str(self.bindir / command[0]), *command[1:]]
        if os.geteuid() == 0:
            argv = ["runuser", "-u", OWNER, "--", *argv]
        return subprocess.run(argv, capture_output=True, text=True, check=check, timeout=120)

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")

    def start(self) -> None:
        """Start the server (again) and return once it takes connections."""
        self.starts += 1
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder}"
            " -c max_connections=100 -c shared_buffers=16MB"
        )
        log = self.folder / f"server.{self.starts}.log"
        self._run("pg_ctl", "start", "-w", "-t", str(START_WITHIN), "-D", str(self.data),
                  "-o", options, "-l", str(log))  # fmt: skip

    def crash(self) -> None:
        """Every server process quits at once (``-m immediate``): connections drop mid-way,
        and the next start recovers from the write-ahead log."""
        self._run("pg_ctl", "stop", "-m", "immediate", "-D", str(self.data))

    def stop(self) -> None:
        self._run("pg_ctl", "stop", "-m", "fast", "-D", str(self.data), check=False)

    def restart(self, down_for: float = 0.0) -> None:
        """A crash, `down_for` seconds with no server, and a start."""
        self.crash()
        time.sleep(down_for)
        self.start()

    def create_database(self, name: str) -> str:
        """A new empty database; its URL."""
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)
        return self.url(name)

    def log(self) -> str:
        """Everything the server logged, over every start."""
        return "".join(
            (self.folder / f"server.{n}.log").read_text(errors="replace")
            for n in range(1, self.starts + 1)
            if (self.folder / f"server.{n}.log").exists()
        )


class NoServerError(RuntimeError):
    """This machine has no PostgreSQL binaries to start a server with."""


@contextmanager
def own_server() -> Iterator[OwnServer]:
    """A server started in a new folder, stopped and removed on the way out; NoServerError
    without the binaries to start one."""
    bindir = _bindir()
    if bindir is None:
        raise NoServerError("no PostgreSQL binaries (initdb, pg_ctl) to start a server with")
    folder = Path(tempfile.mkdtemp(prefix="chaos-pg-"))
    if os.geteuid() == 0:
        owner = pwd.getpwnam(OWNER)
        os.chown(folder, owner.pw_uid, owner.pw_gid)
    server = OwnServer(bindir, folder)
    try:
        server.init()
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def own_server_for_test() -> Iterator[OwnServer]:
    """:func:`own_server` for a test: skipped (counted for the run's one line) on a machine
    without PostgreSQL, or failed under ``CHAOS_REQUIRE_POSTGRES=1``, as every PostgreSQL
    test is."""
    if _bindir() is None:
        missing = "no PostgreSQL binaries (initdb, pg_ctl) to start a server of the test's own"
        if postgres.REQUIRED:
            pytest.fail(f"CHAOS_REQUIRE_POSTGRES=1, but {missing}")
        postgres.skipped.append(os.environ.get("PYTEST_CURRENT_TEST", "?"))
        pytest.skip(missing)
    with own_server() as server:
        yield server
