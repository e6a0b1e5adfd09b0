"""Solo strength: one bot plays the solo game (one board, time marker on 4) over many seeds.

Prints the level's mean, minimum, 5th percentile (the 10th lowest of 200), median and maximum
score, its time per move (mean, 95th percentile, max), and its idle skills: skill actions whose
resolution left the seat's board, research and synergy as they were, so their only effect was
the turn spent (and, for the all-exhausted action, a space of the time track). A skill that drew
hidden cards from the deck and placed none is counted apart: a gamble lost, not a wasted move.
Target for normal: no idle skills, and a 5th percentile far above a game thrown away (~15 points).

Run: python bench/bench_solo.py [--games 200] [--seed 0] [--level normal] [--workers 2]
     python bench/bench_solo.py --games 1 --seed 6018 --log   (one game's moves)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from keystone.engine import GameConfig, GameState, apply, new_game
from keystone.engine.actions import Draw, UseSkill
from keystone.engine.bots import DEFAULT_BUDGET, bot_seed, choose_action
from keystone.engine.results import final_scores

Position = tuple[tuple[tuple[str, int] | None, ...], int]


def position(state: GameState, seat: int) -> Position:
    """What a seat's score can depend on: its board (cards and research) and its synergy."""
    s = state.seats[seat]
    return tuple(None if p is None else (p.card, p.research) for p in s.board), s.synergy


class Game:
    """One solo game's result: score, move times, idle skills (whether each moved time), lost draws, moves."""

    def __init__(self, score: int, times: list[float], idle: list[bool], lost_draws: int, log: list[str]) -> None:
        self.score = score
        self.times = times
        self.idle = idle
        self.lost_draws = lost_draws
        self.log = log


def play(job: tuple[str, int, int]) -> Game:
    level, seed, budget = job
    state = new_game(GameConfig(players=1), seed, [level])
    times: list[float] = []
    idle: list[bool] = []
    lost_draws = 0
    log: list[str] = []
    pending: tuple[Position, int] | None = None
    drew = False
    while state.phase != "over":
        started = time.perf_counter()
        action = choose_action(state, level, bot_seed(seed, state), budget=budget)
        times.append(time.perf_counter() - started)
        if isinstance(action, UseSkill) and state.phase == "main":
            pending, drew = (position(state, 0), state.time), False
        drew = drew or isinstance(action, Draw)
        state, _ = apply(state, action)
        log.append(str(action))
        if pending is not None and state.phase != "resolve":
            if position(state, 0) == pending[0] and drew:
                lost_draws += 1
            elif position(state, 0) == pending[0]:
                idle.append(state.time < pending[1] or state.phase == "over")
            pending = None
    return Game(final_scores(state)[0].total, times, idle, lost_draws, log)


def warm_up() -> None:
    state = new_game(GameConfig(players=1), 0, ["a"])
    for level in ("easy", "normal", "hard"):
        choose_action(state, level, 0, budget=8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--level", default="normal", choices=["easy", "normal", "hard"])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--log", action="store_true", help="print each game's score and moves")
    args = parser.parse_args()
    jobs = [(args.level, args.seed + g, args.budget) for g in range(args.games)]
    started = time.perf_counter()
    with Pool(args.workers, initializer=warm_up) as pool:
        games = pool.map(play, jobs, chunksize=4)
    elapsed = time.perf_counter() - started
    if args.log:
        for (_, seed, _), game in zip(jobs, games, strict=True):
            print(f"seed {seed}: {game.score} points: {' | '.join(game.log)}")
    scores = sorted(g.score for g in games)
    n = len(scores)
    worst = sorted(zip((g.score for g in games), (seed for _, seed, _ in jobs), strict=True))[:5]
    print(f"{args.level} solo: {n} games (seeds {args.seed}-{args.seed + n - 1}) in {elapsed:.0f} s")
    print(f"  score mean {statistics.fmean(scores):.1f}, min {scores[0]}, "
          f"p5 {scores[int(0.05 * (n - 1))]}, median {statistics.median(scores):g}, max {scores[-1]}")
    print("  worst: " + ", ".join(f"{score} (seed {seed})" for score, seed in worst))
    idle = [moved for g in games for moved in g.idle]
    print(f"  idle skills: {len(idle)} in {sum(1 for g in games if g.idle)} games, "
          f"{sum(idle)} of them moving the time marker; "
          f"{sum(g.lost_draws for g in games)} draws from the deck that placed nothing")
    moves = sorted(t for g in games for t in g.times)
    p95 = moves[int(0.95 * (len(moves) - 1))]
    print(f"  per move: mean {statistics.fmean(moves) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
          f"max {moves[-1] * 1000:.0f} ms over {len(moves)} moves")


if __name__ == "__main__":
    main()
