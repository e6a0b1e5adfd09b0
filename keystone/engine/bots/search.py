"""The hard bot: determinized look-ahead over the most promising actions.

The hidden parts of the game (deck order, the others' objectives) are guessed several times with
`determinize`. The greedy valuation proposes a short list of candidate actions; each candidate
is then played on every guess, followed by a few turns of greedy play by everyone, and judged by
the margin over the best other seat where the look-ahead stops. Candidates are weeded out by
successive halving, so most of the budget goes to the close calls, and every candidate meets the
same guesses (common random numbers), so the comparison is fair.

The effort is a budget of simulated turns, never a clock, so the same seed gives the same move.
"""

from __future__ import annotations

from collections.abc import Callable

from keystone.engine.actions import Action, BuyWild, Take
from keystone.engine.bots.evaluate import Weights, seat_value
from keystone.engine.bots.greedy import action_values, best_of, finish_turn, greedy_action
from keystone.engine.determinize import determinize
from keystone.engine.game import apply
from keystone.engine.state import GameConfig, GameState
from keystone.engine.views import GameView

DEFAULT_BUDGET = 240
"""Simulated turns per decision: well under two seconds on a slow machine (see bench/bench_bots.py)."""
CANDIDATES = 6
"""How many of the greedy valuation's best actions the search compares."""
FIRST_GUESSES = 4
"""Guesses every candidate is played on before the first weeding-out."""
LOOKAHEAD_TURNS = 2
"""Whole turns played greedily after the bot's own turn before the position is judged."""
HARD_WEIGHTS = Weights()
DIVERSE = True
ROLLOUT_SKILLS = False


def _seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index * 7_919 + 1) & ((1 << 63) - 1)


def rollout(guess: GameState, action: Action, weights: Weights, turns: int) -> float:
    """Play `action` and the rest of this turn, then `turns` more turns greedily; return the margin."""
    me = guess.current
    state, _ = apply(guess, action)
    state, _ = finish_turn(state, me, weights)
    if state.phase == "after" and state.current == me:
        state, _ = apply(state, greedy_action(state, weights, simulate=False))
    for _ in range(turns):
        if state.phase == "over":
            break
        acting = state.current
        state, _ = finish_turn(state, acting, weights, skills=ROLLOUT_SKILLS)
        if state.phase == "after" and state.current == acting:
            state, _ = apply(state, greedy_action(state, weights, simulate=False))
    mine = seat_value(state, me, weights)
    others = [seat_value(state, i, weights) for i in range(len(state.seats)) if i != me]
    return mine - max(others) if others else mine


class _Search:
    """Successive halving over candidate actions, on a shared, growing list of guesses."""

    def __init__(self, view: GameView, config: GameConfig | None, seed: int, weights: Weights) -> None:
        self.view = view
        self.config = config
        self.seed = seed
        self.weights = weights
        self.guesses: list[GameState] = []

    def guess(self, index: int) -> GameState:
        while len(self.guesses) <= index:
            self.guesses.append(determinize(self.view, _seed(self.seed, len(self.guesses)), self.config))
        return self.guesses[index]

    def run(self, candidates: list[Action], budget: int, deadline: Callable[[], bool] | None) -> Action:
        totals = dict.fromkeys(candidates, 0.0)
        counts = dict.fromkeys(candidates, 0)
        alive = list(candidates)
        per_round = FIRST_GUESSES
        cost = 1 + LOOKAHEAD_TURNS
        while len(alive) > 1 and budget >= cost * len(alive) and not (deadline is not None and deadline()):
            start = counts[alive[0]]
            for g in range(start, start + min(per_round, budget // (cost * len(alive)))):
                guess = self.guess(g)
                for action in alive:
                    totals[action] += rollout(guess, action, self.weights, LOOKAHEAD_TURNS)
                    counts[action] += 1
                budget -= cost * len(alive)
                if deadline is not None and deadline():
                    break
            alive.sort(key=lambda a: -totals[a] / max(counts[a], 1))
            alive = alive[: max(1, len(alive) // 2)]
            per_round *= 2
        return alive[0]


def search_action(
    view: GameView, config: GameConfig | None, seed: int, budget: int,
    deadline: Callable[[], bool] | None = None, weights: Weights = HARD_WEIGHTS,
) -> Action:
    """The hard bot's action for the seat to act in `view` (see the module docstring)."""
    search = _Search(view, config, seed, weights)
    root = search.guess(0)
    scored = action_values(root, weights, simulate=True, others=[search.guess(1), search.guess(2)])
    if len(scored) == 1 or root.phase == "resolve":
        return best_of(scored) if scored else greedy_action(root, weights)
    return search.run(pick_candidates(scored, CANDIDATES), budget, deadline)


def _kind(action: Action) -> object:
    """Actions of one kind are alternatives of one idea: the same Field card, skill or Wild stack."""
    match action:
        case Take(slot, _):
            return ("take", slot)
        case BuyWild(habitat, _):
            return ("wild", habitat)
    return action


def pick_candidates(scored: list[tuple[Action, float]], count: int) -> list[Action]:
    """The best action of each kind first (so the search weighs different ideas), then the next best."""
    ranked = [a for a, _ in sorted(scored, key=lambda av: -av[1])]
    if not DIVERSE:
        return ranked[:count]
    kinds: set[object] = set()
    chosen: list[Action] = []
    for action in ranked:
        if len(chosen) < count - 1 and _kind(action) not in kinds:
            kinds.add(_kind(action))
            chosen.append(action)
    picked = set(chosen)
    chosen += [a for a in ranked if a not in picked][: count - len(chosen)]
    return chosen
