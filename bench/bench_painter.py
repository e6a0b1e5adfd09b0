"""Drawing pictures in threads or in worker processes: what each costs a picture, how many pictures
a second each gives when many moves come at once, and how late the event loop answers meanwhile.

The picture is a turn's (`pictures.turn_file`, four players mid-game), the one every move posts.
"lag" is how late a ticker that sleeps 10 ms wakes while the burst is drawn: the delay every other
answer of the process suffers. Wall-clock figures suffer when other processes share the cores.
Run: python bench/bench_painter.py [--bursts 16,64] [--pools 1,2,4]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pickle
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_render import four_player_mid_game
from keystone.app import pictures
from keystone.app.painter import Painter, PoolPainter
from keystone.engine.views import GameView
from keystone.render import warm_up

RUNS = 30
TICK = 0.01


def median_ms(work: Callable[[], object], runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


async def median_async_ms(work: Callable[[], Awaitable[object]], runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        await work()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def pickling(view: GameView, mover: int) -> None:
    sent = (view, mover, ())
    drawn = pictures.turn_file(view, mover)
    there = median_ms(lambda: pickle.loads(pickle.dumps(sent)), 200)
    back = median_ms(lambda: pickle.loads(pickle.dumps(drawn)), 200)
    print(f"pickling a turn's arguments: {len(pickle.dumps(sent)) / 1024:.1f} KB, {there:.3f} ms there and back; "
          f"its picture: {len(pickle.dumps(drawn)) / 1024:.0f} KB, {back:.3f} ms")


async def ticker(lags: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        asked = time.perf_counter()
        await asyncio.sleep(TICK)
        lags.append(time.perf_counter() - asked - TICK)


async def burst(painter: Painter, view: GameView, mover: int, count: int) -> str:
    """`count` turn pictures asked for at once: pictures a second, latency and event-loop lag."""
    lags: list[float] = []
    stop = asyncio.Event()
    ticking = asyncio.create_task(ticker(lags, stop))
    await asyncio.sleep(TICK * 2)
    started = time.perf_counter()
    done: list[float] = []

    async def one() -> None:
        await painter.draw(pictures.turn_file, view, mover)
        done.append(time.perf_counter() - started)

    await asyncio.gather(*(one() for _ in range(count)))
    wall = time.perf_counter() - started
    stop.set()
    await ticking
    p95 = statistics.quantiles(done, n=20)[-1] if len(done) > 1 else done[0]
    return (f"{count / wall:6.1f}/s  p50 {statistics.median(done) * 1000:6.0f} ms  p95 {p95 * 1000:6.0f} ms  "
            f"lag max {max(lags) * 1000:5.0f} ms  median {statistics.median(lags) * 1000:4.1f} ms")


async def compare(view: GameView, mover: int, bursts: list[int], pools: list[int]) -> None:
    painters: list[tuple[str, Painter]] = [("threads", Painter())]
    for workers in pools:
        pool = PoolPainter(workers)
        started = time.perf_counter()
        await pool.start()
        print(f"pool of {workers}: started and warmed in {(time.perf_counter() - started) * 1000:.0f} ms")
        painters.append((f"pool of {workers}", pool))
    one_pool = next((p for name, p in painters if name == "pool of 1"), None)
    if one_pool is not None:
        via = await median_async_ms(lambda: one_pool.draw(pictures.turn_file, view, mover))
        print(f"one turn picture via a pool of 1, one at a time: {via:.1f} ms")
    for count in bursts:
        for name, painter in painters:
            await burst(painter, view, mover, min(count, 8))  # every worker busy once before timing
            print(f"{count:3d} at once, {name:<10} {await burst(painter, view, mover, count)}")
    for _, painter in painters:
        await painter.close()


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--bursts", default="16,64", help="how many pictures asked for at once (comma-separated)")
    options.add_argument("--pools", default="1,2,4", help="pool sizes to compare with threads (comma-separated)")
    given = options.parse_args()
    warm_up()
    view = four_player_mid_game()
    mover = (view.current - 1) % len(view.seats)
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    print(f"one turn picture in this thread: {median_ms(lambda: pictures.turn_file(view, mover)):.1f} ms")
    pickling(view, mover)
    asyncio.run(compare(view, mover, [int(n) for n in given.bursts.split(",")],
                        [int(n) for n in given.pools.split(",")]))


if __name__ == "__main__":
    main()
