"""A small Discord look-alike (REST + gateway) on 127.0.0.1 for end-to-end tests.

The real discord.py client logs in, syncs its commands, opens the gateway and
answers interactions here exactly as it would against Discord. Everything the bot
sends is recorded (see `FakeMessage`, `FakeInteraction`) for tests to inspect,
and Discord's limits are enforced so mistakes fail here rather than in production.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import mimetypes
import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from aiohttp import BodyPartReader, WSMsgType, web

from . import limits
from .faults import Faults, drop_connection
from .harness import HarnessError, HarnessMixin
from .models import (
    APPLICATION_COMMAND,
    ARCHIVE_DURATIONS,
    AUTOCOMPLETE,
    BOT_PERMISSIONS,
    COMPONENTS_V2,
    DM_CHANNEL,
    EPHEMERAL,
    JSON,
    LOADING,
    MANAGE_THREADS,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    PUBLIC_THREAD,
    SUPPRESS_EMBEDS,
    TEXT_CHANNEL,
    THREAD_TYPES,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeUser,
    SnowflakeFactory,
    iso_now,
)

log = logging.getLogger("tests.fakediscord")

ATTACHMENT_LIMIT = 10 * 1024 * 1024
HEARTBEAT_INTERVAL_MS = 41_250
PRIVILEGED_INTENTS = {1 << 1: "GUILD_MEMBERS", 1 << 8: "GUILD_PRESENCES", 1 << 15: "MESSAGE_CONTENT"}
GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12
MESSAGE_CONTENT_INTENT = 1 << 15
CREATE_FLAGS = EPHEMERAL | SUPPRESS_EMBEDS | (1 << 12) | COMPONENTS_V2
VALID_CALLBACKS = {
    APPLICATION_COMMAND: {4, 5, 9},
    MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
    AUTOCOMPLETE: {8},
    MODAL_SUBMIT: {4, 5, 6, 7},
}
FILE_FIELD = re.compile(r"files\[(\d+)\]|file(\d*)")
NONCE_MAX = 25
NONCE_WINDOW = 300.0

Params = dict[str, str]
Handler = Callable[[web.Request, Params], Awaitable[web.Response]]
Files = dict[int, tuple[str, bytes]]


class ApiError(Exception):
    """An error answer in Discord's JSON shape."""

    def __init__(self, status: int, code: int, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.problems = status, code, message, problems or []

    def response(self) -> web.Response:
        body: JSON = {"message": self.message, "code": self.code}
        if self.problems:
            body["errors"] = {"_errors": [{"code": "INVALID", "message": p} for p in self.problems]}
        return json_response(body, self.status)


def json_response(data: Any, status: int = 200) -> web.Response:
    """JSON with the exact content type discord.py checks for (no charset suffix)."""
    return web.Response(status=status, body=json.dumps(data).encode(), content_type="application/json")


def no_content() -> web.Response:
    return web.Response(status=204)


def invalid_body(problems: list[str]) -> ApiError:
    return ApiError(400, 50035, "Invalid Form Body", problems)


@dataclass(eq=False)
class GatewaySession:
    """One identified gateway session; survives disconnects so the bot can RESUME."""

    session_id: str
    intents: int
    shard: list[int] | None
    ws: web.WebSocketResponse | None = None
    seq: int = 0
    ended: bool = False
    sent: list[JSON] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def receives(self, guild_id: int | None) -> bool:
        """Whether Discord sends this server's events here: its shard's, and direct messages to shard 0."""
        if self.shard is None:
            return True
        shard_id, shard_count = self.shard
        return shard_id == (0 if guild_id is None else (guild_id >> 22) % shard_count)

    def overlaps(self, other: GatewaySession) -> bool:
        """Whether identifying `other` replaces this session (the same shard, or either unsharded)."""
        return self.shard is None or other.shard is None or self.shard == other.shard

    async def send(self, event: str, data: Any) -> None:
        async with self.lock:
            self.seq += 1
            frame = {"op": 0, "t": event, "s": self.seq, "d": data}
            self.sent.append(frame)
            del self.sent[:-2000]
            if self.ws is not None and not self.ws.closed:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await self.ws.send_str(json.dumps(frame))


class FakeDiscord(HarnessMixin):
    """REST API, gateway and a small world (one guild, a few users) for one test."""

    def __init__(self, *, token: str = "fake.bot.token", populate: bool = True,
                 privileged_intents: int = 0, interaction_deadline: float = 3.0, recommended_shards: int = 1) -> None:
        self.token = token
        self.recommended_shards = recommended_shards
        """The shard count GET /gateway/bot recommends."""
        self.privileged_intents = privileged_intents
        self.interaction_deadline = interaction_deadline
        self.next_id = SnowflakeFactory()
        self.application_id = self.next_id()
        self.bot_user = FakeUser(self.application_id, "Keystone", bot=True)
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.all_messages: dict[int, FakeMessage] = {}
        self.uploads: list[FakeAttachment] = []
        """Every file the bot uploaded, in order (edits included)."""
        self.interactions: dict[int, FakeInteraction] = {}
        self.global_commands: list[JSON] = []
        self.guild_commands: dict[int, list[JSON]] = {}
        self.command_syncs: list[tuple[int | None, list[JSON]]] = []
        self.application_emojis: list[JSON] = []
        self.emoji_images: dict[str, bytes] = {}
        self.requests: list[tuple[str, str]] = []
        self.unknown_routes: list[str] = []
        self.rejections: list[tuple[str, list[str]]] = []
        self.gateway_connections: list[tuple[str, str]] = []
        self.gateway_ops: list[JSON] = []
        self.sessions: dict[str, GatewaySession] = {}
        self.log_errors: list[str] = []
        self.faults = Faults()
        """Failures to inject into REST requests (see faults.py)."""
        self.nonce_window = NONCE_WINDOW
        """Seconds during which a channel message's nonce with enforce_nonce returns the same message."""
        self._nonces: dict[tuple[int, int, str], tuple[float, FakeMessage]] = {}
        self._init_harness()
        self._routes: list[tuple[str, re.Pattern[str], Handler, bool]] = []
        self._install_routes()
        self._sockets: set[web.WebSocketResponse] = set()
        self._runner: web.AppRunner | None = None
        self.port = 0
        if populate:
            self._populate()

    # ----------------------------------------------------------------- world

    def _populate(self) -> None:
        alice = self._new_user("alice")
        guild = self._new_guild("Keystone Lodge", owner=alice)
        for name in ("general", "table-1", "table-2"):
            self._new_text_channel(guild, name)
        for name in ("bob", "carol", "dave"):
            self._new_member(guild, self._new_user(name))

    def _new_user(self, name: str) -> FakeUser:
        user = FakeUser(self.next_id(), name, global_name=name.title())
        self.users[user.id] = user
        return user

    def _new_guild(self, name: str, owner: FakeUser, shard: tuple[int, int] | None = None) -> FakeGuild:
        guild_id = self.next_id() if shard is None else self.next_id.in_shard(*shard)
        guild = FakeGuild(guild_id, name, owner.id)
        self.guilds[guild.id] = guild
        self._new_member(guild, owner).permissions = (1 << 51) - 1
        self._new_member(guild, self.bot_user).permissions = BOT_PERMISSIONS
        return guild

    def _new_member(self, guild: FakeGuild, user: FakeUser) -> FakeMember:
        member = FakeMember(user, guild.id)
        guild.members[user.id] = member
        return member

    def _new_text_channel(self, guild: FakeGuild, name: str) -> FakeChannel:
        channel = FakeChannel(self.next_id(), name, guild_id=guild.id, position=len(guild.channels))
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        return channel

    async def add_user(self, name: str, *, guild: FakeGuild | None = None, member: bool = True) -> FakeUser:
        """A new user, by default a member of the first guild."""
        user = self._new_user(name)
        if member:
            await self.add_member(guild or self.guild, user)
        return user

    async def add_member(self, guild: FakeGuild, user: FakeUser) -> FakeMember:
        member = self._new_member(guild, user)
        for session in self.sessions_for(guild.id):
            if session.intents & GUILD_MEMBERS_INTENT:
                await session.send("GUILD_MEMBER_ADD", {**member.payload(), "guild_id": str(guild.id)})
        return member

    async def add_guild(self, name: str, *, owner: FakeUser, shard: tuple[int, int] | None = None) -> FakeGuild:
        """A new guild the bot has joined (GUILD_CREATE reaches the connected shard that owns it);
        `shard` (id, count) picks an id that puts it on that shard."""
        guild = self._new_guild(name, owner, shard)
        for session in self.sessions_for(guild.id):
            await session.send("GUILD_CREATE", self._guild_create(guild, session))
        return guild

    async def add_text_channel(self, guild: FakeGuild, name: str) -> FakeChannel:
        channel = self._new_text_channel(guild, name)
        for session in self.sessions_for(guild.id):
            await session.send("CHANNEL_CREATE", channel.payload())
        return channel

    @property
    def guild(self) -> FakeGuild:
        """The first guild (the default world has exactly one)."""
        return next(iter(self.guilds.values()))

    def user(self, name: str) -> FakeUser:
        for user in self.users.values():
            if user.name == name:
                return user
        raise KeyError(f"no user named {name!r}; known: {[u.name for u in self.users.values()]}")

    def channel(self, name: str, guild: FakeGuild | None = None) -> FakeChannel:
        return (guild or self.guild).channel(name)

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The direct-message channel between the bot and this user (created on first use)."""
        for channel in self.channels.values():
            if channel.is_dm and channel.recipient is user:
                return channel
        channel = FakeChannel(self.next_id(), f"dm-{user.name}", type=DM_CHANNEL, recipient=user)
        self.channels[channel.id] = channel
        return channel

    def message(self, message_id: int) -> FakeMessage:
        return self.all_messages[message_id]

    # ------------------------------------------------------------- lifecycle

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def resume_gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway-resume"

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/gateway-resume", self._gateway)
        app.router.add_get("/attachments/{attachment_id}/{filename}", self._download)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, shutdown_timeout=0.5, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def close(self) -> None:
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ---------------------------------------------------------------- routing

    def _route(self, method: str, pattern: str, handler: Handler, *, auth: bool = True) -> None:
        regex = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(pattern))
        self._routes.append((method, re.compile(regex), handler, auth))

    def _install_routes(self) -> None:
        r = self._route
        r("GET", "/users/@me", self._get_me)
        r("POST", "/users/@me/channels", self._create_dm)
        r("GET", "/users/{user_id}", self._get_user)
        r("GET", "/oauth2/applications/@me", self._get_application)
        r("GET", "/applications/@me", self._get_application)
        r("GET", "/gateway", self._get_gateway)
        r("GET", "/gateway/bot", self._get_gateway)
        for prefix in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            r("GET", prefix + "/commands", self._list_commands)
            r("PUT", prefix + "/commands", self._put_commands)
            r("POST", prefix + "/commands", self._post_command)
            r("GET", prefix + "/commands/{command_id}", self._get_command)
            r("PATCH", prefix + "/commands/{command_id}", self._patch_command)
            r("DELETE", prefix + "/commands/{command_id}", self._delete_command)
        r("GET", "/applications/{app_id}/emojis", self._list_application_emojis)
        r("POST", "/applications/{app_id}/emojis", self._create_application_emoji)
        r("POST", "/interactions/{interaction_id}/{token}/callback", self._callback, auth=False)
        r("POST", "/webhooks/{app_id}/{token}", self._followup, auth=False)
        r("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self._get_webhook_message, auth=False)
        r("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self._edit_webhook_message, auth=False)
        r("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self._delete_webhook_message,
          auth=False)
        r("GET", "/channels/{channel_id}", self._get_channel)
        r("PATCH", "/channels/{channel_id}", self._edit_channel)
        r("DELETE", "/channels/{channel_id}", self._delete_channel)
        r("POST", "/channels/{channel_id}/threads", self._create_thread)
        r("GET", "/channels/{channel_id}/messages", self._history)
        r("POST", "/channels/{channel_id}/messages", self._send_channel_message)
        r("GET", "/channels/{channel_id}/messages/{message_id}", self._get_channel_message)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_channel_message)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_channel_message)
        r("POST", "/channels/{channel_id}/typing", self._typing)
        react = "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"
        r("PUT", react, self._add_reaction)
        r("DELETE", react, self._remove_reaction)
        r("GET", "/guilds/{guild_id}", self._get_guild)
        r("GET", "/guilds/{guild_id}/channels", self._get_guild_channels)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member)

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        self.requests.append((request.method, path))
        self._touch()
        fault = self.faults.take(request.method, path)
        if fault is None:
            return await self._answer(request, path)
        log.info("fake Discord injects %r into %s %s", fault, request.method, path)
        try:
            if fault == "drop":
                return await drop_connection(request)
            if fault != "drop-after":
                return self.faults.response(fault, request.method, path)
            await self._answer(request, path)  # it happened, but the client never hears so
            return await drop_connection(request)
        finally:
            self._bump()

    async def _answer(self, request: web.Request, path: str) -> web.Response:
        allowed: list[str] = []
        for method, regex, handler, auth in self._routes:
            match = regex.fullmatch(path)
            if match is None:
                continue
            if method != request.method:
                allowed.append(method)
                continue
            if auth and request.headers.get("Authorization") != f"Bot {self.token}":
                return json_response({"message": "401: Unauthorized", "code": 0}, 401)
            try:
                return await handler(request, match.groupdict())
            except ApiError as exc:
                if exc.code == 50035 or exc.status == 413:
                    self.rejections.append((f"{request.method} {path}", exc.problems or [exc.message]))
                    log.warning("fake Discord rejected %s %s: %s", request.method, path,
                                "; ".join(exc.problems) or exc.message)
                return exc.response()
            except Exception as exc:  # a bug in the fake: answer at once (no 5xx retries) and say so loudly
                log.exception("fake Discord failed on %s %s", request.method, path)
                return json_response({"message": f"fake Discord crashed: {exc!r}", "code": 0}, 400)
            finally:
                self._bump()
        return self._unknown_route(request.method, path, allowed)

    async def _unknown(self, request: web.Request) -> web.Response:
        return self._unknown_route(request.method, request.path, [])

    def _unknown_route(self, method: str, path: str, allowed: list[str]) -> web.Response:
        what = f"{method} {path}"
        self.unknown_routes.append(what)
        hint = f" (it knows {', '.join(allowed)})" if allowed else ""
        log.warning("fake Discord has no route for %s%s; answering 404", what, hint)
        return json_response({"message": "404: Not Found", "code": 0}, 404)

    # ----------------------------------------------------------------- bodies

    async def _read_body(self, request: web.Request) -> tuple[JSON, Files]:
        if request.content_type.startswith("multipart/"):
            return await self._read_multipart(request)
        body = await self._read_json(request, {})
        if not isinstance(body, dict):
            raise invalid_body(["expected a JSON object"])
        return body, {}

    async def _read_json(self, request: web.Request, default: Any) -> Any:
        text = await request.text()
        return json.loads(text) if text else default

    async def _read_multipart(self, request: web.Request) -> tuple[JSON, Files]:
        payload: JSON = {}
        files: Files = {}
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                continue
            name = part.name or ""
            if name == "payload_json":
                payload = json.loads(await part.text())
                continue
            match = FILE_FIELD.fullmatch(name)
            if match is None:
                raise invalid_body([f"unexpected multipart field {name!r}"])
            index = int(match.group(1) or match.group(2) or 0)
            files[index] = (part.filename or f"file{index}", bytes(await part.read()))
        return payload, files

    def _attachments(self, payload: JSON, files: Files, existing: list[FakeAttachment]) -> list[FakeAttachment]:
        """New attachment list: kept old ones plus uploads, as the payload's `attachments` says."""
        meta = payload.get("attachments")
        if meta is None:
            return list(existing) + [self._upload(name, data, None) for name, data in
                                     (files[i] for i in sorted(files))]
        result: list[FakeAttachment] = []
        used: set[int] = set()
        old = {a.id: a for a in existing}
        for entry in meta:
            key = int(entry["id"])
            if key in files and key not in old:
                name = entry.get("filename") or files[key][0]
                result.append(self._upload(name, files[key][1], entry.get("description")))
                used.add(key)
            elif key in old:
                result.append(old[key])
            else:
                raise invalid_body([f"attachment {key} is neither an upload nor on the message"])
        result += [self._upload(*files[i], None) for i in sorted(files) if i not in used]
        return result

    def _upload(self, filename: str, data: bytes, description: str | None) -> FakeAttachment:
        if len(data) > ATTACHMENT_LIMIT:
            raise ApiError(413, 40005, f"Request entity too large: {filename} is {len(data)} bytes")
        problems = limits.check_attachment(filename, description)
        if problems:
            raise invalid_body(problems)
        attachment_id = self.next_id()
        url = f"http://127.0.0.1:{self.port}/attachments/{attachment_id}/{filename}"
        ctype = mimetypes.guess_type(filename)[0]
        uploaded = FakeAttachment(attachment_id, filename, data, url, ctype, description)
        self.uploads.append(uploaded)
        return uploaded

    async def _download(self, request: web.Request) -> web.Response:
        wanted = int(request.match_info["attachment_id"])
        for message in self.all_messages.values():
            for attachment in message.attachments:
                if attachment.id == wanted:
                    return web.Response(body=attachment.data, content_type="application/octet-stream")
        return web.Response(status=404)

    # --------------------------------------------------------------- messages

    def _create_message(self, channel: FakeChannel, payload: JSON, files: Files, *,
                        interaction: FakeInteraction | None = None, loading: bool = False) -> FakeMessage:
        flags = int(payload.get("flags") or 0) & CREATE_FLAGS
        if interaction is None:
            flags &= ~EPHEMERAL
        if loading:
            flags |= LOADING
        else:
            problems = limits.check_message({**payload, "flags": flags}, attachments=len(files), creating=True)
            if problems:
                raise invalid_body(problems)
        from_command = interaction is not None and interaction.type == APPLICATION_COMMAND
        message = FakeMessage(
            id=self.next_id(), channel=channel, author=self.bot_user,
            content=payload.get("content") or "", embeds=list(payload.get("embeds") or []),
            components=list(payload.get("components") or []), flags=flags,
            allowed_mentions=payload.get("allowed_mentions"), interaction=interaction,
            webhook_id=self.application_id if interaction else None,
            application_id=self.application_id if interaction else None,
            type=20 if from_command else 0, directory=self.users,
        )
        message.attachments = self._attachments(payload, files, [])
        self.all_messages[message.id] = message
        channel.message_count += channel.is_thread
        return message

    def _edit_message(self, message: FakeMessage, payload: JSON, files: Files) -> None:
        """Apply an edit; filling a deferred ("thinking") message is not counted as an edit."""
        if message.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        flags = message.flags & ~(SUPPRESS_EMBEDS | LOADING)
        if "flags" in payload and payload["flags"] is not None:
            flags |= int(payload["flags"]) & (SUPPRESS_EMBEDS | COMPONENTS_V2)
        else:
            flags |= message.flags & SUPPRESS_EMBEDS
        content: str = payload.get("content", message.content) or ""
        embeds: list[JSON] = payload.get("embeds", message.embeds) or []
        components: list[JSON] = payload.get("components", message.components) or []
        mentions: JSON | None = payload.get("allowed_mentions", message.allowed_mentions)
        attachments = self._attachments(payload, files, message.attachments)
        merged = {"content": content, "embeds": embeds, "components": components,
                  "allowed_mentions": mentions, "flags": flags}
        problems = limits.check_message(merged, attachments=len(attachments), creating=True)
        if problems:
            raise invalid_body(problems)
        if not message.is_loading:
            message.revisions.append(message.snapshot())
            message.edited_timestamp = iso_now()
        message.content, message.embeds, message.components = content, list(embeds), list(components)
        message.allowed_mentions, message.flags, message.attachments = mentions, flags, attachments

    async def _message_event(self, event: str, message: FakeMessage) -> None:
        """Tell the bot about a visible message, if its intents ask for that."""
        if message.is_ephemeral:
            return
        for session in self.sessions_for(message.channel.guild_id):
            await self._message_event_to(session, event, message)

    async def _message_event_to(self, session: GatewaySession, event: str, message: FakeMessage) -> None:
        wanted = DIRECT_MESSAGES_INTENT if message.channel.is_dm else GUILD_MESSAGES_INTENT
        if not session.intents & wanted:
            return
        if event == "MESSAGE_DELETE":
            data: JSON = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.channel.guild_id:
                data["guild_id"] = str(message.channel.guild_id)
        else:
            data = message.payload()
            private = not (message.author is self.bot_user or message.channel.is_dm
                           or self.bot_user.id in {int(u) for u in re.findall(r"<@!?(\d+)>", message.content)})
            if private and not session.intents & MESSAGE_CONTENT_INTENT:
                data.update(content="", embeds=[], attachments=[], components=[])
            guild = self.guilds.get(message.channel.guild_id or 0)
            if guild is not None and message.author.id in guild.members:
                data["member"] = guild.members[message.author.id].payload(with_user=False)
        await session.send(event, data)

    def _channel_or_404(self, params: Params) -> FakeChannel:
        channel = self.channels.get(int(params["channel_id"]))
        if channel is None or channel.deleted:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def _channel_message_or_404(self, params: Params) -> FakeMessage:
        channel = self._channel_or_404(params)
        message = self.all_messages.get(int(params["message_id"]))
        if message is None or message.channel is not channel or message.deleted or message.is_ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    # ------------------------------------------------------------ REST: basics

    async def _get_me(self, request: web.Request, params: Params) -> web.Response:
        return json_response({**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0})

    async def _get_user(self, request: web.Request, params: Params) -> web.Response:
        user = self.users.get(int(params["user_id"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def _get_application(self, request: web.Request, params: Params) -> web.Response:
        owner = self.guild.members[self.guild.owner_id].user if self.guilds else self.bot_user
        return json_response({
            "id": str(self.application_id), "name": self.bot_user.name, "icon": None,
            "description": "Fake application for tests", "bot_public": True,
            "bot_require_code_grant": False, "owner": owner.payload(), "verify_key": "0" * 64,
            "flags": 0, "team": None, "bot": self.bot_user.payload(), "summary": "",
            "interactions_endpoint_url": None, "approximate_guild_count": len(self.guilds),
        })

    async def _get_gateway(self, request: web.Request, params: Params) -> web.Response:
        return json_response({"url": self.gateway_url, "shards": self.recommended_shards, "session_start_limit": {
            "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}})

    async def _create_dm(self, request: web.Request, params: Params) -> web.Response:
        body, _ = await self._read_body(request)
        user = self.users.get(int(body.get("recipient_id", 0)))
        if user is None or user.bot:
            raise ApiError(400, 50033, "Invalid Recipient(s)")
        return json_response(self.dm_channel(user).payload())

    async def _get_channel(self, request: web.Request, params: Params) -> web.Response:
        return json_response(self._channel_or_404(params).payload())

    async def _get_guild(self, request: web.Request, params: Params) -> web.Response:
        guild = self._guild_or_404(params)
        data = guild.payload(members=[])
        for key in ("channels", "members", "threads", "presences", "voice_states"):
            data.pop(key)
        return json_response(data)

    async def _get_guild_channels(self, request: web.Request, params: Params) -> web.Response:
        return json_response([c.payload() for c in self._guild_or_404(params).channels])

    async def _get_member(self, request: web.Request, params: Params) -> web.Response:
        member = self._guild_or_404(params).members.get(int(params["user_id"]))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(member.payload())

    def _guild_or_404(self, params: Params) -> FakeGuild:
        guild = self.guilds.get(int(params["guild_id"]))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    # ------------------------------------------------------ REST: application emojis

    def _check_application(self, params: Params) -> None:
        if int(params["app_id"]) != self.application_id:
            raise ApiError(403, 50001, "Missing Access")

    async def _list_application_emojis(self, request: web.Request, params: Params) -> web.Response:
        self._check_application(params)
        return json_response({"items": self.application_emojis})

    async def _create_application_emoji(self, request: web.Request, params: Params) -> web.Response:
        self._check_application(params)
        payload = await self._read_json(request, {})
        if not isinstance(payload, dict):
            raise invalid_body(["expected a JSON object"])
        if len(self.application_emojis) >= limits.APPLICATION_EMOJIS_MAX:
            raise ApiError(400, 30018, "Maximum number of emojis reached")
        problems = limits.check_emoji(payload, {e["name"] for e in self.application_emojis})
        if problems:
            raise invalid_body(problems)
        emoji = {"id": str(self.next_id()), "name": payload["name"], "roles": [], "user": self.bot_user.payload(),
                 "require_colons": True, "managed": False, "animated": False, "available": True}
        self.application_emojis.append(emoji)
        self.emoji_images[emoji["id"]] = base64.b64decode(payload["image"].split(",", 1)[1])
        return json_response(emoji, 201)

    # ------------------------------------------------------------ REST: commands

    def _command_list(self, params: Params) -> tuple[int | None, list[JSON]]:
        if int(params["app_id"]) != self.application_id:
            raise ApiError(403, 50001, "Missing Access")
        if "guild_id" not in params:
            return None, self.global_commands
        guild = self._guild_or_404(params)
        return guild.id, self.guild_commands.setdefault(guild.id, [])

    def _stored_command(self, data: JSON, guild_id: int | None, old: list[JSON]) -> JSON:
        kind = data.get("type", 1)
        previous = next((c for c in old if c["name"] == data["name"] and c["type"] == kind), None)
        command = {
            "description": "", "options": [], "default_member_permissions": None, "nsfw": False,
            **data, "type": kind, "application_id": str(self.application_id),
            "id": previous["id"] if previous else str(self.next_id()), "version": str(self.next_id()),
        }
        if guild_id is not None:
            command["guild_id"] = str(guild_id)
        return command

    async def _list_commands(self, request: web.Request, params: Params) -> web.Response:
        return json_response(self._command_list(params)[1])

    async def _put_commands(self, request: web.Request, params: Params) -> web.Response:
        guild_id, current = self._command_list(params)
        commands = await self._read_json(request, [])
        if not isinstance(commands, list):
            raise invalid_body(["expected a JSON list of commands"])
        problems = limits.check_commands(commands)
        if problems:
            raise invalid_body(problems)
        stored = [self._stored_command(c, guild_id, current) for c in commands]
        current[:] = stored
        self.command_syncs.append((guild_id, stored))
        return json_response(stored)

    async def _post_command(self, request: web.Request, params: Params) -> web.Response:
        guild_id, current = self._command_list(params)
        body, _ = await self._read_body(request)
        others = [c for c in current if (c["name"], c["type"]) != (body.get("name"), body.get("type", 1))]
        problems = limits.check_commands([*others, body])
        if problems:
            raise invalid_body(problems)
        stored = self._stored_command(body, guild_id, current)
        current[:] = [*others, stored]
        return json_response(stored, 201)

    def _find_command(self, params: Params) -> tuple[list[JSON], JSON]:
        _, current = self._command_list(params)
        for command in current:
            if command["id"] == params["command_id"]:
                return current, command
        raise ApiError(404, 10063, "Unknown application command")

    async def _get_command(self, request: web.Request, params: Params) -> web.Response:
        return json_response(self._find_command(params)[1])

    async def _patch_command(self, request: web.Request, params: Params) -> web.Response:
        _, command = self._find_command(params)
        body, _ = await self._read_body(request)
        command.update(body)
        return json_response(command)

    async def _delete_command(self, request: web.Request, params: Params) -> web.Response:
        current, command = self._find_command(params)
        current.remove(command)
        return no_content()

    # -------------------------------------------------------- REST: interactions

    async def _callback(self, request: web.Request, params: Params) -> web.Response:
        inter = self.interactions.get(int(params["interaction_id"]))
        if inter is None or inter.token != params["token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        if inter.callback_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        age = asyncio.get_running_loop().time() - inter.created
        inter.acknowledged_after = age
        if age > self.interaction_deadline:
            inter.late = True
            log.warning("interaction %s answered after %.2fs (Discord allows %.1fs)", inter.id, age,
                        self.interaction_deadline)
            raise ApiError(404, 10062, "Unknown interaction")
        body, files = await self._read_body(request)
        kind = int(body.get("type", 0))
        if kind not in VALID_CALLBACKS.get(inter.type, set()):
            raise invalid_body([f"callback type {kind} is not valid for interaction type {inter.type}"])
        data: JSON = body.get("data") or {}
        message = self._apply_callback(inter, kind, data, files)
        inter.callback_type, inter.callback_body = kind, body
        created = message is not None and kind in (4, 5, 7)
        if created:
            assert message is not None
            await self._message_event("MESSAGE_UPDATE" if kind == 7 else "MESSAGE_CREATE", message)
        resource: JSON = {"type": kind}
        if created:
            assert message is not None
            resource["message"] = message.payload()
        return json_response({
            "interaction": {
                "id": str(inter.id), "type": inter.type,
                "response_message_id": str(message.id) if created and message else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message and message.is_ephemeral),
            },
            "resource": resource,
        })

    def _apply_callback(self, inter: FakeInteraction, kind: int, data: JSON, files: Files) -> FakeMessage | None:
        if kind == 4:
            inter.original = self._create_message(inter.channel, data, files, interaction=inter)
        elif kind == 5:
            inter.original = self._create_message(inter.channel, data, {}, interaction=inter, loading=True)
        elif kind in (6, 7):
            inter.original = inter.message
            if kind == 7:
                assert inter.message is not None
                self._edit_message(inter.message, data, files)
        elif kind == 8:
            choices = list(data.get("choices") or [])
            problems = limits.check_choices(choices)
            if problems:
                raise invalid_body(problems)
            inter.choices = choices
        elif kind == 9:
            problems = limits.check_modal(data)
            if problems:
                raise invalid_body(problems)
            inter.modal = data
        return inter.original

    def _webhook_interaction(self, params: Params) -> FakeInteraction:
        if int(params["app_id"]) != self.application_id:
            raise ApiError(404, 10015, "Unknown Webhook")
        for inter in self.interactions.values():
            if inter.token == params["token"] and inter.callback_type is not None:
                return inter
        raise ApiError(404, 10015, "Unknown Webhook")

    def _webhook_message(self, inter: FakeInteraction, message_id: str) -> FakeMessage:
        if message_id == "@original":
            found = inter.original
        else:
            found = next((m for m in [inter.original, *inter.followups] if m and str(m.id) == message_id), None)
        if found is None or found.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return found

    async def _followup(self, request: web.Request, params: Params) -> web.Response:
        inter = self._webhook_interaction(params)
        body, files = await self._read_body(request)
        original = inter.original
        if inter.callback_type == 5 and original is not None and original.is_loading and not original.deleted:
            self._edit_message(original, body, files)
            message = original
            await self._message_event("MESSAGE_UPDATE", message)
        else:
            message = self._create_message(inter.channel, body, files, interaction=inter)
            inter.followups.append(message)
            await self._message_event("MESSAGE_CREATE", message)
        inter.activity += 1
        if request.query.get("wait") in ("0", "false"):
            return no_content()
        return json_response(message.payload())

    async def _get_webhook_message(self, request: web.Request, params: Params) -> web.Response:
        inter = self._webhook_interaction(params)
        return json_response(self._webhook_message(inter, params["message_id"]).payload())

    async def _edit_webhook_message(self, request: web.Request, params: Params) -> web.Response:
        inter = self._webhook_interaction(params)
        message = self._webhook_message(inter, params["message_id"])
        body, files = await self._read_body(request)
        self._edit_message(message, body, files)
        inter.activity += 1
        await self._message_event("MESSAGE_UPDATE", message)
        return json_response(message.payload())

    async def _delete_webhook_message(self, request: web.Request, params: Params) -> web.Response:
        inter = self._webhook_interaction(params)
        message = self._webhook_message(inter, params["message_id"])
        message.deleted = True
        inter.activity += 1
        await self._message_event("MESSAGE_DELETE", message)
        return no_content()

    # ------------------------------------------------------------ REST: channels

    async def _send_channel_message(self, request: web.Request, params: Params) -> web.Response:
        channel = self._channel_or_404(params)
        if channel.is_dm and channel.recipient is not None and not channel.recipient.dms_open:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        if not channel.is_dm and not (channel.parent or channel).bot_can_send:
            raise ApiError(403, 50013, "Missing Permissions")
        if channel.is_thread:
            await self._reopen_to_send(channel)
        body, files = await self._read_body(request)
        nonce = None if body.get("nonce") is None else str(body["nonce"])
        if nonce is not None and len(nonce) > NONCE_MAX:
            raise invalid_body([f"nonce must be at most {NONCE_MAX} characters, not {len(nonce)}"])
        key = (channel.id, self.bot_user.id, nonce or "")
        now = asyncio.get_running_loop().time()
        if nonce is not None and body.get("enforce_nonce"):
            earlier = self._nonces.get(key)
            if earlier is not None and now - earlier[0] <= self.nonce_window:
                if earlier[1].deleted:
                    raise ApiError(404, 10008, "Unknown Message")
                return json_response(earlier[1].payload())  # Discord's answer to a retry: nothing new
        message = self._create_message(channel, body, files)
        if nonce is not None:
            message.nonce = nonce
            self._nonces[key] = (now, message)
        await self._message_event("MESSAGE_CREATE", message)
        return json_response(message.payload())

    async def _get_channel_message(self, request: web.Request, params: Params) -> web.Response:
        return json_response(self._channel_message_or_404(params).payload())

    async def _edit_channel_message(self, request: web.Request, params: Params) -> web.Response:
        message = self._channel_message_or_404(params)
        if message.author is not self.bot_user:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        body, files = await self._read_body(request)
        self._edit_message(message, body, files)
        await self._message_event("MESSAGE_UPDATE", message)
        return json_response(message.payload())

    async def _delete_channel_message(self, request: web.Request, params: Params) -> web.Response:
        message = self._channel_message_or_404(params)
        if message.author is not self.bot_user:
            raise ApiError(403, 50013, "Missing Permissions")
        message.deleted = True
        await self._message_event("MESSAGE_DELETE", message)
        return no_content()

    async def _history(self, request: web.Request, params: Params) -> web.Response:
        channel = self._channel_or_404(params)
        limit = min(int(request.query.get("limit", 50)), 100)
        found = [m for m in self.messages(channel, include_ephemeral=False)]
        if "before" in request.query:
            found = [m for m in found if m.id < int(request.query["before"])]
        if "after" in request.query:
            found = [m for m in found if m.id > int(request.query["after"])][:limit]
        newest_first = sorted(found, key=lambda m: m.id, reverse=True)[:limit]
        return json_response([m.payload() for m in newest_first])

    async def _typing(self, request: web.Request, params: Params) -> web.Response:
        self._channel_or_404(params)
        return no_content()

    async def _add_reaction(self, request: web.Request, params: Params) -> web.Response:
        message = self._channel_message_or_404(params)
        message.reactions.append(unquote(params["emoji"]))
        return no_content()

    async def _remove_reaction(self, request: web.Request, params: Params) -> web.Response:
        message = self._channel_message_or_404(params)
        emoji = unquote(params["emoji"])
        if emoji in message.reactions:
            message.reactions.remove(emoji)
        return no_content()

    # ------------------------------------------------------------- REST: threads

    async def _create_thread(self, request: web.Request, params: Params) -> web.Response:
        """Start a thread without a starter message (the only kind the fake knows)."""
        parent = self._channel_or_404(params)
        if parent.type != TEXT_CHANNEL:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        body, _ = await self._read_body(request)
        kind = int(body.get("type") or 12)  # Discord's default here is a private thread
        name = str(body.get("name") or "")
        duration = int(body.get("auto_archive_duration") or 4320)
        problems = [problem for bad, problem in (
            (kind not in THREAD_TYPES, f"type {kind} is not a thread type a text channel can start"),
            (not 1 <= len(name) <= 100, "name must be 1 to 100 characters"),
            (duration not in ARCHIVE_DURATIONS, f"auto_archive_duration must be one of {list(ARCHIVE_DURATIONS)}"),
        ) if bad]
        if problems:
            raise invalid_body(problems)
        if not parent.threads_allowed:
            raise ApiError(403, 50013, "Missing Permissions")
        guild = self.guilds[parent.guild_id or 0]
        if sum(not t.archived and not t.deleted for t in guild.threads) >= guild.thread_limit:
            raise ApiError(400, 160006, "Maximum number of active threads reached")
        thread = FakeChannel(self.next_id(), name, type=kind, guild_id=guild.id, parent=parent,
                             owner_id=self.bot_user.id, auto_archive_duration=duration)
        guild.threads.append(thread)
        self.channels[thread.id] = thread
        member = {"id": str(thread.id), "user_id": str(self.bot_user.id), "join_timestamp": iso_now(), "flags": 0}
        for session in self.sessions_for(guild.id):
            await session.send("THREAD_CREATE", {**thread.payload(), "newly_created": True, "member": member})
        if kind == PUBLIC_THREAD:  # Discord says so in the parent channel
            notice = self._create_message(parent, {"content": name}, {})
            notice.type = 18
            await self._message_event("MESSAGE_CREATE", notice)
        return json_response(thread.payload(), 201)

    def _thread_or_refuse(self, params: Params) -> FakeChannel:
        channel = self._channel_or_404(params)
        if channel.deleted:
            raise ApiError(404, 10003, "Unknown Channel")
        if not channel.is_thread:
            raise ApiError(403, 50013, "Missing Permissions")  # the bot has no Manage Channels
        return channel

    async def _edit_channel(self, request: web.Request, params: Params) -> web.Response:
        """Rename, archive or reopen a thread the bot started (locking needs Manage Threads)."""
        thread = self._thread_or_refuse(params)
        body, _ = await self._read_body(request)
        unknown = sorted(set(body) - {"name", "archived", "auto_archive_duration", "locked"})
        if unknown:
            raise invalid_body([f"the fake cannot change {unknown} on a thread"])
        if thread.owner_id != self.bot_user.id or body.get("locked") or (thread.locked and "archived" in body):
            raise ApiError(403, 50013, "Missing Permissions")
        if "auto_archive_duration" in body and body["auto_archive_duration"] not in ARCHIVE_DURATIONS:
            raise invalid_body([f"auto_archive_duration must be one of {list(ARCHIVE_DURATIONS)}"])
        if "name" in body:
            thread.name = str(body["name"])
        thread.auto_archive_duration = int(body.get("auto_archive_duration", thread.auto_archive_duration))
        if "archived" in body and bool(body["archived"]) != thread.archived:
            thread.archived, thread.archive_timestamp = bool(body["archived"]), iso_now()
        await self._thread_event("THREAD_UPDATE", thread)
        return json_response(thread.payload())

    async def _delete_channel(self, request: web.Request, params: Params) -> web.Response:
        """Deleting a thread needs Manage Threads, which the bot has only when a test grants it."""
        thread = self._thread_or_refuse(params)
        guild = self.guilds[thread.guild_id or 0]
        if not guild.members[self.bot_user.id].permissions & MANAGE_THREADS:
            raise ApiError(403, 50013, "Missing Permissions")
        thread.deleted = True
        await self._thread_event("THREAD_DELETE", thread)
        return json_response(thread.payload())

    async def _reopen_to_send(self, thread: FakeChannel) -> None:
        """A message in an archived thread reopens it, unless it is locked."""
        if thread.deleted:
            raise ApiError(404, 10003, "Unknown Channel")
        if not thread.threads_allowed:
            raise ApiError(403, 50013, "Missing Permissions")
        if thread.archived and thread.locked:
            raise ApiError(400, 50083, "Thread is archived")
        if thread.archived:
            thread.archived, thread.archive_timestamp = False, iso_now()
            await self._thread_event("THREAD_UPDATE", thread)

    async def _thread_event(self, event: str, thread: FakeChannel) -> None:
        if event == "THREAD_DELETE":
            data: JSON = {"id": str(thread.id), "guild_id": str(thread.guild_id), "type": thread.type,
                          "parent_id": str(thread.parent.id if thread.parent else 0)}
        else:
            data = thread.payload()
        for session in self.sessions_for(thread.guild_id):
            await session.send(event, data)

    # ---------------------------------------------------------------- gateway

    def active_session(self) -> GatewaySession | None:
        """The newest session that has not been closed on purpose by the bot."""
        live = [s for s in self.sessions.values() if not s.ended]
        return live[-1] if live else None

    def sessions_for(self, guild_id: int | None) -> list[GatewaySession]:
        """The live sessions that get this server's events (None: a direct message, shard 0's)."""
        return [s for s in self.sessions.values() if not s.ended and s.receives(guild_id)]

    async def dispatch(self, event: str, data: Any) -> None:
        """Push a gateway event to the connected shard its `guild_id` belongs to (without one: shard 0,
        as for direct messages); buffered while that shard reconnects."""
        guild_id = data.get("guild_id") if isinstance(data, dict) else None
        sessions = self.sessions_for(None if guild_id is None else int(guild_id))
        if not sessions:
            raise HarnessError("No bot is connected to the fake gateway for this event's shard; "
                               "start one with bot_runner.start(bot).")
        for session in sessions:
            await session.send(event, data)

    async def disconnect_bot(self, code: int = 4000) -> None:
        """Drop the gateway connection the way a network blip would; the bot should RESUME."""
        session = self.active_session()
        if session is not None and session.ws is not None:
            ws, session.ws = session.ws, None
            await ws.close(code=code)

    async def invalidate_session(self) -> None:
        """Tell the bot its session is gone (op 9); it must IDENTIFY again."""
        session = self.active_session()
        if session is not None and session.ws is not None:
            session.ended = True
            await session.ws.send_str(json.dumps({"op": 9, "d": False}))

    def _guild_create(self, guild: FakeGuild, session: GatewaySession) -> JSON:
        everyone = session.intents & GUILD_MEMBERS_INTENT
        members = list(guild.members.values()) if everyone else [guild.members[self.bot_user.id]]
        return guild.payload(members=members)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._sockets.add(ws)
        session: GatewaySession | None = None
        try:
            await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}}))
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                self.gateway_ops.append(frame)
                session = await self._gateway_frame(ws, request.path, frame, session)
                self._bump()
        finally:
            self._sockets.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
                if ws.close_code in (1000, 1001):
                    session.ended = True
            self._bump()
        return ws

    async def _gateway_frame(self, ws: web.WebSocketResponse, path: str, frame: JSON,
                             session: GatewaySession | None) -> GatewaySession | None:
        op = frame.get("op")
        raw = frame.get("d")
        data: JSON = raw if isinstance(raw, dict) else {}
        if op == 1:
            await ws.send_str(json.dumps({"op": 11}))
        elif op == 2:
            return await self._identify(ws, path, data)
        elif op == 6:
            return await self._resume(ws, path, data)
        elif op == 8 and session is not None:
            await self._request_members(session, data)
        elif op not in (3, 4):
            await ws.close(code=4001, message=b"Unknown opcode")
        return session

    async def _identify(self, ws: web.WebSocketResponse, path: str, data: JSON) -> GatewaySession | None:
        if data.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed")
            return None
        intents = int(data.get("intents", 0))
        refused = [name for bit, name in PRIVILEGED_INTENTS.items()
                   if intents & bit and not self.privileged_intents & bit]
        if refused:
            log.warning("bot asked for privileged intents %s, which this application lacks", refused)
            await ws.close(code=4014, message=b"Disallowed intent(s)")
            return None
        shard = data.get("shard")
        if shard is not None and not (isinstance(shard, list) and len(shard) == 2 and 0 <= shard[0] < shard[1]):
            await ws.close(code=4010, message=b"Invalid shard")
            return None
        session = GatewaySession(secrets.token_hex(16), intents, shard, ws)
        for old in self.sessions.values():
            old.ended = old.ended or old.overlaps(session)
        self.sessions[session.session_id] = session
        self.gateway_connections.append((path, "identify"))
        guilds = [g for g in self._bot_guilds() if session.receives(g.id)]
        ready: JSON = {
            "v": 10, "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id, "resume_gateway_url": self.resume_gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [], "relationships": [], "presences": [], "session_type": "normal",
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        await session.send("READY", ready)
        for guild in guilds:
            await session.send("GUILD_CREATE", self._guild_create(guild, session))
        return session

    async def _resume(self, ws: web.WebSocketResponse, path: str, data: JSON) -> GatewaySession | None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or session.ended or data.get("token") != self.token:
            await ws.send_str(json.dumps({"op": 9, "d": False}))
            return None
        self.gateway_connections.append((path, "resume"))
        seen = int(data.get("seq") or 0)
        async with session.lock:
            session.ws = ws
            for frame in session.sent:
                if frame["s"] > seen:
                    await ws.send_str(json.dumps(frame))
        await session.send("RESUMED", {})
        return session

    async def _request_members(self, session: GatewaySession, data: JSON) -> None:
        guild = self.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        chunk: JSON = {"guild_id": str(guild.id), "members": [m.payload() for m in guild.members.values()],
                       "chunk_index": 0, "chunk_count": 1}
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await session.send("GUILD_MEMBERS_CHUNK", chunk)

    def _bot_guilds(self) -> list[FakeGuild]:
        return [g for g in self.guilds.values() if self.bot_user.id in g.members]
