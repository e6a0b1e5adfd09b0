"""The Discord client for the bot process: loads the cogs, syncs slash commands, and answers
unexpected failures with a private apology instead of Discord's "The application did not respond".
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import Route

from cogs import EXTENSIONS
from keystone.settings import Settings

log = logging.getLogger(__name__)

APOLOGY = "Sorry, that did not work because of a problem on my side. Please try again in a moment."
NOT_ALLOWED = "You can't use that command here."


def apply_overrides(settings: Settings) -> None:
    """Point discord.py at a Discord-compatible server when the settings name one."""
    if settings.discord_api_base_url:
        Route.BASE = settings.discord_api_base_url
    if settings.discord_gateway_url:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


def default_intents() -> discord.Intents:
    """Slash commands and components need no privileged intents (no members, presences or content)."""
    intents = discord.Intents.default()
    intents.members = intents.presences = intents.message_content = False
    return intents


async def tell_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """Send `text` to the user only, whether or not the interaction was answered already."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("Could not tell the user about a failure: %s", exc)


class KeystoneTree(app_commands.CommandTree[Any]):
    """Command tree whose failures end in a polite private message."""

    async def on_error(self, interaction: discord.Interaction[Any],
                       error: app_commands.AppCommandError) -> None:
        name = interaction.command.qualified_name if interaction.command else "?"
        if isinstance(error, app_commands.CheckFailure):
            log.info("Check failed for /%s by %s: %s", name, interaction.user.id, error)
            await tell_privately(interaction, str(error) or NOT_ALLOWED)
            return
        log.error("Slash command /%s failed", name, exc_info=error)
        await tell_privately(interaction, APOLOGY)


class KeystoneBot(commands.Bot):
    """The bot: holds the settings, loads `cogs.EXTENSIONS`, syncs commands on startup."""

    def __init__(self, settings: Settings, *, extensions: Sequence[str] | None = None, **options: Any) -> None:
        # The bot never joins voice, so discord.py's warnings about missing voice libraries are noise.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        options.setdefault("allowed_mentions", discord.AllowedMentions(everyone=False, roles=False, users=True,
                                                                        replied_user=False))
        super().__init__(command_prefix=commands.when_mentioned, intents=default_intents(), help_command=None,
                         tree_cls=KeystoneTree, **options)
        self.settings = settings
        self.extensions_to_load: tuple[str, ...] = tuple(EXTENSIONS if extensions is None else extensions)

    async def setup_hook(self) -> None:
        for name in self.extensions_to_load:
            await self.load_extension(name)
        synced = await self.sync_commands()
        where = f"guild {self.settings.dev_guild_id}" if self.settings.dev_guild_id else "all guilds"
        log.info("Synced %d slash command(s) to %s", len(synced), where)

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Register the commands: instantly in the development guild if set, else globally."""
        if self.settings.dev_guild_id is None:
            return await self.tree.sync()
        guild = discord.Object(id=self.settings.dev_guild_id)
        self.tree.copy_global_to(guild=guild)
        return await self.tree.sync(guild=guild)

    async def on_ready(self) -> None:
        log.info("Connected as %s to %d guild(s)", self.user, len(self.guilds))


def create_bot(settings: Settings, **options: Any) -> KeystoneBot:
    return KeystoneBot(settings, **options)
