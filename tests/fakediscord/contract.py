"""Discord's own contract: every request the bot makes is checked against Discord's OpenAPI
description (``openapi/``, vendored from discord/discord-api-spec) and its documented limits.

The path and method find the operation; a JSON body, or a multipart body's ``payload_json``, is
checked against the operation's request schema (``validator.py``) and then against the limits the
description cannot express (``limits.py``). A request that breaks either gets what Discord
answers: 400 with code 50035, "Invalid Form Body", and the ``errors`` object naming each field.
A request for an operation Discord does not have is a breach too.

The description is loaded, its operations indexed and their request schemas compiled once per
process, when the first fake Discord is made.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path as FilePath
from typing import Any

from tests.fakediscord.limits import choice_problems, command_problems, message_problems
from tests.fakediscord.validator import Problem, Validator

SPEC = FilePath(__file__).parent / "openapi" / "openapi.json"
INVALID_FORM_BODY = 50035
UNKNOWN_OPERATION = "UNKNOWN_OPERATION"  # our code: Discord answers such a request with a 404
# discord.py 2.7 still asks for the application through the OAuth2 path, which Discord serves
# but no longer describes (the description has GET /applications/@me).
UNDESCRIBED = {("GET", "/oauth2/applications/@me")}
MESSAGE_OPERATIONS = {
    "create_message",
    "update_message",
    "execute_webhook",
    "update_webhook_message",
    "update_original_webhook_message",
}
COMMAND_OPERATIONS = {"bulk_set_application_commands", "bulk_set_guild_application_commands"}
AUTOCOMPLETE_RESULT = 8
MESSAGE_CALLBACKS = {4, 7}  # a new message, or the clicked message updated


@dataclass(frozen=True)
class Operation:
    name: str
    schema: dict[str, Any] | None  # the JSON request body's schema, if it takes a body
    body_required: bool


def _spec() -> dict[str, Any]:
    spec: dict[str, Any] = json.loads(SPEC.read_text(encoding="utf-8"))
    # Known difference: the description types every snowflake as a string of digits, but
    # Discord reads a snowflake given as a JSON number too, and discord.py sends numbers in
    # places: the users and roles of ``allowed_mentions``, and an attachment's id in a message
    # body (the index of the file, ``{"id": 0, "filename": ...}``, as Discord's docs show it).
    # Take both, wherever a snowflake goes.
    schemas = spec["components"]["schemas"]
    schemas["SnowflakeType"] = {
        "anyOf": [
            copy.deepcopy(schemas["SnowflakeType"]),
            {"type": "integer", "minimum": 0, "format": "int64"},
        ]
    }
    return spec


class Contract:
    """The operations of one API description, and the check of a request against them."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.validator = Validator(spec)
        # (pattern, literal segments, {METHOD: operation}); a literal segment beats a parameter
        # (``messages/@original`` before ``messages/{message_id}``).
        routes: list[tuple[re.Pattern[str], int, dict[str, Operation]]] = []
        for template, item in spec["paths"].items():
            methods = {}
            for method, op in item.items():
                if method in ("get", "put", "post", "patch", "delete"):
                    methods[method.upper()] = _operation(op)
            pattern = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$")
            literal = sum(1 for part in template.split("/") if part and "{" not in part)
            routes.append((pattern, literal, methods))
        routes.sort(key=lambda route: -route[1])
        self._routes = routes
        # Compiled now, not at a request: on the event loop the bot shares, the first request
        # of each kind would otherwise pay for it (the loop watchdog counts every millisecond).
        for _, _, methods in routes:
            for op in methods.values():
                if op.schema is not None:
                    self.validator.compile(op.schema)

    def operation(self, method: str, path: str) -> Operation | None:
        for pattern, _, methods in self._routes:
            if pattern.match(path):
                found = methods.get(method)
                if found is not None:
                    return found
        return None

    def problems(self, method: str, path: str, body: Any) -> list[Problem]:
        """What Discord would refuse in this request (``path`` relative to ``/api/v10``)."""
        if (method, path) in UNDESCRIBED:
            return []
        op = self.operation(method, path)
        if op is None:
            return [((), UNKNOWN_OPERATION, f"Discord's API has no {method} {path}")]
        if op.schema is None:
            return []
        if body is None:
            if op.body_required:
                return [((), "BASE_TYPE_REQUIRED", "This field is required")]
            return []
        problems = self.validator.check(op.schema, body)
        problems += _limits(op.name, body)
        return _unique(problems)


def _operation(op: dict[str, Any]) -> Operation:
    body = op.get("requestBody") or {}
    schema = (body.get("content") or {}).get("application/json", {}).get("schema")
    return Operation(op.get("operationId", ""), schema, bool(body.get("required")))


def _limits(name: str, body: Any) -> list[Problem]:
    if name in MESSAGE_OPERATIONS and isinstance(body, dict):
        return message_problems(body)
    if name in COMMAND_OPERATIONS and isinstance(body, list):
        return command_problems(body)
    if name == "create_interaction_response" and isinstance(body, dict):
        data = body.get("data")
        if isinstance(data, dict) and body.get("type") == AUTOCOMPLETE_RESULT:
            return choice_problems(data, ("data",))
        if isinstance(data, dict) and body.get("type") in MESSAGE_CALLBACKS:
            return message_problems(data, ("data",))
    return []


def _unique(problems: list[Problem]) -> list[Problem]:
    seen: set[tuple[Any, str]] = set()
    out: list[Problem] = []
    for where, code, message in problems:
        if (where, code) not in seen:
            seen.add((where, code))
            out.append((where, code, message))
    return out


@functools.cache
def discord_contract() -> Contract:
    """The contract of the vendored description, built once per process."""
    return Contract(_spec())


def errors_object(problems: list[Problem]) -> dict[str, Any]:
    """Discord's ``errors``: the problems nested by path, each leaf an ``_errors`` list."""
    root: dict[str, Any] = {}
    for where, code, message in problems:
        node = root
        for part in where:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return root


def invalid_form_body(problems: list[Problem]) -> dict[str, Any]:
    """The body of Discord's 400 for these problems."""
    return {
        "code": INVALID_FORM_BODY,
        "errors": errors_object(problems),
        "message": "Invalid Form Body",
    }
