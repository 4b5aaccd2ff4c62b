"""What a cluster stored, read straight from PostgreSQL and held against what players were told.

The bot's own store isn't trusted to say what it wrote: :func:`read_ledger` reads the tables,
and :func:`check_ledger` checks the contract of issue 11 on them. Every game's log is whole
(positions and action numbers without gaps); every action came from exactly one interaction,
and every interaction is stored at most once, with the action it asked for; what a player saw
acknowledged is stored, what was refused is not, and actions one player sent one after another
are stored in that order. :func:`replayed` then folds each game's events and replays its
actions with the engine: both must give the stored log and the same state.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from bot.engine import Event, Game
from bot.store import Store
from bot.tables.snapshot import load_snapshot
from tests.cluster import DONE, REFUSED, UNANSWERED
from tests.fakediscord.schema import JSON

# The engine's name of the action a command asks for, where it isn't the command's own path.
ACTION_OF = {"life gain": "life", "life lose": "life", "life set": "life"}


def command_of(payload: JSON) -> str:
    """The path of the slash command an interaction ran: ``life gain``, ``game start``, …"""
    data = payload["data"]
    parts = [data["name"]]
    options = data.get("options") or []
    while options and options[0]["type"] in (1, 2):  # a subcommand (group)
        parts.append(options[0]["name"])
        options = options[0].get("options") or []
    return " ".join(parts)


def scope_of(payload: JSON) -> str:
    return f"{payload['guild_id']}:{payload['channel_id']}"


@dataclass
class Ledger:
    """The games, their actions and the interactions behind them, as stored."""

    scopes: dict[int, str] = field(default_factory=dict)  # game id -> scope
    versions: dict[int, int] = field(default_factory=dict)  # game id -> stored version
    actions: dict[int, list[JSON]] = field(default_factory=dict)  # game id -> actions, in order
    interactions: dict[str, tuple[int, int]] = field(default_factory=dict)  # -> (game, version)

    def action_of(self, interaction: str) -> JSON:
        """The action an interaction's row points at: the one that made its version."""
        game, version = self.interactions[interaction]
        return self.actions[game][version - 1]


async def read_ledger(url: str) -> Ledger:
    """Read the tables; fails on a game whose log has a gap or whose version disagrees."""
    con = await asyncpg.connect(url)
    try:
        games = await con.fetch("SELECT id, scope, version FROM games ORDER BY id")
        events = await con.fetch(
            "SELECT game_id, pos, action, data FROM events ORDER BY game_id, pos"
        )
        rows = await con.fetch("SELECT id, game_id, version FROM interactions")
    finally:
        await con.close()
    ledger = Ledger()
    logs: dict[int, list[asyncpg.Record]] = {}
    for row in events:
        logs.setdefault(row["game_id"], []).append(row)
    for game in games:
        gid = game["id"]
        log = logs.get(gid, [])
        assert [r["pos"] for r in log] == list(range(len(log))), f"game {gid}: a gap in its log"
        taken = [json.loads(r["data"]) for r in log]
        actions = [e for e in taken if e["type"] == "action"]
        assert [e["seq"] for e in actions] == list(range(len(actions))), f"game {gid}: seq gap"
        assert game["version"] == len(actions), f"game {gid}: version {game['version']}"
        ledger.scopes[gid] = game["scope"]
        ledger.versions[gid] = game["version"]
        ledger.actions[gid] = [e["action"] for e in actions]
    for row in rows:
        ledger.interactions[row["id"]] = (row["game_id"], row["version"])
    return ledger


def check_ledger(
    ledger: Ledger,
    sent: Mapping[str, tuple[JSON, str]],
    *,
    in_order: Iterable[list[str]] = (),
    may_go_unanswered: Iterable[str] = (),
) -> None:
    """Hold the ledger against every interaction `sent` (id -> payload and what the player
    read, see :func:`tests.cluster.answer_of`).

    `in_order` are runs of interaction ids each sent once the one before was answered: those
    acknowledged must be stored in that order. Interactions in the guilds `may_go_unanswered`
    (those of a process that was killed) may have no answer, and then may or may not be stored;
    anywhere else every interaction must be answered.
    """
    excused = set(may_go_unanswered)
    for game, version in ledger.versions.items():
        made = sorted(v for g, v in ledger.interactions.values() if g == game)
        # One interaction per action, each action from one interaction: nothing twice, no gaps.
        assert made == list(range(1, version + 1)), f"game {game}: actions {made} of {version}"
    for interaction, (game, _) in ledger.interactions.items():
        assert interaction in sent, f"stored interaction {interaction} was never sent"
        payload, _ = sent[interaction]
        command = command_of(payload)
        assert ledger.scopes[game] == scope_of(payload), f"{interaction} stored in another game"
        action = ledger.action_of(interaction)
        assert action["name"] == ACTION_OF.get(command, command), (command, action)
        assert action["actor"] == payload["member"]["user"]["id"], (command, action)
    for interaction, (payload, answer) in sent.items():
        if answer == DONE:
            assert interaction in ledger.interactions, f"acknowledged {command_of(payload)} lost"
        elif answer == REFUSED:
            assert interaction not in ledger.interactions, f"refused {command_of(payload)} stored"
        else:
            assert answer == UNANSWERED
            assert payload["guild_id"] in excused, f"{command_of(payload)} went unanswered"
    for run in in_order:
        versions = [ledger.interactions[i][1] for i in run if sent[i][1] == DONE]
        assert versions == sorted(versions), f"stored out of order: {versions}"
        assert len(set(versions)) == len(versions)


def plain(events: list[Event]) -> list[Event]:
    """Events as JSON gives them back."""
    result: list[Event] = json.loads(json.dumps(events))
    return result


async def replayed(url: str) -> dict[str, Game]:
    """Every game in progress, by scope, rebuilt by the engine from its stored events; fails
    unless replaying its actions from the seed gives the same log and the same state."""
    games: dict[str, Game] = {}
    async with Store.connect(url) as store:
        for game_id in await store.game_ids():
            stored = await store.game(game_id)
            assert stored is not None
            snapshot = await store.snapshot(stored.record.snapshot)
            ruleset = load_snapshot(snapshot).ruleset
            game = Game(ruleset, stored.events)
            again = Game.replay(ruleset, game.actions)
            assert plain(again.events) == stored.events, f"game {game_id} replays otherwise"
            assert again.state == game.state
            if stored.record.active:
                games[stored.record.scope] = game
    return games


def count(actions: Iterable[JSON], **match: Any) -> int:
    """How many of `actions` have every field in `match`."""
    return sum(1 for a in actions if all(a.get(k) == v for k, v in match.items()))
