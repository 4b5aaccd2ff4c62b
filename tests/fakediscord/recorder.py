"""Records every HTTP request the client makes, and injects faults (429s, 5xx) on request."""

from __future__ import annotations

import asyncio
import fnmatch
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import web

from tests.fakediscord.contract import UNKNOWN_OPERATION, discord_contract, invalid_form_body
from tests.fakediscord.validator import Problem

API = "/api/v10"
DEADLINE = 3.0  # Discord's deadline for the first answer to an interaction

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
T = TypeVar("T")


@dataclass(frozen=True)
class UploadedFile:
    """A file part of a multipart request; ``field`` is the form name, e.g. ``files[0]``."""

    filename: str
    data: bytes
    content_type: str | None = None
    field: str = ""

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass
class Call:
    """One HTTP request the client made. ``path`` is relative to ``/api/v10`` for API calls."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[UploadedFile] = field(default_factory=list)
    status: int = 0  # the status the fake answered with
    at: float = field(default_factory=time.perf_counter)  # when it arrived (perf_counter)
    headers: dict[str, str] = field(default_factory=dict)  # as sent (the last of a repeated one)
    peer: str = ""  # the client's end of the connection it came on, "host:port"

    def matches(self, pattern: str) -> bool:
        """``pattern`` is ``"METHOD /path"`` with shell wildcards, e.g. ``"POST /webhooks/*"``."""
        return fnmatch.fnmatchcase(f"{self.method} {self.path}", pattern)


def peer_of(request: web.Request) -> str:
    """Which connection `request` came on: the client's address and port."""
    peer = request.transport.get_extra_info("peername") if request.transport else None
    return f"{peer[0]}:{peer[1]}" if peer else ""


CALL: web.RequestKey[Call] = web.RequestKey("call", Call)


@dataclass(frozen=True)
class Breach:
    """A request that broke Discord's contract, and what Discord would have said of it."""

    call: Call
    problems: list[Problem]

    def __str__(self) -> str:
        said = "; ".join(
            ".".join(str(p) for p in where) + f": {message}" if where else message
            for where, _, message in self.problems
        )
        return f"{self.call.method} {self.call.path}: {said}"


@dataclass
class Fault:
    pattern: str
    status: int
    times: int
    retry_after: float
    via: bool = True
    code: int = 0  # Discord's error code in the body of an answer other than 429


@dataclass
class Exhaustion:
    pattern: str
    times: int
    reset_after: float


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # discord.py compares Content-Type with == "application/json"; web.json_response would add
    # "; charset=utf-8" and make it read the body as text.
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        content_type="application/json",
        headers=headers,
    )


def error(status: int, code: int, message: str) -> web.Response:
    return json_response({"message": message, "code": code}, status=status)


