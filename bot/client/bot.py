"""The Discord bot: a :class:`commands.AutoShardedBot` that is handed its service and settings.

Nothing here knows the rules. ``setup_hook`` loads one extension per command group (``cogs``),
registers the buttons that must answer after a restart, and syncs the commands to the
development server when one is set; a global sync happens only when the owner asks for it
(``chaos-referee sync``, or ``/sync`` in the development server, the only server it is
published to). Every command is a server's: none is offered in DMs, where there is no game. The
bot asks for the ``guilds`` intent only: it works through slash commands and buttons, which need
no privileged intent, not even message content.

It is sharded even when alone: with no shard settings it runs as many shards as Discord
recommends, and several processes can split the shards between them (``CHAOS_SHARDS``). Then
only the process with shard 0 publishes commands, IDENTIFYs take turns through an
:class:`~bot.client.identify.IdentifyGate`, and each process forgets the guilds it stops holding.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from functools import partial
from typing import Any

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot import memory
from bot.client import ratelimits
from bot.client.buttons import GameButton, PickMenu, VetoButton
from bot.client.errors import report
from bot.client.health import healthz, report_health
from bot.client.identify import IdentifyGate, LocalGate
from bot.client.interactions import told
from bot.client.keeper import BoardKeeper
from bot.client.keystrokes import Keystrokes
from bot.client.oneatatime import OneAtATime
from bot.client.play import Play
from bot.client.rulesmenu import RulesMenu
from bot.client.searches import Searches
from bot.client.sharing import ShowEveryone, ShownOnce
from bot.config import Settings
from bot.errors import ConfigError
from bot.service import GameService
from bot.tables.registry import load_bundled
from bot.uploadlimits import UploadLimits
from bot.verify.running import Verifier
from bot.watchdog import LoopWatchdog
from bot.web.links import Links
from bot.web.server import PageServer
from bot.workers import UploadWorkers

# The buttons and menus that work after a restart (their state is in their custom_id). Each
# takes the member's turns (bot.client.presses); the hostile sweep (tests/e2e/test_sweep.py)
# floods each of them.
PERSISTENT = (GameButton, VetoButton, PickMenu, RulesMenu, ShowEveryone)

log = logging.getLogger(__name__)

# Every UTF-16 surrogate code point, to U+FFFD (str.translate: one character at a time).
_SURROGATES = {code: "\ufffd" for code in range(0xD800, 0xE000)}

EXPIRY_EVERY = 6 * 3600.0  # seconds between sweeps for idle games
BOARD_DELAY = 0.5  # seconds a board waits for more actions before it is redrawn
SHUTDOWN_GRACE = 5.0  # seconds a stopping bot gives the answers it is sending
# Open HTTP connections to one REST host (Discord, or the shared REST proxy). discord.py's own
# pool has no limit, so a burst of answers opened a new connection for nearly every one (a TLS
# handshake each, against the real Discord) instead of taking turns on warm ones. A gateway's
# websocket holds one too: a process runs far fewer shards than this.
REST_CONNECTIONS = 32

# One extension per command group, loaded by name: nothing imports a cog.
EXTENSIONS: tuple[str, ...] = (
    "cogs.game",
    "cogs.turn",
    "cogs.chaos",
    "cogs.effects",
    "cogs.middle",
    "cogs.life",
    "cogs.player",
    "cogs.rules",
    "cogs.table",
    "cogs.card",
    "cogs.roll",
    "cogs.help",
    "cogs.settings",
    "cogs.house",
    "cogs.admin",
)


def intents() -> discord.Intents:
    """Only what the bot uses: guild and channel events. No members, presences or messages."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


