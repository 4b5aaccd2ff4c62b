"""From a parsed command to the engine's action: who acts, and which players and lists it names.

Names are matched against the game without regard to case (``bob`` finds Bob); an unknown name
is an error that lists the players. Without ``as NAME:``, the active player acts, or the host
when nobody is active; a choice is answered by the player who has it, and a player's own
commands (stepping away, coming back) that name a player are that player's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from bot.commands.grammar import Args, Command, CommandError, Kind, read_int
from bot.engine import actions as a
from bot.engine.model import Ruleset
from bot.engine.offers import open_offers
from bot.engine.state import GameState, Status

# Commands only the host or a referee may use (bot.engine.authority says which). A console has
# no roles: whoever types is trusted as the referee for these (help says so).
REFEREE_COMMANDS = frozenset(
    {
        "chaos undo",
        "turn seats",
        "game end",
        "turn extra",
        "turn skip",
        "turn reverse",
        "chaos global",
    }
)
# What a player says of themselves: typed at a shared keyboard with a name and no ``as NAME:``,
# ``player away Bob next`` is Bob stepping away, on anyone's turn, as ``as Bob:`` would say it.
OWN_COMMANDS = frozenset({"player away", "player back"})
# Options that make a command a referee's call: a waived roll, an extra roll, a named list.
REFEREE_OPTIONS = ("override", "extra", "list")


def player_id(name: str) -> str:
    """The id a console player gets from their name: the name without case, spaces tidied."""
    return " ".join(name.split()).casefold()


@dataclass(frozen=True)
class GameView:
    """What building an action needs to know about the game it is for."""

    players: Mapping[str, str]  # id -> name, in seat order once seats are locked
    host: str
    active: str | None = None
    lists: Mapping[str, str] = field(default_factory=dict)  # list id -> name
    options: tuple[tuple[str, str], ...] = ()  # the pending choice's (id, name), in order
    chooser: str | None = None  # who has that choice to make
    offers: tuple[tuple[int, str], ...] = ()  # (offer id, list) of every open offer, in order
    absent: frozenset[str] = frozenset()  # players who are away or out

    @classmethod
    def of(cls, state: GameState, ruleset: Ruleset) -> GameView:
        order = [p for p in state.order if p in state.players]
        order += [p for p in state.players if p not in order]
        pending = state.pending
        return cls(
            players={p: state.players[p].name for p in order},
            host=state.host,
            active=state.active,
            lists={t.id: t.name for t in ruleset.tables.values()},
            options=tuple(pending.options) if pending else (),
            chooser=pending.player if pending else None,
            offers=tuple(open_offers(state)),
            absent=frozenset(
                p for p, player in state.players.items() if player.status is not Status.PLAYING
            ),
        )

    def player(self, name: str) -> str:
        """The id of the player called `name` (case doesn't matter; a unique start will do)."""
        wanted = player_id(name)
        if wanted in self.players:
            return wanted  # an id, as Discord's autocomplete sends it
        exact = [pid for pid, known in self.players.items() if player_id(known) == wanted]
        if len(exact) == 1:
            return exact[0]
        if exact:  # two Discord members may share a display name
            raise CommandError(
                f"{len(exact)} players are called {name!r}: pick the one you mean from the"
                " suggestions"
            )
        starts = [pid for pid, known in self.players.items() if player_id(known).startswith(wanted)]
        if len(starts) == 1:
            return starts[0]
        names = ", ".join(self.players.values()) or "nobody yet"
        if len(starts) > 1:
            which = ", ".join(self.players[p] for p in starts)
            raise CommandError(f"{name!r} could be {which}: say which (players: {names})")
        raise CommandError(f"there's no player {name!r} in this game (players: {names})")

    def maybe_player(self, name: str | None) -> str | None:
        return None if name is None else self.player(name)

    def actor(self, speaker: str | None) -> str:
        """Who acts: the named speaker, else the active player, else the host, else (the host
        being away) the first player at the table."""
        if speaker is not None:
            return self.player(speaker)
        if self.active is not None:
            return self.active
        present = [p for p in self.players if p not in self.absent]
        return self.host if self.host not in self.absent or not present else present[0]

    def table(self, name: str) -> str:
        """A list's id from its id or name (any case); unknown names go to the engine as typed,
        which answers with the lists there are."""
        wanted = name.casefold()
        for table_id, title in self.lists.items():
            if wanted in (table_id.casefold(), title.casefold()):
                return table_id
        return name

    def option(self, typed: str) -> str:
        """A choice's option id from its number in the list shown, or the text as typed."""
        number = read_int(typed, "an option's number")
        if number is not None and 1 <= number <= len(self.options):
            return self.options[number - 1][0]
        return typed


Builder = Callable[[Args, GameView, str, bool], a.Action]


def to_action(command: Command, view: GameView) -> a.Action:
    """The engine action for an action command, on behalf of the speaker (or the active player).

    Raises CommandError for a query or start command, or a name nobody answers to.
    """
    if command.kind is not Kind.ACTION:
        raise CommandError(f"`{command.name}` isn't something a player does in the game")
    referee = command.name in REFEREE_COMMANDS or any(
        command.args.get(option) for option in REFEREE_OPTIONS if option != "list"
    )
    named = command.args.get("list")
    if named and not _offered(view, str(named)) and command.name == "chaos roll":
        referee = True  # a named list no result offered is a turn power
    if command.name == "game join":
        name = str(command.args["name"])
        return a.Join(actor=player_id(name), player_name=name)
    actor = view.actor(command.speaker)
    if command.name == "chaos choose" and command.speaker is None and view.chooser is not None:
        actor = view.chooser  # the choice is theirs: nobody else would answer it unasked
    named_player = command.args.get("player")
    if command.name in OWN_COMMANDS and command.speaker is None and named_player:
        actor = view.player(str(named_player))
    return BUILDERS[command.name](dict(command.args), view, actor, referee)


def _offered(view: GameView, typed: str) -> bool:
    """Whether an open offer names the list `typed` (its id or its name)."""
    wanted = typed.casefold()
    return any(
        wanted in (table.casefold(), view.lists.get(table, "").casefold())
        for _, table in view.offers
    )


def _names(view: GameView, names: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(view.player(n) for n in names)


BUILDERS: dict[str, Builder] = {
    "game leave": lambda args, view, actor, ref: a.Leave(actor=actor, referee=ref),
    "game begin": lambda args, view, actor, ref: a.Begin(
        actor=actor, referee=ref, order=_names(view, args["order"])
    ),
    "game end": lambda args, view, actor, ref: a.End(actor=actor, referee=ref),
    "turn next": lambda args, view, actor, ref: a.NextTurn(
        actor=actor, referee=ref, override=args["override"]
    ),
    "turn extra": lambda args, view, actor, ref: a.ExtraTurn(
        actor=actor, referee=ref, player=view.maybe_player(args["player"])
    ),
    "turn skip": lambda args, view, actor, ref: a.SkipTurn(
        actor=actor, referee=ref, player=view.maybe_player(args["player"])
    ),
    "turn reverse": lambda args, view, actor, ref: a.Reverse(actor=actor, referee=ref),
    "turn seats": lambda args, view, actor, ref: a.Seats(
        actor=actor, referee=ref, order=_names(view, args["order"])
    ),
    "chaos roll": lambda args, view, actor, ref: a.RollChaos(
        actor=actor,
        referee=ref,
        table=None if args["list"] is None else view.table(args["list"]),
        extra=bool(args.get("extra")),
    ),
    "chaos decline": lambda args, view, actor, ref: a.Decline(
        actor=actor,
        referee=ref,
        table=None if args["list"] is None else view.table(args["list"]),
    ),
    "chaos reveal": lambda args, view, actor, ref: a.Reveal(actor=actor, referee=ref),
    "chaos counter": lambda args, view, actor, ref: a.Counter(actor=actor, referee=ref),
    "chaos fork": lambda args, view, actor, ref: a.Fork(actor=actor, referee=ref),
    "chaos veto": lambda args, view, actor, ref: a.Veto(actor=actor, referee=ref),
    "chaos spite": lambda args, view, actor, ref: a.Spite(
        actor=actor, referee=ref, player=view.maybe_player(args["player"]), reason=args["reason"]
    ),
    "chaos global": lambda args, view, actor, ref: a.RollGlobal(actor=actor, referee=ref),
    "chaos choose": lambda args, view, actor, ref: a.Choose(
        actor=actor, referee=ref, option=view.option(args["option"])
    ),
    "chaos undo": lambda args, view, actor, ref: a.Undo(actor=actor, referee=ref),
    "effects end": lambda args, view, actor, ref: a.EndEffect(
        actor=actor, referee=ref, effect=args["effect"], by_number=True
    ),
    "middle add": lambda args, view, actor, ref: a.MiddleAdd(
        actor=actor, referee=ref, card=args["card"]
    ),
    "middle play": lambda args, view, actor, ref: a.MiddlePlay(
        actor=actor, referee=ref, card=args["card"], by_number=True
    ),
    "life set": lambda args, view, actor, ref: _life(args, view, actor, ref),
    "life gain": lambda args, view, actor, ref: _life(args, view, actor, ref),
    "life lose": lambda args, view, actor, ref: _life(args, view, actor, ref),
    "player away": lambda args, view, actor, ref: a.Away(
        actor=actor, referee=ref, player=view.maybe_player(args["player"]), turns=args["turns"]
    ),
    "player back": lambda args, view, actor, ref: a.Back(
        actor=actor, referee=ref, player=view.maybe_player(args["player"])
    ),
}


def _life(args: Args, view: GameView, actor: str, referee: bool) -> a.Action:
    return a.Life(
        actor=actor,
        referee=referee,
        player=view.maybe_player(args["player"]),
        mode=args["mode"],
        amount=args["amount"],
    )
