"""Why a log couldn't be verified, or didn't verify: both are sentences for whoever asked."""

from __future__ import annotations

from bot.engine.errors import ChaosError


class UnreadableLogError(ChaosError):
    """The file isn't a finished game's log this referee can check (not a failed check)."""


class MismatchError(ChaosError):
    """The log was read and replayed, and it isn't what its seed and actions give."""
