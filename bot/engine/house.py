"""House rules: a server's own bends of the game, which the engine enforces like the rules.

A game keeps the house rules it started with, as it keeps its tables: they are in its start
action and its ``game_started`` event, and the commitment covers them
(:mod:`bot.engine.fairness`), so a log whose house rules were changed afterwards fails
``game verify``. Rules left at their defaults are left out of the log altogether, so a game
without house rules logs and commits exactly as before they existed.

* ``chaos_from``: no chaos roll or card is made, owed or offered before this round. A round
  is as many turns as there are seated players when it begins (``GameState.round``).
* ``deny``: entries of lists that never come up: a denied result is rolled again at once, with
  the roll's own dice, and the roll logs it (:mod:`bot.engine.resolve`).
* ``repeats``: ``never`` means a list gives no entry twice until every entry of it came up;
  then it starts over, and the roll that starts it over says so.
* ``exclude``: tags (:mod:`bot.engine.tags`) whose entries are left out: on a list they are
  denied like the deny-list's, and a deck is shuffled without its cards that carry one.
* ``veto``: a result may be vetoed by a majority vote of the table, and is then taken back like
  a counter and rolled again (:mod:`bot.engine.veto`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.model import Deck, Entry, EntryId, RollTable, Ruleset, TableId
from bot.engine.tags import TAGS

MAX_ROUND = 100  # chaos may wait up to this round: long enough for any group's warm-up
MAX_DENIED = 200  # entries a server may deny in all: the board and the log stay short
MAX_ID = 100  # characters of a list's or an entry's id
REPEATS = ("allowed", "never")
RULES = ("chaos_from", "deny", "repeats", "exclude", "veto")  # the house rules a log may hold
# The rolls a vote may veto, by why they were made: not a spite (a loss's last chance), a
# RollFork's copy or a counter (a player's token), nor a card (dealt, not rolled).
VETOABLE = ("turn", "extra", "list", "offered", "global")


class HouseRuleError(ValueError):
    """A house rule that can't be: its message says why, to whoever set it."""


