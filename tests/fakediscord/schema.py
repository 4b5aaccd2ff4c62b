"""Checks the options of a slash command against the schema the bot synced, as Discord would.

discord.py does not validate what Discord sends (ranges, choices, required options, types), so a
test that sends a payload Discord would never send can pass for the wrong reason. The fake builds
every command payload through :func:`build_command_data`, which refuses such payloads.
"""

from __future__ import annotations

from collections.abc import Container, Mapping
from typing import Any

JSON = dict[str, Any]

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
NUMBER = 10
CHANNEL = 7
ATTACHMENT = 11
# user 6, channel 7, role 8, mentionable 9, attachment 11: snowflakes that need data.resolved
SNOWFLAKE_TYPES = {6, 7, 8, 9, 11}


class SchemaError(AssertionError):
    """A test tried to send an interaction that does not match the synced commands."""


def _check_value(
    where: str,
    option: JSON,
    value: Any,
    attachments: Container[str] | None,
    channels: Mapping[str, JSON] | None,
) -> None:
    kind = option["type"]
    if kind == STRING:
        ok = isinstance(value, str)
    elif kind == INTEGER:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif kind == BOOLEAN:
        ok = isinstance(value, bool)
    elif kind == NUMBER:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    elif kind in SNOWFLAKE_TYPES:
        ok = isinstance(value, str) and value.isdigit()
    else:
        raise SchemaError(f"{where}: option type {kind} is not supported by the fake")
    if not ok:
        raise SchemaError(f"{where}: {value!r} does not fit option type {kind}")
    if kind == ATTACHMENT and attachments is not None and value not in attachments:
        raise SchemaError(f"{where}: attachment {value} was not registered with fake.attachment()")
    if kind == CHANNEL and channels is not None:
        # Discord's picker offers only existing channels of the option's channel_types.
        if value not in channels:
            raise SchemaError(f"{where}: no channel {value}")
        allowed = option.get("channel_types")
        if allowed and channels[value]["type"] not in allowed:
            raise SchemaError(f"{where}: channel type {channels[value]['type']} not in {allowed}")
    choices = option.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise SchemaError(f"{where}: {value!r} is not one of the choices")
    if "min_value" in option and value < option["min_value"]:
        raise SchemaError(f"{where}: {value!r} is below min_value {option['min_value']}")
    if "max_value" in option and value > option["max_value"]:
        raise SchemaError(f"{where}: {value!r} is above max_value {option['max_value']}")
    if kind == STRING:
        if len(value) < option.get("min_length", 0):
            raise SchemaError(f"{where}: shorter than min_length")
        if len(value) > option.get("max_length", 6000):
            raise SchemaError(f"{where}: longer than max_length")


def _leaf_options(
    where: str,
    schema: list[JSON],
    values: dict[str, Any],
    focused: str | None,
    attachments: Container[str] | None,
    channels: Mapping[str, JSON] | None,
) -> list[JSON]:
    by_name = {o["name"]: o for o in schema}
    unknown = set(values) - set(by_name)
    if unknown:
        raise SchemaError(f"{where}: unknown option(s) {sorted(unknown)}; known: {sorted(by_name)}")
    out: list[JSON] = []
    for option in schema:
        name = option["name"]
        if option["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP):
            raise SchemaError(f"{where}: {name!r} is a subcommand; give its full path")
        if name not in values:
            # While autocompleting, Discord sends what the user has typed so far.
            if option.get("required") and focused is None:
                raise SchemaError(f"{where}: required option {name!r} is missing")
            continue
        value = values[name]
        if name == focused:
            if not option.get("autocomplete"):
                raise SchemaError(f"{where}: option {name!r} has no autocomplete")
            # The focused value is the raw text being typed, always a string.
            out.append({"name": name, "type": option["type"], "value": str(value), "focused": True})
            continue
        _check_value(f"{where} {name}", option, value, attachments, channels)
        out.append({"name": name, "type": option["type"], "value": value})
    if focused is not None and focused not in values:
        raise SchemaError(f"{where}: the focused option {focused!r} needs a value")
    return out


def build_command_data(
    commands: list[JSON],
    path: str,
    options: dict[str, Any],
    *,
    focused: str | None = None,
    attachments: Container[str] | None = None,
    channels: Mapping[str, JSON] | None = None,
) -> JSON:
    """The ``data`` of an INTERACTION_CREATE for ``path`` (e.g. ``"game start"``) and ``options``.

    ``commands`` are the synced commands (with ids). When given, attachment values must be in
    ``attachments`` and channel values in ``channels``. Raises :class:`SchemaError` on a mismatch.
    """
    parts = path.split()
    if not parts:
        raise SchemaError("empty command path")
    top = next((c for c in commands if c["name"] == parts[0] and c.get("type", 1) == 1), None)
    if top is None:
        raise SchemaError(
            f"/{parts[0]} was not synced; synced: {sorted(c['name'] for c in commands)}"
        )
    # Walk down through groups and subcommands, then nest the leaf options back up.
    chain: list[JSON] = [top]
    for part in parts[1:]:
        subs = [
            o
            for o in chain[-1].get("options", [])
            if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) and o["name"] == part
        ]
        if not subs:
            raise SchemaError(f"/{path}: no subcommand {part!r}")
        chain.append(subs[0])
    leaf = chain[-1]
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in leaf.get("options", [])):
        raise SchemaError(f"/{path} has subcommands; give the full path")
    nested = _leaf_options(
        f"/{path}", leaf.get("options", []), options, focused, attachments, channels
    )
    for node in reversed(chain[1:]):
        nested = [{"name": node["name"], "type": node["type"], "options": nested}]
    data: JSON = {"id": top["id"], "name": top["name"], "type": 1, "options": nested}
    if "guild_id" in top:
        data["guild_id"] = top["guild_id"]
    return data