def quiet_voice() -> None:
    """The bot never joins a voice channel, so discord.py's warnings that voice's optional
    libraries (PyNaCl, davey) are missing tell whoever runs it nothing: turn exactly those
    off. discord.py warns once per process and then clears these flags itself."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


# Where the commands may be used: in servers only. A game lives in a server's channel; the
# settings, tables and referees are a server's. Published as each command's `contexts`.
IN_SERVERS = app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)


class ChaosTree(app_commands.CommandTree["ChaosBot"]):
    """The command tree, with the one error handler every slash command goes through. A
    member's slash commands take turns (:mod:`bot.client.oneatatime`); their autocompletes are
    bounded by :mod:`bot.client.keystrokes` instead.

    Every command is published for servers only (:data:`IN_SERVERS`, and the older
    ``dm_permission: false`` that discord.py derives from ``guild_only``)."""

    def __init__(self, client: ChaosBot, **options: Any) -> None:
        super().__init__(client, allowed_contexts=IN_SERVERS, **options)
        self.turns = OneAtATime()

    def add_command(
        self,
        command: app_commands.Command[Any, ..., Any]
        | app_commands.ContextMenu
        | app_commands.Group,
        /,
        **options: Any,
    ) -> None:
        command.guild_only = True
        super().add_command(command, **options)

    async def _call(self, interaction: discord.Interaction[ChaosBot]) -> None:
        # discord.py's one entry for every interaction the tree answers (a private method:
        # tests/fakediscord's canary fails if it moves).
        if interaction.data is not None:
            clean_options(interaction.data.get("options") or [])  # type: ignore[arg-type]
        if interaction.type is discord.InteractionType.autocomplete:
            # Keystrokes bound themselves (bot.client.keystrokes): a member's newest one per
            # option is worked on and the rest are dropped at once. Queued here, the newest
            # would wait behind every keystroke it replaced.
            await super()._call(interaction)
            return
        await self.in_turn(interaction, super()._call(interaction))

    async def in_turn(
        self, interaction: discord.Interaction[Any], work: Coroutine[object, object, None]
    ) -> None:
        """`work` for `interaction`, in its member's turn (:mod:`bot.client.oneatatime`),
        which ends once it is answered."""
        await self.turns.run(
            interaction.user.id, work, interaction.response.is_done, told(interaction)
        )

    async def on_error(
        self, interaction: discord.Interaction[ChaosBot], error: app_commands.AppCommandError
    ) -> None:
        await report(interaction, error)


def clean_options(options: list[dict[str, Any]]) -> None:
    """Make every text a member typed into an option encodable, in place: a lone surrogate
    (half of a UTF-16 pair, which JSON can carry) can't be encoded to UTF-8 for the database or
    for Discord, and reached both from a few commands (an internal error). Each becomes U+FFFD,
    "something unreadable was here", which the checks of names and notation refuse with a
    sentence, as they refuse control characters."""
    for option in options:
        value = option.get("value")
        if isinstance(value, str):
            option["value"] = readable(value)
        clean_options(option.get("options") or [])


def readable(text: str) -> str:
    """`text` with each lone surrogate replaced by U+FFFD."""
    return text if text.isascii() else text.translate(_SURROGATES)


class ChaosBot(commands.AutoShardedBot):
    """Chaos Referee on Discord, over one :class:`~bot.service.GameService`.

    `identify_gate` decides when a shard may IDENTIFY; the default takes turns within this
    process only, which is enough when it runs every shard. A gate passed in is its creator's
    to close, like the service.
    """

    def __init__(
        self,
        service: GameService,
        settings: Settings,
        *,
        extensions: tuple[str, ...] | None = None,
        guild_ready_timeout: float = 2.0,
        board_delay: float = BOARD_DELAY,
        identify_gate: IdentifyGate | None = None,
    ) -> None:
        quiet_voice()
        super().__init__(
            command_prefix=commands.when_mentioned,  # unused: there are no text commands
            help_command=None,
            intents=intents(),
            tree_cls=ChaosTree,
            allowed_mentions=discord.AllowedMentions.none(),
            chunk_guilds_at_startup=False,
            member_cache_flags=discord.MemberCacheFlags.none(),
            max_messages=None,
            guild_ready_timeout=guild_ready_timeout,
            shard_count=settings.shard_count,
            # Typed List[int], but None is discord.py's own default: every shard of the count.
            shard_ids=list(settings.shard_ids) if settings.shard_ids else None,  # type: ignore[arg-type]
        )
        self.service = service
        self.settings = settings
        self.play = Play(self)
        self.boards = BoardKeeper(self, delay=board_delay)
        self.uploads = UploadWorkers()  # uploaded table files are checked in these processes
        self.upload_limits = UploadLimits()
        self.keystrokes = Keystrokes()  # autocomplete: each member's newest keystroke only
        self.shown = ShownOnce()  # private rules answers shown to everyone already
        self.searches = Searches()  # autocomplete's searches, on a thread of their own
        self.verifier = Verifier(service.store, processes=True)  # replays in worker processes
        self.links = Links(service, None)  # served once setup_hook starts the pages (if set)
        self.pages: PageServer | None = None
        self._extensions = extensions
        self.identify_gate = identify_gate or LocalGate()
        self._max_concurrency: int | None = None
        self._turns: set[int] = set()  # shards that hold their bucket and have yet to IDENTIFY
        self._expiry: asyncio.Task[None] | None = None
        self._health: asyncio.Task[None] | None = None
        self._closing = False
        self._frozen = False  # whether start-up's objects were frozen (bot.memory)
        warn = settings.stall_warn_ms
        self.watchdog = LoopWatchdog(warn / 1000) if warn is not None else None

    async def login(self, token: str) -> None:
        if self.http.connector is discord.utils.MISSING:  # as discord.py would, but with a limit
            self.http.connector = aiohttp.TCPConnector(limit=0, limit_per_host=REST_CONNECTIONS)
        await super().login(token)

    async def setup_hook(self) -> None:
        ratelimits.install(self.http)  # a REST proxy's own 429s are waited out, not raised
        # The bundled rulesets are read and checked once (tenths of a second): at start-up, on
        # a thread, rather than on the event loop when the first game starts.
        await asyncio.to_thread(load_bundled)
        for name in self._extensions if self._extensions is not None else EXTENSIONS:
            await self.load_extension(name)
        self.add_dynamic_items(*PERSISTENT)
        if self.settings.dev_guild is not None:
            if self.settings.runs_shard_zero:
                await self.sync_commands(self.settings.dev_guild)
            else:
                log.info("the process that runs shard 0 publishes the commands, not this one")
        if self.settings.web_port is not None:
            await self._serve_pages()
        self._expiry = asyncio.create_task(self._expire_idle(), name="expire idle games")
        self._health = asyncio.create_task(
            report_health(self, self.settings.health_seconds), name="health line"
        )

    async def _serve_pages(self) -> None:
        """The live game pages (CHAOS_WEB_PORT), on the bot's own loop."""
        settings = self.settings
        assert settings.web_port is not None
        pages = PageServer(
            self.service,
            self.links,
            host=settings.web_host,
            port=settings.web_port,
            health=partial(healthz, self),
        )
        try:
            await pages.start()
        except OSError as error:
            raise ConfigError(
                f"the live game pages can't listen on {settings.web_host}:{settings.web_port}"
                f" ({error.strerror or error}): set CHAOS_WEB_PORT to a free port, or leave it"
                " unset to run without them"
            ) from None
        self.pages = pages
        self.links.serve_at(settings.web_url or pages.own_url)
        self.links.on_revoke = pages.revoked

    async def launch_shard(
        self, gateway: yarl.URL, shard_id: int, *, initial: bool = False
    ) -> None:
        """Take the shard's turn before connecting it. Waiting in the hook instead would leave
        an open socket unread, and discord.py drops one silent for 60 s as dead: a cluster
        restarting at once can queue a shard longer than that. discord.py calls this again
        when a launch fails; the turn taken stays this shard's until its IDENTIFY."""
        if shard_id not in self._turns:
            await self.identify_gate.take(self.application_id or 0, await self.bucket(shard_id))
            self._turns.add(shard_id)
        await super().launch_shard(gateway, shard_id, initial=initial)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """The IDENTIFY goes out now: the bucket stays taken 5 s from here. This replaces
        discord.py's plain 5 s sleep, which knows nothing of other processes. An IDENTIFY not
        launched by :meth:`launch_shard` (a session Discord ended, or a retry after it refused
        one) waits for its turn here."""
        shard = shard_id or 0
        app, bucket = self.application_id or 0, await self.bucket(shard)
        if shard in self._turns:
            self._turns.discard(shard)
        else:
            await self.identify_gate.take(app, bucket)
        self.identify_gate.identified(app, bucket)

    async def bucket(self, shard_id: int) -> int:
        """The shard's identify bucket: ``shard_id % max_concurrency``."""
        return shard_id % await self.max_concurrency()

    async def max_concurrency(self) -> int:
        """How many buckets Discord lets this bot identify in at once (asked once)."""
        if self._max_concurrency is None:
            try:
                limits = await self.fetch_session_start_limits()
            except discord.DiscordException as error:
                log.warning("couldn't ask Discord for the session start limits: %s", error)
                return 1  # the strictest limit, and ask again next time
            self._max_concurrency = max(1, limits.max_concurrency)
        return self._max_concurrency

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot left the guild (or was removed): its games and boards are no longer this
        process's to keep in memory."""
        games = self.service.forget_guild(str(guild.id))
        boards = self.boards.forget_guild(str(guild.id))
        log.info("left server %s: forgot %d cached games and %d boards", guild.id, games, boards)

    async def sync_commands(self, guild: int | None = None) -> list[app_commands.AppCommand]:
        """Publish the commands to one server (at once) or everywhere (`guild` None; Discord
        may take up to an hour to show them)."""
        if guild is None:
            synced = await self.tree.sync()
        else:
            target = discord.Object(guild)
            self.tree.copy_global_to(guild=target)
            synced = await self.tree.sync(guild=target)
        log.info("synced %d commands to %s", len(synced), guild or "every server")
        return synced

    async def on_ready(self) -> None:
        log.info("ready as %s in %d servers", self.user, len(self.guilds))
        if not self._frozen:  # on the first ready: what start-up made lives as long as we do
            self._frozen = True
            memory.freeze()
            if self.watchdog is not None:  # start-up is over: from now on, stalls are told
                self.watchdog.start()

    async def _expire_idle(self) -> None:
        while True:
            try:
                await self.service.expire_idle()
            except Exception:
                log.exception("expiring idle games failed")
            await asyncio.sleep(EXPIRY_EVERY)

    async def close(self) -> None:
        # discord.py may call close() twice (once more when the socket closes). The service is
        # its creator's to close, after this.
        if not self._closing:
            self._closing = True
            for task in (self._expiry, self._health):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            # Answer what is already being answered (a restart shouldn't leave a player's roll
            # saved but unanswered), then leave the boards: the next start brings them up to
            # date with the next action.
            await self.play.until_quiet(SHUTDOWN_GRACE)
            await self.boards.close()
            await self.uploads.close()
            self.searches.close()
            await self.verifier.close()
            if self.pages is not None:
                await self.pages.close()
            if self.watchdog is not None:
                await self.watchdog.stop()
        await super().close()

    async def on_error(self, event_method: str, /, *args: Any, **kwargs: Any) -> None:
        log.exception("error in %s", event_method)
