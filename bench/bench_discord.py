"""Discord round trip: from a `/take` interaction arriving to the bot's answer (with its two PNGs)
reaching the fake Discord server, median over about 50 takes. Target: under 150 ms median.

The real discord.py client runs the Keystone cog against the fake server on 127.0.0.1, with a
SQLite database in a temporary folder. Run: python bench/bench_discord.py
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.server import FakeDiscord
from tests.test_discord_game import has_button, make_bot, open_game, public_of

TAKES = 50


async def measure(folder: Path) -> list[float]:
    fake = FakeDiscord()
    await fake.start()
    runner = BotRunner(fake)
    times: list[float] = []
    try:
        await runner.start(make_bot(folder / "bench.db"))
        alice, bob = fake.user("alice"), fake.user("bob")
        users = {alice.id: alice, bob.id: bob}
        channel = fake.channel("table-1")
        last = public_of(await open_game(fake, channel, alice, bob))
        mover = alice
        while len(times) < TAKES:
            if "Final scores" in last.content:
                last, mover = public_of(await open_game(fake, channel, alice, bob)), alice
                continue
            if has_button(last, "End turn"):
                last = public_of(await fake.click(mover, last, label="End turn"))
            else:
                cards = await fake.autocomplete(mover, channel, "take", {"card": ""}, focused="card")
                cells = await fake.autocomplete(mover, channel, "take", {"card": "6", "cell": ""}, focused="cell")
                options = {"card": cards[-1]["value"], "cell": cells[0]["value"]}
                started = time.perf_counter()
                result = await fake.slash(mover, channel, "take", options)
                times.append((time.perf_counter() - started) * 1000)
                last = public_of(result)
                assert len(last.attachments) >= 2, "a take answers with the Field and the mover's board"
            pinged = last.pinged_user_ids
            mover = users[next(iter(pinged))] if pinged else mover
    finally:
        await runner.close()
        await fake.close()
    return times


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        times = asyncio.run(measure(Path(folder)))
    times.sort()
    print(f"/take with images, {len(times)} takes: median {statistics.median(times):.1f} ms, "
          f"p90 {times[int(len(times) * 0.9)]:.1f} ms, max {times[-1]:.1f} ms (target: median under 150 ms)")


if __name__ == "__main__":
    main()
