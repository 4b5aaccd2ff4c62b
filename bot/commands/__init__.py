"""The text commands every text front end shares (the offline console today).

:func:`parse` reads a line into a :class:`Command`; :func:`to_action` turns an action command
into the engine's action for a game (see :class:`GameView`). Queries (status, log, rules, help,
tables, dice) are answered by the front end, with the helpers in :mod:`bot.commands.reference`.
"""

from bot.commands import catalog as _catalog  # registers every command
from bot.commands.build import REFEREE_COMMANDS, GameView, player_id, to_action
from bot.commands.grammar import (
    MAX_LINE,
    MAX_NAME,
    SPECS,
    Command,
    CommandError,
    Kind,
    Spec,
    check_name,
    groups,
    parse,
    ref_number,
)
from bot.commands.reference import (
    RulesAnswer,
    card_link,
    find_rules,
    help_text,
    picked_rule,
    roll_dice,
    rule_text,
    rules_answer,
    rules_text,
)

del _catalog

__all__ = [
    "MAX_LINE",
    "MAX_NAME",
    "REFEREE_COMMANDS",
    "SPECS",
    "Command",
    "CommandError",
    "GameView",
    "Kind",
    "RulesAnswer",
    "Spec",
    "card_link",
    "check_name",
    "find_rules",
    "groups",
    "help_text",
    "parse",
    "picked_rule",
    "player_id",
    "ref_number",
    "roll_dice",
    "rule_text",
    "rules_answer",
    "rules_text",
    "to_action",
]
