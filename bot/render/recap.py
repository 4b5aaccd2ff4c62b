"""The story of a finished game, told from its log: pure, no I/O, nothing about Discord.

:func:`recap` reads a game's events once and keeps what a table wants to hear at the end: who
won or who was left, who went out (on which turn, and how), how many turns and rolls it took,
a few moments worth retelling, and the seed with the way to check it. :func:`recap_lines` words
it for a terminal or an embed; the live page draws the same facts (:mod:`bot.web.view`).

Only what still counts is read: an undone action's events are left out, as the fold leaves
them out of the state. Everything is counted from the events themselves, so the recap of a
game replayed from its log is the same recap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.events import Event, Roll
from bot.engine.house import HouseRuleError, HouseRules
from bot.render.names import Names


@dataclass(frozen=True)
class Departure:
    """A player who went out: on which turn, why (the engine's words), and their spite."""

    player: str
    turn: int
    reason: str
    spite: bool | None  # None: no spite; True: a spite they survived earlier; False: it failed


@dataclass(frozen=True)
class Chain:
    """The longest run of rolls each asked for by the one before (the first is a top roll)."""

    turn: int
    player: str
    entries: tuple[str, ...]


@dataclass(frozen=True)
class MostCountered:
    """The stack item most counters were aimed at."""

    turn: int
    player: str
    entry: str  # what the countered item was: an entry's name, or "a counter"
    counters: int


@dataclass(frozen=True)
class Swing:
    """The biggest change of one player's life in one go."""

    turn: int
    player: str
    delta: int
    life: int
    reason: str


@dataclass(frozen=True)
class Recap:
    """What a finished game comes to (see the module's docstring)."""

    reason: str
    winner: str | None
    left: tuple[str, ...]  # players still in at the end, in seat order (the winner included)
    out: tuple[Departure, ...]  # in the order they went out
    survived: tuple[tuple[str, int], ...]  # spites survived: (player, turn)
    turns: int
    rolls: int  # every roll and chaos card, those a roll led to included
    counters: int
    chain: Chain | None  # only when some roll led to another
    countered: MostCountered | None
    swing: Swing | None
    seed: int | None
    salt: str | None
    commitment: str | None
    house: tuple[str, ...] = ()  # the house rules the game kept, in a few words each


def standing_events(events: Sequence[Event]) -> list[Event]:
    """The events that still count: those of undone actions (and the undos) are left out."""
    undone = {e["seq"] for e in events if e["type"] == "undone"}
    kept: list[Event] = []
    skipping = False
    for event in events:
        if event["type"] == "action":
            skipping = event["seq"] in undone
        if not skipping and event["type"] != "undone":
            kept.append(event)
    return kept


def recap(events: Sequence[Event]) -> Recap | None:
    """The recap of a game whose log is `events`; None while the game goes on."""
    events = standing_events(events)
    ended = next((e for e in events if e["type"] == "game_ended"), None)
    if ended is None:
        return None
    order: list[str] = []
    turn = turns = rolls = counters = 0
    out: list[Departure] = []
    spites: dict[str, bool] = {}  # the last spite each player had that could save them
    revenge: set[str] = set()  # a spite list roll: made once out, it never saves anyone
    survived: list[tuple[str, int]] = []
    chain: Chain | None = None
    swing: Swing | None = None
    aimed: dict[int, int] = {}  # stack item -> counters aimed at it
    items: dict[int, tuple[int, str, str]] = {}  # stack item -> (turn, player, what it was)
    entries: dict[int, str] = {}  # a roll's id (its stack item's too) -> its entry's name
    batch: dict[int, Roll] = {}  # the rolls of the current action, by id
    revealed = next((e for e in events if e["type"] == "seed_revealed"), None)
    for event in events:
        match event["type"]:
            case "action":
                batch = {}
            case "game_begun":
                order = list(event["order"])
            case "turn_started":
                turn = event["turn"]
                turns = max(turns, turn)
            case "roll":
                rolls += 1
                batch[event["id"]] = event
                entries.setdefault(event["id"], event["entry"]["name"])
                found = _chain(event, batch, turn)
                if len(found.entries) > 1 and (
                    chain is None or len(found.entries) > len(chain.entries)
                ):
                    chain = found
            case "stack":
                kind = event["kind"]
                what = f"a {kind}"
                items[event["item"]] = (turn, event["player"], what)
                if event["kind"] == "counter" and event["target"] is not None:
                    counters += 1
                    aimed[event["target"]] = aimed.get(event["target"], 0) + 1
            case "life":
                if event["delta"] and (swing is None or abs(event["delta"]) > abs(swing.delta)):
                    swing = Swing(
                        turn, event["player"], event["delta"], event["life"], event["reason"]
                    )
            case "spite_started":
                if event["policy"] == "spite_table":
                    revenge.add(event["player"])
            case "spite_ended":
                if event["player"] in revenge:
                    continue
                spites[event["player"]] = event["survived"]
                if event["survived"]:
                    survived.append((event["player"], turn))
            case "player_out":
                out.append(Departure(event["player"], turn, event["reason"], None))
    # A spite is settled in the same action as the loss it answered (before or after it).
    out = [Departure(d.player, d.turn, d.reason, spites.get(d.player)) for d in out]
    gone = {d.player for d in out}
    return Recap(
        reason=ended["reason"],
        winner=ended["winner"],
        left=tuple(p for p in order if p not in gone),
        out=tuple(out),
        survived=tuple(survived),
        turns=turns,
        rolls=rolls,
        counters=counters,
        chain=chain,
        countered=_most_countered(aimed, items, entries),
        swing=swing,
        seed=revealed["seed"] if revealed else None,
        salt=revealed["salt"] if revealed else None,
        commitment=revealed["commitment"] if revealed else None,
        house=_house(events),
    )


def _house(events: Sequence[Event]) -> tuple[str, ...]:
    """The house rules of the game's start (none for a damaged log: verify says why)."""
    started = next((e for e in events if e["type"] == "game_started"), None)
    try:
        return tuple(HouseRules.from_json(started.get("house") if started else None).summary())
    except HouseRuleError:
        return ()


def _chain(roll: Roll, batch: dict[int, Roll], turn: int) -> Chain:
    """The rolls from the top of `roll`'s resolution down to it."""
    entries = [roll["entry"]["name"]]
    at = roll
    while at["parent"] is not None and at["parent"] in batch and len(entries) <= len(batch):
        at = batch[at["parent"]]
        entries.append(at["entry"]["name"])
    return Chain(turn, at["player"], tuple(reversed(entries)))


def _most_countered(
    aimed: dict[int, int], items: dict[int, tuple[int, str, str]], entries: dict[int, str]
) -> MostCountered | None:
    if not aimed:
        return None
    target = max(sorted(aimed), key=lambda item: aimed[item])  # the first of the most countered
    turn, player, what = items.get(target, (0, "", "a roll"))
    return MostCountered(turn, player, entries.get(target, what), aimed[target])


# -- words -------------------------------------------------------------------------------------


def standings(summary: Recap, names: Names) -> list[tuple[str, str]]:
    """Each player and how they finished, the winner first, then whoever was left, then the
    players who went out, the last to go first: (name, how)."""
    rows: list[tuple[str, str]] = []
    spared = dict(summary.survived)
    for player in sorted(summary.left, key=lambda p: p != summary.winner):
        how = "winner" if player == summary.winner else "still in at the end"
        if player in spared:
            how += f"; survived a spite on turn {spared[player]}"
        rows.append((names.player(player), how))
    for gone in reversed(summary.out):
        rows.append((names.player(gone.player), departure(gone)))
    return rows


def departure(gone: Departure) -> str:
    """How a player went out: ``out on turn 5: lost at 0 life (the spite failed)``."""
    when = f"out on turn {gone.turn}" if gone.turn else "out before the first turn"
    spite = {None: "", True: " (survived a spite first)", False: " (the spite failed)"}
    return f"{when}: {gone.reason}{spite[gone.spite]}"


def headline(summary: Recap, names: Names) -> str:
    """``Ann wins: Ann is the last one standing.`` or who was left when it was ended."""
    if summary.winner is not None:
        return f"{names.player(summary.winner)} wins: {summary.reason}."
    if summary.left:
        left = ", ".join(names.player(p) for p in summary.left)
        return f"Game over ({summary.reason}). Still in at the end: {left}."
    return f"Game over: {summary.reason}."


def moments(summary: Recap, names: Names) -> list[str]:
    """The moments worth retelling that the log holds, as one line each."""
    lines: list[str] = []
    if (chain := summary.chain) is not None:
        lines.append(
            f"Longest chain: {len(chain.entries)} rolls on turn {chain.turn}"
            f" ({names.player(chain.player)}): {' → '.join(chain.entries)}."
        )
    if (most := summary.countered) is not None:
        plural = "s" * (most.counters != 1)
        lines.append(
            f"Most counters on one roll: {most.counters} counter{plural} on"
            f" {names.player(most.player)}'s {most.entry} (turn {most.turn})."
        )
    if (swing := summary.swing) is not None:
        lines.append(
            f"Biggest life swing: {names.player(swing.player)} {swing.delta:+d} on turn"
            f" {swing.turn}, to {swing.life} ({swing.reason})."
        )
    if summary.house:
        lines.append(f"Played with house rules: {'; '.join(summary.house)}.")
    return lines


def counts(summary: Recap) -> str:
    """``12 turns played, 31 rolls made, 2 counters.``"""
    parts = [_count(summary.turns, "turn") + " played", _count(summary.rolls, "roll") + " made"]
    if summary.counters:
        parts.append(_count(summary.counters, "counter"))
    return ", ".join(parts) + "."


def verify_line(summary: Recap, verify: str = "`game verify`") -> str | None:
    """The seed and how to check the game against it (None for a log from before seeds were
    revealed). `verify` is how the front end spells the command."""
    if summary.seed is None:
        return None
    if summary.commitment is None or not summary.salt:
        return f"Seed {summary.seed}: export the log and check every roll with {verify}."
    return (
        f"Seed {summary.seed}, salt {summary.salt}: export the log and check every roll"
        f" against them with {verify}."
    )


def recap_lines(summary: Recap, names: Names, verify: str = "`game verify`") -> list[str]:
    """The whole recap as lines of text: headline, standings, counts, moments, the seed."""
    lines = ["Recap: " + headline(summary, names)]
    lines += [f"  {name}: {how}" for name, how in standings(summary, names)]
    lines.append(counts(summary))
    lines += moments(summary, names)
    checked = verify_line(summary, verify)
    if checked is not None:
        lines.append(checked)
    return lines


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"
