"""The fake server's world: users, guilds, channels, messages and interactions.

Each object can render itself as the JSON payload Discord would send, so the
real discord.py client parses exactly what it would parse in production.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
import time
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2
COMPONENTS_V2 = 1 << 15

# Permission bits used to describe what members and the bot may do.
ADMINISTRATOR = 1 << 3
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
ADD_REACTIONS = 1 << 6
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
MANAGE_MESSAGES = 1 << 13
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
THREAD_PERMISSIONS = CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
ALL_PERMISSIONS = (1 << 51) - 1

MEMBER_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | THREAD_PERMISSIONS
)
BOT_PERMISSIONS = MEMBER_PERMISSIONS


class SnowflakeFactory:
    """Hands out increasing snowflakes whose timestamps are the real time."""

    def __init__(self) -> None:
        self._last = 0
        self._counter = itertools.count()

    def __call__(self) -> int:
        stamp = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        value = max(stamp | (next(self._counter) & 0xFFF), self._last + 1)
        self._last = value
        return value

    def in_shard(self, shard_id: int, shard_count: int) -> int:
        """The next snowflake whose server would be on this shard (its timestamp, mod the count)."""
        value = self()
        while (value >> 22) % shard_count != shard_id:
            value = self._last = ((value >> 22) + 1) << 22
        return value


LOCALE_FALLBACKS = {"en-US": "en-GB", "en-GB": "en-US", "es-419": "es-ES"}
"""Where Discord looks when a localization lacks the client's own locale (then it shows the default)."""


def shown_name(item: JSON, locale: str) -> str:
    """The name a client in `locale` shows (and lets its user type) for a command, option or choice."""
    given: dict[str, str] = item.get("name_localizations") or {}
    return given.get(locale) or given.get(LOCALE_FALLBACKS.get(locale, locale)) or str(item["name"])


def iso_now() -> str:
    """The current time the way Discord writes timestamps."""
    return dt.datetime.now(dt.UTC).isoformat()


@dataclass(eq=False)
class FakeUser:
    """A Discord account: a player, or the bot itself."""

    id: int
    name: str
    bot: bool = False
    global_name: str | None = None
    dms_open: bool = True
    locale: str = "en-US"
    """The language of the user's Discord client: it names commands in it and sends it with each interaction."""

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def __repr__(self) -> str:
        return f"<FakeUser {self.name} id={self.id}>"


@dataclass(eq=False)
class FakeMember:
    """A user's membership in one guild."""

    user: FakeUser
    guild_id: int
    permissions: int = MEMBER_PERMISSIONS
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> JSON:
        data: JSON = {
            "roles": [],
            "joined_at": self.joined_at,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": self.nick,
            "avatar": None,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


TEXT_CHANNEL = 0
DM_CHANNEL = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (PUBLIC_THREAD, PRIVATE_THREAD)
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
"""The minutes of inactivity after which Discord may archive a thread (the only values it accepts)."""


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel, a thread of one (`parent` set), or a direct-message channel with the bot.

    `bot_can_create_threads` is the bot's Create Public Threads and Send Messages in Threads
    permission here (a thread follows its parent). `overwrites` are the channel's permission
    overwrites as Discord sends them (what discord.py's `permissions_for` reads)."""

    id: int
    name: str
    type: int = TEXT_CHANNEL
    guild_id: int | None = None
    recipient: FakeUser | None = None
    position: int = 0
    bot_can_send: bool = True
    bot_can_create_threads: bool = True
    overwrites: list[JSON] = field(default_factory=list)
    parent: FakeChannel | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 10080
    archive_timestamp: str = field(default_factory=iso_now)
    message_count: int = 0
    deleted: bool = False

    @property
    def is_dm(self) -> bool:
        return self.type == DM_CHANNEL

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def threads_allowed(self) -> bool:
        """Whether the bot may create threads here and speak in them (a thread asks its parent)."""
        return self.parent.bot_can_create_threads if self.parent is not None else self.bot_can_create_threads

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self) -> JSON:
        if self.is_dm:
            recipients = [self.recipient.payload()] if self.recipient else []
            return {"id": str(self.id), "type": DM_CHANNEL, "recipients": recipients,
                    "last_message_id": None, "flags": 0}
        if self.parent is not None:
            return self.thread_payload(self.parent)
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": self.overwrites,
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }

    def thread_payload(self, parent: FakeChannel) -> JSON:
        """A thread channel object, as Discord returns it from creation, GET and PATCH."""
        return {
            "id": str(self.id), "type": self.type, "guild_id": str(self.guild_id), "parent_id": str(parent.id),
            "owner_id": str(self.owner_id), "name": self.name, "last_message_id": None,
            "rate_limit_per_user": 0, "flags": 0, "message_count": self.message_count,
            "total_message_sent": self.message_count, "member_count": 1,
            "thread_metadata": {"archived": self.archived, "auto_archive_duration": self.auto_archive_duration,
                                "archive_timestamp": self.archive_timestamp, "locked": self.locked,
                                "create_timestamp": self.archive_timestamp},
        }

    def __repr__(self) -> str:
        where = "DM" if self.is_dm else ("thread " if self.is_thread else "#") + self.name
        return f"<FakeChannel {where} id={self.id}>"


