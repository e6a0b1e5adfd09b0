"""Where pictures are drawn: off the event loop, in threads or in a pool of worker processes.

Pillow holds the GIL while it draws, so drawing in threads slows every answer the process gives
while a picture is made; worker processes draw beside the event loop instead. What a worker is
given (views, states, score sheets: pydantic models and plain data) and what it gives back (a
file name, bytes and alt text) is pickled across a pipe each way, which the event loop writes and
reads itself: a turn picture costs the bot about 0.5 ms of CPU that way, where a process pool
executor's two threads (one to send, one to receive) cost it about 1.3 ms.

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
import pickle
import signal
import struct
import sys
import threading
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, ParamSpec, TypeVar

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

    workers: int = 1
    """How many drawings go on at once, as long work (hints, reviews) shares them out."""

    async def start(self) -> None:
        """Get ready to draw; threads need nothing."""

    async def draw(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(*args, **kwargs)` drawn off the event loop."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def close(self) -> None:
        """Stop drawing; threads need nothing."""


@dataclass(eq=False, slots=True)
class _Call:
    """One call given to a pool: what it is called, its time limit, the call pickled, where its
    answer goes, and (once a worker took it) when, and the timer that finds it overdue."""

    name: str
    limit: float
    payload: bytes
    future: asyncio.Future[Any]
    timer: asyncio.TimerHandle | None = None


@dataclass(eq=False)
class _Worker:
    """A worker process and the two pipes to it: calls go down one, answers come back up the other."""

    process: BaseProcess
    calls: Connection
    answers: Connection
    received: bytearray = field(default_factory=bytearray)
    call: _Call | None = None
    ready: bool = False


class _Pool:
    """Worker processes driven from the event loop, with no thread: a call is pickled and written to
    an idle worker's pipe, its answer read when that pipe is readable, a worker's end seen when its
    sentinel is. First come, first taken; a call's time limit counts from when a worker takes it.
    A dead worker, or one past its limit (`on_stuck`), stops the whole pool: every call it still has
    fails with BrokenProcessPool (the painter draws them in threads) and a new pool takes over."""

    def __init__(self, workers: int, on_stuck: Callable[[_Pool, _Call], None]) -> None:
        self.loop = asyncio.get_running_loop()
        self.on_stuck = on_stuck
        self.stopped = False
        self.waiting: deque[_Call] = deque()
        self.ready: list[asyncio.Future[int]] = []
        context = multiprocessing.get_context(start_method())
        if context.get_start_method() == "forkserver":
            context.set_forkserver_preload(PRELOAD)
        self.workers = [self._start(context) for _ in range(workers)]

    def _start(self, context: Any) -> _Worker:
        calls_out, calls_in = context.Pipe(duplex=False)
        answers_out, answers_in = context.Pipe(duplex=False)
        process = context.Process(target=_serve, args=(calls_out, answers_in), daemon=True)
        process.start()
        calls_out.close()
        answers_in.close()
        worker = _Worker(process, calls_in, answers_out)
        os.set_blocking(answers_out.fileno(), False)
        self._watch(worker)
        ready: asyncio.Future[int] = self.loop.create_future()
        worker.call = _Call("warm-up", WARM_UP, b"", ready)
        self._time(worker.call)
        self.ready.append(ready)
        return worker

    def _watch(self, worker: _Worker) -> None:
        """Read the worker's answers, and see its end, from the pool's event loop."""
        self.loop.add_reader(worker.answers.fileno(), self._readable, worker)
        self.loop.add_reader(worker.process.sentinel, self._ended, worker)

    def attach(self) -> None:
        """Drive the pool from the running event loop from now on (a pool started under one loop and
        used under the next, as tests do; a bot has one loop). Call it with no call in flight."""
        loop = asyncio.get_running_loop()
        if loop is not self.loop and not self.stopped:
            for worker in self.workers:
                self._forget(worker)
            self.loop = loop
            for worker in self.workers:
                self._watch(worker)

    def submit(self, limit: float, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> asyncio.Future[T]:
        """`fn(*args, **kwargs)` asked of the pool; its answer (or its error) comes in the future
        (BrokenProcessPool, with no more said, once the pool is stopped: the painter draws it in a thread)."""
        if self.stopped:
            raise BrokenProcessPool()
        self.attach()
        payload = pickle.dumps((fn, args, kwargs), protocol=pickle.HIGHEST_PROTOCOL)
        future: asyncio.Future[T] = self.loop.create_future()
        self.waiting.append(_Call(_name(fn), limit, payload, future))
        self._take()
        return future

    def _take(self) -> None:
        """Give the oldest calls waiting to idle workers."""
        for worker in self.workers:
            while worker.ready and worker.call is None and self.waiting and not self.stopped:
                call = self.waiting.popleft()
                if call.future.cancelled():
                    continue
                try:
                    worker.calls.send_bytes(call.payload)
                except OSError:  # it died, and its sentinel is not read yet
                    call.future.set_exception(BrokenProcessPool())
                    self.stop()
                    return
                worker.call = call
                self._time(call)

    def _time(self, call: _Call) -> None:
        call.timer = self.loop.call_later(call.limit, self.on_stuck, self, call)

    def _readable(self, worker: _Worker) -> None:
        """Read what the worker wrote; answer each call whose answer is whole."""
        try:
            while chunk := os.read(worker.answers.fileno(), 1 << 20):
                worker.received += chunk
            self._ended(worker)  # the end of the pipe: the worker is gone
            return
        except BlockingIOError:
            pass
        except OSError:
            self._ended(worker)
            return
        while len(worker.received) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(worker.received)
            if len(worker.received) < _HEADER.size + size:
                return
            message = bytes(worker.received[_HEADER.size:_HEADER.size + size])
            del worker.received[:_HEADER.size + size]
            self._answered(worker, message)

    def _answered(self, worker: _Worker, message: bytes) -> None:
        call, worker.call, worker.ready = worker.call, None, True
        if call is not None:
            if call.timer is not None:
                call.timer.cancel()
            if not call.future.done():
                try:
                    kind, value = pickle.loads(message)
                except Exception as error:  # an answer this process cannot rebuild is still an answer
                    kind, value = "error", error
                if kind == "error":
                    call.future.set_exception(value)
                else:
                    call.future.set_result(value)
        self._take()

    def _ended(self, worker: _Worker) -> None:
        if not self.stopped:
            log.debug("picture worker %s ended", worker.process.pid)
            self.stop()

    def busy(self) -> bool:
        """Whether a call is waiting or being drawn."""
        return bool(self.waiting) or any(w.call is not None for w in self.workers)

    def stop(self) -> bool:
        """Kill every worker, busy or not, and fail every call not yet answered with BrokenProcessPool.
        False when already stopped."""
        if self.stopped:
            return False
        self.stopped = True
        broken = BrokenProcessPool()
        calls = [*self.waiting, *(w.call for w in self.workers if w.call is not None)]
        self.waiting.clear()
        for worker in self.workers:
            worker.call = None
            self._forget(worker)
            with suppress(OSError, ValueError):  # already reaped, or closed
                if worker.process.is_alive():
                    worker.process.kill()
            worker.calls.close()
            worker.answers.close()
        for call in calls:
            if call.timer is not None:
                call.timer.cancel()
            if not call.future.done():
                call.future.set_exception(broken)
        return True

    def _forget(self, worker: _Worker) -> None:
        with suppress(ValueError, OSError):
            self.loop.remove_reader(worker.answers.fileno())
        with suppress(ValueError, OSError):
            self.loop.remove_reader(worker.process.sentinel)

    async def close(self) -> None:
        """Let every worker finish (they end once their call pipe closes), then reap them."""
        for worker in self.workers:
            self._forget(worker)
            worker.calls.close()
        for worker in self.workers:
            await asyncio.to_thread(worker.process.join, WARM_UP)
            if worker.process.is_alive():
                worker.process.kill()
                await asyncio.to_thread(worker.process.join)
            worker.answers.close()
        self.stopped = True


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

    async def start(self) -> None:
        """Start every worker and let each draw its card faces, so the first move is not slow."""
        if self._pool is None:
            self._pool = _Pool(self.workers, self._stuck)
        pids = await asyncio.gather(*self._pool.ready)
        log.info("Drawing pictures in %d worker process(es) (%s)", self.workers,
                 ", ".join(str(p) for p in sorted(set(pids))))

    async def draw(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        pool = self._pool
        if pool is None:  # not started, or closed while a move was still being answered
            return await super().draw(fn, *args, **kwargs)
        try:
            return await pool.submit(self.limit_for(fn), fn, *args, **kwargs)
        except BrokenProcessPool:
            self._replace(pool)
        return await super().draw(fn, *args, **kwargs)

    def _stuck(self, pool: _Pool, late: _Call) -> None:
        """Kill a pool with a worker past its limit, and start a new one if it was the painter's; only
        the first call to find it so does (and logs)."""
        if not pool.stop():
            return
        log.warning("%s took over %g s in a picture worker; drawing in a thread while a new pool starts",
                    late.name, late.limit)
        if self._pool is pool:
            self._pool = _Pool(self.workers, self._stuck)

    def _replace(self, broken: _Pool) -> None:
        """Swap a broken pool for a new one; only the first draw to find it broken does (and logs)."""
        if self._pool is not broken:
            return
        log.warning("A picture worker stopped unexpectedly; drawing in a thread while a new pool starts")
        broken.stop()
        self._pool = _Pool(self.workers, self._stuck)

    async def close(self) -> None:
        """Finish the pictures asked for so far, then stop every worker; later ones are drawn in threads."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        pool.attach()
        while pool.busy() and not pool.stopped:
            await asyncio.sleep(0.01)
        if not pool.stopped:
            await pool.close()


