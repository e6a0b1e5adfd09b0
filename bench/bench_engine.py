"""Engine speed: a complete random 2-player game (setup to final scores), and a state round-trip.

Targets: game under 20 ms median; serialisation round-trip under 1 ms.
Run: python bench/bench_engine.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from keystone.cli.simulate import final_totals, random_game
from keystone.engine import dump_state, load_state


def main() -> None:
    random_game(0, 2, check=False)  # warm caches (catalog load)
    game_ms = []
    for seed in range(200):
        started = time.perf_counter()
        state, _log, _ = random_game(seed, 2, check=False)
        final_totals(state)
        game_ms.append((time.perf_counter() - started) * 1000)
    trip_us = []
    for _ in range(500):
        started = time.perf_counter()
        load_state(dump_state(state))
        trip_us.append((time.perf_counter() - started) * 1e6)
    size = len(dump_state(state))
    print(f"random 2-player game, setup to scores: median {statistics.median(game_ms):.2f} ms "
          f"(p90 {statistics.quantiles(game_ms, n=10)[-1]:.2f} ms) over {len(game_ms)} games [target < 20 ms]")
    print(f"state round-trip (dump + validate): median {statistics.median(trip_us):.0f} us, "
          f"{size} bytes of JSON [target < 1000 us]")


if __name__ == "__main__":
    main()
