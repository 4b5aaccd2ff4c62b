"""What exists on the fake Discord: guilds with their roles and channels, the people (members of
every guild), the messages, the served attachments, the synced commands and the interactions sent
so far. The first guild is the default of every helper; :meth:`World.add_guild` adds more, on a
chosen shard if asked.

Nothing here talks to the network; ``rest.py`` and ``gateway.py`` read and change this state.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from urllib.parse import quote

from tests.fakediscord import payloads as p
from tests.fakediscord.recorder import UploadedFile
from tests.fakediscord.schema import JSON, SchemaError

EPHEMERAL = 64
LOADING = 128
THREAD_TYPES = {10, 11, 12}


@dataclass
class Person:
    """A guild member. ``permissions`` overrides what the roles would give."""

    user: JSON
    roles: list[str]
    permissions: str | None = None


@dataclass
class Upload:
    """A file the fake serves at ``attachment["url"]``."""

    attachment: JSON
    data: bytes


class World:
    def __init__(self, base: str) -> None:
        self.base = base
        # Tells a connected client about a change, as Discord would with a gateway event.
        self.announce: Callable[[str, JSON], None] = lambda event, data: None
        self.app_id = p.snowflake()  # the application and the bot user share an id, as on Discord
        self.bot_user = p.user(self.app_id, "referee-bot", bot=True)
        self.guilds: dict[str, str] = {}  # id -> name, in the order they were made
        self.roles: dict[str, JSON] = {}
        self.role_guild: dict[str, str] = {}  # role id -> the guild it belongs to
        self.channels: dict[str, JSON] = {}
        self.people: dict[str, Person] = {self.app_id: Person(self.bot_user, [])}
        self.guild_id = self.add_guild("Chaos Night")
        # The Referee role grants nothing by itself, so a referee is not a moderator.
        self.referee_role_id = self.add_role("Referee")
        self.owner = self.add_user("owner")
        self.player = self.add_user("player")
        self.referee = self.add_user("referee", roles=[self.referee_role_id])
        self.channel_id = self.add_channel("chaos-table")
        self.channel = self.channels[self.channel_id]

        self.messages: dict[str, JSON] = {}
        self.uploads: dict[str, Upload] = {}
        self.global_commands: list[JSON] = []
        self.guild_commands: dict[str, list[JSON]] = {}
        self.interactions: dict[str, JSON] = {}  # id -> payload, for ids and tokens sent
        self.by_token: dict[str, JSON] = {}
        self.originals: dict[str, str] = {}  # token -> message id of the original response
        self.callbacks: dict[str, JSON] = {}  # interaction id -> the first callback body
        self.waiters: dict[str, asyncio.Future[JSON]] = {}

    # -- guilds, people, roles, channels ---------------------------------------------------------

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None) -> str:
        """A guild the bot is in, with its @everyone role; its id lands on ``shard`` =
        ``(shard_id, num_shards)`` if given. Joined while connected, it arrives as GUILD_CREATE
        on the session that holds its shard."""
        guild_id = p.snowflake_on_shard(*shard) if shard is not None else p.snowflake()
        self.guilds[guild_id] = name
        self.roles[guild_id] = p.role(guild_id, "@everyone", p.EVERYONE_PERMISSIONS, 0)
        self.role_guild[guild_id] = guild_id
        if len(self.guilds) > 1:
            self.announce("GUILD_CREATE", self.guild_payload(guild_id))
        return guild_id

    def remove_guild(self, guild_id: str) -> None:
        """The bot leaves (or is removed from) a guild: GUILD_DELETE, and its channels go."""
        if guild_id not in self.guilds or guild_id == self.guild_id:
            raise SchemaError(f"{guild_id} is not an added guild; known: {sorted(self.guilds)}")
        del self.guilds[guild_id]
        for cid in [c for c, ch in self.channels.items() if ch["guild_id"] == guild_id]:
            del self.channels[cid]
        for rid in [r for r, g in self.role_guild.items() if g == guild_id]:
            del self.roles[rid], self.role_guild[rid]
        self.announce("GUILD_DELETE", {"id": guild_id})

    def guild_of(self, channel_id: str | None) -> str:
        """The guild a channel (default ``channel_id``) belongs to."""
        return str(self.get_channel(channel_id)["guild_id"])

    def add_role(self, name: str, *, permissions: int | str = 0, guild: str | None = None) -> str:
        guild_id = guild or self.guild_id
        role = p.role(p.snowflake(), name, str(int(permissions)), len(self.roles))
        self.roles[role["id"]] = role
        self.role_guild[role["id"]] = guild_id
        self.announce("GUILD_ROLE_CREATE", {"guild_id": guild_id, "role": role})
        return str(role["id"])

    def add_user(
        self, name: str, *, roles: Iterable[str] = (), permissions: int | str | None = None
    ) -> JSON:
        role_ids = list(roles)
        unknown = [r for r in role_ids if r not in self.roles]
        if unknown:
            raise SchemaError(f"unknown role id(s) {unknown}; known: {sorted(self.roles)}")
        user = p.user(p.snowflake(), name)
        explicit = None if permissions is None else str(int(permissions))
        self.people[user["id"]] = Person(user, role_ids, explicit)
        for guild_id in self.guilds:  # everyone is a member of every guild
            roles = [r for r in role_ids if self.role_guild[r] == guild_id]
            self.announce("GUILD_MEMBER_ADD", {**p.member(user, roles=roles), "guild_id": guild_id})
        return user

    def add_channel(self, name: str, *, guild: str | None = None) -> str:
        guild_id = guild or self.guild_id
        if guild_id not in self.guilds:
            raise SchemaError(f"unknown guild {guild_id}; known: {sorted(self.guilds)}")
        position = sum(
            1
            for c in self.channels.values()
            if c["type"] not in THREAD_TYPES and c["guild_id"] == guild_id
        )
        channel = p.text_channel(p.snowflake(), guild_id, name, position)
        self.channels[channel["id"]] = channel
        self.announce("CHANNEL_CREATE", channel)
        return str(channel["id"])

    def add_thread(self, name: str, *, parent: str | None = None) -> str:
        parent_id = parent or self.channel_id
        if self.channels.get(parent_id, {}).get("type") != 0:
            raise SchemaError(f"threads need a text channel as parent, not {parent_id}")
        guild_id = self.channels[parent_id]["guild_id"]
        thread = p.thread(p.snowflake(), guild_id, parent_id, self.app_id, name)
        self.channels[thread["id"]] = thread
        self.announce("THREAD_CREATE", {**thread, "newly_created": True})
        return str(thread["id"])

    def get_channel(self, channel_id: str | None) -> JSON:
        channel = self.channels.get(channel_id or self.channel_id)
        if channel is None:
            raise SchemaError(f"unknown channel {channel_id}; known: {sorted(self.channels)}")
        return channel

    def permissions_of(self, user_id: str, guild: str | None = None) -> str:
        """The member's permissions in a guild (default the first) as Discord computes them (no
        channel overwrites here)."""
        guild_id = guild or self.guild_id
        person = self.people.get(user_id)
        if person is not None and person.permissions is not None:
            return person.permissions
        if user_id == self.owner["id"]:
            return p.ALL_PERMISSIONS
        bits = int(self.roles[guild_id]["permissions"])
        for role_id in self._roles_in(person.roles if person else [], guild_id):
            bits |= int(self.roles[role_id]["permissions"])
        return p.ALL_PERMISSIONS if bits & p.ADMINISTRATOR else str(bits)

    def member(self, user: JSON | None = None, guild: str | None = None) -> JSON:
        """The member object of an interaction by ``user`` (default the player) in a guild."""
        user = user or self.player
        guild_id = guild or self.guild_id
        person = self.people.get(user["id"])
        roles = self._roles_in(person.roles if person else [], guild_id)
        return p.member(user, roles=roles, permissions=self.permissions_of(user["id"], guild_id))

    def guild_payload(self, guild: str | None = None) -> JSON:
        guild_id = guild or self.guild_id
        members = [
            p.member(x.user, roles=self._roles_in(x.roles, guild_id)) for x in self.people.values()
        ]
        own = [c for c in self.channels.values() if c["guild_id"] == guild_id]
        return p.guild(
            guild_id,
            self.guilds[guild_id],
            self.owner["id"],
            roles=[r for rid, r in self.roles.items() if self.role_guild[rid] == guild_id],
            channels=[c for c in own if c["type"] not in THREAD_TYPES],
            threads=[c for c in own if c["type"] in THREAD_TYPES],
            members=members,
        )

    def synced_commands(self, guild: str | None = None) -> list[JSON]:
        """The commands an interaction in a guild (default the first) can use: guild ones
        first."""
        return self.guild_commands.get(guild or self.guild_id, []) + self.global_commands

    def _roles_in(self, role_ids: Iterable[str], guild_id: str) -> list[str]:
        return [r for r in role_ids if self.role_guild.get(r) == guild_id]

    # -- resolved data ----------------------------------------------------------------------------

    def resolved(self, options: list[JSON], user: JSON, guild: str | None = None) -> JSON:
        """``data.resolved`` for the snowflake options (users, roles, channels, attachments)."""
        out: dict[str, dict[str, JSON]] = {}
        for option in _leaves(options):
            kind, value = option["type"], option.get("value")
            if option.get("focused") or not isinstance(value, str):
                continue
            if kind in (6, 9) and value in self.people:
                person = self.people[value]
                out.setdefault("users", {})[value] = person.user
                member = p.member(person.user, roles=list(person.roles))
                del member["user"]  # resolved members come without their user
                member["permissions"] = self.permissions_of(value, guild)
                out.setdefault("members", {})[value] = member
            elif kind in (8, 9) and value in self.roles:
                out.setdefault("roles", {})[value] = self.roles[value]
            elif kind == 7 and value in self.channels:
                perms = self.permissions_of(user["id"], guild)
                channel = {**self.channels[value], "permissions": perms}
                out.setdefault("channels", {})[value] = channel
            elif kind == 11 and value in self.uploads:
                out.setdefault("attachments", {})[value] = self.uploads[value].attachment
        return out

    # -- attachments and messages -----------------------------------------------------------------

    def upload(
        self, channel_id: str, filename: str, data: bytes, content_type: str | None = None
    ) -> JSON:
        """Serve ``data`` from the fake and return its attachment object."""
        attachment_id = p.snowflake()
        url = f"{self.base}/attachments/{channel_id}/{attachment_id}/{quote(filename)}"
        attachment = p.attachment(attachment_id, filename, len(data), url, content_type)
        self.uploads[attachment_id] = Upload(attachment, data)
        return attachment

    def store_message(
        self,
        channel_id: str,
        body: JSON,
        *,
        files: list[UploadedFile] | None = None,
        flags: int = 0,
        author: JSON | None = None,
        interaction: JSON | None = None,
    ) -> JSON:
        msg = p.message(
            p.snowflake(),
            channel_id,
            author or self.bot_user,
            body,
            guild_id=self.channels[channel_id]["guild_id"],
            flags=flags,
        )
        self._attach(msg, body, files or [])
        if interaction is not None:
            msg["interaction_metadata"] = {
                "id": interaction["id"],
                "type": interaction["type"],
                "user": interaction["member"]["user"],
                "authorizing_integration_owners": interaction["authorizing_integration_owners"],
            }
        self.messages[msg["id"]] = msg
        return msg

    def edit_message(self, msg: JSON, body: JSON, files: list[UploadedFile] | None = None) -> JSON:
        # An explicit null clears content, embeds and components, as on Discord.
        for key, empty in (("content", ""), ("embeds", []), ("components", [])):
            if key in body:
                msg[key] = body[key] if body[key] is not None else empty
        if body.get("flags") is not None:
            msg["flags"] = body["flags"] | (msg["flags"] & EPHEMERAL)  # ephemeral stays ephemeral
        msg["flags"] &= ~LOADING
        self._attach(msg, body, files or [])
        msg["edited_timestamp"] = p.now_iso()
        return msg

    def _attach(self, msg: JSON, body: JSON, files: list[UploadedFile]) -> None:
        """Apply the body's ``attachments`` list: keep listed old ones, add uploaded files.

        discord.py lists every kept attachment by its id and every new file by the index ``N`` of
        its ``files[N]`` form field.
        """
        listed = body.get("attachments")
        if listed is None and not files:
            return
        by_field = {f.field: f for f in files}
        old = {a["id"]: a for a in msg["attachments"]}
        kept: list[JSON] = []
        for spec in listed if listed is not None else [{"id": i} for i in range(len(files))]:
            sid = str(spec.get("id"))
            if sid in old:
                kept.append(old[sid])
            elif f"files[{sid}]" in by_field:
                upload = by_field.pop(f"files[{sid}]")
                name = str(spec.get("filename") or upload.filename)
                kept.append(self.upload(msg["channel_id"], name, upload.data, upload.content_type))
        for upload in by_field.values():  # files the list did not mention are still attached
            kept.append(
                self.upload(msg["channel_id"], upload.filename, upload.data, upload.content_type)
            )
        msg["attachments"] = kept

    def delete_message(self, message_id: str) -> JSON:
        msg = self.messages.pop(message_id, None)
        if msg is None:
            raise SchemaError(f"no message {message_id} to delete")
        if not msg["flags"] & EPHEMERAL:  # nobody else saw an ephemeral message
            event = {"id": message_id, "channel_id": msg["channel_id"], "guild_id": msg["guild_id"]}
            self.announce("MESSAGE_DELETE", event)
        return msg


def _leaves(options: list[JSON]) -> Iterator[JSON]:
    for option in options:
        if option["type"] in (1, 2):
            yield from _leaves(option.get("options", []))
        else:
            yield option
