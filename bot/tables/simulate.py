"""Play many turns of chaos to see how a ruleset's tables behave: a tool for table designers.

This is a *client* of the engine, with no rules of its own: four players join a :class:`Game`,
and each turn the active player makes the chaos roll, reveals a face-down chaos card, answers
every pending choice with its first option, and passes the turn. The counts come from the
events the game logs. Rendering them is :mod:`bot.tables.report`'s job.

The start roll (made when the game begins) is not counted: only the N turns are.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from bot.engine.actions import Begin, Choose, Join, NextTurn, Reveal, RollChaos
from bot.engine.errors import ChaosError
from bot.engine.events import Event
from bot.engine.game import Game
from bot.engine.model import ChaosSource, Entry, Ruleset
from bot.engine.state import Phase, Status

HOST = "p1"
MAX_CHOICES = 50  # per turn: far more than any table asks, but a bound all the same


@dataclass
class SimulationReport:
    """What N simulated turns rolled."""

    ruleset: str
    seed: int
    turns_asked: int
    players: int
    turns: int = 0
    rolls: int = 0
    meta: int = 0
    ignored: int = 0
    entries: dict[str, Counter[str]] = field(default_factory=dict)  # table -> entry id -> count
    rolls_per_turn: list[int] = field(default_factory=list)
    max_depth: int = 0
    exhausted: int = 0
    list_turns: Counter[str] = field(default_factory=Counter)
    reshuffles: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)

    @property
    def meta_share(self) -> float:
        """The share of rolls that came up on an entry about the rolls themselves."""
        return self.meta / self.rolls if self.rolls else 0.0

    @property
    def mean_rolls(self) -> float:
        return sum(self.rolls_per_turn) / len(self.rolls_per_turn) if self.rolls_per_turn else 0.0

    @property
    def max_rolls(self) -> int:
        return max(self.rolls_per_turn, default=0)

    def to_json(self) -> dict[str, object]:
        """Plain data for ``--json``; every table's counts add up to its ``rolls``."""
        return {
            "ruleset": self.ruleset,
            "seed": self.seed,
            "players": self.players,
            "turns": self.turns,
            "rolls": self.rolls,
            "meta": self.meta,
            "meta_share": round(self.meta_share, 4),
            "ignored": self.ignored,
            "rolls_per_turn": {"mean": round(self.mean_rolls, 4), "max": self.max_rolls},
            "max_depth": self.max_depth,
            "budget_exhausted": self.exhausted,
            "tables": {
                table: {"rolls": sum(counts.values()), "entries": dict(counts)}
                for table, counts in sorted(self.entries.items())
            },
            "list_turns": dict(sorted(self.list_turns.items())),
            "reshuffles": dict(sorted(self.reshuffles.items())),
            "refused": dict(self.refused),
        }


def entry_index(ruleset: Ruleset) -> dict[tuple[str, str], Entry]:
    """Every entry by (table or deck id, entry id), split cards' halves included."""
    index: dict[tuple[str, str], Entry] = {}
    for table in ruleset.tables.values():
        for entry in table.entries:
            index[table.id, entry.id] = entry
    for deck in ruleset.decks.values():
        for card in deck.cards:
            for entry in (card.entry, *card.entry.halves):
                index[deck.id, entry.id] = entry
    return index


def simulate(ruleset: Ruleset, *, turns: int, seed: int, players: int = 4) -> SimulationReport:
    """Play `turns` turns of chaos with `players` players and count what came up."""
    report = SimulationReport(ruleset.id, seed, turns, players)
    index = entry_index(ruleset)
    game = Game.start(ruleset, seed=seed, host=HOST, name="Player 1")
    for n in range(2, players + 1):
        game.act(Join(actor=f"p{n}", player_name=f"Player {n}"))
    game.act(Begin(actor=HOST))
    for _ in range(turns):
        if game.state.phase is not Phase.PLAYING:
            break
        _count_turn(report, index, ruleset, _play_turn(game, report))
    return report


def _referee(game: Game) -> str:
    """The first player still at the table, to act as a referee for the simulation."""
    return next(p.id for p in game.state.seated() if p.status is Status.PLAYING)


def _play_turn(game: Game, report: SimulationReport) -> list[Event]:
    """One turn: the chaos roll, a reveal, the first option of every choice, the next turn.

    A referee acts throughout, as the first player still at the table (a player who is away
    can't act). A turn whose player is away has no chaos roll: it just ends.
    """
    events: list[Event] = []
    rolled = game.state.active is not None
    if rolled:
        try:
            events += game.act(RollChaos(actor=_referee(game), referee=True))
        except ChaosError as error:  # e.g. a Chaos deck whose every card is still in play
            report.refused[str(error)] += 1
            rolled = False
    if game.state.face_down is not None:
        events += game.act(Reveal(actor=_referee(game), referee=True))
    for _ in range(MAX_CHOICES):
        pending = game.state.pending
        if pending is None:
            break
        option = pending.options[0][0]
        events += game.act(Choose(actor=_referee(game), referee=True, option=option))
    if game.state.phase is Phase.PLAYING:
        override = not rolled and game.state.active is not None
        events += game.act(NextTurn(actor=_referee(game), referee=True, override=override))
    return events


def _count_turn(
    report: SimulationReport,
    index: dict[tuple[str, str], Entry],
    ruleset: Ruleset,
    events: list[Event],
) -> None:
    report.turns += 1
    rolls = 0
    chaos_list: str | None = None
    for event in events:
        if event["type"] == "roll":
            rolls += 1
            table, entry_id = event["table"], event["entry"]["id"]
            report.entries.setdefault(table, Counter())[entry_id] += 1
            entry = index.get((table, entry_id))
            report.meta += bool(entry is not None and entry.is_meta)
            report.ignored += event["ignored"]
            report.max_depth = max(report.max_depth, event["depth"])
            if chaos_list is None and event["parent"] is None:
                chaos_list = table
        elif event["type"] == "budget_exhausted":
            report.exhausted += 1
        elif event["type"] == "deck_shuffled" and event["reshuffle"]:
            report.reshuffles[event["deck"]] += 1
    report.rolls += rolls
    report.rolls_per_turn.append(rolls)
    if ruleset.chaos is ChaosSource.PROGRESSION and chaos_list is not None:
        report.list_turns[chaos_list] += 1
