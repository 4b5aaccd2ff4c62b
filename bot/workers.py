"""Checking uploaded table files in worker processes, so a hostile file can't stall the bot.

Reading a table file is CPU work (YAML, then every check). On the event loop, twenty members
uploading 256 KB files at once held up every other server's commands for seconds. Here each
check runs in one of a few child processes (``python -m bot.workers``):

* the child lowers its own priority and limits its memory (``RLIMIT_AS``), so a file that
  needs too much memory fails there, with a sentence, and the bot doesn't notice;
* a check that takes longer than :data:`TIME_LIMIT` is stopped by killing its worker, which a
  fresh one replaces; so is a worker that died;
* at most :data:`QUEUE_LIMIT` checks wait or run at once; past that, an upload is refused with
  a sentence (:class:`BusyError`) instead of queueing forever.

Workers start on first use, so a bot nobody uploads to never starts one. The protocol is one
JSON line each way: ``{"name": ..., "data": base64}`` in, the result out.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import os
import sys
from dataclasses import dataclass, field
from typing import Any

from bot.engine.errors import ChaosError
from bot.tables.files import FileKind
from bot.tables.problems import TableFileError, TableProblems
from bot.tables.uploads import CheckedUpload

log = logging.getLogger(__name__)

WORKERS = 2
QUEUE_LIMIT = 32  # checks waiting or running, all members of all servers together
TIME_LIMIT = 15.0  # seconds one check may take
MEMORY_LIMIT = 256 * 1024 * 1024  # bytes of address space a worker may use
MAX_PROBLEMS = 200  # problems sent back; the answer says how many more there were
_LINE_LIMIT = 16 * 1024 * 1024  # bytes in one answer line (problems are capped well below)


class BusyError(ChaosError):
    """Too many files are being checked right now."""


class CheckFailedError(ChaosError):
    """A file's check ran out of time or memory."""


class UploadProblems(TableProblems):
    """The first :data:`MAX_PROBLEMS` problems of a file, and how many there were in all."""

    def __init__(self, problems: list[TableFileError], total: int) -> None:
        self.total = total
        super().__init__(problems)

    def __str__(self) -> str:
        text = super().__str__()
        more = self.total - len(self.problems)
        return f"{text}\n… and {more} more problems" if more > 0 else text


@dataclass
class _Worker:
    """One child process, or none yet (it starts when a check needs it)."""

    memory_limit: int
    process: asyncio.subprocess.Process | None = None

    async def ready(self) -> asyncio.subprocess.Process:
        if self.process is None or self.process.returncode is not None:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot.workers",
                str(self.memory_limit),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                limit=_LINE_LIMIT,
            )
        return self.process

    async def stop(self) -> None:
        process, self.process = self.process, None
        if process is None or process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()


