"""pytest fixtures: a running `FakeDiscord`, and a runner that connects real discord.py bots to it.

    async def test_something(fake_discord, bot_runner):
        bot = await bot_runner.start(MyBot())
        result = await fake_discord.slash(fake_discord.user("alice"), fake_discord.channel("general"), "ping")

The runner points discord.py at the fake (REST base and gateway), watches each bot
task so a crash fails the test at once, and fails the test at teardown if the bot
logged errors nobody took with `take_error_logs()`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import types
import warnings
from collections.abc import AsyncIterator, Iterator
from typing import Any, TypeVar

import discord
import discord.http
import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .harness import BotCrashed, BotTimeout
from .server import FakeDiscord

BotT = TypeVar("BotT", bound=discord.Client)


class ErrorLogCollector(logging.Handler):
    """Keeps every ERROR record so a test cannot pass while the bot quietly failed."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__(logging.ERROR)
        self.fake = fake
        self.records: list[logging.LogRecord] = []
        self.setFormatter(logging.Formatter("%(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        if record.name == "asyncio" and record.getMessage().startswith("Unclosed"):
            return  # reported when garbage is collected, often during a later test: not this test's fault
        self.records.append(record)
        self.fake.log_errors.append(self.format(record))


async def no_identify_pause(shard_id: int | None, *, initial: bool = False) -> None:
    return None


class BotRunner:
    """Starts and stops discord.py bots against one fake server; restarts are allowed."""

    def __init__(self, fake: FakeDiscord, *, guild_ready_timeout: float = 0.1) -> None:
        self.fake = fake
        self.guild_ready_timeout = guild_ready_timeout
        self.fail_on_error_logs = True
        self._tasks: dict[discord.Client, asyncio.Task[None]] = {}
        self._saved: tuple[str, yarl.URL] | None = None
        self._errors = ErrorLogCollector(fake)
        logging.getLogger().addHandler(self._errors)

    def _point_discord_py_at_fake(self) -> None:
        if self._saved is None:
            self._saved = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
        Route.BASE = self.fake.base_url
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.fake.gateway_url)

    def _restore(self) -> None:
        if self._saved is not None:
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None

    async def start(self, bot: BotT, *, timeout: float = 10.0) -> BotT:
        """Log the bot in, let it sync commands and connect, and return once on_ready fired."""
        self._point_discord_py_at_fake()
        state = bot._connection
        state.guild_ready_timeout = min(state.guild_ready_timeout, self.guild_ready_timeout)
        # discord.py pauses 5 s before re-identifying to respect Discord's limits; the fake has none.
        bot.before_identify_hook = no_identify_pause  # type: ignore[method-assign]
        task = asyncio.create_task(bot.start(self.fake.token), name=f"fake-discord-bot-{len(self._tasks)}")
        self._tasks[bot] = task
        self.fake.watch(task)
        try:
            await self._wait_ready(bot, task, timeout)
        except BaseException:
            self._tasks.pop(bot)
            self.fake.unwatch(task)
            await bot.close()
            task.cancel()
            raise
        return bot

    async def _wait_ready(self, bot: discord.Client, task: asyncio.Task[None], timeout: float) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not bot.is_ready():
            if task.done():
                self.fake.check_bot_alive()
            if loop.time() > deadline:
                raise BotTimeout(f"the bot was not ready after {timeout}s")
            await asyncio.sleep(0.01)

    async def stop(self, bot: discord.Client) -> None:
        """Close the bot the way a shutdown would; re-raises anything its task died of."""
        task = self._tasks.pop(bot)
        self.fake.unwatch(task)
        if task.done() and not task.cancelled() and task.exception() is not None:
            raise BotCrashed(f"the bot had crashed: {task.exception()!r}") from task.exception()
        await bot.close()
        with contextlib.suppress(discord.ConnectionClosed, asyncio.CancelledError):
            await asyncio.wait_for(task, timeout=10)

    def take_error_logs(self) -> list[logging.LogRecord]:
        """The ERROR records logged so far (and forget them, so teardown does not fail on them)."""
        records, self._errors.records = self._errors.records, []
        self.fake.log_errors.clear()
        return records

    async def close(self) -> None:
        try:
            for bot in list(self._tasks):
                await self.stop(bot)
        finally:
            self._restore()
            logging.getLogger().removeHandler(self._errors)
        if self.fail_on_error_logs and self._errors.records:
            lines = "\n".join(self._errors.format(r) for r in self._errors.records)
            pytest.fail(f"the bot logged errors during the test:\n{lines}")


class _ScaledAsyncio(types.ModuleType):
    """`asyncio` as discord.http sees it, whose `sleep` records the pause asked for and takes a fraction."""

    def __init__(self, scale: float, pauses: list[float]) -> None:
        super().__init__("asyncio")
        self._scale, self._pauses = scale, pauses

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, delay: float, result: Any = None) -> Any:
        if delay > 0:
            self._pauses.append(delay)
        return await asyncio.sleep(delay * self._scale, result)


@contextlib.contextmanager
def quick_retries(scale: float = 0.01) -> Iterator[list[float]]:
    """Shrink the pauses discord.py's HTTP client takes between retries (after a 500 or 502 it waits
    1, 3, 5, 7 and 9 s; after a 429 the `retry_after` it was given) to `scale` of themselves, and
    yield the list of pauses it asked for, in seconds, so a test can check them (not the 0 s sleeps it
    takes after most requests, as the fake sends no rate limit headers and discord.py assumes 1 left).

        with quick_retries() as pauses:
            fake.faults.add("500", times=5)
            with pytest.raises(discord.DiscordServerError): await channel.send("x")
        assert pauses == [1, 3, 5, 7, 9]
    """
    pauses: list[float] = []
    saved: types.ModuleType = discord.http.asyncio  # type: ignore[attr-defined]
    discord.http.asyncio = _ScaledAsyncio(scale, pauses)  # type: ignore[attr-defined]
    try:
        yield pauses
    finally:
        discord.http.asyncio = saved  # type: ignore[attr-defined]


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started fake server with one guild (#general, #table-1, #table-2) and alice, bob, carol, dave."""
    fake = FakeDiscord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.close()
    if fake.unknown_routes:
        warnings.warn(f"the bot called routes the fake does not know: {fake.unknown_routes}", stacklevel=1)


@pytest.fixture
async def bot_runner(fake_discord: FakeDiscord) -> AsyncIterator[BotRunner]:
    """Starts bots against `fake_discord`; stops them and restores discord.py afterwards."""
    runner = BotRunner(fake_discord)
    try:
        yield runner
    finally:
        await runner.close()
