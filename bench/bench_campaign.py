"""Campaign difficulty and speed: the goal-aware greedy test player on every assignment.

Prints, per assignment, the share of seeds it wins, its mean stars and score, and the time per
game. The player sees the deck through `apply`, so its win rate is an easy upper bound for a
person, and the falling curve across the journal is the difficulty ramp.
Run: python bench/bench_campaign.py [seeds per assignment, default 20]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from keystone.engine.campaign import assignments, judge
from tests.campaign_player import play


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(f"{'#':>2} {'title':<24} {'won':>5} {'stars':>5} {'score':>5} {'ms/game':>8}")
    rates = []
    for a in assignments():
        started = time.perf_counter()
        results = [judge(a.number, play(a.number, seed)[0]) for seed in range(seeds)]
        ms = (time.perf_counter() - started) * 1000 / seeds
        rate = sum(r.won for r in results) / seeds
        rates.append(rate)
        stars = statistics.mean(r.stars for r in results)
        score = statistics.mean(r.score for r in results)
        print(f"{a.number:>2} {a.title[:24]:<24} {rate:>5.0%} {stars:>5.2f} {score:>5.1f} {ms:>8.0f}")
    print(f"mean win rate: first five {statistics.mean(rates[:5]):.0%}, last five {statistics.mean(rates[-5:]):.0%}")


if __name__ == "__main__":
    main()
