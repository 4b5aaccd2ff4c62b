"""Discord's contract on the fake: bodies checked against the vendored OpenAPI description and the
documented limits it leaves out; an invalid one gets Discord's 400 code 50035 and fails the test.
"""

from __future__ import annotations

import copy
from typing import Any

import discord
import pytest
from aiohttp import web
from discord.http import Route

from tests.fakediscord.contract import discord_contract, errors_object, invalid_form_body
from tests.fakediscord.plugin import aio, assert_contract_kept, running
from tests.fakediscord.recorder import API
from tests.fakediscord.rest import Rest
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.test_fake_features import FeatureBot

CHANNEL = "/channels/1300000000000000001/messages"
CALLBACK = "/interactions/1300000000000000002/token/callback"
COMMANDS = "/applications/1300000000000000003/guilds/1300000000000000004/commands"
WEBHOOK = "/webhooks/1300000000000000003/token"
ORIGINAL = WEBHOOK + "/messages/@original"


def button(custom_id: str = "b:1", label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


def select(options: int = 3, custom_id: str = "s:1") -> dict[str, Any]:
    return {
        "type": 3,
        "custom_id": custom_id,
        "options": [{"label": f"o{n}", "value": f"v{n}"} for n in range(options)],
    }


def row(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(parts)}


MESSAGE: dict[str, Any] = {
    "content": "Turn 3 — Carol",
    "embeds": [
        {
            "title": "Carnival Ride",
            "description": "d",
            "color": 0x5865F2,
            "fields": [{"name": "Seats", "value": "Ann 20", "inline": False}],
            "footer": {"text": "seed 7"},
        }
    ],
    "components": [row(button(), button("b:2")), row(select())],
    "allowed_mentions": {"parse": [], "users": [], "roles": [], "replied_user": False},
    "attachments": [{"id": 0, "filename": "log.txt"}],  # discord.py's number, see contract.py
    "flags": 64,
}

SLASH: dict[str, Any] = {
    "name": "game",
    "description": "Start or end a game.",
    "type": 1,
    "options": [
        {
            "type": 1,
            "name": "start",
            "description": "Start a game.",
            "options": [
                {"type": 3, "name": "ruleset", "description": "Which rules.", "required": True},
                {"type": 4, "name": "seed", "description": "Dice seed.", "min_value": 0},
            ],
        }
    ],
}


def test_the_operations_the_fake_serves_are_discords() -> None:
    """Every API route the fake answers is one Discord describes (bar one it still serves)."""
    app = web.Application()
    fake = FakeDiscord()
    Rest(fake, fake.recorder, fake.gateway).add_routes(app)
    contract = discord_contract()
    served = 0
    for route in app.router.routes():
        path = route.resource.canonical if route.resource is not None else ""
        if not path.startswith(API) or route.method in ("HEAD", "*"):
            continue
        served += 1
        concrete = path.removeprefix(API).replace("{mid}", "1300000000000000009")
        for name in ("app", "guild", "iid", "cid", "token"):
            concrete = concrete.replace("{" + name + "}", "1300000000000000001")
        assert not [
            p
            for p in contract.problems(route.method, concrete, None)
            if p[1] != "BASE_TYPE_REQUIRED"
        ], f"{route.method} {path}"
    assert served >= 15


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", CHANNEL, MESSAGE),
        ("PATCH", CHANNEL + "/1300000000000000005", MESSAGE),
        ("POST", WEBHOOK, MESSAGE),
        ("PATCH", ORIGINAL, MESSAGE),
        ("POST", CALLBACK, {"type": 4, "data": MESSAGE}),
        ("POST", CALLBACK, {"type": 7, "data": MESSAGE}),
        ("POST", CALLBACK, {"type": 5, "data": {"flags": 64}}),
        ("POST", CALLBACK, {"type": 6}),
        ("POST", CALLBACK, {"type": 8, "data": {"choices": [{"name": "Ann", "value": "ann"}]}}),
        ("PUT", COMMANDS, [SLASH]),
        ("POST", CHANNEL, {**MESSAGE, "attachments": [{"id": "1300000000000000007"}]}),
        ("GET", "/users/@me", None),
    ],
)
def test_what_discord_takes_passes(method: str, path: str, body: Any) -> None:
    assert discord_contract().problems(method, path, body) == []


def changed(body: Any, change: Any) -> Any:
    body = copy.deepcopy(body)
    change(body)
    return body


