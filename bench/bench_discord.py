"""Discord cost and speed, through the real discord.py client against the fake Discord server.

1. A 3-player game (two people and a bot) played to the end: public messages, pictures and bytes
   per turn (the lobby, the start and the final score sheet left out).
2. The round trip of a `/take`, from the interaction arriving to the bot's answer reaching the
   server, median over about 50 takes. Target: under 150 ms median.

A SQLite database in a temporary folder. Run: python bench/bench_discord.py
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from keystone.app import Where
from tests.discord_helpers import make_bot, play_three_with_a_bot, service_of
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.server import FakeDiscord

TAKES = 50


async def cost(folder: Path) -> str:
    fake = FakeDiscord()
    await fake.start()
    runner = BotRunner(fake)
    try:
        bot = await runner.start(make_bot(folder / "cost.db"))
        tally = await play_three_with_a_bot(fake, bot, fake.channel("table-1"))
    finally:
        await runner.close()
        await fake.close()
    return tally.summary()


async def speed(folder: Path) -> list[float]:
    """Take the rightmost card into the first empty cell, ending the turn after it if need be."""
    fake = FakeDiscord()
    await fake.start()
    runner = BotRunner(fake)
    times: list[float] = []
    try:
        bot = await runner.start(make_bot(folder / "bench.db"))
        alice, bob = fake.user("alice"), fake.user("bob")
        channel = fake.channel("table-1")
        where = None
        while len(times) < TAKES:
            found = None if where is None else await service_of(bot).state_here(where)
            if found is None:
                lobby = await fake.slash(alice, channel, "keystone new", {"players": 2})
                await fake.click(bob, lobby.message, label="Join")
                await fake.click(alice, lobby.message, label="Start")
                where = Where(channel_id=channel.id, guild_id=channel.guild_id)
                continue
            record, state = found
            mover = alice if record.seats[state.current].user_id == alice.id else bob
            if state.phase != "main":
                await fake.slash(mover, channel, "endturn")
                continue
            cards = await fake.autocomplete(mover, channel, "take", {"card": ""}, focused="card")
            cells = await fake.autocomplete(mover, channel, "take", {"card": "6", "cell": ""}, focused="cell")
            started = time.perf_counter()
            await fake.slash(mover, channel, "take", {"card": cards[-1]["value"], "cell": cells[0]["value"]})
            times.append((time.perf_counter() - started) * 1000)
    finally:
        await runner.close()
        await fake.close()
    return times


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        print("A 3-player game with a bot:", asyncio.run(cost(Path(folder))))
        times = sorted(asyncio.run(speed(Path(folder))))
    print(f"/take with images, {len(times)} takes: median {statistics.median(times):.1f} ms, "
          f"p90 {times[int(len(times) * 0.9)]:.1f} ms, max {times[-1]:.1f} ms (target: median under 150 ms)")


if __name__ == "__main__":
    main()
