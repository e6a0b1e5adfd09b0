"""Drawing pictures in threads or in worker processes: what each costs a picture, how many pictures
a second each gives when many are asked for at once, how late the event loop answers meanwhile,
and the latency of many simultaneous moves through the game service.

The picture is a turn's (`pictures.turn_file`, four players mid-game), the one every move posts.
"lag" is how late a ticker that sleeps 10 ms wakes while the burst is drawn: the delay every other
answer of the process suffers. The moves are K two-player games in a real SQLite file, each asked
for one legal move at the same moment (a take where one is legal, else the end of the turn), a few
rounds. Wall-clock figures suffer when other processes share the cores.
Run: python bench/bench_painter.py [--bursts 16,64] [--pools 1,2,4] [--moves 64] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pickle
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import ParamSpec, TypeVar, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_render import four_player_mid_game
from keystone.app import Actor, GameService, Where, pictures
from keystone.app.painter import Painter, PoolPainter
from keystone.engine import GameState, legal_actions
from keystone.engine.actions import EndTurn, Take
from keystone.engine.views import GameView
from keystone.render import warm_up
from keystone.store import Store

RUNS = 30
TICK = 0.01
ANN, BOB = Actor(1, "Ann"), Actor(2, "Bob")
P = ParamSpec("P")
T = TypeVar("T")


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
    started, started_cpu = time.perf_counter(), time.process_time()
    done: list[float] = []

    async def one() -> None:
        await painter.draw(pictures.turn_file, view, mover)
        done.append(time.perf_counter() - started)

    await asyncio.gather(*(one() for _ in range(count)))
    wall, cpu = time.perf_counter() - started, time.process_time() - started_cpu
    stop.set()
    await ticking
    p95 = statistics.quantiles(done, n=20)[-1] if len(done) > 1 else done[0]
    return (f"{count / wall:6.1f}/s  p50 {statistics.median(done) * 1000:6.0f} ms  p95 {p95 * 1000:6.0f} ms  "
            f"lag max {max(lags) * 1000:5.0f} ms  median {statistics.median(lags) * 1000:4.1f} ms  "
            f"bot process cpu {cpu / count * 1000:4.1f} ms a picture")


async def games(store: Store, count: int) -> list[Where]:
    """`count` two-player games started, one a channel, Ann (1) and Bob (2) in each."""
    service = GameService(store, seeds=lambda: 11)
    wheres = [Where(channel_id=100 + n, guild_id=1) for n in range(count)]
    for where in wheres:
        await service.new(where, ANN)
        await service.lobby(where, BOB, "join")
        await service.lobby(where, ANN, "start")
    return wheres


class NoDrawing(Painter):
    """Draws nothing (an empty file for every picture): the moves' ceiling, the service's own work alone."""

    async def draw(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        return cast(T, ("none.png", b"", ""))


def a_move(state: GameState) -> str:
    legal = legal_actions(state)
    return str(next((a for a in legal if isinstance(a, Take)), next((a for a in legal if isinstance(a, EndTurn)),
                                                                   legal[0])))


def _busy_pid() -> int:
    """A worker's process id, keeping it busy long enough for its neighbours to answer too."""
    time.sleep(0.2)
    return os.getpid()


async def workers_of(painter: Painter) -> list[int]:
    """The worker processes of a pool (none for threads): each takes one of these slow calls."""
    if not isinstance(painter, PoolPainter):
        return []
    return sorted(set(await asyncio.gather(*(painter.draw(_busy_pid) for _ in range(painter.workers)))))


def cpu_seconds(pids: list[int]) -> float:
    """User and system time the processes `pids` have used so far (Linux /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / ticks


async def moves(service: GameService, wheres: list[Where], rounds: int) -> str:
    """Every game asked for one move at the same moment, `rounds` times: latency, moves a second, and
    the cpu a move costs the bot's process and its workers (what a quiet machine's capacity follows)."""
    times: list[float] = []
    workers = await workers_of(service.painter)
    started, started_cpu, started_workers = time.perf_counter(), time.process_time(), cpu_seconds(workers)
    for _ in range(rounds):
        asks = []
        for where in wheres:
            found = await service.state_here(where)
            assert found is not None
            record, state = found
            seat = record.seats[state.current]
            asks.append((where, Actor(seat.user_id or 0, seat.name), a_move(state)))

        async def one(where: Where, actor: Actor, notation: str) -> None:
            asked = time.perf_counter()
            reply = await service.act(where, actor, notation)
            assert reply.ok, reply.private
            times.append(time.perf_counter() - asked)

        await asyncio.gather(*(one(*ask) for ask in asks))
    wall, cpu = time.perf_counter() - started, time.process_time() - started_cpu
    in_workers = cpu_seconds(workers) - started_workers
    p95 = statistics.quantiles(times, n=20)[-1]
    return (f"{len(times) / wall:6.1f} moves/s  p50 {statistics.median(times) * 1000:6.0f} ms  "
            f"p95 {p95 * 1000:6.0f} ms  cpu a move: bot {cpu / len(times) * 1000:4.1f} ms, "
            f"workers {in_workers / len(times) * 1000:4.1f} ms")


async def compare(view: GameView, mover: int, bursts: list[int], pools: list[int], count: int, rounds: int) -> None:
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
    for size in bursts:
        for name, painter in painters:
            await burst(painter, view, mover, min(size, 8))  # every worker busy once before timing
            print(f"{size:3d} at once, {name:<10} {await burst(painter, view, mover, size)}")
    if count:
        with tempfile.TemporaryDirectory() as folder:
            store = await Store.open(Path(folder) / "bench.db")
            try:
                wheres = await games(store, count)
                for name, painter in [*painters, ("no drawing", NoDrawing())]:
                    print(f"{count:3d} moves at once x {rounds}, {name:<10} "
                          f"{await moves(GameService(store, painter=painter), wheres, rounds)}")
            finally:
                await store.close()
    for _, painter in painters:
        await painter.close()


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--bursts", default="16,64", help="pictures asked for at once (comma-separated; empty: none)")
    options.add_argument("--pools", default="1,2,4", help="pool sizes to compare with threads (comma-separated)")
    options.add_argument("--moves", type=int, default=64, help="games asked for a move at once (0: none)")
    options.add_argument("--rounds", type=int, default=3, help="moves asked for in each game")
    given = options.parse_args()
    warm_up()
    view = four_player_mid_game()
    mover = (view.current - 1) % len(view.seats)
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    print(f"one turn picture in this thread: {median_ms(lambda: pictures.turn_file(view, mover)):.1f} ms")
    pickling(view, mover)
    asyncio.run(compare(view, mover, [int(n) for n in given.bursts.split(",") if n],
                        [int(n) for n in given.pools.split(",")], given.moves, given.rounds))


if __name__ == "__main__":
    main()
