"""The Discord client for the bot process and its composition root: opens the store, builds the
game service, hands it to the cogs, syncs slash commands (with their German names), uploads the
game's icons as the bot's emojis, and answers unexpected failures with a private apology instead
of Discord's "The application did not respond".
"""

from __future__ import annotations

import asyncio
import errno
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import INTERNAL_API_VERSION, Route

from cogs import EXTENSIONS
from cogs.health import HealthServer, gateways
from cogs.outbox import DiscordOutbox
from cogs.translator import CommandTranslator
from keystone.app import GameService, text
from keystone.app.language import client_words
from keystone.app.metrics import MeteredCourier, MeteredPainter, Metrics
from keystone.app.painter import Painter, painter_for
from keystone.app.scheduler import Scheduler
from keystone.engine.words import ICON_FILES
from keystone.i18n import DEFAULT, language
from keystone.settings import Settings
from keystone.store import Shards, Store

log = logging.getLogger(__name__)

APOLOGY = client_words(None, "cogs.apology")
"""The apology for a failed command, in English (`client_words(locale, "cogs.apology")` in the asker's)."""
CONNECTION_ERRORS = (aiohttp.ClientError, OSError, asyncio.TimeoutError)
GATEWAY_TIMEOUT = 30.0
ICONS = Path(__file__).resolve().parent.parent / "assets" / "icons"
"""The icon drawings (habitats, seasons, symbols) the bot uploads as its application emojis."""


class DiscordUnreachable(Exception):
    """Discord (or the server the settings name) could not be reached at start-up."""

    def __init__(self, url: str, setting: str, error: BaseException) -> None:
        super().__init__(f"Cannot reach Discord at {url} ({connection_problem(error)}): "
                         f"check the network, or {setting} in .env.")
        self.url = url
        self.setting = setting


def connection_problem(error: BaseException) -> str:
    """What went wrong, in a few words and without the request (which carries the token)."""
    if isinstance(error, aiohttp.ClientConnectorDNSError):
        return "name lookup failed"
    if isinstance(error, aiohttp.ClientConnectorCertificateError):
        return "its certificate was not accepted"
    if isinstance(error, aiohttp.ClientSSLError):
        return "the secure connection failed"
    if isinstance(error, aiohttp.WSServerHandshakeError):
        return f"it answered HTTP {error.status} instead of opening a gateway connection"
    if isinstance(error, discord.HTTPException):
        return f"it answered with server error {error.status}"
    if isinstance(error, asyncio.TimeoutError):
        return "no answer in time"
    if isinstance(error, aiohttp.ServerDisconnectedError):
        return "the server closed the connection"
    cause = error.os_error if isinstance(error, aiohttp.ClientConnectorError) else error
    if isinstance(cause, OSError) and cause.errno == errno.ECONNREFUSED:
        return "connection refused"
    if isinstance(cause, OSError) and cause.strerror:
        return cause.strerror.lower()
    return "the connection failed"


def apply_overrides(settings: Settings) -> None:
    """Point discord.py at a Discord-compatible server when the settings name one."""
    if settings.discord_api_base_url:
        Route.BASE = settings.discord_api_base_url.rstrip("/")  # discord.py appends paths starting with /
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
            # discord.py says which permission is missing, in English only: other readers hear ours.
            detail = str(error) if language(str(interaction.locale)) == DEFAULT else ""
            await tell_privately(interaction, detail or client_words(str(interaction.locale), "cogs.not_allowed"))
            return
        log.error("Slash command /%s failed", name, exc_info=error)
        await tell_privately(interaction, client_words(str(interaction.locale), "cogs.apology"))


