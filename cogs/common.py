"""What both cogs share: who and where an interaction comes from, and posting a service `Reply`.

Kept apart from the cogs so each extension imports these without importing the other.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable
from typing import Any

import aiohttp
import discord
from discord import app_commands

from cogs.bot import KeystoneBot, tell_privately
from cogs.metered import metered
from cogs.outbox import build_view, close_thread, files_of, public_message
from cogs.stopping import gate_of
from keystone.app import Actor, GameService, Reply, Where, owed
from keystone.app.language import client_words
from keystone.app.logs import about
from keystone.app.moves import Moves

log = logging.getLogger(__name__)

DEFER_AFTER = 2.0
"""Seconds to wait for the service before deferring (Discord allows three for the first answer)."""

EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=False)
INSTALLS = app_commands.AppInstallationType(guild=True, user=False)


def where_of(interaction: discord.Interaction[Any]) -> Where:
    server_locale = interaction.guild_locale if interaction.guild_id is not None else None
    return Where(channel_id=interaction.channel_id or interaction.user.id, guild_id=interaction.guild_id,
                 guild_locale=server_locale.value if server_locale is not None else None)


def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    perms = interaction.permissions
    return Actor(interaction.user.id, interaction.user.display_name, can_manage=perms.manage_channels,
                 can_manage_server=perms.manage_guild, locale=interaction.locale.value)


def service_of(interaction: discord.Interaction[Any]) -> GameService:
    """The bot's game service, for buttons and menus (discord.py makes those, not a cog)."""
    client = interaction.client
    if not isinstance(client, KeystoneBot):
        raise RuntimeError("Keystone controls only work on a KeystoneBot")
    return client.service




def on_private_message(interaction: discord.Interaction[Any]) -> bool:
    """Whether a control on a private (ephemeral) message was pressed: that message can be updated in place."""
    message = interaction.message
    return (interaction.type is discord.InteractionType.component and message is not None
            and message.flags.ephemeral)


async def _update_private(interaction: discord.Interaction[Any], reply: Reply, content: str | None) -> None:
    """Replace the pressed private message with the reply's private part (or `content`)."""
    kwargs: dict[str, Any] = {"content": (content or reply.private or "")[:2000],
                              "attachments": files_of(reply.private_files if content is None else []),
                              "view": build_view(reply.private_controls if content is None else [])}
    if not interaction.response.is_done():
        await interaction.response.edit_message(**kwargs)
    else:
        await interaction.edit_original_response(**kwargs)


class Receipts:
    """The owed public messages of one reply (see `keystone.app.owed`): each is marked sent as soon as
    Discord accepted it; if the interaction cannot post the rest, they go back to the outbox, whose
    deliverer posts them in the channel."""

    def __init__(self, interaction: discord.Interaction[Any], reply: Reply) -> None:
        client = interaction.client
        self.service: Moves | None = client.service if isinstance(client, KeystoneBot) else None
        self.pending = list(reply.owed)
        self.answering: tuple[str, str] | None = None
        """(key, words) of the owed message being posted as the interaction's original answer: the
        one message whose fate can be read back after an unclear failure."""

    def as_original(self, message: Reply, content: str) -> None:
        """The next post is the interaction's original answer (readable back through Discord)."""
        self.answering = (message.owed_key, content) if message.owed_key is not None else None

    async def sent(self, message: Reply) -> None:
        self.answering = None
        await self._mark(message.owed_key)

    async def _mark(self, key: str | None) -> None:
        if key is None or key not in self.pending or self.service is None:
            return
        self.pending.remove(key)
        try:
            await self.service.delivered(key)
        except Exception:  # the deliverer would post it once more; the nonce does not cover interactions
            log.exception("could not mark message %s sent", key)

    async def confirm(self, interaction: discord.Interaction[Any], failure: BaseException) -> bool:
        """After a failure that leaves unclear whether Discord took the original answer (a 5xx, a
        connection dropped after sending), read the answer back: if Discord shows it, it was sent
        and must not go to the channel a second time. Follow-ups cannot be read back (Discord takes
        no nonce for them): those stay the outbox's. True when it was sent."""
        answering, self.answering = self.answering, None
        if answering is None or (isinstance(failure, discord.HTTPException) and failure.status < 500):
            return False
        key, content = answering
        try:
            shown = await interaction.original_response()
        except POST_FAILURES:
            return False
        if shown.content != content or key not in self.pending:
            return False
        log.warning("Discord took answer %s though the connection failed (%s); it is not posted again", key, failure)
        await self._mark(key)
        return True

    async def hand_back(self) -> bool:
        """Give what is still unposted to the deliverer; False when nothing was owed."""
        if not self.pending or self.service is None:
            return False
        await self.service.undelivered(self.pending)
        return True


POST_FAILURES = (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError)
"""What posting an answer can meet: Discord refusing or failing, the connection dropped or silent."""


