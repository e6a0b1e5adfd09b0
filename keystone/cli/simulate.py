"""`python -m keystone simulate`: play seeded games and check every invariant after every action."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

from keystone.cli.options import Parser, parse, positive
from keystone.engine import Action, GameConfig, apply, legal_actions, new_game
from keystone.engine.bots import LEVELS
from keystone.engine.invariants import check_invariants
from keystone.engine.state import GameState


def play_game(
    seed: int, players: int, choose: Callable[[GameState], Action], check: bool = True
) -> tuple[GameState, list[str], list[str]]:
    """Play one seeded game, `choose` picking every action; return (final state, log, problems)."""
    state = new_game(GameConfig(players=players), seed, [f"Seat {i + 1}" for i in range(players)])
    log: list[str] = []
    problems: list[str] = []
    while state.phase != "over":
        action = choose(state)
        turn_before = state.turn
        state, _ = apply(state, action)
        log.append(str(action))
        if check:
            problems += check_invariants(state, after_turn=state.turn != turn_before)
    return state, log, problems


def random_game(seed: int, players: int, check: bool = True) -> tuple[GameState, list[str], list[str]]:
    """Uniformly random legal moves."""
    chooser = random.Random(seed)
    return play_game(seed, players, lambda state: chooser.choice(legal_actions(state)), check)


def bot_game(
    seed: int, levels: list[str], budget: int | None = None, check: bool = True
) -> tuple[GameState, list[str], list[str]]:
    """A bot level per seat."""
    from keystone.engine.bots import bot_seed, choose_action

    def choose(state: GameState) -> Action:
        return choose_action(state, levels[state.current], bot_seed(seed, state), budget=budget)

    return play_game(seed, len(levels), choose, check)


def seat_levels(game: int, players: int, bot: str, vs: str | None) -> list[str]:
    """`bot` in one seat (moving round the table game by game) and `vs` in the others; `bot` alone plays all."""
    if vs is None:
        return [bot] * players
    return [bot if i == game % players else vs for i in range(players)]


def bot_summary(games: list[tuple[list[str], list[int]]], bot: str, vs: str | None) -> dict[str, object]:
    """Win rate (a shared first place is split) and mean score for each side of the match."""
    sides = {"bot": bot} if vs is None else {"bot": bot, "vs": vs}
    labels = {side: level if side == "bot" or level != bot else f"{level} (vs)" for side, level in sides.items()}
    wins = dict.fromkeys(sides, 0.0)
    scores: dict[str, list[int]] = {side: [] for side in sides}
    for g, (levels, totals) in enumerate(games):
        best = max(totals)
        firsts = [i for i, t in enumerate(totals) if t == best]
        for i, total in enumerate(totals):
            side = "bot" if vs is None or i == g % len(levels) else "vs"
            scores[side].append(total)
            if i in firsts:
                wins[side] += 1 / len(firsts)
    n = max(1, len(games))
    return {
        "win_rates": {labels[side]: round(wins[side] / n, 4) for side in sides},
        "mean_scores": {labels[side]: round(statistics.fmean(scores[side]), 2) for side in sides if scores[side]},
    }


def final_totals(state: GameState) -> list[int]:
    from keystone.engine.results import final_scores

    return [sheet.total for sheet in final_scores(state)]


def _check(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if args.vs is not None and args.players < 2:
        parser.error("--vs needs at least 2 players.")


def main(argv: list[str]) -> int:
    parser = Parser(prog="python -m keystone simulate", description=__doc__)
    parser.add_argument("--games", type=positive, default=100, help="how many games to play (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=2, choices=[1, 2, 3, 4])
    parser.add_argument("--bot", choices=LEVELS,
                        help="a bot plays instead of random moves (every seat, unless --vs is given)")
    parser.add_argument("--vs", choices=LEVELS,
                        help="the other seats' bot; --bot's seat moves round the table game by game")
    parser.add_argument("--budget", type=positive, help="the hard bot's simulated turns per decision")
    args = parse(parser, argv, _check)
    if isinstance(args, int):
        return args
    if args.vs is not None and args.bot is None:
        args.bot = "easy"
    matches: list[tuple[list[str], list[int]]] = []
    started = time.perf_counter()
    finished = 0
    violations: list[str] = []
    scores: list[int] = []
    turns: list[int] = []
    for g in range(args.games):
        if args.bot is None:
            state, _log, problems = random_game(args.seed + g, args.players)
        else:
            levels = seat_levels(g, args.players, args.bot, args.vs)
            state, _log, problems = bot_game(args.seed + g, levels, args.budget)
            matches.append((levels, final_totals(state)))
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
    if args.bot is not None:
        result.update(bot_summary(matches, args.bot, args.vs))
    print(json.dumps(result))
    return 0 if not violations and finished == args.games else 1
