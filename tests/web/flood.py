"""Many live-page streams opened at once, from a process of their own (as an attacker or a
crowd would, off the bot's event loop and its CPU time): ``python -m tests.web.flood URL COUNT
[reload|guess]``.

It opens COUNT streams of the page at URL (a ``/g/TOKEN`` address) at once, and prints one
line per stream: ``served`` once its first view arrived, or ``refused STATUS TEXT``; then
``ready``. Plain, they come from one client, and it holds the served streams open, printing
``event NAME`` for every event that isn't a view, until its standard input closes. With
``reload``, each is a reload of the page by a viewer of its own (another address behind the
bot's reverse proxy): the page, then its stream until the first view, then it's closed. With
``guess``, each asks for the view of a link of its own making (random, of a token's shape),
as someone guessing links would: each is refused, and the bot looks each up.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp


@dataclass
class Flood:
    """The flooding process, seen from the test or the bench."""

    process: asyncio.subprocess.Process
    served: int
    refused: list[tuple[int, str]]

    async def events(self, count: int) -> list[str]:
        """The next `count` event names the held streams got (views aside)."""
        assert self.process.stdout is not None
        names: list[str] = []
        while len(names) < count:
            line = (await self.process.stdout.readline()).decode()
            assert line, "the flood ended early"
            names.append(line.split()[1])
        return names


@contextlib.asynccontextmanager
async def flood(
    url: str, count: int, *, reload: bool = False, guess: bool = False
) -> AsyncIterator[Flood]:
    """Run the flood against the page at `url`: once every stream is served or refused, the
    flood."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.web.flood",
        url,
        str(count),
        *(["reload"] if reload else []),
        *(["guess"] if guess else []),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    assert process.stdin is not None
    try:
        served, refused = 0, []
        while (line := (await process.stdout.readline()).decode().strip()) != "ready":
            assert line, "the flood ended early"
            word, _, rest = line.partition(" ")
            if word == "served":
                served += 1
            else:
                status, _, text = rest.partition(" ")
                refused.append((int(status), json.loads(text)))
        yield Flood(process, served, refused)
    finally:
        process.stdin.close()
        with contextlib.suppress(ProcessLookupError):
            await asyncio.wait_for(process.wait(), 30)


async def _main(url: str, count: int, mode: str | None) -> None:
    connector = aiohttp.TCPConnector(limit=0, force_close=True)
    timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:
        if mode == "guess":
            base = url.rsplit("/", 1)[0]
            await asyncio.gather(*(_guess(http, base) for _ in range(count)))
            print("ready", flush=True)
            return
        reload = mode == "reload"
        if reload:
            await asyncio.gather(*(_reload(http, url, n) for n in range(count)))
            print("ready", flush=True)
            return
        streams = await asyncio.gather(*(_open(http, url + "/stream") for _ in range(count)))
        print("ready", flush=True)
        held = [s for s in streams if s is not None]
        readers = [asyncio.create_task(_events(s)) for s in held]
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        for reader in readers:
            reader.cancel()
        for response in held:
            response.close()


async def _guess(http: aiohttp.ClientSession, base: str) -> None:
    async with http.get(f"{base}/{secrets.token_urlsafe(24)}/view") as answer:
        print(f"refused {answer.status} {json.dumps(await answer.text())}", flush=True)


async def _reload(http: aiohttp.ClientSession, url: str, n: int) -> None:
    headers = {"X-Forwarded-For": f"198.51.{n // 250}.{n % 250}"}
    async with http.get(url, headers=headers) as page:
        if page.status != 200:
            print(f"refused {page.status} {json.dumps(await page.text())}", flush=True)
            return
        await page.read()
    response = await _open(http, url + "/stream", headers)
    if response is not None:
        response.close()


async def _open(
    http: aiohttp.ClientSession, url: str, headers: dict[str, str] | None = None
) -> aiohttp.ClientResponse | None:
    response = await http.get(url, headers=headers)
    if response.status != 200:
        print(f"refused {response.status} {json.dumps(await response.text())}", flush=True)
        response.release()
        return None
    while (line := await response.content.readline()).strip() != b"event: view":
        if not line:
            print(f"refused {response.status} {json.dumps('the stream ended')}", flush=True)
            return None
    print("served", flush=True)
    return response


async def _events(response: aiohttp.ClientResponse) -> None:
    with contextlib.suppress(aiohttp.ClientError, asyncio.CancelledError):
        async for line in response.content:
            if line.startswith(b"event: ") and line.strip() != b"event: view":
                print(f"event {line[7:].decode().strip()}", flush=True)


if __name__ == "__main__":
    asyncio.run(_main(sys.argv[1], int(sys.argv[2]), sys.argv[3] if sys.argv[3:] else None))
