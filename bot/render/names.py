"""What a renderer needs besides the events: the names behind the ids they carry.

Events name players, lists, cards, effects and stack items by id. :meth:`Names.of` collects
the names once from a game's log and ruleset, so each event can be written in players' words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bot.engine.events import Event, Json, Roll
from bot.engine.game import Game
from bot.engine.model import Ruleset

_TOKEN_PLAYS = {"counter": "CounterRoll", "fork": "RollFork"}


@dataclass(frozen=True)
class Names:
    """Names by id: players, effects, middle cards, stack items, choice options, actions."""

    players: Mapping[str, str] = field(default_factory=dict)
    ruleset: Ruleset | None = None
    effects: Mapping[int, str] = field(default_factory=dict)
    middle: Mapping[int, str] = field(default_factory=dict)
    items: Mapping[int, str] = field(default_factory=dict)
    options: Mapping[str, str] = field(default_factory=dict)
    actions: Mapping[int, Json] = field(default_factory=dict)
    offers: Mapping[int, tuple[str, ...]] = field(default_factory=dict)  # the lists offered

    @classmethod
    def of(cls, game: Game) -> Names:
        """Every name the game's log has ever used (players who left included)."""
        return cls.collect(game.events, game.ruleset)

    @classmethod
    def collect(cls, events: Iterable[Event], ruleset: Ruleset | None = None) -> Names:
        players: dict[str, str] = {}
        effects: dict[int, str] = {}
        middle: dict[int, str] = {}
        items: dict[int, str] = {}
        options: dict[str, str] = {}
        actions: dict[int, Json] = {}
        offers: dict[int, tuple[str, ...]] = {}
        for event in events:
            match event["type"]:
                case "game_started":
                    players[event["host"]] = event["name"]
                case "player_joined":
                    players[event["player"]] = event["name"]
                case "effect_started":
                    effects[event["id"]] = event["name"]
                case "middle_added":
                    middle[event["card"]] = event["name"]
                case "roll":
                    items.setdefault(event["id"], event["entry"]["name"])
                case "stack" if event["kind"] in _TOKEN_PLAYS:
                    # A counter or fork has no entry: it is called after who played it, so
                    # countering it says what was countered.
                    who = players.get(event["player"], event["player"])
                    items[event["item"]] = f"({who}'s {_TOKEN_PLAYS[event['kind']]})"
                case "choice_offered":
                    options.update((o["id"], o["name"]) for o in event["options"])
                case "action":
                    actions[event["seq"]] = event["action"]
                case "offer_made":
                    offers[event["id"]] = tuple(event["tables"])
                case _:
                    pass
        return cls(players, ruleset, effects, middle, items, options, actions, offers)

    def player(self, player_id: str | None) -> str:
        if player_id is None:
            return "nobody"
        # Only an official acts without a seat (a referee, by a Discord id nobody can read).
        return self.players.get(player_id, "a referee")

    def table(self, table_id: str | None) -> str:
        """A list's or deck's name, as players call it."""
        if table_id is None:
            return "the usual list"
        ruleset = self.ruleset
        if ruleset is not None:
            if table_id in ruleset.tables:
                return ruleset.tables[table_id].name
            if table_id in ruleset.decks:
                return ruleset.decks[table_id].name
        return table_id

    def card(self, deck_id: str, card_id: str) -> str:
        ruleset = self.ruleset
        if ruleset is not None and deck_id in ruleset.decks:
            try:
                return ruleset.decks[deck_id].card(card_id).name
            except KeyError:
                pass
        return card_id

    def item(self, item_id: int | None) -> str:
        if item_id is None:
            return "nothing"
        name = self.items.get(item_id)
        return f"#{item_id} {name}" if name else f"#{item_id}"

    def dice(self, roll: Roll) -> str:
        """``d20×d10 [13, 4] = 134``: the dice, their faces as rolled, and the number read."""
        faces = ", ".join(map(str, roll["dice"]))
        notation = ""
        ruleset = self.ruleset
        if ruleset is not None and roll["table"] in ruleset.tables:
            # The house readings ("20 counts as 0") are in `rules`; the faces show them anyway.
            notation = ruleset.tables[roll["table"]].dice.notation.split(" (")[0] + " "
        return f"{notation}[{faces}] = {roll['result']}"

    def band(self, roll: Roll) -> str:
        """The entry's number as printed on the list: ``#52`` or ``#50-55``."""
        ruleset = self.ruleset
        if ruleset is not None and roll["table"] in ruleset.tables:
            band = ruleset.tables[roll["table"]].band(roll["result"])
            if band is not None:
                return f"#{band.label}"
        return f"#{roll['result']}"
