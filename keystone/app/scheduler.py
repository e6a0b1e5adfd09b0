"""The one scheduler: reminders, turns run out, bot turns nobody is waiting on an interaction for,
delivering what the bot owes Discord, and forgetting servers 30 days after the bot left them.

Each tick asks the service for the clocks' due work (the deadlines and reminders live in the
database, so after a restart overdue work runs once) and for due bot turns (everywhere on the
first tick, later only where a failure interrupted one); that work writes its messages to the
outbox with its moves, and the tick then delivers the outbox (`Deliverer`). Between ticks it
sleeps until the next reminder, deadline or retry, at most `MOST_WAIT` seconds, or until the
service says new messages are owed or a clock it saved falls due sooner. A failure is logged and
never stops the loop. No Discord here: the cog layer gives the courier.

A process that runs some of the bot's shards serves only their games (`Shards`), so when several
processes share one database no reminder, turn run out, bot turn or message is handled twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Awaitable, Callable

from keystone.app.delivery import Courier, Deliverer
from keystone.app.privacy import Privacy
from keystone.store import Shards

log = logging.getLogger(__name__)

MOST_WAIT = 30.0
"""Seconds between ticks at most (bot turns a failure left undone are looked for this often)."""


class Scheduler:
    """Call `tick()` directly (tests), or `start()` the loop and `stop()` it when closing."""

    def __init__(
        self, service: Privacy, courier: Courier, *, ready: Callable[[], Awaitable[object]] | None = None,
        most_wait: float = MOST_WAIT, shards: Shards | None = None,
        on_tick: Callable[[float | None, dict[str, int]], None] | None = None,
    ) -> None:
        self.service = service
        self.shards = shards
        """The shards whose games this scheduler serves (None: every game, no sharding)."""
        self.deliverer = Deliverer(service.store, courier, shards=shards)
        self._ready = ready
        self._on_tick = on_tick
        """Told after each tick how late its due work ran (None: none was due) and what it did (the metrics)."""
        self._most_wait = most_wait
        self._ticks = 0
        self._tick_lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._woken = asyncio.Event()
        self._wake_at = -math.inf
        """When the loop will tick next of itself (-inf while it is ticking)."""
        self._started = service.clock()
        service.wake = self.wake
        service.due = self.due

    def wake(self) -> None:
        """Tick soon: messages are owed that no interaction will post."""
        self._woken.set()

    def due(self, at: float) -> None:
        """A clock just saved falls due at `at`: tick then, if the loop would sleep past it."""
        if at < self._wake_at:
            self._woken.set()

    async def tick(self) -> int:
        """Do everything due now and deliver what is owed; return how many messages Discord accepted."""
        async with self._tick_lock:
            first = self._ticks == 0
            self._ticks += 1
            if first:
                await self._take_over()
            late = await self._lateness() if self._on_tick is not None else None
            work = {"clocks": 0, "bot_turns": 0, "delivered": 0}
            try:
                work["clocks"] = len(await self.service.due_work(shards=self.shards))
            except Exception:
                log.exception("could not look at the turn clocks")
            try:
                work["bot_turns"] = len(await self.service.play_due_bot_turns(everywhere=first, shards=self.shards))
            except Exception:
                log.exception("could not look for due bot turns")
            try:
                await self.service.forget_departed(shards=self.shards)
            except Exception:
                log.exception("could not forget the servers the bot left")
            try:
                work["delivered"] = await self.deliverer.deliver()
            except Exception:
                log.exception("could not deliver the messages owed")
            if self._on_tick is not None:
                self._on_tick(late, work)
            return work["delivered"]

    async def _lateness(self) -> float | None:
        """Seconds since the earliest reminder, deadline or retry due now fell due (None: none is due)."""
        try:
            times = [await self.service.store.next_due(shards=self.shards),
                     await self.service.store.next_post_at(shards=self.shards)]
        except Exception:
            return None
        now = self.service.clock()
        return max((now - t for t in times if t is not None and t <= now), default=None)

    async def _take_over(self) -> None:
        """At start-up, the messages an earlier process's interactions had not posted (it stopped or
        crashed) are this one's to deliver, in the channel, at once."""
        try:
            taken = await self.service.store.release_held(self._started, shards=self.shards)
        except Exception:
            log.exception("could not take over the messages owed before the restart")
            return
        if taken:
            log.info("%d message(s) the last run answered no interaction with go to their channels", taken)

    async def wait(self) -> float:
        """Seconds to sleep before the next tick: until the next reminder, deadline or retry, at most `most_wait`."""
        try:
            times = [await self.service.store.next_due(shards=self.shards),
                     await self.service.store.next_post_at(shards=self.shards)]
        except Exception:
            log.exception("could not read the next due time")
            return self._most_wait
        due = min((t for t in times if t is not None), default=None)
        if due is None:
            return self._most_wait
        return min(self._most_wait, max(0.5, due - self.service.clock()))

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="keystone-scheduler")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            async with self._tick_lock:  # a tick in progress ends first: cancelled inside a transaction, it
                task.cancel()            # would leave the database connection inside it
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        if self._ready is not None:
            await self._ready()
        while True:
            self._woken.clear()
            self._wake_at = -math.inf
            try:
                await self.tick()
                pause = await self.wait()
            except Exception:
                log.exception("a scheduler tick failed")
                pause = self._most_wait
            self._wake_at = self.service.clock() + pause
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), pause)
