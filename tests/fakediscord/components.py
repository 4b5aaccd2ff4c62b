"""Checks that a button press or a select choice is one Discord's client could send."""

from __future__ import annotations

from collections.abc import Iterator

from tests.fakediscord.schema import JSON, SchemaError

BUTTON = 2
STRING_SELECT = 3
SELECT_TYPES = {3, 5, 6, 7, 8}  # string, user, role, mentionable, channel
LINK = 5
PREMIUM = 6


def iter_components(components: list[JSON]) -> Iterator[JSON]:
    """Every component, descending into action rows, containers and section accessories."""
    for component in components:
        yield component
        yield from iter_components(component.get("components", []))
        if "accessory" in component:
            yield from iter_components([component["accessory"]])


def find_component(message: JSON, custom_id: str) -> JSON:
    components = list(iter_components(message.get("components", [])))
    for component in components:
        if component.get("custom_id") == custom_id:
            return component
    ids = [c["custom_id"] for c in components if "custom_id" in c]
    raise SchemaError(f"message {message['id']} has no component {custom_id!r}: {ids}")


def check_button(message: JSON, custom_id: str) -> JSON:
    button = find_component(message, custom_id)
    if button["type"] != BUTTON or button.get("style") in (LINK, PREMIUM):
        raise SchemaError(f"{custom_id!r} is not a button that sends an interaction: {button}")
    if button.get("disabled"):
        raise SchemaError(f"button {custom_id!r} is disabled")
    return button


def check_select(message: JSON, custom_id: str, values: list[str]) -> JSON:
    select = find_component(message, custom_id)
    if select["type"] not in SELECT_TYPES:
        raise SchemaError(f"{custom_id!r} is not a select menu: {select}")
    if select.get("disabled"):
        raise SchemaError(f"select {custom_id!r} is disabled")
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not low <= len(values) <= high:
        raise SchemaError(f"select {custom_id!r} takes {low}..{high} values, not {len(values)}")
    if len(set(values)) != len(values):
        raise SchemaError(f"select {custom_id!r}: a value was chosen twice: {values}")
    if select["type"] == STRING_SELECT:
        offered = [o["value"] for o in select.get("options", [])]
        missing = [v for v in values if v not in offered]
        if missing:
            raise SchemaError(f"select {custom_id!r} offers {offered}, not {missing}")
    elif not all(isinstance(v, str) and v.isdigit() for v in values):
        raise SchemaError(f"select {custom_id!r} takes snowflakes, not {values}")
    return select
