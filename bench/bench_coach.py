"""How good is the coach: a seat that always plays `/keystone hint`'s first choice, and whether hints
are always legal and true.

Part A: seeded 2-player games of the coach seat against the normal bot and, on the same deals, the
hard bot against the normal bot (game g uses seed S + g // 2, the seats swapped on odd g, so each
side starts half the games). The coach sees only its own `player_view`, asks `compute_hint` (the
function the service runs in its workers) with the hint's seed and time budget (`HINT_SECONDS`
unless told otherwise) and plays the move the hint names first, parsed from its notation. The hard
bot is the engine's, with its full simulation budget and no clock. Printed per side: wins, ties,
losses, the win rate (a tie counts half) with a 95% Wilson interval, the mean score difference,
the time per decision and in all; for the coach also how many hints ran out of time.
Target: the coach wins at least as often as the hard bot does (82% over 40 games measured).

Part B: positions from seeded games of random legal play in every kind of setup a hint is given in
(1-4 players, both editions' rules, co-op, the sealed envelope's cards, Field Journal assignments
alone and in co-op). At each, a hint (in English or German) is asked for the seat to act; each of
its choices must be in `legal_actions`, survive its notation (what the service parses) and be
applied by the engine, and every claim of the hint (card, slot, cell, synergy paid and gained,
rows and columns, the score before and after) must hold on the real game after the move, and its
words must say each choice. Printed: how many choices were illegal or refused and how many claims
failed (target 0 each), and the time. Part B's hints search with a smaller budget of simulated
turns (`--check-budget`), said in the output; legality and claims do not depend on it.

Run (under nice, others share the machine):
    nice -n 10 python bench/bench_coach.py [--games 40] [--positions 2000] [--seed 0] [--workers 1]
        [--hint-seconds 0.8] [--check-budget 36] [--part A|B|AB]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_bots import wilson  # noqa: E402
from keystone.app import hints  # noqa: E402
from keystone.app.hints import choice_words, compute_hint, hint_seed  # noqa: E402
from keystone.engine import GameConfig, GameState, apply, legal_actions, new_game, parse_action, player_view  # noqa: E402
from keystone.engine.actions import Action  # noqa: E402
from keystone.engine.bots import DEFAULT_BUDGET, choose_action  # noqa: E402
from keystone.engine.campaign import ENVELOPE, LAST_ASSIGNMENT, config_for  # noqa: E402
from keystone.engine.results import final_scores  # noqa: E402
from keystone.i18n import Language  # noqa: E402
from tests.test_app_hints import check_claims  # noqa: E402

NAMES = ["Zoë", "Дмитрий", "李小龍", "Ødegård 🦊"]
ASK_RATE = 0.12
"""The share of a random game's decisions at which part B asks for a hint (so positions span whole games)."""


# ---------------------------------------------------------------------- part A


def coach_action(state: GameState, seconds: float) -> tuple[Action, float]:
    """The move the hint names first for the seat to act, and how long the hint took."""
    started = time.monotonic()
    hint = compute_hint(player_view(state, state.current), state.config, hint_seed(state), started + seconds, "en")
    elapsed = time.monotonic() - started
    best = hint.choices[0]
    assert choice_words(best, "en") in hint.words, "the hint's words do not name its first choice"
    return parse_action(best.notation), elapsed


def play(job: tuple[str, int, bool, float]) -> tuple[int, int, list[float], int]:
    """One game of `side` ("coach" or "hard") against the normal bot: (side's score, normal's
    score, side's decision times, how many of them reached the hint's time budget)."""
    side, seed, swapped, seconds = job
    seat = 1 if swapped else 0
    state = new_game(GameConfig(players=2), seed, [NAMES[0], NAMES[1]])
    times: list[float] = []
    cut = 0
    while state.phase != "over":
        if state.current == seat:
            started = time.monotonic()
            if side == "coach":
                action, spent = coach_action(state, seconds)
                cut += spent >= seconds
            else:
                action = choose_action(player_view(state, seat), "hard", hint_seed(state), config=state.config,
                                       budget=DEFAULT_BUDGET)
            times.append(time.monotonic() - started)
        else:
            action = choose_action(player_view(state, state.current), "normal", hint_seed(state), config=state.config)
        state, _ = apply(state, action)
    totals = [sheet.total for sheet in final_scores(state)]
    return totals[seat], totals[1 - seat], times, cut


def report(side: str, results: list[tuple[int, int, list[float], int]], elapsed: float) -> float:
    """Print one side's line; return its win rate."""
    n = len(results)
    wins = sum(a > b for a, b, _, _ in results)
    ties = sum(a == b for a, b, _, _ in results)
    rate = (wins + ties / 2) / n
    low, high = wilson(wins + ties / 2, n)
    diff = [a - b for a, b, _, _ in results]
    moves = sorted(t for _, _, ts, _ in results for t in ts)
    cut = sum(c for _, _, _, c in results)
    print(f"  {side:5} vs normal: wins {wins}, ties {ties}, losses {n - wins - ties}; "
          f"win rate {rate:.1%} (95% CI {low:.1%} to {high:.1%}); "
          f"mean score difference {statistics.fmean(diff):+.1f} (sd {statistics.pstdev(diff):.1f}); "
          f"mean score {statistics.fmean(a for a, _, _, _ in results):.1f}")
    print(f"        {len(moves)} decisions, mean {statistics.fmean(moves) * 1000:.0f} ms, "
          f"max {moves[-1] * 1000:.0f} ms; {elapsed:.0f} s in all"
          + (f"; {cut} hint(s) reached the time budget" if side == "coach" else ""))
    return rate


