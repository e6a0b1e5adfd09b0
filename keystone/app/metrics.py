"""What the bot counts for its operators, in Prometheus' terms, in a registry of each bot's own (so
tests, and several bots in one process, never mix their numbers).

The cogs count interactions and their answer time, the service the moves it saves, the scheduler its
lateness and work, the painter (wrapped in `MeteredPainter`) its pictures, the store its errors.
What the database knows (games running, messages waiting or given up) is read when scraped
(`refresh`), at most every `REFRESH_EVERY` seconds, so a busy scraper costs two small queries.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import ParamSpec, TypeVar

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from keystone.app.delivery import Courier, Undeliverable
from keystone.app.painter import Painter
from keystone.app.replies import Reply
from keystone.store import Shards, Store

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

REFRESH_EVERY = 5.0
"""Seconds the database's counts are kept before a scrape reads them again."""
OUTCOMES = ("answered", "refused", "failed")
"""How an interaction ended: answered, refused with a sentence (nothing changed), or failed."""
KINDS = ("competitive", "solo", "coop")
"""The kinds of game the store keeps (each is shown, at 0 when none runs)."""
ANSWER_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0)
"""Answer times: Discord wants a first answer within 3 s (the cogs defer after 2)."""
LAG_BUCKETS = (0.1, 0.5, 1.0, 2.0, 5.0, 15.0, 30.0, 60.0, 300.0, 3600.0)
PICTURE_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0, 60.0)


class Metrics:
    """Every number the bot exposes; `text()` is the page `/metrics` serves."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, refresh_every: float = REFRESH_EVERY) -> None:
        self.registry = CollectorRegistry()
        self._clock = clock
        self.refresh_every = refresh_every
        """Seconds the database's counts are kept (0: read at every scrape)."""
        self._read_at = -math.inf
        registry = self.registry
        self.interactions = Counter("keystone_interactions", "Interactions answered, by command and outcome",
                                    ["command", "outcome"], registry=registry)
        self.answer_seconds = Histogram("keystone_answer_seconds", "Seconds from an interaction to its answer",
                                        ["command"], buckets=ANSWER_BUCKETS, registry=registry)
        self.moves = Counter("keystone_moves_applied", "Moves saved, by kind of game", ["kind"], registry=registry)
        self.games = Gauge("keystone_games_running", "Games running in this process's shards, by kind",
                           ["kind"], registry=registry)
        self.lag = Histogram("keystone_scheduler_lag_seconds", "How late the scheduler did work that was due",
                             buckets=LAG_BUCKETS, registry=registry)
        self.work = Counter("keystone_scheduler_work", "Work the scheduler did, by kind", ["kind"],
                            registry=registry)
        self.pictures = Histogram("keystone_picture_seconds", "Seconds to draw a picture, by picture",
                                  ["picture"], buckets=PICTURE_BUCKETS, registry=registry)
        self.posts = Gauge("keystone_posts", "Messages owed to Discord: waiting, or given up (failed for good)",
                           ["state"], registry=registry)
        self.post_failures = Counter("keystone_post_failures", "Tries to post an owed message that failed",
                                     ["reason"], registry=registry)
        self.database_errors = Counter("keystone_database_errors", "Database operations that failed, by kind",
                                       ["kind"], registry=registry)
        self.shards = Gauge("keystone_shard_connected", "1 while the shard's gateway is connected, else 0",
                            ["shard"], registry=registry)

    # ------------------------------------------------------------------ counted where they happen

    def answered(self, command: str, outcome: str, seconds: float) -> None:
        self.interactions.labels(command, outcome).inc()
        self.answer_seconds.labels(command).observe(seconds)

    def moved(self, kind: str, count: int) -> None:
        self.moves.labels(kind).inc(count)

    def ticked(self, lag: float | None, work: Mapping[str, int]) -> None:
        """One scheduler tick: how late its due work ran (None: nothing was due), and what it did."""
        if lag is not None:
            self.lag.observe(max(0.0, lag))
        for kind, count in work.items():
            if count:
                self.work.labels(kind).inc(count)

    def drew(self, picture: str, seconds: float) -> None:
        self.pictures.labels(picture).observe(seconds)

    def post_failed(self, reason: str) -> None:
        self.post_failures.labels(reason).inc()

    def database_error(self, error: BaseException) -> None:
        self.database_errors.labels(type(error).__name__).inc()

    # ------------------------------------------------------------------ read when scraped

    async def refresh(self, store: Store | None, shards: Shards | None, connected: Mapping[int, bool]) -> None:
        """Read the database's counts (unless read in the last few seconds) and the shards' state."""
        for shard, up in connected.items():
            self.shards.labels(str(shard)).set(1 if up else 0)
        now = self._clock()
        if store is None or now - self._read_at < self.refresh_every:
            return
        try:
            running = await store.running_games(shards=shards)
            posts = await store.outbox_counts()
        except Exception as error:
            log.warning("could not read the counts for the metrics: %s", error)
            return
        self._read_at = now
        for kind in sorted({*KINDS, *running}):
            self.games.labels(kind).set(running.get(kind, 0))
        self.posts.labels("waiting").set(posts.get("waiting", 0))
        self.posts.labels("given_up").set(posts.get("given up", 0))

    def text(self) -> bytes:
        return generate_latest(self.registry)


class MeteredPainter(Painter):
    """A painter that times each picture its inner painter draws."""

    def __init__(self, inner: Painter, metrics: Metrics) -> None:
        self.inner = inner
        self.metrics = metrics
        self.workers = inner.workers

    async def start(self) -> None:
        await self.inner.start()

    async def draw(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        began = time.perf_counter()
        drawn = await self.inner.draw(fn, *args, **kwargs)
        self.metrics.drew(getattr(fn, "__name__", "picture"), time.perf_counter() - began)
        return drawn

    async def close(self) -> None:
        await self.inner.close()


class MeteredCourier:
    """A courier that counts the owed messages Discord would not take: for now ("retry") or for good
    ("refused")."""

    def __init__(self, inner: Courier, metrics: Metrics) -> None:
        self.inner = inner
        self.metrics = metrics

    async def to_channel(self, channel_id: int, reply: Reply, nonce: str) -> None:
        await self._counted(self.inner.to_channel(channel_id, reply, nonce))

    async def to_user(self, user_id: int, text: str, nonce: str) -> None:
        await self._counted(self.inner.to_user(user_id, text, nonce))

    async def shown_as_answer(self, answer: str, reply: Reply) -> bool:
        return await self.inner.shown_as_answer(answer, reply)

    async def _counted(self, posting: Awaitable[None]) -> None:
        try:
            await posting
        except Undeliverable:
            self.metrics.post_failed("refused")
            raise
        except Exception:
            self.metrics.post_failed("retry")
            raise
