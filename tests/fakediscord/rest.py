"""The fake's HTTP routes: REST under ``/api/v10`` and the attachment "CDN" under ``/attachments``.

Every handler reads the request body from ``request[CALL]`` (the recorder parsed it already). A
body that breaks Discord's contract never gets here: the recorder answered it (``contract.py``).
"""

from __future__ import annotations

from aiohttp import web

from tests.fakediscord import payloads as p
from tests.fakediscord.gateway import Gateway
from tests.fakediscord.recorder import (
    API,
    CALL,
    Recorder,
    UploadedFile,
    error,
    json_response,
)
from tests.fakediscord.schema import JSON
from tests.fakediscord.world import EPHEMERAL, LOADING, World


class Rest:
    def __init__(self, world: World, recorder: Recorder, gateway: Gateway) -> None:
        self.world = world
        self.recorder = recorder
        self.gateway = gateway

    def add_routes(self, app: web.Application) -> None:
        r = app.router
        r.add_get("/gateway", self.gateway.handle)
        r.add_get("/attachments/{cid}/{aid}/{filename}", self._attachment)
        r.add_get(API + "/gateway", self._get_gateway)
        r.add_get(API + "/gateway/bot", self._get_gateway_bot)
        r.add_get(API + "/users/@me", self._get_me)
        r.add_get(API + "/oauth2/applications/@me", self._get_application)
        r.add_put(API + "/applications/{app}/commands", self._put_commands)
        r.add_get(API + "/applications/{app}/commands", self._get_commands)
        r.add_put(API + "/applications/{app}/guilds/{guild}/commands", self._put_commands)
        r.add_get(API + "/applications/{app}/guilds/{guild}/commands", self._get_commands)
        r.add_post(API + "/interactions/{iid}/{token}/callback", self._callback)
        r.add_post(API + "/webhooks/{app}/{token}", self._followup)
        original = API + "/webhooks/{app}/{token}/messages/{mid}"
        r.add_get(original, self._webhook_message)
        r.add_patch(original, self._webhook_message)
        r.add_delete(original, self._webhook_message)
        r.add_post(API + "/channels/{cid}/messages", self._create_message)
        message = API + "/channels/{cid}/messages/{mid}"
        r.add_get(message, self._channel_message)
        r.add_patch(message, self._channel_message)
        r.add_delete(message, self._channel_message)
        r.add_route("*", "/{tail:.*}", self._unknown_route)  # last: everything else

    async def _unknown_route(self, request: web.Request) -> web.Response:
        self.recorder.unknown.append(request[CALL])
        return error(404, 0, f"fake discord does not know {request.method} {request.path}")

    async def _attachment(self, request: web.Request) -> web.Response:
        upload = self.world.uploads.get(request.match_info["aid"])
        if upload is None or upload.attachment["filename"] != request.match_info["filename"]:
            return web.Response(status=404, text="Not Found")
        content_type = upload.attachment.get("content_type", "application/octet-stream")
        return web.Response(body=upload.data, content_type=content_type)

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway.url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": self.gateway.url,
                "shards": self.gateway.limits.shards,
                "session_start_limit": self.gateway.session_start_limit(),
            }
        )

    async def _get_me(self, request: web.Request) -> web.Response:
        return json_response(self.world.bot_user)

    async def _get_application(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "id": self.world.app_id,
                "name": "Chaos Referee (fake)",
                "description": "",
                "icon": None,
                "bot_public": False,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "owner": self.world.owner,
                "flags": 0,
                "bot": self.world.bot_user,
            }
        )

    # -- commands ---------------------------------------------------------------------------------

    async def _put_commands(self, request: web.Request) -> web.Response:
        guild = request.match_info.get("guild")
        synced: list[JSON] = []
        for command in request[CALL].json or []:
            stored = {
                **command,
                "id": p.snowflake(),
                "application_id": self.world.app_id,
                "version": p.snowflake(),
                "type": command.get("type", 1),
            }
            if guild is not None:
                stored["guild_id"] = guild
            synced.append(stored)
        if guild is None:
            self.world.global_commands = synced
        else:
            self.world.guild_commands[guild] = synced
        return json_response(synced)

    async def _get_commands(self, request: web.Request) -> web.Response:
        guild = request.match_info.get("guild")
        w = self.world
        return json_response(
            w.global_commands if guild is None else w.guild_commands.get(guild, [])
        )

    # -- interactions -----------------------------------------------------------------------------

    async def _callback(self, request: web.Request) -> web.Response:
        w = self.world
        iid = request.match_info["iid"]
        payload = w.interactions.get(iid)
        if payload is None or payload["token"] != request.match_info["token"]:
            return error(404, 10062, "Unknown interaction")
        if iid in w.callbacks:
            return error(400, 40060, "Interaction has already been acknowledged.")
        call = request[CALL]
        too_large = _too_large(call.files)
        if too_large is not None:
            return too_large
        body: JSON = call.json
        kind = body["type"]
        data = body.get("data") or {}
        w.callbacks[iid] = body
        message: JSON | None = None
        if kind in (4, 5):  # a message, or "thinking…" that an edit of @original completes
            message = w.store_message(
                payload["channel_id"],
                data,
                files=call.files,
                flags=LOADING if kind == 5 else 0,
                interaction=payload,
            )
            w.originals[payload["token"]] = message["id"]
        elif kind in (6, 7) and "message" in payload:  # (deferred) update of the clicked message
            message = w.messages.get(payload["message"]["id"]) or payload["message"]
            assert message is not None
            if kind == 7:
                w.edit_message(message, data, call.files)
            w.originals[payload["token"]] = message["id"]
        result: JSON = {
            "interaction": {
                "id": iid,
                "type": payload["type"],
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool((data.get("flags") or 0) & EPHEMERAL),
            },
            "resource": {"type": kind},
        }
        if message is not None:
            result["interaction"]["response_message_id"] = message["id"]
            result["resource"]["message"] = message
        waiter = w.waiters.get(iid)
        if waiter is not None and not waiter.done():
            waiter.set_result(body)
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return web.Response(status=204)  # Discord's answer unless asked for the message
        return json_response(result)

    async def _followup(self, request: web.Request) -> web.Response:
        w = self.world
        payload = w.by_token.get(request.match_info["token"])
        if payload is None or request.match_info["app"] != w.app_id:
            return error(404, 10015, "Unknown Webhook")
        if payload["id"] not in w.callbacks:
            return error(404, 10015, "Unknown Webhook")  # no followup before the first answer
        call = request[CALL]
        too_large = _too_large(call.files)
        if too_large is not None:
            return too_large
        # After a deferred answer ("thinking…"), Discord's first followup completes that
        # message instead of posting a new one, and it keeps the defer's visibility: an
        # ephemeral flag on the followup can't make a public "thinking…" private.
        pending = w.messages.get(w.originals.get(payload["token"], ""))
        if pending is not None and pending["flags"] & LOADING:
            body = {k: v for k, v in (call.json or {}).items() if k != "flags"}
            return json_response(w.edit_message(pending, body, call.files))
        msg = w.store_message(
            payload["channel_id"], call.json or {}, files=call.files, interaction=payload
        )
        return json_response(msg)

    async def _webhook_message(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        mid = request.match_info["mid"]
        if mid == "@original":
            mid = self.world.originals.get(token, "")
        msg = self.world.messages.get(mid)
        if msg is None or token not in self.world.by_token:
            return error(404, 10008, "Unknown Message")
        return self._message_verb(request, msg)

    # -- channel messages -------------------------------------------------------------------------

    async def _create_message(self, request: web.Request) -> web.Response:
        cid = request.match_info["cid"]
        if cid not in self.world.channels:
            return error(404, 10003, "Unknown Channel")
        call = request[CALL]
        too_large = _too_large(call.files)
        if too_large is not None:
            return too_large
        return json_response(self.world.store_message(cid, call.json or {}, files=call.files))

    async def _channel_message(self, request: web.Request) -> web.Response:
        if request.match_info["cid"] not in self.world.channels:
            return error(404, 10003, "Unknown Channel")
        msg = self.world.messages.get(request.match_info["mid"])
        # Ephemeral messages are only reachable through the interaction's webhook.
        if (
            msg is None
            or msg["channel_id"] != request.match_info["cid"]
            or msg["flags"] & EPHEMERAL
        ):
            return error(404, 10008, "Unknown Message")
        return self._message_verb(request, msg)

    def _message_verb(self, request: web.Request, msg: JSON) -> web.Response:
        if request.method == "DELETE":
            del self.world.messages[msg["id"]]
            return web.Response(status=204)
        if request.method == "PATCH":
            call = request[CALL]
            too_large = _too_large(call.files)
            if too_large is not None:
                return too_large
            self.world.edit_message(msg, call.json or {}, call.files)
        return json_response(msg)


def _too_large(files: list[UploadedFile]) -> web.Response | None:
    if sum(f.size for f in files) > p.ATTACHMENT_SIZE_LIMIT:
        return error(413, 40005, "Request entity too large")
    return None
