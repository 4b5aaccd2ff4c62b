"""The real bot over a real database, logged into the fake Discord: one table to play at.

``async with fake_discord, Table.open(fake_discord, tmp_path) as t:`` gives a running ChaosBot
(its commands synced to the fake's guild) whose service stores games in ``tmp_path``. Helpers
read like what players do: ``await t.slash("chaos roll")``, ``await t.press("Roll chaos")``.
Every helper waits for a signal from the bot (its answer, or its boards settling), never for
the fake's record alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.client.bot import ChaosBot
from bot.config import Settings
from bot.service import GameService
from bot.store import Store
from tests.fakediscord.plugin import GUILD_READY_TIMEOUT, running
from tests.fakediscord.server import FakeDiscord

JSON = dict[str, Any]
EPHEMERAL = 64
LOOK = 0.005  # seconds between two looks at the keystrokes the bot gave up
STRAY = 0.25  # seconds an answer to a keystroke the bot gave up is still waited for


@dataclass
class Table:
    fake: FakeDiscord
    bot: ChaosBot
    service: GameService
    answers: list[JSON] = field(default_factory=list)

    @classmethod
    @contextlib.asynccontextmanager
    async def open(
        cls,
        fake: FakeDiscord,
        folder: Path,
        *,
        seed: int = 8,
        db: str = "chaos.db",
        board_delay: float = 0.0,
        web: bool | int = False,
    ) -> AsyncIterator[Table]:
        """`web` serves the live game pages too (``t.bot.pages``): on a free port, or on the
        port it names (to restart the bot on the same one)."""
        store = await Store.open(folder / db)
        service = GameService(store, seeds=lambda: seed)
        settings = Settings(
            dev_guild=int(fake.guild_id),
            db_path=folder / db,
            web_port=None if web is False else 0 if web is True else web,
        )
        # Boards are redrawn at once here (the bot waits a moment by default, to collect a
        # burst of actions into one edit): tests settle faster. test_board checks the delay.
        bot = ChaosBot(
            service, settings, guild_ready_timeout=GUILD_READY_TIMEOUT, board_delay=board_delay
        )
        try:
            async with running(bot, fake):
                yield cls(fake, bot, service)
                await bot.boards.settle()
        finally:
            await service.close()

    # -- doing things -------------------------------------------------------------------------

    async def slash(
        self,
        path: str,
        options: dict[str, Any] | None = None,
        *,
        user: JSON | None = None,
        **kw: Any,
    ) -> JSON:
        """Run a slash command; the bot's first answer (callback body)."""
        _, body = await self.fake.slash(path, options, user=user, **kw)
        self.answers.append(body)
        return body

    async def press(
        self, label: str, *, user: JSON | None = None, message: JSON | None = None
    ) -> JSON:
        """Press the button labelled `label` on `message` (by default the newest message that
        has one)."""
        message = message or self.newest_with(label)
        custom_id = button_id(message, label)
        _, body = await self.fake.click(custom_id, message=message, user=user)
        self.answers.append(body)
        return body

    def newest_with(self, label: str) -> JSON:
        for message in reversed(list(self.fake.messages.values())):
            if any(c.get("label") == label for c in components(message)):
                return message
        raise AssertionError(f"no message has a {label!r} button")

    async def settle(self) -> None:
        await self.bot.boards.settle()

    async def keystrokes_done(self, keystrokes: list[asyncio.Task[Any]], given_up: int) -> None:
        """Wait until each of `keystrokes` is done, or given up by the bot: their tasks wait
        for an autocomplete's answer, and return None or False when none came in time; they
        were sent when the bot had given up `given_up` keystrokes. The tasks of those given up
        are cancelled.

        A keystroke a newer one replaced is left unanswered (:mod:`bot.client.keystrokes`), so
        waiting out Discord's deadline for it only cost time: seconds per flood. The bot counts
        the ones it gives up: once they and the answered ones make up all `keystrokes`, no
        other answer should come, and one that still does (within :data:`STRAY` seconds)
        counts as answered. (A keystroke the bot neither answered nor gave up keeps the wait
        going until its task is done: its timeout is still waited out.)"""
        waiting = keystrokes
        while waiting:
            answered = sum(1 for k in keystrokes if k.done() and _answered(k))
            if answered + self.bot.keystrokes.superseded - given_up >= len(keystrokes):
                # An answer the bot sent anyway would be on its way by now: it still counts.
                await asyncio.wait(waiting, timeout=STRAY)
                waiting = [k for k in keystrokes if not k.done()]
                break
            await asyncio.wait(waiting, timeout=LOOK, return_when=asyncio.FIRST_COMPLETED)
            waiting = [k for k in keystrokes if not k.done()]
        for keystroke in waiting:
            keystroke.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)

    # -- games ------------------------------------------------------------------------------------

    async def game(
        self,
        ruleset: str = "classic",
        *,
        players: int = 2,
        life: int | None = None,
        seed: int | None = None,
        tables: str | None = None,
    ) -> list[JSON]:
        """A game begun here, hosted by the owner, with `players` seated (owner, player, …),
        playing the server's uploaded `tables` if given. The begin answer is `answers[-1]`."""
        options: dict[str, Any] = {"ruleset": ruleset}
        for name, value in (("life", life), ("seed", seed), ("tables", tables)):
            if value is not None:
                options[name] = value
        await self.slash("game start", options, user=self.fake.owner)
        seated = [self.fake.owner, self.fake.player]
        for n in range(2, players):
            seated.append(self.fake.add_user(f"guest{n}"))
        for user in seated[1:players]:
            await self.slash("game join", user=user)
        await self.slash("game begin", user=self.fake.owner)
        return seated[:players]

    async def current(self) -> Any:
        return await self.service.current(f"{self.fake.guild_id}:{self.fake.channel_id}")


