"""What a live game page shows, as plain data: the view model the page's script draws.

Pure: a game in, a dict of JSON values out; no I/O and nothing of aiohttp. The words come from
the same renderers as the console and the status board (:mod:`bot.render`), so the page says
what they say.

It is built only from what the whole table may see: the log as :func:`public_events` leaves
it, and the parts of the state that lie on the table (seats, effects, the middle, how many
cards a deck holds, never their order). What must stay secret while the game goes on (the seed
and its salt, the order of a deck, a face-down card, a spite look's cards) is never read here,
so no page, JSON or stream can carry it. ``tests/web`` plays games holding each of them and
looks for them in every byte the page gets.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, cast

from bot.engine.events import Event, Roll
from bot.engine.fairness import sealed
from bot.engine.game import Game
from bot.engine.model import ChaosSource, SpitePolicy
from bot.engine.state import ActiveEffect, GameState, Phase, Player
from bot.render import (
    Names,
    chaos_lines,
    middle_section,
    offer_lines,
    pending_line,
    remaining,
    render_lines,
    turn_summary,
)
from bot.render.cards import card_image_url, card_named, rolled_card
from bot.render.choices import option_texts
from bot.render.events import inline_lines
from bot.render.ids import effect_ref
from bot.render.lines import TOKENS, WIDTH
from bot.render.recap import counts, headline, moments, recap, standings, verify_line
from bot.render.status import fairness_note, house_lines, seat_marks

Layout = Literal["full", "overlay"]
LAYOUTS: tuple[Layout, ...] = ("full", "overlay")
JSON = dict[str, Any]

# The full page keeps this many actions of the log (the latest); the rest is in `/game export`.
# Every change sends the whole view, and a long game's log would make each one heavy.
LOG_ACTIONS = 400


def public_events(events: Sequence[Event], ended: bool) -> list[Event]:
    """The log as anyone watching may have it: whole once the game is over, else sealed
    (:func:`~bot.engine.fairness.sealed`) and with a spite look's options left out altogether
    (sealed keeps how many cards were looked at as ``?``; the page says only that the choice
    is the player's to make)."""
    if ended:
        return list(events)
    shown: list[Event] = []
    for event in sealed(events):
        if event["type"] == "choice_offered" and event["kind"] == "spite":
            event = cast(Event, {**event, "options": []})
        shown.append(event)
    return shown


def build_view(game: Game, *, game_id: int, version: int, layout: Layout = "full") -> JSON:
    """The page's view of `game` at `version` (its number of actions) in a `layout`: the
    overlay leaves out the log, which it has no room for."""
    state, ruleset = game.state, game.ruleset
    ended = state.phase is Phase.ENDED
    events = public_events(game.events, ended)
    names = Names.collect(events, ruleset, state)
    groups = _actions(events)
    view: JSON = {
        "game": game_id,
        "version": version,
        "layout": layout,
        "ruleset": ruleset.name,
        "phase": state.phase.value,
        "turn": state.turn,
        "headline": _headline(state, game, names),
        "active": names.player(state.active) if state.active else None,
        "direction": "→" if state.direction > 0 else "←",
        "chaos": _chaos(state, game, names),
        "roll": _latest_roll(groups, names),
        "effects": [_effect(e, names) for e in _effects_in_order(state)],
        "seats": _seats(state, game),
        "middle": _middle(state, game, names),
        "waiting": _waiting(state, names),
        "choice": _choice(state, names),
        "offers": offer_lines(state, names),
        # The footer: a short line (the commitment's first digits), the whole commitment
        # one tap away for whoever checks the game.
        "fairness": [*house_lines(state), fairness_note(state)] if state.commitment else [],
        "commitment": state.commitment,
        "recap": _recap(game, names) if ended else None,
    }
    if layout == "full":
        kept = groups[-LOG_ACTIONS:]
        view["log"] = [_log_entry(group, names) for group in kept]
        view["log_left_out"] = len(groups) - len(kept)
    return view


# -- the end ---------------------------------------------------------------------------------


def _recap(game: Game, names: Names) -> JSON | None:
    """A finished game's story (:mod:`bot.render.recap`): the standings, the winner first; the
    counts and the moments worth retelling; the seed and how to check it."""
    summary = recap(game.events)
    if summary is None:
        return None
    winner = names.player(summary.winner) if summary.winner else None
    return {
        "headline": headline(summary, names),
        "standings": [
            {"name": name, "how": how, "winner": name == winner}
            for name, how in standings(summary, names)
        ],
        "lines": [counts(summary), *moments(summary, names)],
        "verify": verify_line(summary, "game verify"),
    }


# -- the turn and the chaos source -------------------------------------------------------------


def _headline(state: GameState, game: Game, names: Names) -> str:
    if state.phase is Phase.LOBBY:
        return f"{game.ruleset.name}: waiting for the game to begin."
    return turn_summary(state, game.ruleset, names)


def _chaos(state: GameState, game: Game, names: Names) -> JSON:
    """Where this turn's chaos comes from: the current list, the chaos list, or the decks (with
    how many cards each holds: counts only, never which cards)."""
    ruleset = game.ruleset
    kind = {
        ChaosSource.DECK: "deck",
        ChaosSource.PROGRESSION: "lists",
        ChaosSource.TABLE: "list",
    }.get(ruleset.chaos, "list")
    current: str | None = None
    if ruleset.chaos is ChaosSource.PROGRESSION:
        current = names.table(state.current_list or ruleset.lists[0])
    elif ruleset.chaos_table is not None:
        current = names.table(ruleset.chaos_table)
    return {
        "kind": kind,
        "current": current,
        "lines": chaos_lines(state, ruleset, names) if state.phase is not Phase.LOBBY else [],
        "face_down": state.face_down is not None,  # that a card lies there, not which
    }


# -- rolls -------------------------------------------------------------------------------------


def _actions(events: Sequence[Event]) -> list[tuple[int, bool, list[Event]]]:
    """The log cut into actions: (seq, undone, the action's events), oldest first."""
    undone = {e["seq"] for e in events if e["type"] == "undone"}
    groups: list[tuple[int, bool, list[Event]]] = []
    for event in events:
        if event["type"] == "action" or not groups:
            seq = event["seq"] if event["type"] == "action" else -1
            groups.append((seq, seq in undone, []))
        groups[-1][2].append(event)
    return groups


def _latest_roll(groups: Sequence[tuple[int, bool, list[Event]]], names: Names) -> JSON | None:
    """The latest roll that started a resolution (not taken back by an undo), with every roll
    made under it as its tree, and the lines of the action that made it."""
    standing = [events for _, undone, events in groups if not undone]
    rolls: list[Roll] = [e for events in standing for e in events if e["type"] == "roll"]
    root = next((r for r in reversed(rolls) if r["parent"] is None), None)
    if root is None:
        return None
    nodes: dict[int, JSON] = {}
    for roll in rolls:
        if roll["id"] == root["id"] or roll["parent"] in nodes:
            nodes[roll["id"]] = _roll(roll, names)
            if roll["parent"] in nodes:
                nodes[roll["parent"]]["children"].append(nodes[roll["id"]])
    tree = nodes[root["id"]]
    action = next(events for events in standing if any(e is root for e in events))
    begins = next(i for i, e in enumerate(action) if e is root)
    tree["lines"] = render_lines(action[begins:], names, width=WIDTH)
    return tree


def _roll(roll: Roll, names: Names) -> JSON:
    """One roll: who, where, the dice and what they read, the entry and its text."""
    ruleset = names.ruleset
    deck = ruleset is not None and roll["table"] in ruleset.decks
    card = None if ruleset is None else rolled_card(roll, ruleset)
    return {
        "id": roll["id"],
        "player": names.player(roll["player"]),
        "table": names.table(roll["table"]),
        "dice": None if deck else names.dice(roll),
        "number": None if deck else names.band(roll),
        "entry": roll["entry"]["name"],
        "text": roll["text"],
        "inline": inline_lines(roll, names),  # each named by what it was for
        "ignored": roll["ignored"],
        "reason": names.reason(roll["reason"]) if roll["reason"] else roll["reason"],
        # A result that names a real card shows its picture (Scryfall's, fetched by the
        # browser; see bot.render.cards).
        "card": card,
        "image": card and card_image_url(card),
        "children": [],
    }


# -- the table ---------------------------------------------------------------------------------


def _effects_in_order(state: GameState) -> list[ActiveEffect]:
    """Worlds and the Global first, then timed effects, as the status board lists them."""
    return sorted(state.effects.values(), key=lambda e: (e.kind == "effect", e.id))


def effect_label(number: int) -> str:
    """How an effect is named by number on the page: as everywhere else (``E2``)."""
    return effect_ref(number)


def _effect(effect: ActiveEffect, names: Names) -> JSON:
    if effect.kind == "effect":
        lasts = remaining(effect, names)
    else:
        lasts = "world enchantment" if effect.kind == "world" else "the Global"
    real = None if names.ruleset is None else card_named(names.ruleset, effect.name)
    return {
        "id": effect.id,
        "label": effect_label(effect.number),
        "name": effect.name,
        "text": effect.text,
        "kind": effect.kind,
        "owner": names.player(effect.owner) if effect.owner else None,
        "lasts": lasts,
        "card": real,
        "image": real and card_image_url(real),
    }


def _seats(state: GameState, game: Game) -> list[JSON]:
    """Every seat in play order (join order in the lobby) with life, tokens and marks."""
    once = game.ruleset.spite is SpitePolicy.DECK_LOOK
    order = state.order or list(state.players)
    return [_seat(state, state.players[pid], once) for pid in order if pid in state.players]


def _seat(state: GameState, player: Player, once: bool) -> JSON:
    return {
        "name": player.name,
        "active": player.id == state.active,
        "host": player.id == state.host,
        "life": player.life,
        "unsure": player.unsure,
        "status": player.status.value,
        "tokens": [
            {"name": TOKENS.get(token, token), "count": count}
            for token, count in sorted(player.tokens.items())
            if count > 0
        ],
        "marks": _marks(state, player, once),
    }


def _marks(state: GameState, player: Player, once: bool) -> list[str]:
    """The status board's notes beside a seat, but the host (a field of its own here)."""
    marks = seat_marks(state, player, once)
    return marks[:-1] if player.id == state.host else marks


def _middle(state: GameState, game: Game, names: Names) -> JSON | None:
    """The shared zone, as the status board words it; None for a ruleset without one."""
    section = middle_section(state, game.ruleset, names)
    if not section:
        return None
    title = section[0].rstrip(":").partition(": ")[0]
    cards = [
        # A card in the middle is a real card a player put there, named as they typed it.
        _middle_card(card.id, card.name, card.name)
        for card in sorted(state.middle.values(), key=lambda c: c.id)
    ]
    return {"title": title, "lines": [line.strip() for line in section[1:]], "cards": cards}


def _middle_card(card_id: int, name: str, real: str | None) -> JSON:
    return {"id": card_id, "name": name, "card": real, "image": real and card_image_url(real)}


def _waiting(state: GameState, names: Names) -> str | None:
    """The choice the game waits for. A spite look's cards are the chooser's alone: the page
    says only whose choice it is."""
    pending = state.pending
    if pending is None:
        return None
    if pending.private:
        who = names.player(pending.player)
        return f"Waiting for {who} to pick a card from their spite look (only they see it)."
    if pending.options:  # listed beneath, each with what it does (`choice`)
        question = pending.context.get("question")
        about = f" ({question})" if question else ""
        return f"Waiting for {names.player(pending.player)} to choose{about}:"
    return pending_line(state, names)


def _choice(state: GameState, names: Names) -> list[JSON]:
    """The options of the choice the game waits for, each with what it does (none for a spite
    look: its cards are the chooser's alone)."""
    pending = state.pending
    if pending is None or pending.private:
        return []
    texts = option_texts(pending.kind, pending.options, pending.context, names.ruleset)
    return [
        {"name": name, "text": text} for (_, name), text in zip(pending.options, texts, strict=True)
    ]


def _log_entry(group: tuple[int, bool, list[Event]], names: Names) -> JSON:
    seq, undone, events = group
    return {
        "seq": seq,
        "undone": undone,
        "lines": render_lines(events, names, actions=True),
    }
