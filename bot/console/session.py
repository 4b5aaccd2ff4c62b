"""One console session: a table (``--game NAME``), its game through the service, and the lines
typed at it. Every game action goes through :class:`~bot.service.GameService`, exactly as the
Discord front end's do; the console only translates lines and renders what comes back.
"""

from __future__ import annotations

import getpass
import random
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from bot.commands import (
    Command,
    CommandError,
    GameView,
    Kind,
    check_name,
    parse,
    player_id,
    to_action,
)
from bot.console import queries
from bot.console.output import Output
from bot.console.tables import CONSOLE_GUILD
from bot.engine import actions as a
from bot.engine.errors import ChaosError
from bot.engine.events import Event
from bot.engine.fairness import named, unseeded
from bot.engine.game import Game
from bot.engine.house import HouseRules
from bot.engine.state import Phase
from bot.errors import NoGameError
from bot.render import Names, render_status
from bot.render.recap import recap, recap_lines
from bot.service import GameService, Outcome
from bot.tables import Rule


@dataclass(frozen=True)
class Options:
    """How the console was started (``chaos-referee play ...``)."""

    ruleset: str = ""  # "" for the default: classic, or the ruleset of `tables`
    seed: int | None = None
    tables: Path | None = None  # a folder of one's own tables (`play --tables DIR`)
    players: tuple[str, ...] = ()
    game: str = "default"
    db: Path | str = Path("chaos-referee.db")  # a SQLite file, or a PostgreSQL URL
    json: bool = False
    debug: bool = False
    web: int | None = None  # --web PORT: serve the table's live page there

    def __post_init__(self) -> None:
        if not self.ruleset:
            object.__setattr__(self, "ruleset", "classic")

    @property
    def scope(self) -> str:
        """The service's scope for this console table."""
        return f"console:{self.game}"


def parse_players(text: str) -> tuple[str, ...]:
    """``--players Ann,Bob,Cy``: at least one name, each once (case doesn't count)."""
    names = tuple(check_name(part) for part in text.split(","))
    ids = [player_id(n) for n in names]
    if len(set(ids)) != len(ids):
        raise CommandError(f"--players names someone twice: {text}")
    return names