# (name, method, path, body, where Discord's errors object names the problem, its code)
REFUSED: list[tuple[str, str, str, Any, str, str]] = [
    (
        "a button without its style",
        "POST",
        CHANNEL,
        {"components": [row({"type": 2, "custom_id": "x"})]},
        "components.0.components.0.style",
        "BASE_TYPE_REQUIRED",
    ),
    (
        "a custom_id of 101 characters",
        "POST",
        CHANNEL,
        {"components": [row(button("x" * 101))]},
        "components.0.components.0.custom_id",
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "six buttons in a row",
        "POST",
        CHANNEL,
        {"components": [row(*(button(f"b{n}") for n in range(6)))]},
        "components.0.components",
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "six action rows",
        "POST",
        CHANNEL,
        {"components": [row(button(f"b{n}")) for n in range(6)]},
        "components",
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "26 select options",
        "POST",
        WEBHOOK,
        {"components": [row(select(26))]},
        "components.0.components.0.options",
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "a select option description of 101",
        "PATCH",
        ORIGINAL,
        changed(
            {"components": [row(select())]},
            lambda b: b["components"][0]["components"][0]["options"][0].update(
                description="d" * 101
            ),
        ),
        "components.0.components.0.options.0.description",
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "a button beside a select",
        "POST",
        CHANNEL,
        {"components": [row(select(), button())]},
        "components.0.components",
        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
    ),
    (
        "the same custom_id twice",
        "POST",
        CHANNEL,
        {"components": [row(button("same")), row(button("same"))]},
        "components.1.components.0.custom_id",
        "COMPONENT_CUSTOM_ID_DUPLICATED",
    ),
    (
        "a link button with a custom_id",
        "POST",
        CHANNEL,
        {"components": [row({"type": 2, "style": 5, "url": "https://x.org", "custom_id": "x"})]},
        "components.0.components.0",
        "BUTTON_COMPONENT_INVALID_LINK",
    ),
    (
        "a label of 81 characters",
        "POST",
        CHANNEL,
        {"components": [row(button(label="l" * 81))]},
        "components.0.components.0.label",
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "an embed title of 257",
        "POST",
        CALLBACK,
        {"type": 4, "data": {"embeds": [{"title": "t" * 257}]}},
        "data.embeds.0.title",
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "26 embed fields",
        "POST",
        CHANNEL,
        {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]},
        "embeds.0.fields",
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "a field without a value",
        "POST",
        CHANNEL,
        {"embeds": [{"fields": [{"name": "n"}]}]},
        "embeds.0.fields.0.value",
        "BASE_TYPE_REQUIRED",
    ),
    (
        "6,001 characters of embeds",
        "POST",
        CALLBACK,
        {"type": 7, "data": {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}},
        "data.embeds",
        "MAX_EMBED_SIZE_EXCEEDED",
    ),
    (
        "a colour past 0xFFFFFF",
        "POST",
        CHANNEL,
        {"embeds": [{"color": 0x1000000}]},
        "embeds.0.color",
        "NUMBER_TYPE_MAX",
    ),
    (
        "2,001 characters of content",
        "POST",
        CHANNEL,
        {"content": "c" * 2001},
        "content",
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "an unknown mention type",
        "POST",
        CHANNEL,
        {"content": "hi", "allowed_mentions": {"parse": ["all"]}},
        "allowed_mentions.parse.0",
        "UNION_TYPE_CHOICES",
    ),
    (
        "an attachment id that is neither",
        "POST",
        CHANNEL,
        {"attachments": [{"id": "first"}]},
        "attachments.0.id",
        "STRING_TYPE_REGEX",
    ),
    (
        "a callback type Discord lacks",
        "POST",
        CALLBACK,
        {"type": 3},
        "type",
        "UNION_TYPE_CHOICES",
    ),
    (
        "content that is not a string",
        "POST",
        CALLBACK,
        {"type": 4, "data": {"content": 7}},
        "data.content",
        "BASE_TYPE_STRING",
    ),
    (
        "26 autocomplete choices",
        "POST",
        CALLBACK,
        {"type": 8, "data": {"choices": [{"name": "n", "value": "v"}] * 26}},
        "data.choices",
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "an autocomplete value of 101",
        "POST",
        CALLBACK,
        {"type": 8, "data": {"choices": [{"name": "n", "value": "v" * 101}]}},
        "data.choices.0.value",
        "BASE_TYPE_MAX_LENGTH",
    ),
    (
        "a capital in a command name",
        "PUT",
        COMMANDS,
        [{**SLASH, "name": "Game"}],
        "0.name",
        "APPLICATION_COMMAND_INVALID_NAME",
    ),
    (
        "a space in an option name",
        "PUT",
        COMMANDS,
        [changed(SLASH, lambda c: c["options"][0]["options"][0].update(name="rule set"))],
        "0.options.0.options.0.name",
        "APPLICATION_COMMAND_INVALID_NAME",
    ),
    (
        "a command name of 33",
        "PUT",
        COMMANDS,
        [{**SLASH, "name": "g" * 33}],
        "0.name",
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "an empty description",
        "PUT",
        COMMANDS,
        [{**SLASH, "description": ""}],
        "0.description",
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "a description of 101",
        "PUT",
        COMMANDS,
        [changed(SLASH, lambda c: c["options"][0].update(description="d" * 101))],
        "0.options.0.description",
        "BASE_TYPE_BAD_LENGTH",
    ),
    (
        "a required option after an optional one",
        "PUT",
        COMMANDS,
        [changed(SLASH, lambda c: c["options"][0]["options"].reverse())],
        "0.options.0.options.1",
        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
    ),
    (
        "two commands of one name",
        "PUT",
        COMMANDS,
        [SLASH, SLASH],
        "1.name",
        "APPLICATION_COMMANDS_DUPLICATE_NAME",
    ),
    (
        "a command past 8,000 characters",
        "PUT",
        COMMANDS,
        [
            {
                **SLASH,
                "options": [
                    {
                        "type": 3,
                        "name": f"o{n}",
                        "description": "d" * 100,
                        "choices": [{"name": f"c{c}", "value": "v" * 100} for c in range(25)],
                    }
                    for n in range(4)
                ],
            }
        ],
        "0",
        "APPLICATION_COMMAND_TOO_LARGE",
    ),
]


