"""Store speed and size: committed moves per second, load time, and the size of 10,000 finished games.

Targets: at least 1,000 committed actions per second (one game after another, each move its own
durable transaction); loading a game under 5 ms; 10,000 finished games under 200 MB.
The engine's work (choosing and applying moves) is done before the clock starts: these figures
are the store's alone. The commit and load figures are given for SQLite and for PostgreSQL (a
server given with --postgres, or a throwaway local one with PostgreSQL's usual durability; skipped
with a sentence when PostgreSQL is not installed).
Run: python bench/bench_store.py [--games 10000] [--players 2] [--postgres URL]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg

from keystone.engine import GameConfig, GameState, apply, is_over, legal_actions, new_game
from keystone.store import SeatInfo, SeatResult, Store
from tests.postgres_cluster import Cluster, NoServerPrograms

NAMES = ("Ada", "Brook", "Cyd", "Dara")


@dataclass
class Recorded:
    """A complete random game, played in advance so that timing sees only the store."""

    start: GameState
    moves: list[tuple[str, GameState]]
    results: list[SeatResult]


def record_game(seed: int, players: int) -> Recorded:
    rng = random.Random(seed)
    state = start = new_game(GameConfig(players=players), seed, NAMES[:players])
    moves = []
    while not is_over(state):
        action = rng.choice(legal_actions(state))
        state, _ = apply(state, action)
        moves.append((str(action), state))
    scores = [s.synergy for s in state.seats]
    results = [SeatResult(i, v, 1 + sum(o > v for o in scores), v == max(scores)) for i, v in enumerate(scores)]
    return Recorded(start, moves, results)


async def store_game(store: Store, game: Recorded, channel_id: int) -> int:
    """Create the game and commit every move, the last one finishing it; return the game id."""
    players = len(game.start.seats)
    record = await store.create_game(
        guild_id=1, channel_id=channel_id, kind="competitive", host_id=1,
        seats=[SeatInfo.human(i + 1, NAMES[i]) for i in range(players)], state=game.start,
    )
    previous = game.start
    for text, state in game.moves:
        results = game.results if is_over(state) else None
        await store.commit_action(record.id, previous.version, previous.current, text, state, results=results)
        previous = state
    return record.id


async def throughput(target: str, pool: list[Recorded], durable: bool, minimum: int) -> float:
    store = await Store.open(target, durable=durable)
    committed, elapsed, channel = 0, 0.0, 0
    while committed < minimum:
        game = pool[channel % len(pool)]
        channel += 1
        started = time.perf_counter()
        await store_game(store, game, channel)
        elapsed += time.perf_counter() - started
        committed += len(game.moves)
    await store.close()
    return committed / elapsed


async def timings(store: Store, game_id: int, replay: bool, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        await store.load_game(game_id, replay=replay)
        times.append((time.perf_counter() - started) * 1000)
    return times


def describe(times: list[float]) -> str:
    return f"median {statistics.median(times):.2f} ms, p99 {statistics.quantiles(times, n=100)[-1]:.2f} ms"


async def loading(target: str, game: Recorded) -> None:
    store = await Store.open(target)
    finished = (await store.list_games("finished"))[0]
    half = game.moves[len(game.moves) // 2 - 1][1]
    running = await store_partial(store, game, half.version)
    print(f"load a running game (move {half.version}): {describe(await timings(store, running, False, 2000))} "
          "[target < 5 ms]")
    finished_times = await timings(store, finished.id, False, 2000)
    print(f"load a finished game ({finished.version} moves): {describe(finished_times)}")
    print(f"load with full replay audit ({finished.version} moves): "
          f"{describe(await timings(store, finished.id, True, 200))}")
    await store.close()


async def store_partial(store: Store, game: Recorded, upto: int) -> int:
    record = await store.create_game(
        guild_id=1, channel_id=10**9, kind="competitive", host_id=1,
        seats=[SeatInfo.human(i + 1, NAMES[i]) for i in range(len(game.start.seats))], state=game.start,
    )
    previous = game.start
    for text, state in game.moves[:upto]:
        await store.commit_action(record.id, previous.version, previous.current, text, state)
        previous = state
    return record.id


async def size(folder: Path, pool: list[Recorded], games: int) -> None:
    path = folder / "size.db"
    store = await Store.open(path, durable=False)  # the file's size does not depend on sync mode
    started = time.perf_counter()
    for channel in range(games):
        await store_game(store, pool[channel % len(pool)], channel + 1)
    seconds = time.perf_counter() - started
    moves = sum(len(pool[c % len(pool)].moves) for c in range(games))
    await store.close()  # the last close checkpoints the WAL into the main file
    total = sum(p.stat().st_size for p in folder.glob("size.db*"))
    print(f"{games} finished {len(pool[0].start.seats)}-player games ({moves} moves): {total / 1e6:.1f} MB on disk, "
          f"{total / games / 1024:.1f} KiB per game [target < 200 MB] (written in {seconds:.0f} s, "
          f"{moves / seconds:.0f} moves/s unsynced)")


def disk_sync_rate(folder: Path) -> float:
    """Bare synced one-row commits per second on this disk: the ceiling for the synced figure."""
    db = sqlite3.connect(folder / "disk.db", isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("CREATE TABLE t (x TEXT)")
    started = time.perf_counter()
    for _ in range(500):
        db.execute("INSERT INTO t VALUES (?)", ("x" * 3000,))
    rate = 500 / (time.perf_counter() - started)
    db.close()
    return rate


async def main(games: int, players: int, postgres_url: str | None) -> None:
    pool = [record_game(seed, players) for seed in range(40)]
    mean = statistics.mean(len(g.moves) for g in pool)
    print(f"pool: {len(pool)} random {players}-player games, {mean:.0f} moves each on average")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print(f"this disk right now: {disk_sync_rate(folder):.0f} bare synced SQLite commits/s "
              "(other processes writing to it lower this; it caps the synced figure)")
        print("SQLite:")
        await speed(str(folder / "speed.db"), pool, ("synced to disk (FULL)", "safe against crashes only (NORMAL)"))
        await size(folder, pool, games)
        print("PostgreSQL:")
        try:
            async with postgres(postgres_url) as url:
                await speed(url, pool, ("synchronous_commit on", "synchronous_commit off"))
        except NoServerPrograms as missing:
            print(f"  skipped: {missing}")


async def speed(target: str, pool: list[Recorded], modes: tuple[str, str]) -> None:
    for durable, mode in zip((True, False), modes, strict=True):
        rate = await throughput(target, pool, durable, 5000)
        print(f"commit rate, one game after another, {mode}: {rate:.0f} actions/s [target >= 1000]")
    await loading(target, pool[0])


@asynccontextmanager
async def postgres(url: str | None) -> AsyncIterator[str]:
    """A new database on the given server, or on a throwaway local one (durable, as in production)."""
    cluster = None if url else Cluster.start(fast=False)
    server = url or (cluster.url if cluster else "")
    admin = await asyncpg.connect(server)
    name = f"keystone_bench_{int(time.time())}"
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield server.rsplit("/", 1)[0] + "/" + name
    finally:
        await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        await admin.close()
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=10_000, help="finished games for the size figure")
    parser.add_argument("--players", type=int, default=2, choices=(1, 2, 3, 4))
    parser.add_argument("--postgres", help="a PostgreSQL server's URL (a database is made and dropped there)")
    args = parser.parse_args()
    asyncio.run(main(args.games, args.players, args.postgres))
