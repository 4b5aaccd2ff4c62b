"""Discord's documented limits that its OpenAPI description does not express.

The description (``openapi/openapi.json``, checked by ``contract.py``) gives each string and list
its own bounds: an embed title 256, a button label 80, a custom_id 100, 25 select options of 100,
25 fields. What it cannot say is how parts add up or depend on each other, which Discord's docs
state and its API enforces with 400 code 50035 ("Invalid Form Body"):

* a message: content 2,000 characters for a bot (the description allows 4,000, Nitro's length);
  6,000 characters of embeds in all; at most 5 action rows unless the message uses components v2;
  custom ids unique in a message; a link button has a url and no custom_id, any other a custom_id
  and no url; a select menu alone in its row;
* an autocomplete answer: string values of 100 characters (the description allows 6,000);
* commands: names of 1-32 letters, digits, ``-``, ``_`` or ``'``, lowercase for slash commands
  and their options; a slash command's description 1-100 characters; names unique per command type
  and per option level; required options before optional ones; subcommands only in groups and
  at the top; no choices with autocomplete; 8,000 characters per command in all.

Every function returns problems ``(path, code, message)`` like ``validator.py``'s.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from tests.fakediscord.validator import Path, Problem

JSON = dict[str, Any]

CONTENT = 2000
EMBED_TOTAL = 6000  # title, description, field names and values, footer and author, together
ROWS = 5
COMPONENTS_V2 = 1 << 15  # the message flag that lifts the 5 rows (and changes the whole layout)
ACTION_ROW, BUTTON, LINK = 1, 2, 5
SELECTS = {3, 5, 6, 7, 8}
CHOICE_VALUE = 100  # an autocomplete or command choice's string value
NAME = 32
DESCRIPTION = 100
COMMAND_TOTAL = 8000
SLASH, SUB_COMMAND, SUB_COMMAND_GROUP = 1, 1, 2
NAME_PUNCTUATION = set("-_'")


def message_problems(data: JSON, at: Path = ()) -> list[Problem]:
    """Where `data` (a message body) breaks Discord's documented limits; empty when it fits."""
    problems: list[Problem] = []
    content = data.get("content")
    if isinstance(content, str) and len(content) > CONTENT:
        problems.append(_too_long((*at, "content"), CONTENT))
    embeds = data.get("embeds") or []
    total = sum(_embed_size(embed) for embed in embeds if isinstance(embed, dict))
    if total > EMBED_TOTAL:
        message = f"Embed size exceeds maximum size of {EMBED_TOTAL}"
        problems.append(((*at, "embeds"), "MAX_EMBED_SIZE_EXCEEDED", message))
    rows = data.get("components") or []
    if not (data.get("flags") or 0) & COMPONENTS_V2 and len(rows) > ROWS:
        problems.append(_too_long((*at, "components"), ROWS))
    seen: set[str] = set()
    for r, row in enumerate(rows):
        parts = row.get("components") if isinstance(row, dict) else None
        if not isinstance(parts, list):
            continue
        if len(parts) > 1 and any(_kind(part) in SELECTS for part in parts):
            where = (*at, "components", r, "components")
            problems.append((where, "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "A select fills its row."))
        for n, part in enumerate(parts):
            if isinstance(part, dict):
                problems += _component((*at, "components", r, "components", n), part, seen)
    return problems


def choice_problems(data: JSON, at: Path = ()) -> list[Problem]:
    """Where an autocomplete answer's `data` breaks Discord's documented limits."""
    problems: list[Problem] = []
    for n, choice in enumerate(data.get("choices") or []):
        value = choice.get("value") if isinstance(choice, dict) else None
        if isinstance(value, str) and len(value) > CHOICE_VALUE:
            problems.append(_too_long((*at, "choices", n, "value"), CHOICE_VALUE))
    return problems


def command_problems(commands: list[Any]) -> list[Problem]:
    """Where a bulk overwrite of commands breaks Discord's documented rules."""
    problems: list[Problem] = []
    names: set[tuple[int, str]] = set()
    for n, command in enumerate(commands):
        if not isinstance(command, dict) or not isinstance(command.get("name"), str):
            continue  # the schema has said so already
        kind = command.get("type") or SLASH
        key = (kind, command["name"])
        if key in names:
            message = "Application command names must be unique"
            problems.append(((n, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", message))
        names.add(key)
        if kind != SLASH:
            continue
        problems += _named((n,), command)
        problems += _options((n, "options"), command.get("options") or [], depth=0)
        if _command_size(command) > COMMAND_TOTAL:
            message = f"Command exceeds maximum size ({COMMAND_TOTAL})"
            problems.append(((n,), "APPLICATION_COMMAND_TOO_LARGE", message))
    return problems


def _embed_size(embed: JSON) -> int:
    texts = [embed.get("title"), embed.get("description")]
    for field in embed.get("fields") or []:
        if isinstance(field, dict):
            texts += [field.get("name"), field.get("value")]
    for part, key in (("footer", "text"), ("author", "name")):
        if isinstance(embed.get(part), dict):
            texts.append(embed[part].get(key))
    return sum(len(t) for t in texts if isinstance(t, str))


def _kind(part: object) -> object:
    return part.get("type") if isinstance(part, dict) else None


def _component(where: Path, part: JSON, seen: set[str]) -> list[Problem]:
    problems: list[Problem] = []
    custom_id = part.get("custom_id")
    if isinstance(custom_id, str):
        if custom_id in seen:
            message = "Component custom id cannot be duplicated"
            problems.append(((*where, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", message))
        seen.add(custom_id)
    if part.get("type") == BUTTON:
        link = part.get("style") == LINK
        if link and (custom_id is not None or not part.get("url")):
            message = "A link button has a url and no custom_id."
            problems.append((where, "BUTTON_COMPONENT_INVALID_LINK", message))
        if not link and (custom_id is None or part.get("url") is not None):
            message = "A button that is not a link has a custom_id and no url."
            problems.append((where, "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED", message))
    return problems


def _named(where: Path, node: JSON) -> list[Problem]:
    """A slash command's or an option's name (lowercase) and description (1-100)."""
    problems: list[Problem] = []
    name = node.get("name")
    if isinstance(name, str) and not _valid_name(name):
        code = "APPLICATION_COMMAND_INVALID_NAME"
        problems.append(((*where, "name"), code, "Command name is invalid"))
    description = node.get("description")
    if not isinstance(description, str) or not 1 <= len(description) <= DESCRIPTION:
        message = f"Must be between 1 and {DESCRIPTION} in length."
        problems.append(((*where, "description"), "BASE_TYPE_BAD_LENGTH", message))
    return problems


def _valid_name(name: str) -> bool:
    # Discord's pattern is ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$; the scripts' vowel
    # signs are marks (M*), so letters, numbers and marks stand for it here.
    if not 1 <= len(name) <= NAME or name != name.lower():
        return False
    return all(c in NAME_PUNCTUATION or unicodedata.category(c)[0] in "LNM" for c in name)


def _options(where: Path, options: list[Any], depth: int) -> list[Problem]:
    problems: list[Problem] = []
    seen: set[str] = set()
    optional_seen = False
    subs = [o for o in options if isinstance(o, dict) and o.get("type") in (1, 2)]
    if subs and len(subs) != len(options):
        message = "Subcommands and groups can't sit beside other options."
        problems.append((where, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", message))
    for n, option in enumerate(options):
        if not isinstance(option, dict):
            continue
        at = (*where, n)
        problems += _named(at, option)
        name = option.get("name")
        if name in seen:
            message = "Option names must be unique"
            problems.append(((*at, "name"), "APPLICATION_COMMAND_OPTION_NAME_DUPLICATED", message))
        seen.add(str(name))
        kind = option.get("type")
        if (kind == SUB_COMMAND_GROUP and depth > 0) or (kind == SUB_COMMAND and depth > 1):
            message = "Subcommands nest at most as command > group > subcommand."
            problems.append(((*at, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", message))
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            problems += _options((*at, "options"), option.get("options") or [], depth + 1)
            continue
        if option.get("required"):
            if optional_seen:
                message = "Required options must be placed before non-required options"
                problems.append((at, "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", message))
        else:
            optional_seen = True
        choices = option.get("choices") or []
        if choices and option.get("autocomplete"):
            message = "Autocomplete cannot be set with choices."
            problems.append(((*at, "autocomplete"), "AUTOCOMPLETE_WITH_CHOICES", message))
        for c, choice in enumerate(choices):
            value = choice.get("value") if isinstance(choice, dict) else None
            if isinstance(value, str) and len(value) > CHOICE_VALUE:
                problems.append(_too_long((*at, "choices", c, "value"), CHOICE_VALUE))
    return problems


def _command_size(node: JSON) -> int:
    size = sum(len(node.get(k) or "") for k in ("name", "description"))
    for choice in node.get("choices") or []:
        size += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    return size + sum(_command_size(o) for o in node.get("options") or [] if isinstance(o, dict))


def _too_long(where: Path, limit: int) -> Problem:
    return (where, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