@dataclass
class UploadWorkers:
    """A few worker processes that check uploaded files; :meth:`check` is all a cog needs."""

    size: int = WORKERS
    queue_limit: int = QUEUE_LIMIT
    time_limit: float = TIME_LIMIT
    memory_limit: int = MEMORY_LIMIT
    _waiting: int = 0
    _idle: asyncio.Queue[_Worker] | None = None
    _all: list[_Worker] = field(default_factory=list)

    async def check(self, name: str, data: bytes) -> CheckedUpload:
        """What the upload holds, checked like ``/table import`` checks it.

        Raises TableProblems (at most :data:`MAX_PROBLEMS` of them, and how many in all),
        BusyError when too many files are being checked, and CheckFailedError when this one
        took too long or too much memory.
        """
        if self._waiting >= self.queue_limit:
            raise BusyError(
                "The bot is checking a lot of table files right now; try again in a minute."
            )
        if self._idle is None:
            self._idle = asyncio.Queue()
            self._all = [_Worker(self.memory_limit) for _ in range(self.size)]
            for worker in self._all:
                self._idle.put_nowait(worker)
        self._waiting += 1
        try:
            worker = await self._idle.get()
            try:
                answer = await self._ask(worker, name, data)
            finally:
                self._idle.put_nowait(worker)
        finally:
            self._waiting -= 1
        return _result(name, answer)

    async def _ask(self, worker: _Worker, name: str, data: bytes) -> dict[str, Any]:
        job = json.dumps({"name": name, "data": base64.b64encode(data).decode("ascii")})
        try:
            async with asyncio.timeout(self.time_limit):
                line = await _send(worker, job.encode() + b"\n")
        except TimeoutError:
            await worker.stop()
            raise CheckFailedError(
                f"Checking {name} took more than {self.time_limit:.0f} seconds, so it was"
                " stopped. Make the file smaller or simpler."
            ) from None
        if not line:  # the worker died while checking (the system ended it, out of memory)
            await worker.stop()
            return {"memory": True}
        answer: dict[str, Any] = json.loads(line)
        if "memory" in answer:  # it said so itself; a fresh process is safer after that
            await worker.stop()
        return answer

    async def close(self) -> None:
        """Stop every worker; a later check starts new ones."""
        for worker in self._all:
            await worker.stop()


async def _send(worker: _Worker, job: bytes) -> bytes:
    """Send one job and read its answer line (empty if the worker died while checking).

    A worker found dead before it got the job (killed while idle) is replaced and asked again.
    """
    for _ in range(2):
        process = await worker.ready()
        assert process.stdin is not None
        assert process.stdout is not None
        try:
            process.stdin.write(job)
            await process.stdin.drain()
        except ConnectionError:
            await worker.stop()
            continue
        try:
            return await process.stdout.readline()
        except ValueError:  # a line over the limit: not an answer a worker writes
            log.warning("an upload worker sent a line that is too long")
            return b""
    return b""


def _result(name: str, answer: dict[str, Any]) -> CheckedUpload:
    if "ok" in answer:
        ok = answer["ok"]
        return CheckedUpload(**{**ok, "kind": FileKind(ok["kind"])})
    if "problems" in answer:
        problems = [TableFileError(*p) for p in answer["problems"]]
        raise UploadProblems(problems, answer["total"])
    if "memory" in answer:
        raise CheckFailedError(
            f"Checking {name} needed more memory than a table file may use, so it was stopped."
            " Make the file smaller or simpler."
        )
    raise RuntimeError(f"an upload worker failed: {answer.get('bug')}")


# -- the worker's side ---------------------------------------------------------------------


def _check(name: str, data: bytes, rulesets: list[Any]) -> dict[str, Any]:
    from bot.tables.uploads import check_any_upload

    try:
        checked = check_any_upload(name, data, rulesets)
    except TableProblems as error:
        problems = [[p.file, p.line, p.path, p.message] for p in error.problems[:MAX_PROBLEMS]]
        return {"problems": problems, "total": len(error.problems)}
    return {"ok": {**checked.__dict__, "kind": checked.kind.value}}


def serve(memory: int) -> None:
    """Answer checks read from stdin, one JSON line each, until stdin closes."""
    import resource

    from bot.tables import load_bundled

    with contextlib.suppress(OSError):
        os.nice(10)  # the bot's own work comes first
    out, sys.stdout = sys.stdout.buffer, sys.stderr  # nothing else may write to the answers
    rulesets = list(load_bundled().values())
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    for line in sys.stdin.buffer:
        answer: dict[str, Any]
        try:
            job = json.loads(line)
            answer = _check(job["name"], base64.b64decode(job["data"]), rulesets)
        except MemoryError:
            answer = {"memory": True}
        except Exception as error:  # a bug: the bot logs it
            answer = {"bug": repr(error)}
        out.write(json.dumps(answer).encode() + b"\n")
        out.flush()
        if "memory" in answer:
            return


if __name__ == "__main__":
    serve(int(sys.argv[1]))
