"""The bot's own small web server for its operators: `/metrics` (Prometheus' text format) and
`/healthz` (200 "ok" while every shard's gateway is connected and the database answers, else 503
and one line saying why). Served from the bot's event loop with aiohttp, on an address the
settings give (127.0.0.1 unless told otherwise), only when KEYSTONE_METRICS_PORT is set.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable

import discord
from aiohttp import web

from keystone.app.metrics import Metrics

log = logging.getLogger(__name__)

PING_TIMEOUT = 2.0
"""Seconds the database has to answer the health check's query."""
METRICS_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def gateways(client: discord.Client) -> dict[int, bool]:
    """Each shard this process runs (0 when unsharded) -> whether its gateway is connected now."""
    if isinstance(client, discord.AutoShardedClient):
        running = client.shards
        ids: Iterable[int] = client.shard_ids or range(client.shard_count or 1)
        return {shard: shard in running and not running[shard].is_closed() for shard in ids}
    socket = client.ws
    return {client.shard_id or 0: not client.is_closed() and socket is not None and socket.open}


class HealthServer:
    """`/metrics` and `/healthz` for one bot. `refresh` brings the counts read when scraped up to
    date; `ping` raises unless the database answers; `hidden` (the database password) never shows."""

    def __init__(self, client: discord.Client, metrics: Metrics, *, refresh: Callable[[], Awaitable[None]],
                 ping: Callable[[], Awaitable[None]], hidden: str | None = None) -> None:
        self.client = client
        self.metrics = metrics
        self._refresh = refresh
        self._ping = ping
        self._hidden = hidden
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        """The port it listens on once started (the one the system chose, for port 0)."""

    async def start(self, host: str, port: int) -> int:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.port = int(site._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]
        log.info("Serving /metrics and /healthz on %s:%d", host, self.port)
        return self.port

    async def close(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def _metrics(self, request: web.Request) -> web.Response:
        await self._refresh()
        return web.Response(body=self.metrics.text(), headers={"Content-Type": METRICS_TYPE})

    async def _healthz(self, request: web.Request) -> web.Response:
        problem = await self.problem()
        if problem is None:
            return web.Response(text="ok\n")
        return web.Response(status=503, text=problem + "\n")

    async def problem(self) -> str | None:
        """Why the bot is not healthy, in one line; None when it is."""
        down = sorted(shard for shard, up in gateways(self.client).items() if not up)
        if down:
            which = "" if down == [0] and not isinstance(self.client, discord.AutoShardedClient) \
                else f" ({'shard' if len(down) == 1 else 'shards'} {', '.join(map(str, down))})"
            return f"gateway disconnected{which}"
        try:
            await asyncio.wait_for(self._ping(), PING_TIMEOUT)
        except Exception as error:
            return f"database not answering: {self._reason(error)}"
        return None

    def _reason(self, error: BaseException) -> str:
        if isinstance(error, TimeoutError):
            return f"no answer within {PING_TIMEOUT:g} s"
        reason = " ".join(str(error).split()) or type(error).__name__
        if self._hidden:
            reason = reason.replace(self._hidden, "[redacted]")
        return reason[:200]
