"""Where pictures are drawn: off the event loop, in threads or in a pool of worker processes.

Pillow holds the GIL while it draws, so drawing in threads slows every answer the process gives
while a picture is made; worker processes draw beside the event loop instead. What a worker is
given (views, states, score sheets: pydantic models and plain data) and what it gives back (a
file name, bytes and alt text) is pickled across; that costs well under a millisecond a picture.

A worker can hang, and a game would wait for ever for its picture: so a picture has a time limit,
counted from when a worker takes it (a queue of pictures is no hang), and a pool with a worker past
its limit is killed and replaced while that picture is drawn in a thread. A bot killed outright
(SIGKILL) runs no clean-up, so each worker ties its own life to the bot's rather than wait to be told.
"""

from __future__ import annotations

import asyncio
import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from typing import ParamSpec, TypeVar

from keystone import render

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

PRELOAD = ["keystone.app.pictures", "keystone.app.replays"]
"""Modules the fork server imports once, so every worker forked from it starts with them loaded."""

LIMIT = 10.0
"""Seconds a picture may take in a worker before the worker counts as stuck; most take a tenth of one."""

SLOW = {"keystone.app.replays.replay_file": 120.0}
"""Longer limits, by function: a replay draws every turn of a game and encodes a GIF (about 10 s on a
busy machine, bench/bench_replay.py)."""

WARM_UP = 60.0
"""Seconds a new worker may take to start and draw its card faces (about one)."""

PR_SET_PDEATHSIG = 1
"""Linux prctl option: the signal the kernel sends a process when its parent dies."""


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


@dataclass(eq=False, slots=True)
class _Ask:
    """One call given to a pool: what it is called, its time limit, and when a worker took it."""

    name: str
    limit: float
    started: float = 0.0


