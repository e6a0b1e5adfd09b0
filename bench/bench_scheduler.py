"""One scheduler tick with 10,000 running games on the clock, in a real SQLite file.

Figures: a tick with nothing due, a tick with 10 reminders due (claimed and posted to a null
outbox), the first tick after a start (which also looks for due bot turns in every running game),
and a tick where 3 turns have run out (a normal bot plays each and its turn picture is drawn).
Target: a tick with nothing or a few reminders due under 50 ms.

The games are one real game started through the store, copied by SQL (the copies share its
state), with clocks started at random moments of the last day. Run: python bench/bench_scheduler.py
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from keystone.app import GameService, Reply
from keystone.app.clock import DAY, REMINDER_AT
from keystone.app.scheduler import Scheduler
from keystone.engine import GameConfig, new_game
from keystone.store import SeatInfo, Store

NOW = 2_000_000_000.0
PAUSED = 100


class NullOutbox:
    """Counts posts instead of sending them."""

    def __init__(self) -> None:
        self.posts = 0

    async def to_channel(self, channel_id: int, reply: Reply) -> None:
        self.posts += 1

    async def to_user(self, user_id: int, text: str) -> None:
        self.posts += 1


async def template(path: Path) -> int:
    """One running daily game between two people, made through the store."""
    store = await Store.open(path, durable=False, clock=lambda: NOW)
    seats = [SeatInfo.human(1, "Ada"), SeatInfo.human(2, "Brook")]
    record = await store.create_game(guild_id=1, channel_id=1, kind="competitive", host_id=1, seats=seats,
                                     state=new_game(GameConfig(players=2), 5, ["Ada", "Brook"]))
    await store.set_pace(record.id, "daily")
    await store.close()
    return record.id


def populate(path: Path, games: int, rng: random.Random) -> None:
    """Copy the template game until there are `games`, each with a clock started in the last half day
    (so no reminder is due yet; the reminder falls half-way through a daily turn), except the last
    `PAUSED`, paused long ago with their deadlines passed (the due query walks past them each tick)."""
    with sqlite3.connect(path) as db:
        columns = ("guild_id, kind, assignment, ruleset, config, host_id, status, seed, names, snapshot, version, "
                   "state_hash, created_at, updated_at, pace")
        for channel in range(2, games + 1):
            db.execute(f"INSERT INTO games (channel_id, {columns}) SELECT ?, {columns} FROM games WHERE id = 1",
                       (channel,))
        db.execute("INSERT INTO seats (game_id, position, user_id, bot_level, name) "
                   "SELECT g.id, s.position, s.user_id + 2 * g.id, NULL, s.name FROM games g, seats s "
                   "WHERE s.game_id = 1 AND g.id > 1")
        rows = []
        for game_id in range(1, games + 1):
            started = NOW - rng.uniform(60, DAY * REMINDER_AT - 60)
            rows.append((game_id, started, started + DAY * REMINDER_AT, started + DAY))
        db.executemany("INSERT INTO clocks (game_id, turn, seat, started_at, remind_at, deadline, reminded) "
                       "VALUES (?, 0, 0, ?, ?, ?, 0)", rows)
        paused = (NOW - 10 * DAY, games - PAUSED)
        db.execute("UPDATE games SET paused_at = ? WHERE id > ?", paused)
        db.execute("UPDATE clocks SET started_at = ?1 - ?3, remind_at = ?1 - ?3 / 2, deadline = ?1 WHERE game_id > ?2",
                   (*paused, DAY))


def make_due(path: Path, game_ids: list[int], *, late: bool) -> None:
    """Bring these games' reminders (or deadlines) to now, from another connection."""
    with sqlite3.connect(path) as db:
        for game_id in game_ids:
            if late:
                db.execute("UPDATE clocks SET started_at = ?, remind_at = ?, deadline = ? WHERE game_id = ?",
                           (NOW - DAY, NOW - DAY / 2, NOW - 1, game_id))
            else:
                db.execute("UPDATE clocks SET remind_at = ?, reminded = 0 WHERE game_id = ?", (NOW - 1, game_id))


async def timed(scheduler: Scheduler) -> float:
    started = time.perf_counter()
    await scheduler.tick()
    return (time.perf_counter() - started) * 1000


async def measure(path: Path, games: int, rounds: int) -> None:
    rng = random.Random(7)
    store = await Store.open(path, clock=lambda: NOW)
    service = GameService(store, clock=lambda: NOW)
    outbox = NullOutbox()
    scheduler = Scheduler(service, outbox)
    first = await timed(scheduler)
    quiet = sorted([await timed(scheduler) for _ in range(rounds)])
    reminders = []
    for _ in range(rounds):
        make_due(path, rng.sample(range(1, games - PAUSED + 1), 10), late=False)
        before = outbox.posts
        reminders.append(await timed(scheduler))
        assert outbox.posts - before == 10, "every due reminder is posted"
    make_due(path, rng.sample(range(1, games - PAUSED + 1), 3), late=True)
    before = outbox.posts
    late = await timed(scheduler)
    assert outbox.posts - before == 3, "every turn run out is played and told"
    await store.close()
    print(f"{games} running games on the clock ({PAUSED} paused past their deadline), {rounds} ticks each:")
    print(f"  nothing due:       median {statistics.median(quiet):.2f} ms, max {quiet[-1]:.2f} ms (target under 50 ms)")
    reminders.sort()
    print(f"  10 reminders due:  median {statistics.median(reminders):.2f} ms, max {reminders[-1]:.2f} ms "
          "(target under 50 ms)")
    print(f"  first tick (looks for due bot turns in every running game): {first:.0f} ms")
    print(f"  3 turns run out (a bot plays each, pictures drawn): {late:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "scheduler.db"
        started = time.perf_counter()
        asyncio.run(template(path))
        populate(path, args.games, random.Random(1))
        print(f"(made {args.games} games in {time.perf_counter() - started:.1f} s)")
        asyncio.run(measure(path, args.games, args.rounds))


if __name__ == "__main__":
    main()