def part_a(games: int, seed: int, workers: int, seconds: float) -> None:
    print(f"Part A: {games} two-player games per side, seeds {seed}..{seed + (games - 1) // 2}, "
          f"each deal from both seats; hint time budget {seconds:g} s; hard bot budget {DEFAULT_BUDGET} "
          f"simulated turns, no clock; {workers} worker process(es)")
    rates = {}
    with Pool(workers) as pool:
        for side in ("coach", "hard"):
            jobs = [(side, seed + g // 2, g % 2 == 1, seconds) for g in range(games)]
            started = time.monotonic()
            results = pool.map(play, jobs, chunksize=1)
            rates[side] = report(side, results, time.monotonic() - started)
    verdict = "meets" if rates["coach"] >= rates["hard"] else "falls short of"
    print(f"  the coach {verdict} the hard bot's win rate ({rates['coach']:.1%} vs {rates['hard']:.1%})")


# ---------------------------------------------------------------------- part B


def setups() -> list[GameConfig]:
    """Every kind of game a hint is given in."""
    made = [GameConfig(players=p, rules=rules) for p in range(1, 5) for rules in ("second-edition", "first-edition")]
    made += [GameConfig(players=2, coop=True), GameConfig(players=2, coop=True, rules="first-edition")]
    made += [GameConfig(players=p, expansions=[ENVELOPE]) for p in (1, 3)]
    made += [config_for(n, coop=n % 3 == 0) for n in range(1, LAST_ASSIGNMENT + 1)]
    return made


def check_position(state: GameState, budget: int, lang: Language) -> tuple[int, int, int]:
    """Ask the hint at `state`; returns (choices illegal or refused, claims failed, claims checked)."""
    view = player_view(state, state.current)
    hint = compute_hint(view, state.config, hint_seed(state), math.inf, lang, budget=budget)
    legal = legal_actions(state)
    bad = 0
    for choice in hint.choices:
        try:
            action = parse_action(choice.notation)
            if action not in legal or str(action) != choice.notation:
                raise ValueError(f"not legal: {choice.notation}")
            apply(state, action)
        except Exception as problem:  # any refusal counts, and is shown
            bad += 1
            print(f"    refused at seed {state.seed} version {state.version}: {problem}")
    if bad:
        return bad, 0, 0
    try:
        checked = check_claims(state, hint)
        for choice in hint.choices:
            assert choice_words(choice, lang) in hint.words
    except AssertionError as problem:
        print(f"    claim failed at seed {state.seed} version {state.version}: {problem!r}")
        return 0, 1, 0
    return 0, 0, checked + len(hint.choices)


def positions_of(job: tuple[int, GameConfig, int]) -> tuple[int, int, int, int, float]:
    """One game of random legal play, asking at about ASK_RATE of its decisions:
    (positions, illegal or refused, claims failed, claims checked, seconds spent in hints)."""
    seed, config, budget = job
    chooser = random.Random(seed)
    state = new_game(config, seed, NAMES[: config.boards])
    asked = bad = failed = checked = 0
    spent = 0.0
    while state.phase != "over":
        if chooser.random() < ASK_RATE:
            started = time.monotonic()
            lang: Language = "de" if asked % 2 else "en"
            b, f, c = check_position(state, budget, lang)
            spent += time.monotonic() - started
            asked, bad, failed, checked = asked + 1, bad + b, failed + f, checked + c
        state, _ = apply(state, chooser.choice(legal_actions(state)))
    return asked, bad, failed, checked, spent


def part_b(positions: int, seed: int, workers: int, budget: int) -> None:
    kinds = setups()
    print(f"Part B: about {positions} positions from random games over {len(kinds)} setups; hints searched "
          f"with a budget of {budget} simulated turns (the hard bot's is {DEFAULT_BUDGET}), no clock; "
          f"{workers} worker process(es)")
    started = time.monotonic()
    totals = [0, 0, 0, 0]
    spent = 0.0
    games = 0
    with Pool(workers) as pool:
        while totals[0] < positions:
            batch = [(seed + games + i, kinds[(games + i) % len(kinds)], budget) for i in range(workers * 4)]
            for asked, bad, failed, checked, seconds in pool.map(positions_of, batch, chunksize=1):
                totals = [totals[0] + asked, totals[1] + bad, totals[2] + failed, totals[3] + checked]
                spent += seconds
            games += len(batch)
    asked, bad, failed, checked = totals
    print(f"  {asked} positions from {games} games: {bad} choice(s) illegal or refused, {failed} hint(s) with a "
          f"false claim ({checked} claims checked); mean {spent / max(asked, 1) * 1000:.0f} ms a hint; "
          f"{time.monotonic() - started:.0f} s in all")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--hint-seconds", type=float, default=hints.HINT_SECONDS)
    parser.add_argument("--check-budget", type=int, default=36)
    parser.add_argument("--part", default="AB")
    args = parser.parse_args()
    if "A" in args.part:
        part_a(args.games, args.seed, args.workers, args.hint_seconds)
    if "B" in args.part:
        part_b(args.positions, args.seed, args.workers, args.check_budget)


if __name__ == "__main__":
    main()
