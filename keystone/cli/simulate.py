"""`python -m keystone simulate`: play seeded games and check every invariant after every action."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from keystone.engine import GameConfig, apply, legal_actions, new_game
from keystone.engine.invariants import check_invariants
from keystone.engine.state import GameState


def random_game(seed: int, players: int, check: bool = True) -> tuple[GameState, list[str], list[str]]:
    """Play one game with uniformly random legal moves; return (final state, log, problems)."""
    state = new_game(GameConfig(players=players), seed, [f"Seat {i + 1}" for i in range(players)])
    chooser = random.Random(seed)
    log: list[str] = []
    problems: list[str] = []
    while state.phase != "over":
        action = chooser.choice(legal_actions(state))
        turn_before = state.turn
        state, _ = apply(state, action)
        log.append(str(action))
        if check:
            problems += check_invariants(state, after_turn=state.turn != turn_before)
    return state, log, problems


def final_totals(state: GameState) -> list[int]:
    from keystone.engine.results import final_scores

    return [sheet.total for sheet in final_scores(state)]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m keystone simulate", description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=2, choices=[1, 2, 3, 4])
    args = parser.parse_args(argv)
    started = time.perf_counter()
    finished = 0
    violations: list[str] = []
    scores: list[int] = []
    turns: list[int] = []
    for g in range(args.games):
        state, _log, problems = random_game(args.seed + g, args.players)
        violations += [f"game {args.seed + g}: {p}" for p in problems]
        finished += state.phase == "over"
        scores += final_totals(state)
        turns.append(state.turn + 1)
    result = {
        "games": args.games,
        "finished": finished,
        "players": args.players,
        "invariant_violations": len(violations),
        "violations": violations[:10],
        "mean_score": round(statistics.fmean(scores), 2) if scores else 0,
        "turns_per_game": round(statistics.fmean(turns), 2) if turns else 0,
        "seconds": round(time.perf_counter() - started, 3),
    }
    print(json.dumps(result))
    return 0 if not violations and finished == args.games else 1
