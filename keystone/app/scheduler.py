"""The one scheduler: reminders, turns run out, and bot turns nobody is waiting on an interaction for.

Each tick asks the service for the clocks' due work (the deadlines and reminders live in the
database, so after a restart overdue work runs once) and for due bot turns (everywhere on the
first tick, later only where a failure interrupted one), and posts what they say through an
`Outbox`. Between ticks it sleeps until the next reminder or deadline, at most `MOST_WAIT`
seconds. A failure to post is logged and never stops the loop. No Discord here: the cog layer
implements the outbox.

A process that runs some of the bot's shards serves only their games (`Shards`), so when several
processes share one database no reminder, turn run out or bot turn is handled twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from keystone.app.replies import Post, Reply
from keystone.app.service import GameService
from keystone.store import Shards

log = logging.getLogger(__name__)

MOST_WAIT = 30.0
"""Seconds between ticks at most (bot turns a failure left undone are looked for this often)."""


class Outbox(Protocol):
    """Where the scheduler posts: a public reply in a channel, a private text to a person's DMs."""

    async def to_channel(self, channel_id: int, reply: Reply) -> None: ...

    async def to_user(self, user_id: int, text: str) -> None: ...


class Scheduler:
    """Call `tick()` directly (tests), or `start()` the loop and `stop()` it when closing."""

    def __init__(
        self, service: GameService, outbox: Outbox, *, ready: Callable[[], Awaitable[object]] | None = None,
        most_wait: float = MOST_WAIT, shards: Shards | None = None,
    ) -> None:
        self.service = service
        self.shards = shards
        """The shards whose games this scheduler serves (None: every game, no sharding)."""
        self.outbox = outbox
        self._ready = ready
        self._most_wait = most_wait
        self._ticks = 0
        self._tick_lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    async def tick(self) -> int:
        """Do everything due now and post it; return how many posts were made (or attempted)."""
        async with self._tick_lock:
            first = self._ticks == 0
            self._ticks += 1
            posts: list[Post] = []
            try:
                posts += await self.service.due_work(shards=self.shards)
            except Exception:
                log.exception("could not look at the turn clocks")
            try:
                bot_turns = await self.service.play_due_bot_turns(everywhere=first, shards=self.shards)
                posts += [Post(reply, channel_id=channel) for channel, reply in bot_turns]
            except Exception:
                log.exception("could not look for due bot turns")
            for post in posts:
                await self._send(post)
            return len(posts)

    async def _send(self, post: Post) -> None:
        try:
            if post.channel_id is not None:
                await self.outbox.to_channel(post.channel_id, post.reply)
            elif post.user_id is not None and post.reply.private is not None:
                await self.outbox.to_user(post.user_id, post.reply.private)
        except Exception:
            log.exception("could not post to channel %s / user %s", post.channel_id, post.user_id)

    async def wait(self) -> float:
        """Seconds to sleep before the next tick: until the next reminder or deadline, at most `most_wait`."""
        try:
            due = await self.service.store.next_due(shards=self.shards)
        except Exception:
            log.exception("could not read the next due time")
            return self._most_wait
        if due is None:
            return self._most_wait
        return min(self._most_wait, max(0.5, due - self.service.clock()))

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="keystone-scheduler")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        if self._ready is not None:
            await self._ready()
        while True:
            try:
                await self.tick()
                pause = await self.wait()
            except Exception:
                log.exception("a scheduler tick failed")
                pause = self._most_wait
            await asyncio.sleep(pause)
