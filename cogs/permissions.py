"""The bot's permissions on Discord: the invite link that asks for them, and the check at start-up
and on joining a server that warns in the log where a channel lacks one.

The list itself is `keystone.app.permissions.NEEDED`; here it becomes discord.py's `Permissions`.
The check looks at the text channels the bot can see (a channel hidden from it is a server's choice,
not a mistake) and writes at most one line per server, again only when what is missing changed.
"""

from __future__ import annotations

import base64
import binascii
import logging

import discord
from discord.ext import commands

from keystone.app.logs import about
from keystone.app.permissions import NEEDED, SCOPES, labels

log = logging.getLogger(__name__)

PERMISSIONS = discord.Permissions(**dict.fromkeys(NEEDED, True))
"""Exactly what the bot needs in a channel where people play."""
SHOWN = 5
"""Channels named a group in a warning; the rest are counted."""


def application_id(token: str) -> int | None:
    """The application's id, read from the token itself: its first part is the bot user's id in
    base64, and a bot's user id is its application's id. None when the token has no such part."""
    first = token.strip().split(".", 1)[0]
    try:
        decoded = base64.b64decode(first + "=" * (-len(first) % 4), validate=True).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(decoded) if decoded.isdigit() and 0 < len(decoded) <= 20 else None


def invite_url(app_id: int) -> str:
    """The OAuth2 link that adds the bot to a server with `PERMISSIONS` and the `SCOPES`."""
    return discord.utils.oauth_url(app_id, permissions=PERMISSIONS, scopes=SCOPES)


def missing_in(channel: discord.abc.GuildChannel, me: discord.Member) -> tuple[str, ...]:
    """The needed permissions the bot lacks in `channel`, by discord.py's names."""
    have = channel.permissions_for(me)
    return tuple(name for name in NEEDED if not getattr(have, name))


def _place(channel: discord.abc.GuildChannel) -> str:
    return f"#{channel.name} ({channel.id})"


def report(guild: discord.Guild) -> str | None:
    """One sentence naming what the bot lacks in the server's channels it can see, or None."""
    me = guild.me
    if me is None:
        return None
    seen = [c for c in guild.text_channels if c.permissions_for(me).view_channel]
    if not seen:
        return f"server {guild.id} ({guild.name}): the bot can see none of its text channels (it needs " \
               f"{', '.join(labels(NEEDED))})"
    groups: dict[tuple[str, ...], list[discord.TextChannel]] = {}
    for channel in seen:
        lacking = missing_in(channel, me)
        if lacking:
            groups.setdefault(lacking, []).append(channel)
    if not groups:
        return None
    parts = []
    for lacking, channels in groups.items():
        if len(channels) == len(seen):
            where = f"every channel it can see ({len(seen)})"
        else:
            where = ", ".join(_place(c) for c in channels[:SHOWN])
            where += f" and {len(channels) - SHOWN} more" if len(channels) > SHOWN else ""
        parts.append(f"{', '.join(labels(lacking))} in {where}")
    return f"server {guild.id} ({guild.name}): the bot lacks {'; '.join(parts)}"


class PermissionCheck(commands.Cog):
    """Warns at start-up, on joining a server and when one comes back from an outage where the bot lacks
    a permission it needs; once per server, again only when that changed."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.told: dict[int, str | None] = {}
        """Server id -> what was last said about it (None: nothing lacking)."""

    def check(self, guild: discord.Guild) -> None:
        said = report(guild)
        if said is not None and self.told.get(guild.id) != said:
            with about(guild=guild.id):
                log.warning("%s; grant it in the server's or the channel's settings", said)
        self.told[guild.id] = said

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        for guild in self.bot.guilds:
            self.check(guild)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        self.check(guild)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server back after an outage, or one Discord announces as available when joined."""
        self.check(guild)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PermissionCheck(bot))
