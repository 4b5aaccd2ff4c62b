"""The engine's errors: one small tree whose messages are safe to show a player.

Every error here derives from :class:`ChaosError`; a front end catches that one class and shows
``str(error)``. Anything else escaping the engine is a bug. Running out of roll budget is not an
error: the resolution ends and a ``budget_exhausted`` event says why, so the turn goes on.
"""

from __future__ import annotations


class ChaosError(Exception):
    """Root of every error the engine raises on purpose; its text is safe to show users."""


class DiceError(ChaosError, ValueError):
    """Dice notation that can't be read, or asks for more dice than a table may throw."""


class TableError(ChaosError, ValueError):
    """A table, deck or ruleset that doesn't make sense (unknown list, gap in the results...)."""


class UnknownTableError(TableError, LookupError):
    """A list or deck the ruleset doesn't have."""


class RulesError(ChaosError):
    """The action isn't allowed in the game's current state."""


class GameNotStartedError(RulesError):
    """The game hasn't begun yet (players are still joining)."""


class GameAlreadyStartedError(RulesError):
    """Seats are locked: the game has already begun."""


class GameOverError(RulesError):
    """The game has ended."""


class NotInGameError(RulesError):
    """The player isn't seated in this game."""


class NotYourTurnError(RulesError):
    """Only the active player, the host or a referee may do this now."""


class RollRequiredError(RulesError):
    """The turn can't end before its mandatory chaos roll."""


class ChoicePendingError(RulesError):
    """Someone has a choice to make before the game can go on."""


class GameTooLargeError(RulesError):
    """The game has grown as large as a game may (:mod:`bot.engine.limits`)."""


class NothingToUndoError(RulesError):
    """There is no action left to undo."""