@dataclass(eq=False)
class FakeGuild:
    """A server with text channels and members."""

    id: int
    name: str
    owner_id: int
    channels: list[FakeChannel] = field(default_factory=list)
    members: dict[int, FakeMember] = field(default_factory=dict)
    threads: list[FakeChannel] = field(default_factory=list)
    thread_limit: int = 1000
    """Active (unarchived) threads Discord allows a server at once."""
    locale: str = "en-US"
    """The server's preferred locale (its community language), sent as `guild_locale` with each interaction."""

    def channel(self, name: str) -> FakeChannel:
        for channel in self.channels:
            if channel.name == name:
                return channel
        raise KeyError(f"guild {self.name!r} has no channel #{name}")

    def everyone_role(self) -> JSON:
        return {
            "id": str(self.id), "name": "@everyone", "permissions": str(MEMBER_PERMISSIONS),
            "position": 0, "color": 0, "hoist": False, "managed": False, "mentionable": False,
            "flags": 0,
        }

    def payload(self, *, members: list[FakeMember]) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "owner_id": str(self.owner_id),
            "unavailable": False,
            "large": False,
            "member_count": len(self.members),
            "joined_at": iso_now(),
            "roles": [self.everyone_role()],
            "channels": [c.payload() for c in self.channels],
            "members": [m.payload() for m in members],
            "threads": [t.payload() for t in self.threads if not t.archived and not t.deleted],
            "presences": [],
            "voice_states": [],
            "emojis": [],
            "stickers": [],
            "features": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": self.locale,
            "system_channel_flags": 0,
            "stage_instances": [],
            "guild_scheduled_events": [],
        }

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name} id={self.id}>"


@dataclass(eq=False)
class FakeAttachment:
    """A file the bot uploaded, with its bytes."""

    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def image_size(self) -> tuple[int, int] | None:
        """Width and height read from a PNG header, as Discord reports for images."""
        if self.data[:8] != b"\x89PNG\r\n\x1a\n" or len(self.data) < 24:
            return None
        return int.from_bytes(self.data[16:20], "big"), int.from_bytes(self.data[20:24], "big")

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id), "filename": self.filename, "size": self.size,
            "url": self.url, "proxy_url": self.url, "content_type": self.content_type,
        }
        if self.description is not None:
            data["description"] = self.description
        dims = self.image_size()
        if dims is not None:
            data["width"], data["height"] = dims
        return data

    def __repr__(self) -> str:
        return f"<FakeAttachment {self.filename} {self.size} bytes>"


MENTION_RE = re.compile(r"<@!?(\d+)>")
ACTIONABLE_TYPES = {2, 3, 5, 6, 7, 8}


def walk_components(components: list[JSON]) -> list[JSON]:
    """Every component at any depth (action rows, sections, containers included)."""
    found: list[JSON] = []
    stack = list(reversed(components))
    while stack:
        comp = stack.pop()
        found.append(comp)
        children = list(comp.get("components", []))
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                children.append(comp[key])
        stack.extend(reversed(children))
    return found