@dataclass
class Console:
    """Reads commands for one table and answers them through the service."""

    service: GameService
    options: Options
    out: Output
    internal_errors: int = 0
    dice: random.Random = field(default_factory=random.Random)
    offered_rules: tuple[Rule, ...] = ()  # the topics `rules NUMBER` picks from
    page_link: str | None = None  # the table's live page, with --web

    def __post_init__(self) -> None:
        if self.options.seed is not None:
            self.dice = random.Random(f"console/{self.options.seed}")

    def _salt(self) -> str | None:
        """With --seed the whole session repeats, the commitment to the seed included (whoever
        typed the seed knows it anyway); otherwise the service draws a secret salt."""
        if self.options.seed is None:
            return None
        return f"{self.dice.getrandbits(128):032x}"

    def show(self, events: list[Event], game: Game, *, log: bool = False) -> None:
        """Print `events` of `game`. Until the game is over a seed the referee drew stays
        unsaid, with its salt, as on Discord: everyone at the table reads this screen, and
        whoever knew the seed could work out every coming roll (`game end` reveals them). A
        seed someone named (`--seed`, `game start ... seed N`) was typed on this screen: it is
        shown, and the board says it was named."""
        if game.state.phase is not Phase.ENDED and not named(game.state.seed):
            events = unseeded(events)
        names = Names.of(game)
        self.out.events(events, names, log=log)
        if not log and any(e["type"] == "game_ended" for e in events):
            told = recap(game.events)
            if told is not None:  # the game just ended: tell its story
                self.out.reply("game recap", "\n".join(recap_lines(told, names)))

    async def current(self) -> Outcome | None:
        """The game in progress at this table, if any."""
        try:
            return await self.service.current(self.options.scope)
        except NoGameError:
            return None

    async def open(self) -> None:
        """Resume the table's game, or start one for ``--players``, or say how to start."""
        game = self.options.game
        outcome = await self.current()
        if outcome is not None:
            extra = " (--players is ignored)" if self.options.players else ""
            self.out.info(f"Resuming the game at table {game!r}{extra}.")
            self.out.reply("game status", render_status(outcome.game.state, outcome.game.ruleset))
            return
        if self.options.players:
            await self._start_for(self.options.players)
            return
        self.out.info(
            f"No game at table {game!r} yet. Start one with `game start {self.options.ruleset}`"
            " (you host; `as Ann: game start ...` to host as Ann), then `game join Bob` and"
            " `game begin` (or run with --players Ann,Bob). `help` lists every command."
        )

    async def _start_for(self, players: tuple[str, ...]) -> None:
        host, *others = players
        scope = self.options.scope
        outcome = await self.service.start(
            scope,
            self.options.ruleset,
            host=player_id(host),
            host_name=host,
            seed=self.options.seed,
            salt=self._salt(),
            house=await self._house(),
        )
        events = list(outcome.events)
        for name in others:
            outcome = await self.service.act(scope, a.Join(actor=player_id(name), player_name=name))
            events += outcome.events
        outcome = await self.service.act(scope, a.Begin(actor=player_id(host)))
        events += outcome.events
        self.show(events, outcome.game)

    async def close(self) -> None:
        """Say how to come back, if a game is in progress."""
        if await self.current() is not None:
            self.out.info(
                f"The game is saved: `chaos-referee play --game {self.options.game}` picks it up."
            )

    async def prompt(self) -> str:
        """``Bob (turn 5)> `` while a game is in progress, ``chaos> `` otherwise."""
        outcome = await self.current()
        if outcome is None:
            return "chaos> "
        state = outcome.game.state
        if state.turn == 0:
            return "lobby> "
        who = state.players[state.active].name if state.active else "nobody"
        return f"{who} (turn {state.turn})> "

    async def handle(self, line: str, number: int) -> bool:
        """Answer one line; False once the session should end. Never raises for bad input."""
        shown = line.strip()
        if shown and not shown.startswith("#"):
            self.out.echo(shown if len(shown) <= 80 else shown[:79] + "…")
        try:
            command = parse(line)
            if command is None:
                return True
            if command.kind is Kind.QUIT:
                return False
            await self._run(command)
        except ChaosError as error:
            self.out.error(str(error), number)
        except Exception:
            # Our bug, not the player's: say so, keep the session going (the game is safe:
            # the service saves an action whole or not at all), and exit 3 at the end.
            self.internal_errors += 1
            if self.options.debug:
                traceback.print_exc()
            self.out.error("an internal error occurred (run again with --debug to see it)", number)
        return True

    async def _run(self, command: Command) -> None:
        match command.kind:
            case Kind.START:
                await self._start(command)
            case Kind.QUERY:
                await queries.answer(self, command)
            case Kind.ACTION:
                await self._act(command)
            case Kind.QUIT:  # pragma: no cover - handled by handle()
                pass

    async def _start(self, command: Command) -> None:
        # Whoever types hosts, under their login name, unless they say `as NAME:`.
        host = command.speaker or keyboard_name()
        seed = command.args["seed"]
        outcome = await self.service.start(
            self.options.scope,
            command.args["ruleset"] or self.options.ruleset,
            host=player_id(host),
            host_name=host,
            seed=self.options.seed if seed is None else seed,
            salt=self._salt(),
            life=command.args["life"],
            guild=CONSOLE_GUILD if command.args["tables"] else None,
            tables=command.args["tables"],
            house=await self._house(),
        )
        self.show(outcome.events, outcome.game)

    async def _house(self) -> HouseRules:
        """The house rules a game started here keeps: the console's own (`house ...`)."""
        return (await self.service.settings(CONSOLE_GUILD)).house

    async def _act(self, command: Command) -> None:
        scope = self.options.scope
        current = await self.current()
        if current is None:
            raise NoGameError(
                f"There's no game in progress at table {self.options.game!r}:"
                " start one with `game start classic` (or lists, or deck)."
            )
        action = to_action(command, view_of(current.game))
        outcome = await self.service.act(scope, action)
        self.show(outcome.events, outcome.game)


def view_of(game: Game) -> GameView:
    return GameView.of(game.state, game.ruleset)


def keyboard_name() -> str:
    """The name of the person at the keyboard: their login name, or "Host" without one."""
    try:
        name = getpass.getuser()
    except (OSError, KeyError):  # no login name in this environment
        return "Host"
    name = "".join(ch for ch in name if ch.isalnum() or ch in "-_").strip("-_")
    return name[:1].upper() + name[1:] if name else "Host"
