"""Discord's size limits on what a bot sends: a message, its embeds and components, and the
choices of an autocomplete answer. Discord refuses anything past them with 400 code 50035
("Invalid Form Body"), so the fake does too: a bot that builds a message too long for Discord
fails here as it would there, instead of passing every test.

The numbers are Discord's documented limits (message resource, embed limits, components).
"""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]

CONTENT = 2000
EMBEDS = 10
EMBED_TOTAL = 6000  # title, description, field names and values, footer and author, together
TITLE = 256
DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
ROWS = 5
PER_ROW = 5
LABEL = 80
CUSTOM_ID = 100
SELECT_OPTIONS = 25
OPTION_TEXT = 100  # a select option's label, value and description
CHOICES = 25
CHOICE_TEXT = 100  # an autocomplete choice's name and (string) value


def message_problems(data: JSON) -> list[str]:
    """Where `data` (a message body) breaks Discord's limits; empty when it fits."""
    problems: list[str] = []
    content = data.get("content")
    if isinstance(content, str) and len(content) > CONTENT:
        problems.append(f"content: {len(content)} characters > {CONTENT}")
    embeds = data.get("embeds") or []
    if len(embeds) > EMBEDS:
        problems.append(f"embeds: {len(embeds)} > {EMBEDS}")
    total = 0
    for n, embed in enumerate(embeds):
        total += _embed(embed, f"embeds[{n}]", problems)
    if total > EMBED_TOTAL:
        problems.append(f"embeds: {total} characters in all > {EMBED_TOTAL}")
    rows = data.get("components") or []
    if len(rows) > ROWS:
        problems.append(f"components: {len(rows)} rows > {ROWS}")
    for r, row in enumerate(rows):
        _row(row, f"components[{r}]", problems)
    return problems


def choice_problems(data: JSON) -> list[str]:
    """Where an autocomplete answer's `data` breaks Discord's limits."""
    choices = data.get("choices") or []
    problems = [f"choices: {len(choices)} > {CHOICES}"] if len(choices) > CHOICES else []
    for n, choice in enumerate(choices):
        _text(choice.get("name"), CHOICE_TEXT, f"choices[{n}].name", problems)
        if isinstance(choice.get("value"), str):
            _text(choice["value"], CHOICE_TEXT, f"choices[{n}].value", problems)
    return problems


def _embed(embed: JSON, where: str, problems: list[str]) -> int:
    counted = 0
    for key, limit in (("title", TITLE), ("description", DESCRIPTION)):
        counted += _text(embed.get(key), limit, f"{where}.{key}", problems)
    fields = embed.get("fields") or []
    if len(fields) > FIELDS:
        problems.append(f"{where}.fields: {len(fields)} > {FIELDS}")
    for n, field in enumerate(fields):
        counted += _text(field.get("name"), FIELD_NAME, f"{where}.fields[{n}].name", problems)
        counted += _text(field.get("value"), FIELD_VALUE, f"{where}.fields[{n}].value", problems)
    counted += _text((embed.get("footer") or {}).get("text"), FOOTER, f"{where}.footer", problems)
    counted += _text((embed.get("author") or {}).get("name"), AUTHOR, f"{where}.author", problems)
    return counted


def _row(row: JSON, where: str, problems: list[str]) -> None:
    parts = row.get("components") or []
    if len(parts) > PER_ROW:
        problems.append(f"{where}: {len(parts)} components > {PER_ROW}")
    for n, part in enumerate(parts):
        at = f"{where}.components[{n}]"
        _text(part.get("label"), LABEL, f"{at}.label", problems)
        _text(part.get("custom_id"), CUSTOM_ID, f"{at}.custom_id", problems)
        options = part.get("options") or []
        if len(options) > SELECT_OPTIONS:
            problems.append(f"{at}.options: {len(options)} > {SELECT_OPTIONS}")
        for o, option in enumerate(options):
            for key in ("label", "value", "description"):
                _text(option.get(key), OPTION_TEXT, f"{at}.options[{o}].{key}", problems)


def _text(value: object, limit: int, where: str, problems: list[str]) -> int:
    if not isinstance(value, str):
        return 0
    if len(value) > limit:
        problems.append(f"{where}: {len(value)} characters > {limit}")
    return len(value)