@dataclass(frozen=True)
class HouseRules:
    """The house rules a game plays by; the defaults change nothing."""

    chaos_from: int = 1
    deny: tuple[tuple[str, str], ...] = ()  # (list id, entry id), sorted, each once
    repeats: str = "allowed"  # or "never": no entry twice until the list came up whole
    exclude: tuple[str, ...] = ()  # tags whose entries are left out, sorted, each once
    veto: bool = False  # the table may veto a result by a majority vote

    def __post_init__(self) -> None:
        if self.repeats not in REPEATS:
            raise HouseRuleError(f"repeats are {' or '.join(REPEATS)}")
        if not isinstance(self.veto, bool):
            raise HouseRuleError("the veto is on or off")
        if len(self.deny) > MAX_DENIED:
            raise HouseRuleError(f"a server may deny at most {MAX_DENIED} entries")
        if any(
            not isinstance(part, str) or not 0 < len(part) <= MAX_ID
            for pair in self.deny
            for part in pair
        ):
            raise HouseRuleError("a denied entry is named by its list's id and its own")
        object.__setattr__(self, "deny", tuple(sorted(set(self.deny))))
        if any(tag not in TAGS for tag in self.exclude):
            raise HouseRuleError(f"the tags that may be excluded are {', '.join(TAGS)}")
        object.__setattr__(self, "exclude", tuple(sorted(set(self.exclude))))
        if (
            isinstance(self.chaos_from, bool)
            or not isinstance(self.chaos_from, int)
            or not 1 <= self.chaos_from <= MAX_ROUND
        ):
            raise HouseRuleError(f"chaos starts in a round from 1 to {MAX_ROUND}")

    @property
    def default(self) -> bool:
        return self == HouseRules()

    def summary(self) -> list[str]:
        """The rules that differ from the defaults, in a few words each."""
        parts = [f"chaos starts in round {self.chaos_from}"] if self.chaos_from != 1 else []
        if self.deny:
            count = len(self.deny)
            parts.append(f"{count} {'entry' if count == 1 else 'entries'} denied")
        if self.repeats == "never":
            parts.append("no repeats until a list has come up whole")
        if self.exclude:
            parts.append(f"entries tagged {' or '.join(self.exclude)} left out")
        if self.veto:
            parts.append("results may be vetoed")
        return parts

    def denied(self) -> dict[str, frozenset[str]]:
        """The denied entries' ids, by list."""
        found: dict[str, set[str]] = {}
        for table, entry in self.deny:
            found.setdefault(table, set()).add(entry)
        return {table: frozenset(entries) for table, entries in found.items()}

    def barred(self, ruleset: Ruleset) -> dict[TableId, frozenset[EntryId]]:
        """What never comes up in `ruleset`, by list or deck: the denied entries and every
        entry or card carrying an excluded tag."""
        return self._barred([*ruleset.tables.values(), *ruleset.decks.values()])

    def emptied(self, tables: Iterable[RollTable | Deck]) -> list[RollTable | Deck]:
        """Of `tables` (a ruleset's, or a server's uploads), the lists these rules leave
        nothing to roll and the decks they leave no card: every entry denied or tagged with a
        tag excluded. The house commands refuse a rule that would, and a game won't start so."""
        tables = list(tables)
        barred = self._barred(tables)
        return [
            table
            for table in tables
            if all(entry.id in barred.get(table.id, ()) for entry in _entries(table))
        ]

    def _barred(self, tables: Iterable[RollTable | Deck]) -> dict[TableId, frozenset[EntryId]]:
        """What never comes up of `tables`: the denied entries, and those tagged excluded."""
        found = {table: set(entries) for table, entries in self.denied().items()}
        if self.exclude:
            wanted = set(self.exclude)
            for table in tables:
                for entry in _entries(table):
                    if wanted.intersection(entry.tags):
                        found.setdefault(table.id, set()).add(entry.id)
        return {table: frozenset(entries) for table, entries in found.items()}

    def to_json(self) -> dict[str, Any]:
        """The rules as logged: only those that differ from the defaults."""
        data: dict[str, Any] = {}
        if self.chaos_from != 1:
            data["chaos_from"] = self.chaos_from
        if self.deny:
            data["deny"] = [[table, entry] for table, entry in self.deny]
        if self.repeats != "allowed":
            data["repeats"] = self.repeats
        if self.exclude:
            data["exclude"] = list(self.exclude)
        if self.veto:
            data["veto"] = True
        return data

    @classmethod
    def from_json(cls, data: object) -> HouseRules:
        """The rules :meth:`to_json` gave; HouseRuleError for anything else."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping) or any(key not in RULES for key in data):
            raise HouseRuleError("the house rules are damaged")
        deny = data.get("deny", [])
        if not isinstance(deny, list) or not all(
            isinstance(pair, list) and len(pair) == 2 for pair in deny
        ):
            raise HouseRuleError("the house rules' deny-list is damaged")
        exclude = data.get("exclude", [])
        if not isinstance(exclude, list) or not all(isinstance(tag, str) for tag in exclude):
            raise HouseRuleError("the house rules' excluded tags are damaged")
        return cls(
            chaos_from=data.get("chaos_from", 1),
            deny=tuple((t, e) for t, e in deny),
            repeats=data.get("repeats", "allowed"),
            exclude=tuple(exclude),
            veto=data.get("veto", False),
        )


def _entries(table: RollTable | Deck) -> Sequence[Entry]:
    """A list's entries, or the entries of a deck's cards."""
    return table.entries if isinstance(table, RollTable) else [c.entry for c in table.cards]


def leaves_nothing(table: RollTable | Deck, *, uploaded: bool = False) -> str:
    """What house rules that :meth:`HouseRules.emptied` it would leave of a list or deck:
    ``Slowpoke List nothing to roll: every entry of it is tagged or denied``; an `uploaded`
    one is called so, with its id."""
    name = f"the uploaded {table.name} ({table.id})" if uploaded else table.name
    if isinstance(table, Deck):
        return f"{name} no card to draw: every card of it is tagged so"
    return f"{name} nothing to roll: every entry of it is tagged or denied"
