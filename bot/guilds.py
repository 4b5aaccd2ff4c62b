"""Checking a guild's settings before they are saved; the messages are for the guild's admins."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields

from bot.engine.house import HouseRules
from bot.errors import SettingsError
from bot.store.records import SECRET_ROLLS, GuildSettings
from bot.tables import LoadedRuleset


def check_settings(changes: Mapping[str, object], rulesets: Callable[[str], LoadedRuleset]) -> None:
    """Raise SettingsError for a setting that doesn't exist or a value it can't take (and the
    tables' UnknownRulesetError, from `rulesets`, for a default ruleset that doesn't exist).
    """
    known = [f.name for f in fields(GuildSettings)]
    for name, value in changes.items():
        if name not in known:
            raise SettingsError(
                f"There's no setting called {name!r} (settings: {', '.join(known)})."
            )
        _check(name, value, rulesets)


def _check(name: str, value: object, rulesets: Callable[[str], LoadedRuleset]) -> None:
    if name == "referee_role":
        if value is not None and (
            not isinstance(value, int) or isinstance(value, bool) or value < 1
        ):
            raise SettingsError("The referee role must be a role (or none).")
    elif name == "default_ruleset":
        if not isinstance(value, str):
            raise SettingsError("The default ruleset must be the name of a ruleset.")
        rulesets(value)
    elif name == "auto_roll":
        if not isinstance(value, bool):
            raise SettingsError("Auto-roll is either on or off.")
    elif name == "turn_powers":
        if not isinstance(value, bool):
            raise SettingsError(
                "Turn powers are either the referees' alone or the active player's too."
            )
    elif name == "turn_mentions":
        if not isinstance(value, bool):
            raise SettingsError("Turn mentions are either on or off.")
    elif name == "quiet":
        if not isinstance(value, tuple) or not all(
            isinstance(v, str) and v.isdigit() and len(v) <= 20 for v in value
        ):
            raise SettingsError("Who turned turn mentions off is a list of Discord ids.")
    elif name == "house":
        if not isinstance(value, HouseRules):
            raise SettingsError("The house rules are set with /house.")
    elif name == "secret_rolls" and value not in SECRET_ROLLS:
        raise SettingsError(f"Secret rolls can be {', '.join(SECRET_ROLLS)}; not {value!r}.")
