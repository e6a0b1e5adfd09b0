"""Where pictures are drawn: off the event loop, in threads or in a pool of worker processes.

Pillow holds the GIL while it draws, so drawing in threads slows every answer the process gives
while a picture is made; worker processes draw beside the event loop instead. What a worker is
given (views, states, score sheets: pydantic models and plain data) and what it gives back (a
file name, bytes and alt text) is pickled across; that costs well under a millisecond a picture.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import ParamSpec, TypeVar

from keystone import render

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

PRELOAD = ["keystone.app.pictures", "keystone.app.replays"]
"""Modules the fork server imports once, so every worker forked from it starts with them loaded."""


def start_method() -> str:
    """A start method safe beside a running event loop and its threads (fork copies their locks):
    the fork server where the platform has one, else spawn."""
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


class Painter:
    """Draws in the event loop's default thread pool: the behaviour without worker processes."""

    async def start(self) -> None:
        """Get ready to draw; threads need nothing."""

    async def draw(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(*args, **kwargs)` drawn off the event loop."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def close(self) -> None:
        """Stop drawing; threads need nothing."""


class PoolPainter(Painter):
    """Draws in `workers` processes. `fn` and its arguments must pickle (module-level functions,
    pydantic models, plain data). A worker that dies costs no picture: that draw (and any caught
    with it) is done in a thread, and a fresh pool takes the next ones."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError("a pool painter needs at least one worker")
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def _new_pool(self) -> ProcessPoolExecutor:
        context = multiprocessing.get_context(start_method())
        if start_method() == "forkserver":
            context.set_forkserver_preload(PRELOAD)
        return ProcessPoolExecutor(self.workers, mp_context=context, initializer=_get_ready)

    async def start(self) -> None:
        """Start every worker and let each draw its card faces, so the first move is not slow.

        A worker warms up before it takes its first picture, so this returns once the pool has
        answered one call per worker (a worker quicker than the rest may answer more than one)."""
        if self._pool is None:
            self._pool = self._new_pool()
        loop = asyncio.get_running_loop()
        pids = await asyncio.gather(*(loop.run_in_executor(self._pool, os.getpid) for _ in range(self.workers)))
        log.info("Drawing pictures in %d worker process(es) (%s)", self.workers,
                 ", ".join(str(p) for p in sorted(set(pids))))

    async def draw(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        pool = self._pool
        if pool is None:  # not started, or closed while a move was still being answered
            return await super().draw(fn, *args, **kwargs)
        try:
            return await asyncio.wrap_future(pool.submit(fn, *args, **kwargs))
        except BrokenProcessPool:
            self._replace(pool)
            return await super().draw(fn, *args, **kwargs)

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """Swap a broken pool for a new one; only the first draw to find it broken does (and logs)."""
        if self._pool is not broken:
            return
        log.warning("A picture worker stopped unexpectedly; drawing in a thread while a new pool starts")
        broken.shutdown(wait=False, cancel_futures=True)
        self._pool = self._new_pool()

    async def close(self) -> None:
        """Finish the pictures asked for so far, then stop every worker; later ones are drawn in threads."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True)


def _get_ready() -> None:
    """A new worker's first act: leave Ctrl+C to the bot (which stops the pool in order, where an
    interrupted worker would break it), then draw every card face so its first picture is quick."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    render.warm_up()


def painter_for(workers: int) -> Painter:
    """Threads for 0 workers, else a pool of that many processes."""
    return PoolPainter(workers) if workers > 0 else Painter()
