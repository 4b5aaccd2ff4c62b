"""Errors of the layers around the engine: settings, the store and the game service.

Like the engine's, each derives from :class:`~bot.engine.errors.ChaosError`, and its message is a
sentence a player (or whoever hosts the bot) can read as it is: front ends show ``str(error)``.
"""

from __future__ import annotations

from bot.engine.errors import ChaosError


class ConfigError(ChaosError):
    """A setting in the environment (or ``.env``) has a value the bot can't use."""


class StoreError(ChaosError):
    """The database can't be used: a file that isn't one, or one from a newer version.

    Its message is for whoever hosts the bot (it names the file and what to do about it).
    `players` is what a player on Discord reads instead: what happened to their action, with
    no path or advice that only the host can act on.
    """

    PLAYERS = (
        "The bot's database can't be used right now, so that wasn't saved; whoever runs the bot"
        " has been told. Try again later."
    )

    def __init__(self, message: str, *, players: str | None = None) -> None:
        super().__init__(message)
        self.players = players or self.PLAYERS


class ConflictError(StoreError):
    """The game changed in the database since it was loaded (another process, or it expired)."""

    SAID = "This game changed somewhere else in the meantime; please try again."
    # What the service says once a second try found the game moved again.
    RETRY = "The game changed somewhere else while that was being saved; try again."

    def __init__(self, message: str, *, players: str | None = None) -> None:
        super().__init__(message, players=players or message)


class InDoubtError(StoreError):
    """The database went away while an action's commit was on its way, and didn't come back
    in time to say whether it was kept: the action may or may not have been saved. (When it
    does answer, the player is told the truth instead: the result, or that it wasn't saved.)"""

    PLAYERS = (
        "The bot lost touch with its database just as that was being saved, and can't tell yet"
        " whether it was. Look at the game (`/chaos log`) in a minute before doing it again."
    )


class DuplicateActionError(ChaosError):
    """This interaction was applied already: Discord delivered it twice (to two processes
    during a shard hand-over, say), and the second delivery must change nothing.

    The process that applied it answers the player; the one that gets this stays silent (see
    docs/discord.md), so its message is for the log.
    """

    SAID = "That was already done: the same command arrived twice, and counts once."


class ClaimedError(DuplicateActionError):
    """Another process claimed this interaction first (both received it during a shard
    hand-over): that one carries it out, or refuses it, and answers; this one does nothing."""

    SAID = "Another process has this interaction: it carries it out and answers."


class NoGameError(ChaosError):
    """There's no game in progress here."""


class GameExistsError(ChaosError):
    """A game is already in progress here; one at a time per channel or console table."""


class StaleActionError(ChaosError):
    """The action was issued for an earlier state of the game (an old button, say)."""


class SettingsError(ChaosError):
    """A guild setting that doesn't exist, or a value it can't take."""


class NoTableError(ChaosError):
    """The guild has no uploaded table by that name."""


class NotAllowedError(ChaosError):
    """The caller may not do this (a permission, not a rule of the game)."""