@dataclass(eq=False)
class FakeMessage:
    """One message as stored by the fake server, kept up to date by edits.

    `directory` is the server's user table, used to describe mentioned users.
    """

    id: int
    channel: FakeChannel
    author: FakeUser
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    flags: int = 0
    attachments: list[FakeAttachment] = field(default_factory=list)
    allowed_mentions: JSON | None = None
    interaction: FakeInteraction | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    type: int = 0
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    deleted: bool = False
    revisions: list[JSON] = field(default_factory=list)
    reactions: list[str] = field(default_factory=list)
    nonce: str | None = None
    directory: dict[int, FakeUser] = field(default_factory=dict, repr=False)

    @property
    def is_ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def is_loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def edits(self) -> int:
        return len(self.revisions)

    @property
    def text(self) -> str:
        """Content plus every embed's visible text, for simple `in` checks."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for fld in embed.get("fields", []):
                parts += [fld.get("name", ""), fld.get("value", "")]
            parts.append(embed.get("footer", {}).get("text", ""))
            parts.append(embed.get("author", {}).get("name", ""))
        return "\n".join(p for p in parts if p)

    @property
    def pinged_user_ids(self) -> set[int]:
        """Users this message would notify, applying allowed_mentions as Discord does."""
        if self.is_ephemeral:
            return set()
        ids = {int(m) for m in MENTION_RE.findall(self.content)}
        rules = self.allowed_mentions
        if rules is None or "users" in rules.get("parse", []):
            return ids
        return ids & {int(u) for u in rules.get("users", [])}

    @property
    def pings_everyone(self) -> bool:
        if self.is_ephemeral or ("@everyone" not in self.content and "@here" not in self.content):
            return False
        rules = self.allowed_mentions
        return rules is None or "everyone" in rules.get("parse", [])

    def all_components(self) -> list[JSON]:
        return walk_components(self.components)

    def actionable(self) -> list[JSON]:
        """Buttons and select menus a user could use, at any nesting depth."""
        return [c for c in self.all_components() if c.get("type") in ACTIONABLE_TYPES and "custom_id" in c]

    @property
    def custom_ids(self) -> list[str]:
        return [str(c["custom_id"]) for c in self.actionable()]

    @property
    def buttons(self) -> list[JSON]:
        return [c for c in self.all_components() if c.get("type") == 2]

    def component(self, custom_id: str | None = None, *, label: str | None = None) -> JSON:
        """The component with this custom_id (or button label); KeyError names what exists."""
        for comp in self.all_components():
            if custom_id is not None and comp.get("custom_id") == custom_id:
                return comp
            if custom_id is None and label is not None and comp.get("label") == label:
                return comp
        wanted = custom_id if custom_id is not None else f"label {label!r}"
        have = [(c.get("label"), c.get("custom_id")) for c in self.actionable()]
        raise KeyError(f"message {self.id} has no component {wanted}; it has {have}")

    def snapshot(self) -> JSON:
        return {
            "content": self.content, "embeds": self.embeds, "components": self.components,
            "flags": self.flags, "attachments": [a.filename for a in self.attachments],
        }

    def payload(self) -> JSON:
        pinged = [self.directory[uid] for uid in sorted(self.pinged_user_ids) if uid in self.directory]
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": self.pings_everyone,
            "mentions": [user.payload() for user in pinged],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.channel.guild_id is not None:
            data["guild_id"] = str(self.channel.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction is not None:
            data["interaction_metadata"] = self.interaction.metadata()
        if self.nonce is not None:
            data["nonce"] = self.nonce
        return data

    def __repr__(self) -> str:
        flags = " ephemeral" if self.is_ephemeral else ""
        return f"<FakeMessage id={self.id} in {self.channel!r}{flags} {self.text[:60]!r}>"


PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5


@dataclass(eq=False)
class FakeInteraction:
    """One user action sent to the bot and everything the bot answered to it."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    data: JSON
    created: float
    message: FakeMessage | None = None
    callback_type: int | None = None
    callback_body: JSON | None = None
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    choices: list[JSON] | None = None
    modal: JSON | None = None
    activity: int = 0
    late: bool = False
    acknowledged_after: float | None = None
    """Seconds from the interaction to the bot's first callback (Discord fails it past 3)."""

    def metadata(self) -> JSON:
        owners = {"0": str(self.channel.guild_id) if self.channel.guild_id else "0"}
        data: JSON = {"id": str(self.id), "type": self.type, "user": self.user.payload(),
                      "authorizing_integration_owners": owners}
        if self.message is not None:
            data["interacted_message_id"] = str(self.message.id)
        return data