class _Pool:
    """A process pool and the calls it was given, in the order its workers take them (first come,
    first taken: a worker that finishes takes the oldest call waiting), so a call's time limit counts
    from when a worker took it, not from when it was asked for."""

    def __init__(self, workers: int) -> None:
        context = multiprocessing.get_context(start_method())
        if context.get_start_method() == "forkserver":
            context.set_forkserver_preload(PRELOAD)
        self.executor = ProcessPoolExecutor(workers, mp_context=context, initializer=_get_ready)
        self.workers = workers
        processes = getattr(self.executor, "_processes", None)
        self.processes: Mapping[int, BaseProcess] = processes if isinstance(processes, dict) else {}
        """The executor's own map of its workers (it adds each as it starts it; shutdown drops the
        executor's hold on it, not ours): what `stop` kills."""
        self.stopped = False
        self._lock = threading.Lock()  # the executor's thread reports calls done
        self._waiting: deque[_Ask] = deque()
        self._running: list[_Ask] = []
        self.ready = [self.submit(WARM_UP, os.getpid) for _ in range(workers)]
        """One call a worker, first in the queue: every worker starts and warms up before a picture's
        time counts."""

    def submit(self, limit: float, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        future = self.executor.submit(fn, *args, **kwargs)
        ask = _Ask(_name(fn), limit)
        with self._lock:
            self._waiting.append(ask)
            self._take()
        future.add_done_callback(lambda _: self._done(ask))
        return future

    def _done(self, ask: _Ask) -> None:
        with self._lock:
            if ask in self._running:
                self._running.remove(ask)
            elif ask in self._waiting:  # cancelled before a worker took it
                self._waiting.remove(ask)
            self._take()

    def _take(self) -> None:
        while self._waiting and len(self._running) < self.workers:
            ask = self._waiting.popleft()
            ask.started = time.monotonic()
            self._running.append(ask)

    def overdue(self) -> _Ask | None:
        """A call a worker has drawn for longer than its limit, if any."""
        now = time.monotonic()
        with self._lock:
            return next((a for a in self._running if now - a.started > a.limit), None)

    def stop(self) -> bool:
        """Kill every worker, busy or not (shutdown alone waits for a busy one: for ever, if it is stuck),
        which fails every call not yet drawn with BrokenProcessPool. False when already stopped."""
        if self.stopped:
            return False
        self.stopped = True
        for process in list(self.processes.values()):
            with suppress(OSError, ValueError):  # already reaped, or closed
                if process.is_alive():
                    process.kill()
        self.executor.shutdown(wait=False)
        return True


class PoolPainter(Painter):
    """Draws in `workers` processes. `fn` and its arguments must pickle (module-level functions,
    pydantic models, plain data). A worker that dies, or takes longer than `limit` seconds over a
    picture (or its longer limit in `slow`, by function), costs no picture: that draw (and any caught
    with it) is done in a thread, and a fresh pool takes the next ones."""

    def __init__(self, workers: int, limit: float = LIMIT, slow: Mapping[str, float] = SLOW) -> None:
        if workers < 1:
            raise ValueError("a pool painter needs at least one worker")
        if min(limit, *slow.values()) <= 0:
            raise ValueError("a time limit must be more than no time")
        self.workers = workers
        self.limit = limit
        self.slow = dict(slow)
        self._pool: _Pool | None = None

    def limit_for(self, fn: Callable[..., object]) -> float:
        """Seconds `fn` may take in a worker."""
        return self.slow.get(_name(fn), self.limit)

    def _tick(self) -> float:
        """How often a draw that waits checks its pool for a stuck worker."""
        return min(1.0, self.limit / 4, *(s / 4 for s in self.slow.values()))

    async def start(self) -> None:
        """Start every worker and let each draw its card faces, so the first move is not slow.

        A worker warms up before it takes its first call, so this returns once the pool has answered
        one call per worker (a worker quicker than the rest may answer more than one)."""
        if self._pool is None:
            self._pool = _Pool(self.workers)
        pool = self._pool
        pids = await asyncio.gather(*(self._wait(pool, asyncio.wrap_future(f)) for f in pool.ready))
        log.info("Drawing pictures in %d worker process(es) (%s)", self.workers,
                 ", ".join(str(p) for p in sorted(set(pids))))

    async def draw(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        pool = self._pool
        if pool is None:  # not started, or closed while a move was still being answered
            return await super().draw(fn, *args, **kwargs)
        try:
            return await self._wait(pool, asyncio.wrap_future(pool.submit(self.limit_for(fn), fn, *args, **kwargs)))
        except BrokenProcessPool:
            self._replace(pool)
        return await super().draw(fn, *args, **kwargs)

    async def _wait(self, pool: _Pool, waiting: asyncio.Future[T]) -> T:
        """`waiting`'s result; meanwhile a call past its limit in `pool` stops the pool, and a stopped
        pool's calls raise BrokenProcessPool at once (not only once its executor has seen its workers die)."""
        try:
            while not waiting.done():
                await asyncio.wait({waiting}, timeout=self._tick())
                late = pool.overdue()
                if late is not None:
                    self._stuck(pool, late)
                if pool.stopped and not waiting.done():
                    raise BrokenProcessPool("the picture pool was stopped")
        except (asyncio.CancelledError, BrokenProcessPool):
            waiting.cancel()  # a call no worker has taken yet is dropped
            raise
        return waiting.result()

    def _stuck(self, pool: _Pool, late: _Ask) -> None:
        """Kill a pool with a worker past its limit, and start a new one if it was the painter's; only
        the first draw to find it so does (and logs)."""
        if not pool.stop():
            return
        log.warning("%s took over %g s in a picture worker; drawing in a thread while a new pool starts",
                    late.name, late.limit)
        if self._pool is pool:
            self._pool = _Pool(self.workers)

    def _replace(self, broken: _Pool) -> None:
        """Swap a broken pool for a new one; only the first draw to find it broken does (and logs)."""
        if self._pool is not broken:
            return
        log.warning("A picture worker stopped unexpectedly; drawing in a thread while a new pool starts")
        broken.stop()
        self._pool = _Pool(self.workers)

    async def close(self) -> None:
        """Finish the pictures asked for so far, then stop every worker; later ones are drawn in threads."""
        pool, self._pool = self._pool, None
        if pool is not None:
            with suppress(BrokenProcessPool):  # stopped meanwhile: its workers are killed, not finished
                await self._wait(pool, asyncio.ensure_future(asyncio.to_thread(pool.executor.shutdown, wait=True)))


def _name(fn: Callable[..., object]) -> str:
    """`fn`'s dotted name: what `SLOW` knows it by and a warning calls it."""
    return f"{getattr(fn, '__module__', None)}.{getattr(fn, '__qualname__', fn)}"


def _get_ready() -> None:
    """A new worker's first acts: end with the bot, leave Ctrl+C to the bot (which stops the pool in
    order, where an interrupted worker would break it), then draw every card face so its first
    picture is quick."""
    _end_with_the_bot()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    render.warm_up()


def _end_with_the_bot() -> None:
    """Make this worker end when the bot does, however the bot ends. Left alone, a worker outlives a
    killed bot for good: it waits for work on a pipe it holds open itself, and the fork server waits
    for every holder of its keep-alive pipe, workers included, to be gone.

    A thread exits once the pipe the bot keeps open for each worker (the sentinel of
    `parent_process()`) reads as closed. On Linux the kernel also kills the worker when its parent
    dies (PR_SET_PDEATHSIG), which reaches a worker too stuck to run that thread (in C code that holds
    the GIL). A fork server's worker has the fork server for parent, so it lets go of the server's
    keep-alive pipe: the server then ends when the bot does. A parent gone before prctl sends no
    signal; the bot is then gone too, which the thread sees."""
    bot = multiprocessing.parent_process()
    if bot is not None:
        threading.Thread(target=_exit_after, args=(bot,), name="end-with-the-bot", daemon=True).start()
    if sys.platform.startswith("linux"):
        from multiprocessing import forkserver

        server = forkserver._forkserver
        alive = getattr(server, "_forkserver_alive_fd", None)  # set in a fork server's worker only
        if isinstance(alive, int):
            server._forkserver_alive_fd = None  # type: ignore[attr-defined]
            with suppress(OSError):
                os.close(alive)
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _exit_after(bot: BaseProcess) -> None:
    bot.join()  # a parent_process() joins by waiting on its sentinel
    os._exit(1)


def painter_for(workers: int) -> Painter:
    """Threads for 0 workers, else a pool of that many processes."""
    return PoolPainter(workers) if workers > 0 else Painter()