@pytest.mark.parametrize(
    ("method", "path", "body", "where", "code"),
    [case[1:] for case in REFUSED],
    ids=[case[0] for case in REFUSED],
)
def test_what_discord_refuses_is_named_where_discord_names_it(
    method: str, path: str, body: Any, where: str, code: str
) -> None:
    problems = discord_contract().problems(method, path, body)
    named = {(".".join(str(p) for p in at), c) for at, c, _ in problems}
    assert (where, code) in named, problems


def test_an_operation_discord_lacks_is_a_breach() -> None:
    [(where, code, message)] = discord_contract().problems("POST", "/channels/1/dance", {})
    assert (where, code) == ((), "UNKNOWN_OPERATION")
    assert "POST /channels/1/dance" in message


def test_the_errors_object_nests_as_discords() -> None:
    problems = discord_contract().problems("POST", CHANNEL, {"embeds": [{"title": "t" * 257}]})
    assert invalid_form_body(problems) == {
        "code": 50035,
        "errors": {
            "embeds": {
                "0": {
                    "title": {
                        "_errors": [
                            {
                                "code": "BASE_TYPE_MAX_LENGTH",
                                "message": "Must be 256 or fewer in length.",
                            }
                        ]
                    }
                }
            }
        },
        "message": "Invalid Form Body",
    }
    assert errors_object([]) == {}


@aio
async def test_an_invalid_request_gets_50035_and_fails_the_fixture(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    async with fake, running(FeatureBot(fake), fake) as bot:
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=fake.channel_id)
        body = {"content": "hi", "components": [row(button("x" * 101))]}
        with pytest.raises(discord.HTTPException) as refused:
            await bot.http.request(route, json=body)
        assert (refused.value.status, refused.value.code) == (400, 50035)
        assert "In components.0.components.0.custom_id: Must be between 1 and 100" in (
            refused.value.text
        )
        assert fake.channel_messages() == []
        with pytest.raises(AssertionError, match=r"POST /channels/\d+/messages: components"):
            assert_contract_kept(fake)
        [breach] = fake.take_breaches()  # so this test's own teardown passes
        assert breach.call.json == body
        # And the same message with a custom_id that fits goes through.
        body["components"] = [row(button("x" * 100))]
        await bot.http.request(route, json=body)
        assert [m["content"] for m in fake.channel_messages()] == ["hi"]
