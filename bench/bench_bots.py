"""Bot strength and speed: seeded 2-player matches between the easy, normal and hard bots.

For each pairing the two bots play the same deals from both seats (game g uses seed S + g // 2,
with the seats swapped on odd g), so neither gains from moving first. Prints, per pairing, the
first bot's wins, draws and losses, its win rate (a draw counts half) with a 95% Wilson interval,
both mean scores, and per bot the time per move (mean, 95th percentile, max).
Targets: hard beats easy >= 95% and normal >= 60%; normal beats easy >= 85%; a hard move <= 2 s,
a normal move <= 50 ms; the hard bot's mean score is shown next to the rulebook example's 97.

Run: python bench/bench_bots.py [--games 500] [--seed 0] [--workers 2] [--budget N]
                                [--pairs hard-easy,hard-normal,normal-easy]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from keystone.engine import GameConfig, apply, new_game
from keystone.engine.bots import DEFAULT_BUDGET, bot_seed, choose_action
from keystone.engine.results import final_scores

RULEBOOK_EXAMPLE = 97


def play(job: tuple[str, str, int, bool, int]) -> tuple[int, int, list[float], list[float]]:
    """One game; returns (first bot's score, second bot's score, their move times in seconds)."""
    first, second, seed, swapped, budget = job
    levels = (second, first) if swapped else (first, second)
    state = new_game(GameConfig(players=2), seed, [levels[0], levels[1]])
    times: list[list[float]] = [[], []]
    while state.phase != "over":
        started = time.perf_counter()
        action = choose_action(state, levels[state.current], bot_seed(seed, state), budget=budget)
        times[state.current].append(time.perf_counter() - started)
        state, _ = apply(state, action)
    totals = [sheet.total for sheet in final_scores(state)]
    if swapped:
        return totals[1], totals[0], times[1], times[0]
    return totals[0], totals[1], times[0], times[1]


def warm_up() -> None:
    """Load the card data and fill the evaluation caches' first entries before anything is timed."""
    state = new_game(GameConfig(players=2), 0, ["a", "b"])
    for level in ("easy", "normal", "hard"):
        choose_action(state, level, 0, budget=8)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def timing(label: str, seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return (f"{label} per move: mean {statistics.fmean(ordered) * 1000:.1f} ms, "
            f"p95 {p95 * 1000:.1f} ms, max {ordered[-1] * 1000:.0f} ms over {len(ordered)} moves")


def run_pair(first: str, second: str, games: int, seed: int, workers: int, budget: int) -> None:
    jobs = [(first, second, seed + g // 2, g % 2 == 1, budget) for g in range(games)]
    started = time.perf_counter()
    with Pool(workers, initializer=warm_up) as pool:
        results = pool.map(play, jobs, chunksize=1)
    elapsed = time.perf_counter() - started
    wins = sum(a > b for a, b, _, _ in results)
    draws = sum(a == b for a, b, _, _ in results)
    rate = (wins + draws / 2) / games
    low, high = wilson(wins + draws / 2, games)
    mine = [a for a, _, _, _ in results]
    theirs = [b for _, b, _, _ in results]
    print(f"\n{first} vs {second}: {games} games in {elapsed:.0f} s ({workers} workers)")
    print(f"  {first} wins {wins}, draws {draws}, loses {games - wins - draws}: "
          f"win rate {rate:.1%} (95% CI {low:.1%} to {high:.1%})")
    print(f"  mean score {first} {statistics.fmean(mine):.1f} (sd {statistics.pstdev(mine):.1f}), "
          f"{second} {statistics.fmean(theirs):.1f} (sd {statistics.pstdev(theirs):.1f})"
          + (f"; rulebook example {RULEBOOK_EXAMPLE}" if "hard" in (first, second) else ""))
    print("  " + timing(first, [t for _, _, ts, _ in results for t in ts]))
    print("  " + timing(second, [t for _, _, _, ts in results for t in ts]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--pairs", default="hard-easy,hard-normal,normal-easy")
    args = parser.parse_args()
    print(f"hard budget: {args.budget} simulated turns per decision")
    for pair in args.pairs.split(","):
        first, second = pair.split("-")
        run_pair(first, second, args.games, args.seed, args.workers, args.budget)


if __name__ == "__main__":
    main()