async def post(interaction: discord.Interaction[Any], reply: Reply, *, edit: bool = False,
               deferred_publicly: bool = False) -> None:
    """Post a Reply: the public part in the channel, the private part to the actor only.

    After a public "thinking..." deferral, Discord makes the first follow-up replace that message
    and keep its visibility whatever flags the follow-up asks for; so a reply with nothing public
    first deletes the thinking message, and its private part then arrives as a private message.
    Public messages the service saved as owed that cannot be posted here (a 403 after a permission
    change, a 5xx, a dropped connection) go to the channel through the outbox instead."""
    receipts = Receipts(interaction, reply)
    try:
        await _post(interaction, reply, receipts, edit=edit, deferred_publicly=deferred_publicly)
    except POST_FAILURES as failure:
        confirmed = await receipts.confirm(interaction, failure)
        if await receipts.hand_back():
            log.warning("could not answer an interaction in channel %s (%s); the channel gets it from the outbox",
                        interaction.channel_id, failure)
        elif not confirmed:
            raise


async def _post(interaction: discord.Interaction[Any], reply: Reply, receipts: Receipts, *, edit: bool,
                deferred_publicly: bool) -> None:
    response = interaction.response
    if reply.public is None and deferred_publicly:
        await interaction.delete_original_response()
    if on_private_message(interaction) and not edit:
        if reply.public is None and reply.step:
            await _update_private(interaction, reply, None)
            return
        if reply.public is not None:
            told = client_words(str(interaction.locale), "cogs.turn_told")  # what the step message says now
            await _update_private(interaction, reply, reply.private or told)
            await _send_public(interaction, reply, receipts)
            return
    if reply.public is not None:
        kwargs = public_message(reply)
        if edit or not response.is_done() or deferred_publicly:
            receipts.as_original(reply, kwargs["content"])
        if edit and not response.is_done():
            await response.edit_message(attachments=files_of(reply.files), **kwargs)
        elif edit and response.type is discord.InteractionResponseType.deferred_message_update:
            await interaction.edit_original_response(attachments=files_of(reply.files), **kwargs)
        elif not response.is_done():
            await response.send_message(files=files_of(reply.files), **kwargs)
        elif deferred_publicly:  # the first follow-up replaces the "thinking..." answer
            await interaction.followup.send(files=files_of(reply.files), **kwargs)
        else:
            await _follow_up(interaction, reply)
        await receipts.sent(reply)
    if reply.private is not None or reply.private_files or reply.private_controls:
        private: dict[str, Any] = {"content": (reply.private or "")[:2000], "ephemeral": True,
                                   "files": files_of(reply.private_files)}
        view = build_view(reply.private_controls)
        if view is not None:
            private["view"] = view
        try:
            if not response.is_done():
                await response.send_message(**private)
            else:
                await interaction.followup.send(**private)
        except POST_FAILURES:
            if not receipts.pending:
                raise
            log.warning("could not send the private part of an answer in channel %s; its public messages go on",
                        interaction.channel_id, exc_info=True)
    for text in reply.private_more:
        await interaction.followup.send(content=text[:2000], ephemeral=True)
    for extra in reply.more:
        await _follow_up(interaction, extra)
        await receipts.sent(extra)
    if reply.ends_game and isinstance(interaction.channel, discord.Thread):
        await close_thread(interaction.channel, reply.farewell)


async def _send_public(interaction: discord.Interaction[Any], reply: Reply, receipts: Receipts) -> None:
    """The public part as follow-ups, after the pressed private message was answered in place."""
    for message in (reply, *reply.more):
        await _follow_up(interaction, message)
        await receipts.sent(message)


async def _follow_up(interaction: discord.Interaction[Any], message: Reply) -> None:
    """A public message after the interaction's answer. An owed one goes to the channel with its key
    as nonce: should the process die before it is marked sent, the deliverer's post with the same
    nonce finds this copy instead of making a second (a follow-up could not be read back)."""
    kwargs = public_message(message)
    if message.owed_key is None or interaction.channel_id is None:
        await interaction.followup.send(files=files_of(message.files), **kwargs)
        return
    channel = interaction.client.get_partial_messageable(interaction.channel_id)
    await channel.send(files=files_of(message.files), nonce=message.owed_key, **kwargs)


async def run(interaction: discord.Interaction[Any], work: Awaitable[Reply], *, edit: bool = False,
              private: bool = False) -> None:
    """Await the service; if it is slow, defer, then post what it says. Its log lines name the
    interaction's server and channel. While the bot stops (`cogs.stopping`), the work is not begun:
    a short private answer asks to try again in a minute."""
    gate = gate_of(interaction.client)
    if gate.closing:
        if inspect.iscoroutine(work):
            work.close()
        await tell_privately(interaction, client_words(str(interaction.locale), "ops.restarting"))
        return
    async with gate.holding():
        with about(guild=interaction.guild_id, channel=interaction.channel_id), \
                metered(interaction, getattr(interaction.client, "metrics", None)) as meter:
            await _run(interaction, meter.watch(work), edit=edit, private=private)


async def _run(interaction: discord.Interaction[Any], work: Awaitable[Reply], *, edit: bool, private: bool) -> None:
    """The deferral is chosen before the answer is known, so it must never make a private answer
    public: answers that are always private (`private=True`) defer privately; a button or menu
    defers without a message of its own, so each later message keeps its own visibility."""
    with owed.answering(interaction.application_id, interaction.token):  # the task keeps it
        task: asyncio.Task[Reply] = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    deferred_publicly = False
    if not done:
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=private, thinking=True)
            deferred_publicly = not private
    await post(interaction, await task, edit=edit, deferred_publicly=deferred_publicly)
