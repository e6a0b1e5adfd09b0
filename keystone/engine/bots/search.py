"""The hard bot: determinized look-ahead over the most promising actions.

The hidden parts of the game (deck order, the others' objectives) are guessed several times with
`determinize`. The greedy valuation proposes a short list of candidate actions; each candidate
is then played on the same guesses (common random numbers, so the comparison is fair), followed by
two turns of greedy play by everyone, skills included, and judged by the margin over the best
other seat where the look-ahead stops. Candidates are weeded out by sequential halving, so most
of the budget goes to the close calls.

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

DEFAULT_BUDGET = 72
"""Simulated turns per decision (each rollout costs 1 + LOOKAHEAD_TURNS). With six candidates that
is two guesses each, then four each for the best three: a few hundred milliseconds a move here."""
CANDIDATES = 6
"""How many of the greedy valuation's best actions the search compares."""
LOOKAHEAD_TURNS = 2
"""Whole turns played greedily after the bot's own turn before the position is judged."""
HARD_WEIGHTS = Weights()
DIVERSE = True
"""Candidates are the best action of different ideas (Field cards, skills, Wild stacks) first."""
ROLLOUT_SKILLS = True
"""Let the players in a rollout use skills too (each valued by playing it out), as real players do."""


def sub_seed(seed: int, index: int) -> int:
    """A distinct, reproducible seed for the `index`-th guess made from one bot seed."""
    return (seed * 1_000_003 + index * 7_919 + 1) & ((1 << 63) - 1)


def rollout(guess: GameState, action: Action, weights: Weights, turns: int) -> float:
    """Play `action` and the rest of this turn, then `turns` more turns greedily; return the margin.

    The margin is this seat's expected points less the best other seat's, as the evaluation sees
    them where the rollout stops (exact points if the game ended on the way).
    """
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
    """Sequential halving over candidate actions, on a shared, growing list of guesses."""

    def __init__(self, view: GameView, config: GameConfig | None, seed: int, weights: Weights) -> None:
        self.view = view
        self.config = config
        self.seed = seed
        self.weights = weights
        self.guesses: list[GameState] = []

    def guess(self, index: int) -> GameState:
        while len(self.guesses) <= index:
            self.guesses.append(determinize(self.view, sub_seed(self.seed, len(self.guesses)), self.config))
        return self.guesses[index]

    def run(self, candidates: list[Action], budget: int, deadline: Callable[[], bool] | None) -> Action:
        """Sequential halving: each round gets an equal share of the budget, then the worse half goes."""
        return self.halve(candidates, budget, deadline)[0][0]

    def halve(
        self, candidates: list[Action], budget: int, deadline: Callable[[], bool] | None, *, fine: bool = False,
    ) -> tuple[list[Action], dict[Action, float], dict[Action, int]]:
        """`run`'s halving, with what it found: the actions still alive (the choice first), and each
        candidate's summed margins and number of rollouts. With `fine`, the deadline is also asked
        between the rollouts of one guess (a guess it interrupts is dropped, so the actions alive are
        still judged on the same guesses); the hard bot asks only between guesses."""
        totals = dict.fromkeys(candidates, 0.0)
        counts = dict.fromkeys(candidates, 0)
        alive = list(candidates)
        cost = 1 + LOOKAHEAD_TURNS
        share = budget // max(1, halving_rounds(len(alive)))
        while len(alive) > 1:
            start = counts[alive[0]]
            for g in range(start, start + share // (cost * len(alive))):
                if deadline is not None and deadline():
                    break
                guess = self.guess(g)
                margins: list[float] = []
                for action in alive:
                    if fine and margins and deadline is not None and deadline():
                        break
                    margins.append(rollout(guess, action, self.weights, LOOKAHEAD_TURNS))
                if len(margins) < len(alive):
                    break
                for action, margin in zip(alive, margins, strict=True):
                    totals[action] += margin
                    counts[action] += 1
            if counts[alive[0]] == start:
                break
            alive.sort(key=lambda a: -totals[a] / max(counts[a], 1))
            alive = alive[: max(1, len(alive) // 2)]
        return alive, totals, counts


def halving_rounds(candidates: int) -> int:
    """How many halvings bring `candidates` down to one."""
    rounds = 0
    while candidates > 1:
        candidates //= 2
        rounds += 1
    return rounds


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


def ranked_actions(
    view: GameView, config: GameConfig | None, seed: int, budget: int,
    deadline: Callable[[], bool] | None = None, weights: Weights = HARD_WEIGHTS,
) -> list[tuple[Action, float]]:
    """The hard bot's candidates for the seat to act in `view`, its own choice first (the very action
    `search_action` plays with the same arguments, when `deadline` does not cut the search short;
    here it is asked between rollouts, so an answer comes soon after it), the others best first,
    each with an estimate of its worth in points: the mean margin of its rollouts (candidates the
    halving dropped early have fewer), or the greedy valuation where the hard bot does not search.
    Only differences between the values mean something."""
    search = _Search(view, config, seed, weights)
    root = search.guess(0)
    scored = action_values(root, weights, simulate=True, others=[search.guess(1), search.guess(2)])
    if not scored:
        return [(greedy_action(root, weights), 0.0)]
    if len(scored) == 1 or root.phase == "resolve":
        best = best_of(scored)
        greedy = dict(scored)
        return [(best, greedy[best]), *sorted(((a, v) for a, v in scored if a != best), key=lambda av: -av[1])]
    candidates = pick_candidates(scored, CANDIDATES)
    alive, totals, counts = search.halve(candidates, budget, deadline, fine=True)
    if counts[alive[0]] == 0:  # stopped before any rollout: the greedy valuation ranks them
        greedy = dict(scored)
        return [(candidates[0], greedy[candidates[0]]),
                *sorted(((a, greedy[a]) for a in candidates[1:]), key=lambda av: -av[1])]
    mean = {a: totals[a] / counts[a] for a in candidates if counts[a]}
    rest = sorted((a for a in mean if a != alive[0]), key=lambda a: -mean[a])
    return [(a, mean[a]) for a in [alive[0], *rest]]


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
