"""Posting without an interaction: the messages, files and controls of a service `Reply` as
discord.py arguments, and the scheduler's courier, which delivers the outbox (reminders, turns run
out, due bot turns, and what an interaction could not post).

Kept apart from `cogs.common` so the bot's composition root can build the outbox without
importing the cogs.
"""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Iterator
from typing import Any

import aiohttp
import discord

from keystone.app import Control, Reply, threads
from keystone.app.delivery import NotNow, Undeliverable
from keystone.app.replies import File

log = logging.getLogger(__name__)

STYLES = {
    "primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success, "danger": discord.ButtonStyle.danger,
}
def build_view(controls: list[Control]) -> discord.ui.View | None:
    """A view holding the controls; stopped at once, because the DynamicItems answer the presses."""
    if not controls:
        return None
    view = discord.ui.View(timeout=None)
    for c in controls[:25]:
        item: discord.ui.Item[discord.ui.View]
        if c.is_select:
            options = [discord.SelectOption(label=o.label[:100], value=o.value, description=o.description)
                       for o in c.options]
            item = discord.ui.Select(custom_id=c.custom_id, placeholder=c.label[:150], options=options)
        else:
            item = discord.ui.Button(label=c.label[:80], style=STYLES[c.style], custom_id=c.custom_id)
        try:
            view.add_item(item)
        except ValueError:
            log.warning("dropped a control that did not fit: %s", c.custom_id)
    view.stop()
    return view


def files_of(files: list[File]) -> list[discord.File]:
    """Attachments with their alt text (Discord calls it the description)."""
    return [discord.File(io.BytesIO(data), filename=name, description=words) for name, data, words in files]


def public_message(reply: Reply) -> dict[str, Any]:
    """The public part of a Reply as message arguments (files apart), mentioning only whom it names."""
    mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                       users=[discord.Object(u) for u in reply.mention])
    kwargs: dict[str, Any] = {"content": (reply.public or "")[:2000], "allowed_mentions": mentions}
    view = build_view(reply.controls)
    if view is not None:
        kwargs["view"] = view
    return kwargs



async def send_public(channel: discord.abc.Messageable, reply: Reply) -> None:
    """Post a Reply's public messages in a channel, when no interaction answers there (a new thread)."""
    for message in (reply, *reply.more):
        await channel.send(files=files_of(message.files), **public_message(message))


async def close_thread(thread: discord.Thread, farewell: str | None = None) -> None:
    """A game's thread once its game has ended: a last line (`farewell`, the service's words in the
    channel's language), then archived (kept to read, not deleted)."""
    try:
        await thread.send(farewell or threads.CLOSING)
        await thread.edit(archived=True)
    except discord.HTTPException as exc:
        log.warning("could not archive the finished game's thread %s: %s", thread.id, exc)


class DiscordOutbox:
    """The scheduler's courier: an owed public message in a channel (a partial messageable, no
    cache needed), an owed text by direct message (the DM channel opened through the API). Each
    send carries the message's nonce, so a retry after a lost answer finds the first copy instead
    of making a second. Discord's failures are sorted into those worth retrying (`NotNow`: a 5xx,
    a rate limit, a dropped connection) and those that never pass (`Undeliverable`: no permission,
    an unknown channel, DMs closed)."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def to_channel(self, channel_id: int, reply: Reply, nonce: str) -> None:
        """Post the message; when it ends the game in its own thread, archive the thread."""
        with sorted_failures(f"channel {channel_id}"):
            await self.client.get_partial_messageable(channel_id).send(
                files=files_of(reply.files), nonce=nonce, **public_message(reply))
        if reply.ends_game:
            try:
                place = self.client.get_channel(channel_id) or await self.client.fetch_channel(channel_id)
            except discord.HTTPException as exc:
                log.warning("could not look up channel %s to archive its thread: %s", channel_id, exc)
                return
            if isinstance(place, discord.Thread):
                await close_thread(place, reply.farewell)

    async def to_user(self, user_id: int, text: str, nonce: str) -> None:
        with sorted_failures(f"the direct messages of user {user_id}"):
            channel = await self.client.create_dm(discord.Object(user_id))
            await channel.send(text[:2000], nonce=nonce, allowed_mentions=discord.AllowedMentions.none())

    async def shown_as_answer(self, answer: str, reply: Reply) -> bool:
        """Read the interaction's original answer back (its token needs no permission) and compare
        its words and attachments with the message's: the same means Discord took it before a crash."""
        application_id, _, token = answer.partition("/")
        webhook = discord.Webhook.partial(int(application_id), token, client=self.client)
        try:
            with sorted_failures("an interaction's answer"):
                shown = await webhook.fetch_message(ORIGINAL)  # type: ignore[arg-type]
        except Undeliverable:  # the interaction is gone (its token expired): nothing can be shown
            return False
        return is_shown(shown, reply)


ORIGINAL = "@original"
"""Discord's name for an interaction's original answer, where a message id would go."""


def is_shown(message: discord.Message, reply: Reply) -> bool:
    """Whether `message` is the reply's public message as posted: the same words and the same
    files (a "thinking..." answer has neither)."""
    return (bool(message.content or message.attachments) and message.content == public_message(reply)["content"]
            and [a.filename for a in message.attachments] == [name for name, _, _ in reply.files])


@contextlib.contextmanager
def sorted_failures(where: str) -> Iterator[None]:
    """Turn discord.py's and the network's failures into the deliverer's two kinds."""
    try:
        yield
    except discord.Forbidden as exc:
        raise Undeliverable(f"Discord refuses the bot in {where} ({exc.status} {exc.text or 'Forbidden'})") from exc
    except discord.NotFound as exc:
        raise Undeliverable(f"Discord no longer knows {where} ({exc.status} {exc.text or 'Not Found'})") from exc
    except discord.RateLimited as exc:
        raise NotNow(f"rate limited in {where}", exc.retry_after) from exc
    except discord.HTTPException as exc:
        if exc.status >= 500 or exc.status == 429:
            raise NotNow(f"Discord answered {exc.status} in {where}") from exc
        raise Undeliverable(f"Discord refused the message in {where} ({exc.status} {exc.text})") from exc
    except (TimeoutError, aiohttp.ClientError, OSError) as exc:
        raise NotNow(f"no answer from Discord for {where} ({type(exc).__name__})") from exc
