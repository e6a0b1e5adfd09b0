"""`python -m keystone simulate`: play seeded games and check every invariant after every action.

Prints one line of JSON for machines; `--lang de` names the seats, the help, the refusals and the
result's `summary` sentence in German (the JSON keys and the bots' levels stay as typed)."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

from keystone.cli.options import Parser, add_language, asked_language, parse, positive
from keystone.engine import Action, GameConfig, apply, legal_actions, new_game
from keystone.engine.bots import LEVELS
from keystone.engine.invariants import check_invariants
from keystone.engine.state import GameState
from keystone.i18n import DEFAULT, Language, tr, trn


def play_game(
    seed: int, players: int, choose: Callable[[GameState], Action], check: bool = True, lang: Language = DEFAULT
) -> tuple[GameState, list[str], list[str]]:
    """Play one seeded game, `choose` picking every action, its seats named in `lang`; return
    (final state, log, problems)."""
    names = [tr(lang, "picture.text.seat_number", number=i + 1) for i in range(players)]
    state = new_game(GameConfig(players=players), seed, names)
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


def random_game(seed: int, players: int, check: bool = True,
                lang: Language = DEFAULT) -> tuple[GameState, list[str], list[str]]:
    """Uniformly random legal moves."""
    chooser = random.Random(seed)
    return play_game(seed, players, lambda state: chooser.choice(legal_actions(state)), check, lang)


def bot_game(
    seed: int, levels: list[str], budget: int | None = None, check: bool = True, lang: Language = DEFAULT
) -> tuple[GameState, list[str], list[str]]:
    """A bot level per seat."""
    from keystone.engine.bots import bot_seed, choose_action

    def choose(state: GameState) -> Action:
        return choose_action(state, levels[state.current], bot_seed(seed, state), budget=budget)

    return play_game(seed, len(levels), choose, check, lang)


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
        parser.error(tr(args.lang, "tools.simulate.vs_alone"))


def parser(lang: Language = DEFAULT) -> argparse.ArgumentParser:
    """The options, their help in `lang`."""
    made = Parser(prog="python -m keystone simulate", description=tr(lang, "tools.simulate.description"))
    made.add_argument("--games", type=positive, default=100, metavar="N",
                      help=tr(lang, "tools.simulate.games", games=100))
    made.add_argument("--seed", type=int, default=0, metavar="N", help=tr(lang, "tools.simulate.seed", seed=0))
    made.add_argument("--players", type=int, default=2, choices=[1, 2, 3, 4],
                      help=tr(lang, "tools.simulate.players", players=2))
    made.add_argument("--bot", choices=LEVELS, help=tr(lang, "tools.simulate.bot"))
    made.add_argument("--vs", choices=LEVELS, help=tr(lang, "tools.simulate.vs"))
    made.add_argument("--budget", type=positive, metavar="N", help=tr(lang, "tools.simulate.budget"))
    add_language(made, lang)
    return made


def main(argv: list[str]) -> int:
    args = parse(parser(asked_language(argv)), argv, _check)
    if isinstance(args, int):
        return args
    lang: Language = args.lang
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
            state, _log, problems = random_game(args.seed + g, args.players, lang=lang)
        else:
            levels = seat_levels(g, args.players, args.bot, args.vs)
            state, _log, problems = bot_game(args.seed + g, levels, args.budget, lang=lang)
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
        "summary": trn(lang, "tools.simulate.summary", args.games, finished=finished, problems=len(violations)),
    }
    if args.bot is not None:
        result.update(bot_summary(matches, args.bot, args.vs))
    print(json.dumps(result, ensure_ascii=False))
    return 0 if not violations and finished == args.games else 1