_HEADER = struct.Struct("!Q")
"""Before each answer a worker writes: its length in bytes."""


def _serve(calls: Connection, answers: Connection) -> None:
    """A worker's life: get ready, say so (its pid), then answer each call until its pipe closes."""
    _get_ready()
    _send(answers, ("ok", os.getpid()))
    while True:
        try:
            fn, args, kwargs = pickle.loads(calls.recv_bytes())
        except EOFError:
            return
        try:
            answer: tuple[str, object] = ("ok", fn(*args, **kwargs))
        except BaseException as error:  # any error goes back to the caller, as itself
            answer = ("error", error)
        _send(answers, answer)


def _send(answers: Connection, answer: tuple[str, object]) -> None:
    try:
        data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as error:  # an answer that does not pickle still answers
        data = pickle.dumps(("error", RuntimeError(f"unpicklable: {error!r}")))
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(answers.fileno(), view):]


def _name(fn: Callable[..., object]) -> str:
    """`fn`'s dotted name: what `SLOW` knows it by and a warning calls it."""
    return f"{getattr(fn, '__module__', None)}.{getattr(fn, '__qualname__', fn)}"


def _get_ready() -> None:
    """A new worker's first acts: end with the bot, leave Ctrl+C and a deploy's SIGTERM (sent to the
    whole process group) to the bot, which stops the pool in order once the pictures in flight are
    drawn, where an interrupted worker would break it; then draw every card face so its first
    picture is quick."""
    _end_with_the_bot()
    for stop in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop, signal.SIG_IGN)
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
