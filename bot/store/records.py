"""What the store hands back: plain, immutable records (no SQL rows escape the store)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

from bot.engine.events import Event
from bot.engine.house import HouseRules

SecretRolls = Literal["allowed", "referee", "never"]
SECRET_ROLLS: tuple[str, ...] = get_args(SecretRolls)


@dataclass(frozen=True)
class GameRecord:
    """One game's row: where it's played, what it's played with, and how far it has got.

    `version` is the number of actions in its log (the engine's ``Game.seq``); `snapshot` is the
    hash of the ruleset files it plays with (see :mod:`bot.tables.snapshot`). Times are Unix
    seconds; `ended` is None while the game goes on.
    """

    id: int
    scope: str
    guild: str | None
    ruleset: str
    snapshot: str
    version: int
    created: float
    updated: float
    ended: float | None
    active: bool


@dataclass(frozen=True)
class StoredGame:
    """A game's row and its whole log, in order."""

    record: GameRecord
    events: list[Event] = field(repr=False)


@dataclass(frozen=True)
class GameTable:
    """A table, deck or ruleset file a game uses, as the file declared itself."""

    id: str
    kind: str
    revision: str


@dataclass(frozen=True)
class StoredTable:
    """One revision of a table a guild uploaded: its YAML text as uploaded."""

    guild: str
    table_id: str
    revision: int
    text: str
    created: float


@dataclass(frozen=True)
class BoardRecord:
    """The message that shows a game's status board: where it was posted, for which game."""

    scope: str
    game_id: int
    channel: str
    message: str


@dataclass(frozen=True)
class LinkRecord:
    """A link to a game's live page, found by the hash of its token: which game it shows
    (and in which scope) and when it was made. The token itself is never stored."""

    game_id: int
    scope: str
    created: float


@dataclass(frozen=True)
class GuildSettings:
    """A guild's choices; a guild that never changed anything gets these defaults.

    * `referee_role`: the Discord role whose members may referee (None: only the host).
    * `default_ruleset`: what ``game start`` plays when no ruleset is named.
    * `auto_roll`: make the chaos roll as soon as a turn starts.
    * `secret_rolls`: who may roll secretly: anyone, referees only, or nobody.
    * `turn_powers`: the active player may also change the turn order, roll a new Global and
      roll on a named list, which are otherwise the host's and referees' alone.
    * `turn_mentions`: the answer that starts a turn mentions (pings) its player.
    * `quiet`: the members who turned those mentions off for themselves (``/player notify``),
      by Discord id, sorted.
    * `house`: the house rules a game started here keeps (:mod:`bot.engine.house`).
    """

    referee_role: int | None = None
    default_ruleset: str = "classic"
    auto_roll: bool = False
    secret_rolls: SecretRolls = "allowed"
    turn_powers: bool = False
    turn_mentions: bool = False
    quiet: tuple[str, ...] = ()
    house: HouseRules = field(default_factory=HouseRules)