class KeystoneBot(commands.Bot):
    """The bot: holds the settings, the store, the painter and the game service; loads `cogs.EXTENSIONS`, whose
    cogs take the service from it, and syncs commands on startup."""

    def __init__(self, settings: Settings, *, extensions: Sequence[str] | None = None,
                 clock: Callable[[], float] = time.time, **options: Any) -> None:
        # The bot never joins voice, so discord.py's warnings about missing voice libraries are noise.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        options.setdefault("allowed_mentions", discord.AllowedMentions(everyone=False, roles=False, users=True,
                                                                        replied_user=False))
        super().__init__(command_prefix=commands.when_mentioned, intents=default_intents(), help_command=None,
                         tree_cls=KeystoneTree, **options)
        self.settings = settings
        self.extensions_to_load: tuple[str, ...] = tuple(EXTENSIONS if extensions is None else extensions)
        self.store: Store | None = None
        self._service: GameService | None = None
        self.clock = clock
        """Unix seconds now, for the store, the turn clocks and the scheduler (tests pass their own)."""
        self.scheduler: Scheduler | None = None
        self.painter: Painter | None = None
        """Draws the service's pictures: in KEYSTONE_RENDER_WORKERS processes, or in threads for 0."""
        self.icon_emojis: dict[str, str] = {}
        """Icon name -> the emoji messages show for it ("<:forest:123>"); empty until uploaded."""
        self.metrics: Metrics | None = None if settings.keystone_metrics_port is None else Metrics()
        """What the bot counts, served at /metrics (None: KEYSTONE_METRICS_PORT is not set)."""
        self.health: HealthServer | None = None

    @property
    def service(self) -> GameService:
        """The one game service every cog uses; it exists once `setup_hook` has opened the store."""
        if self._service is None:
            raise RuntimeError("the game service is made when the bot starts")
        return self._service

    async def setup_hook(self) -> None:
        await self.check_gateway()
        self.store = await Store.open(self.settings.database, clock=self.clock)
        self.painter = painter_for(self.settings.render_workers)
        if self.metrics is not None:
            self.painter = MeteredPainter(self.painter, self.metrics)
        await self.painter.start()
        self._service = GameService(self.store, clock=self.clock, painter=self.painter,
                                    clock_scale=self.settings.clock_scale)
        await self.serve_health()
        self.icon_emojis = await ensure_emojis(self)
        text.use_emojis(self.icon_emojis)
        await self.tree.set_translator(CommandTranslator())  # German names and descriptions go out with the sync
        for name in self.extensions_to_load:
            await self.load_extension(name)
        if self.syncs_commands:
            synced = await self.sync_commands()
            where = f"guild {self.settings.dev_guild_id}" if self.settings.dev_guild_id else "all guilds"
            log.info("Synced %d slash command(s) to %s", len(synced), where)
        metrics, courier = self.metrics, DiscordOutbox(self)
        self.scheduler = Scheduler(self._service, courier if metrics is None else MeteredCourier(courier, metrics),
                                   ready=self.wait_until_ready, shards=self.served_shards,
                                   on_tick=None if metrics is None else metrics.ticked)
        self.scheduler.start()

    async def serve_health(self) -> None:
        """With KEYSTONE_METRICS_PORT set: count the store's errors and the service's moves, and serve
        /metrics and /healthz (`cogs.health`)."""
        metrics, store, service = self.metrics, self.store, self._service
        if metrics is None or store is None or service is None or self.settings.keystone_metrics_port is None:
            return
        store.watch(metrics.database_error)
        service.moved = metrics.moved

        async def refresh() -> None:
            await metrics.refresh(self.store, self.served_shards, gateways(self))

        async def ping() -> None:
            if self.store is None:
                raise RuntimeError("the store is closed")
            await self.store.ping()

        self.health = HealthServer(self, metrics, refresh=refresh, ping=ping, hidden=self.settings.database_password())
        await self.health.start(self.settings.metrics_host, self.settings.keystone_metrics_port)

    @property
    def served_shards(self) -> Shards | None:
        """The shards whose games this process serves (None: unsharded, every game)."""
        return None

    @property
    def syncs_commands(self) -> bool:
        """Whether this process registers the slash commands at start-up (see `ShardedKeystoneBot`)."""
        return True

    async def check_gateway(self) -> None:
        """Open and close one gateway connection before the real one.

        discord.py retries a gateway it cannot reach for ever, logging a traceback each time; at
        start-up that is a setting or network problem, so it ends start-up with one sentence.
        """
        gateway = DiscordWebSocket.DEFAULT_GATEWAY
        url = gateway.with_query(v=INTERNAL_API_VERSION, encoding="json")
        try:
            socket = await asyncio.wait_for(self.http.ws_connect(str(url)), timeout=GATEWAY_TIMEOUT)
        except CONNECTION_ERRORS as error:
            raise DiscordUnreachable(str(gateway), "DISCORD_GATEWAY_URL", error) from None
        await socket.close()

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Register the commands: instantly in the development guild if set, else globally."""
        if self.settings.dev_guild_id is None:
            return await self.tree.sync()
        guild = discord.Object(id=self.settings.dev_guild_id)
        self.tree.copy_global_to(guild=guild)
        return await self.tree.sync(guild=guild)

    async def close(self) -> None:
        """Stop the scheduler and the cogs and disconnect, then close the store and stop the picture
        workers (nothing can use them any more)."""
        if self.scheduler is not None:
            scheduler, self.scheduler = self.scheduler, None
            await scheduler.stop()
        if self.health is not None:
            health, self.health = self.health, None
            await health.close()
        await super().close()
        if self.icon_emojis:
            self.icon_emojis = {}
            text.use_emojis({})
        if self.store is not None:
            store, self.store, self._service = self.store, None, None
            await store.close()
        if self.painter is not None:
            painter, self.painter = self.painter, None
            await painter.close()

    async def on_ready(self) -> None:
        log.info("Connected as %s to %d guild(s)", self.user, len(self.guilds))


class ShardedKeystoneBot(KeystoneBot, commands.AutoShardedBot):
    """The bot running some of its shards (KEYSTONE_SHARDS of KEYSTONE_SHARD_COUNT) in this process.

    Its scheduler serves only those shards' games. Only the process holding shard 0 syncs the
    slash commands: they belong to the application, not to a shard, so one process registering
    them is enough, and several would race to replace one another's list (against Discord's
    daily limit on command changes) whenever a deployment starts them together. Shard 0 always
    exists and also receives the direct messages, so exactly one process syncs.
    """

    def __init__(self, settings: Settings, **options: Any) -> None:
        count = settings.keystone_shard_count
        if count is None:
            raise ValueError("a sharded bot needs KEYSTONE_SHARD_COUNT")
        ids = settings.keystone_shards
        super().__init__(settings, shard_count=count, shard_ids=None if ids is None else list(ids), **options)
        self._shards = Shards.of(ids, count)

    @property
    def served_shards(self) -> Shards:
        return self._shards

    @property
    def syncs_commands(self) -> bool:
        return 0 in self._shards.ids


async def ensure_emojis(client: discord.Client, icons: Path = ICONS,
                        names: Mapping[str, str] = ICON_FILES) -> dict[str, str]:
    """The icons as the application's emojis, name -> "<:name:id>", uploading those not there yet.

    Emojis are a nicety: whatever goes wrong is logged as a warning and the icon is left out, so
    messages name it in words instead and start-up goes on. After a refused upload the list is read
    again: the processes of a sharded bot start together, and another may have uploaded it first.
    """
    have = await listed_emojis(client)
    if have is None:
        return {}
    refused = False
    for name, drawing in names.items():
        if name in have:
            continue
        try:
            emoji = await client.create_application_emoji(name=name, image=(icons / f"{drawing}.png").read_bytes())
        except (discord.DiscordException, *CONNECTION_ERRORS) as error:
            log.warning("Could not upload the %s emoji (%s); messages name it in words", name, error)
            refused = True
            continue
        have[name] = str(emoji)
    if refused:
        have |= await listed_emojis(client) or {}
    return {name: have[name] for name in names if name in have}


async def listed_emojis(client: discord.Client) -> dict[str, str] | None:
    """The application's emojis, name -> "<:name:id>" (None, with a warning, when Discord would not say)."""
    try:
        return {emoji.name: str(emoji) for emoji in await client.fetch_application_emojis()}
    except (discord.DiscordException, *CONNECTION_ERRORS) as error:
        log.warning("Could not list the bot's emojis (%s); messages name icons in words", error)
        return None


def create_bot(settings: Settings, **options: Any) -> KeystoneBot:
    """The bot the settings ask for: sharded when they name a shard count, else one unsharded client."""
    return (ShardedKeystoneBot if settings.sharded else KeystoneBot)(settings, **options)
