"""How long a graceful stop takes with games in flight: SIGTERM to exit of a real `python bot.py`.

A fake Discord (in this process) holds `--games` tables, each a game against an easy bot; every
player sends a move at once, and as soon as Discord has acknowledged them all (the bot is still
drawing, playing its bots' turns and posting) the bot process gets SIGTERM. Printed: how many
interactions were in flight when the signal came, the seconds from the signal to the exit, the exit
code, how many tables got a public message (a move that opens a private step has none yet) and how
many owed messages the stop left for the next start (read from the database). Each round starts a
fresh process on the same database; the median and the longest of `--rounds` are printed last.

Run: nice -n 10 python bench/bench_stop.py [--games 20] [--rounds 3] [--workers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from keystone.store import Store  # noqa: E402
from tests.fakediscord.models import FakeChannel, FakeUser  # noqa: E402
from tests.fakediscord.server import FakeDiscord  # noqa: E402
from tests.stop_helpers import Running, bot_py, take  # noqa: E402


async def open_games(fake: FakeDiscord, tables: list[tuple[FakeUser, FakeChannel]]) -> None:
    for host, channel in tables:
        lobby = await fake.slash(host, channel, "keystone new", {"opponent": "easy", "pace": "live"})
        start = next(m for m in lobby.messages if not m.is_ephemeral)
        await fake.click(host, start, label="Start")
    await fake.quiet()


def in_flight(bot: Running) -> int:
    """The interactions the stop found in flight, from its log line."""
    for line in bot.lines:
        words = str(line["message"])
        if words.startswith("stopping: taking no new interactions, finishing"):
            return int(words.split("finishing ")[1].split()[0])
    return -1


async def one_round(fake: FakeDiscord, db: Path, tables: list[tuple[FakeUser, FakeChannel]],
                    workers: str) -> float:
    async with bot_py(fake, db, KEYSTONE_RENDER_WORKERS=workers) as bot:
        if not fake.public_messages(tables[0][1]):
            await open_games(fake, tables)
        before = {channel.id: len(fake.public_messages(channel)) for _, channel in tables}
        await asyncio.gather(*(take(fake, channel, host) for host, channel in tables))
        os.kill(bot.proc.pid, signal.SIGTERM)
        signalled = time.monotonic()
        code = await bot.exit_code(timeout=30)
        took = time.monotonic() - signalled
    told = sum(len(fake.public_messages(channel)) > before[channel.id] for _, channel in tables)
    store = await Store.open(str(db))
    try:
        owed = len(await store.waiting_posts())
    finally:
        await store.close()
    print(f"{len(tables)} games, {in_flight(bot)} interactions in flight at SIGTERM: exited {code} after "
          f"{took:.2f} s; {told}/{len(tables)} tables got a public message, {owed} message(s) left owed",
          flush=True)
    return took


async def main_async(games: int, rounds: int, workers: str) -> None:
    fake = FakeDiscord(interaction_deadline=30.0)
    await fake.start()
    try:
        tables = []
        for number in range(games):
            host = await fake.add_user(f"spieler-{number}-é")
            tables.append((host, await fake.add_text_channel(fake.guild, f"tisch-{number}")))
        with tempfile.TemporaryDirectory() as folder:
            times = [await one_round(fake, Path(folder) / "stop.db", tables, workers) for _ in range(rounds)]
        print(f"SIGTERM to exit with {games} games in flight: median {statistics.median(times):.2f} s, "
              f"longest {max(times):.2f} s over {rounds} rounds")
    finally:
        await fake.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", default="2", help="KEYSTONE_RENDER_WORKERS of the bot process")
    options = parser.parse_args()
    asyncio.run(main_async(options.games, options.rounds, options.workers))


if __name__ == "__main__":
    main()