class Recorder:
    """The call log, the fault queue and the condition every state change notifies."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.unknown: list[Call] = []
        self.breaches: list[Breach] = []
        self._faults: list[Fault] = []
        self._exhaustions: list[Exhaustion] = []
        self._changed: asyncio.Condition | None = None
        # Check every request against Discord's contract (contract.py). Only a benchmark turns
        # it off: the check is the fake's work, which real Discord does on its own machines,
        # and in one process with the bot it would be billed to the bot's answers.
        self.checks_contract = True

    def start(self) -> None:
        self._changed = asyncio.Condition()

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path == "/gateway":
            return await handler(request)
        call = Call(
            request.method,
            request.path.removeprefix(API),
            dict(request.query),
            None,
            headers=dict(request.headers),
            peer=peer_of(request),
        )
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            for name, value in form.items():
                if name == "payload_json" and isinstance(value, str):
                    call.json = json.loads(value)
                elif isinstance(value, web.FileField):
                    data = value.file.read()
                    call.files.append(UploadedFile(value.filename, data, value.content_type, name))
        elif request.can_read_body:
            raw = await request.read()
            call.json = json.loads(raw) if raw else None
        request[CALL] = call
        self.calls.append(call)
        fault = (
            self._breach(call) if self.checks_contract and request.path.startswith(API) else None
        )
        fault = fault or self._inject_fault(call)
        response = fault if fault is not None else await handler(request)
        if fault is None and response.status < 300:
            self._exhaust(call, response)
        call.status = response.status
        await self.notify()
        return response

    async def notify(self) -> None:
        """Wake the waiters of :meth:`wait_until` (after a call or a change made by a test)."""
        if self._changed is not None:
            async with self._changed:
                self._changed.notify_all()

    async def wait_until(self, found: Callable[[], T | None], timeout: float) -> T:
        """The first non-None ``found()``, re-checked after every call and change."""
        assert self._changed is not None, "the fake is not started"
        result: T | None = None

        def check() -> bool:
            nonlocal result
            result = found()
            return result is not None

        async with asyncio.timeout(timeout), self._changed:
            await self._changed.wait_for(check)
        assert result is not None
        return result

    def fail_next(
        self,
        pattern: str,
        status: int,
        times: int,
        retry_after: float,
        via: bool = True,
        code: int = 0,
    ) -> None:
        self._faults.append(Fault(pattern, status, times, retry_after, via, code))

    def exhaust_next(self, pattern: str, times: int, reset_after: float) -> None:
        self._exhaustions.append(Exhaustion(pattern, times, reset_after))

    def take_unknown(self) -> list[Call]:
        taken, self.unknown = self.unknown, []
        return taken

    def take_breaches(self) -> list[Breach]:
        taken, self.breaches = self.breaches, []
        return taken

    def _breach(self, call: Call) -> web.Response | None:
        """Discord's answer to a request that breaks its contract (``contract.py``), if it does."""
        problems = discord_contract().problems(call.method, call.path, call.json)
        if not problems:
            return None
        self.breaches.append(Breach(call, problems))
        if problems[0][1] == UNKNOWN_OPERATION:
            return None  # the fake's routes answer it; a route it lacks answers 404 as Discord
        return json_response(invalid_form_body(problems), status=400)

    def calls_to(self, pattern: str) -> list[Call]:
        return [c for c in self.calls if c.matches(pattern)]

    async def wait_for_call(self, pattern: str, status: int | None, timeout: float) -> Call:
        def found() -> Call | None:
            return next(
                (
                    c
                    for c in self.calls
                    if c.status and c.matches(pattern) and status in (None, c.status)
                ),
                None,
            )

        return await self.wait_until(found, timeout)

    def _inject_fault(self, call: Call) -> web.Response | None:
        for fault in self._faults:
            if fault.times > 0 and call.matches(fault.pattern):
                fault.times -= 1
                if fault.status != 429:
                    return error(fault.status, fault.code, "injected error")
                reset = str(fault.retry_after)
                headers = {
                    "Retry-After": reset,
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset-After": reset,
                    "X-RateLimit-Bucket": "fake-bucket",
                    "X-RateLimit-Scope": "user",
                }
                if fault.via:
                    # Without Via, discord.py takes a 429 for a Cloudflare ban and gives up.
                    headers["Via"] = "1.1 google"
                body = {
                    "message": "You are being rate limited.",
                    "retry_after": fault.retry_after,
                    "global": False,
                    "code": 0,
                }
                return json_response(body, status=429, headers=headers)
        return None

    def _exhaust(self, call: Call, response: web.StreamResponse) -> None:
        """Say in `response`'s headers that its bucket is spent until ``reset_after``.

        No ``X-RateLimit-Bucket``: a client then keeps counting the route on its own, the way
        @discordjs/rest keys a bucket by route until Discord names it.
        """
        for spent in self._exhaustions:
            if spent.times > 0 and call.matches(spent.pattern):
                spent.times -= 1
                reset = str(spent.reset_after)
                response.headers["X-RateLimit-Limit"] = "1"
                response.headers["X-RateLimit-Remaining"] = "0"
                response.headers["X-RateLimit-Reset-After"] = reset
                response.headers["X-RateLimit-Reset"] = str(time.time() + spent.reset_after)
                return