def _answered(keystroke: asyncio.Task[Any]) -> bool:
    return keystroke.exception() is None and keystroke.result() not in (None, False)


def components(message: JSON) -> list[JSON]:
    return [c for row in message.get("components", []) for c in row.get("components", [])]


def button_id(message: JSON, label: str) -> str:
    for component in components(message):
        if component.get("label") == label:
            return str(component["custom_id"])
    raise AssertionError(f"message {message.get('id')} has no {label!r} button")


def labels(body: JSON) -> list[str]:
    """The labels of the buttons on an answer (a callback body) or a stored message."""
    return [str(c["label"]) for c in components(body.get("data") or body) if c.get("type") == 2]


def refused(body: JSON, *words: str) -> str:
    """The text of a private refusal that says every one of `words` (and isn't the apology)."""
    from bot.client.errors import APOLOGY

    text = text_of(body)
    assert is_ephemeral(body), text
    assert text != APOLOGY
    for word in words:
        assert word in text, text
    return text


def embed(body: JSON, n: int = 0) -> JSON:
    """The `n`th embed of an answer."""
    embeds: list[JSON] = body["data"]["embeds"]
    return embeds[n]


def rolls(game: Any, **match: Any) -> list[Any]:
    """The game's roll events (of one list, or one player, …), oldest first."""
    return [
        e for e in game.events if e["type"] == "roll" and all(e[k] == v for k, v in match.items())
    ]


def text_of(body: JSON) -> str:
    """Everything a player reads in an answer: content and embeds (titles, text, fields)."""
    data = body.get("data") or body
    parts = [data.get("content") or ""]
    for embed in data.get("embeds") or []:
        parts.append((embed.get("author") or {}).get("name") or "")
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields") or []]
        parts.append((embed.get("footer") or {}).get("text") or "")
    return "\n".join(p for p in parts if p)


def is_ephemeral(body: JSON) -> bool:
    data = body.get("data") or {}
    return bool((data.get("flags") or 0) & EPHEMERAL)


_BOARD = re.compile(r"(^|· )game \d+$")  # how the keeper ends a board's footer


def footer_of(message: JSON) -> str:
    embeds = message.get("embeds") or [{}]
    return str((embeds[0].get("footer") or {}).get("text") or "")


async def board_of(t: Table, channel: str | None = None) -> JSON:
    """The status board everyone sees in the channel once the boards settle: the one channel
    message whose footer names the game (a second one would be a bug)."""
    await t.settle()
    boards = [m for m in t.fake.channel_messages(channel) if _BOARD.search(footer_of(m))]
    assert len(boards) == 1, f"expected one status board, found {len(boards)}"
    return boards[0]


def seed_where(
    ruleset: str,
    wanted: Any,
    *,
    players: int = 2,
    life: int | None = None,
    tries: int = 2000,
) -> int:
    """The first seed whose game makes ``wanted(game, seats)`` true: the pure engine plays a game
    begun like :meth:`Table.game` (seats ``seat0`` hosting, ``seat1``, …) and ``wanted`` acts on
    it. The dice depend only on the seed and the actions, so the same actions sent through
    Discord with that seed see the same dice. A ChaosError inside ``wanted`` means "no"."""
    from bot.engine import actions as a
    from bot.engine.errors import ChaosError
    from bot.engine.game import Game
    from bot.tables import find_ruleset

    rules = find_ruleset(ruleset).ruleset
    seats = [f"seat{n}" for n in range(players)]
    for seed in range(tries):
        game = Game.start(rules, seed=seed, host=seats[0], name=seats[0], life=life)
        for seat in seats[1:]:
            game.act(a.Join(actor=seat, player_name=seat))
        game.act(a.Begin(actor=seats[0]))
        try:
            if wanted(game, seats):
                return seed
        except ChaosError:
            continue
    raise AssertionError(f"no seed below {tries} gives what the test wants")


async def final_answer(
    t: Table, path: str, options: dict[str, Any] | None = None, *, user: JSON | None = None
) -> JSON:
    """Run a slash command and return what its user finally reads: the first answer, or the
    first follow-up once the bot deferred. ``{"data": message JSON, "files": [UploadedFile]}``,
    so ``text_of`` and ``is_ephemeral`` read it like a first answer."""
    payload, body = await t.fake.slash(path, options, user=user)
    t.answers.append(body)
    if body["type"] == 5:  # deferred ("thinking…"): the answer is a follow-up
        call = await t.fake.wait_for_call(f"POST /webhooks/*/{payload['token']}")
        return {"data": call.json, "files": call.files}
    call = await t.fake.wait_for_call(f"POST /interactions/{payload['id']}/*/callback")
    return {"data": body.get("data") or {}, "files": call.files}
