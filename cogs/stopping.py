"""A graceful stop: on SIGTERM (or Ctrl-C) the bot takes no new interactions, finishes those in
flight, delivers what it owes, closes the picture workers and the database, and exits 0, all
within `GRACE` seconds; a second SIGTERM or SIGINT ends it at once.

While stopping, a new interaction gets a short private answer (`ops.restarting`) rather than
Discord's "The application did not respond": the connection stays open until the last answer went.
What the stop could not deliver stays owed in the database, and the next start posts it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import threading
import time
import weakref
from collections.abc import AsyncIterator, Callable

import discord

from cogs.bot import KeystoneBot

log = logging.getLogger(__name__)

GRACE = 10.0
"""Seconds from the signal to the exit, at most (a watchdog ends the process should the stop hang)."""
FINISHING = 6.0
"""Seconds the interactions in flight may take to finish; one slower is left to the next start."""
DELIVERING = 2.0
"""Seconds to post what is owed once they finished."""
SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Gate:
    """The interactions in flight, and whether new ones are still taken."""

    def __init__(self) -> None:
        self.closing = False
        self.in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @contextlib.asynccontextmanager
    async def holding(self) -> AsyncIterator[None]:
        """Count one interaction while it is handled."""
        self.in_flight += 1
        self._idle.clear()
        try:
            yield
        finally:
            self.in_flight -= 1
            if self.in_flight == 0:
                self._idle.set()

    async def drained(self, timeout: float) -> bool:
        """Wait until no interaction is in flight; False if some still were after `timeout` seconds."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True


_gates: weakref.WeakKeyDictionary[discord.Client, Gate] = weakref.WeakKeyDictionary()


def gate_of(client: discord.Client) -> Gate:
    """The client's gate (made on first use)."""
    found = _gates.get(client)
    if found is None:
        found = _gates[client] = Gate()
    return found


async def stop(bot: KeystoneBot, *, finishing: float = FINISHING, delivering: float = DELIVERING) -> None:
    """Stop in order: close the gate, let what is in flight finish, stop the scheduler and deliver
    what is owed one last time, then close the bot (its connection, store and picture workers)."""
    gate = gate_of(bot)
    started = time.monotonic()
    gate.closing = True
    log.info("stopping: taking no new interactions, finishing %d in flight", gate.in_flight)
    if not await gate.drained(finishing):
        log.warning("stopping: %d interaction(s) still unfinished after %.0f s; what they owe is posted "
                    "at the next start", gate.in_flight, finishing)
    scheduler = bot.scheduler
    if scheduler is not None:
        await scheduler.stop()
        try:
            sent = await asyncio.wait_for(scheduler.deliverer.deliver(), delivering)
        except TimeoutError:
            log.warning("stopping: delivering took over %.0f s; the rest is posted at the next start", delivering)
        except Exception:
            log.exception("stopping: could not deliver what is owed; it is posted at the next start")
        else:
            if sent:
                log.info("stopping: delivered %d owed message(s)", sent)
    await bot.close()
    log.info("stopped in %.1f s", time.monotonic() - started)


class Stopper:
    """Turns the first SIGTERM or SIGINT into `stop(bot)` and any later one into an exit at once."""

    def __init__(self, bot: KeystoneBot, *, grace: float = GRACE,
                 exit_now: Callable[[int], None] = os._exit) -> None:
        self.bot = bot
        self.grace = grace
        self.exit_now = exit_now
        self.task: asyncio.Task[None] | None = None

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        for signum in SIGNALS:
            loop.add_signal_handler(signum, self.received, signum)

    def received(self, signum: int) -> None:
        name = signal.Signals(signum).name
        if self.task is not None:
            log.warning("%s again while stopping: exiting at once", name)
            self._exit(128 + signum)
            return
        log.info("%s received: stopping (again to exit at once)", name)
        self.task = asyncio.get_running_loop().create_task(stop(self.bot), name="keystone-stop")
        watchdog = threading.Timer(self.grace, self._overdue)
        watchdog.daemon = True
        watchdog.start()

    def _overdue(self) -> None:
        log.error("the stop took over %.0f s: exiting now", self.grace)
        self._exit(1)

    def _exit(self, code: int) -> None:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        self.exit_now(code)


async def serve(bot: KeystoneBot, token: str) -> None:
    """Log in and serve until stopped (as `bot.run` would, with the graceful stop on signals)."""
    stopper = Stopper(bot)
    async with bot:
        stopper.install(asyncio.get_running_loop())
        await bot.start(token)
        if stopper.task is not None:
            await stopper.task

