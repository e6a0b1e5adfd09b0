"""A small goal-aware greedy player for the campaign tests and the campaign benchmark.

For each decision it tries every legal action on a copy of the game whose deck order has been
reshuffled (so it never learns what a draw would show), plays any skill it starts through to the
end greedily, and keeps the action whose position is worth most: the score now plus a bonus for
progress on the assignment's goals. The chosen action is then applied to the real game.
"""

from __future__ import annotations

import random

from keystone.engine import Action, GameState, apply, is_over, legal_actions
from keystone.engine.campaign import assignment, goal_values, start

GOAL_STEP = 6.0
"""Bonus per unit of progress on a non-score goal, up to its last threshold."""
STAR_BONUS = 20.0
"""Bonus per threshold a goal has reached."""
ORDER_ONLY = ("field_discard", "pile_held")
"""Choices that never change the board or synergy, so every option is worth the same here."""


def value(number: int, state: GameState, cache: dict[object, float]) -> float:
    """Score now plus goal progress; positions with the same board and synergy share one value."""
    seat = state.seats[0]
    key = (tuple(None if p is None else (p.card, p.research) for p in seat.board), seat.synergy)
    if key not in cache:
        score, values = goal_values(number, state)
        total = float(score)
        for goal, got in zip(assignment(number).goals, values, strict=True):
            if goal.kind != "score":
                total += GOAL_STEP * min(got, goal.stars[-1])
            total += STAR_BONUS * sum(1 for t in goal.stars if got >= t)
        cache[key] = total
    return cache[key]


def _best(number: int, state: GameState, cache: dict[object, float]) -> tuple[float, Action]:
    """The action worth most one step ahead, with any skill it starts finished greedily."""
    actions = legal_actions(state)
    if state.step is not None and state.step.kind in ORDER_ONLY:
        return 0.0, actions[0]
    best: tuple[float, Action] | None = None
    for action in actions:
        nxt, _ = apply(state, action)
        while nxt.phase == "resolve" and state.phase != "resolve":
            nxt, _ = apply(nxt, _best(number, nxt, cache)[1])
        v = value(number, nxt, cache)
        if best is None or v > best[0]:
            best = (v, action)
    assert best is not None
    return best


def choose(number: int, state: GameState, seed: int, cache: dict[object, float] | None = None) -> Action:
    """The greedy choice, made on a copy whose deck is reshuffled so hidden cards stay hidden."""
    guess = state.clone()
    random.Random(seed * 100_003 + state.version).shuffle(guess.deck)
    return _best(number, guess, {} if cache is None else cache)[1]


def play(number: int, seed: int, coop: bool = False) -> tuple[GameState, list[str]]:
    """A whole assignment game played greedily from `seed`, and its action log in notation."""
    state = start(number, seed, "Field team", coop)
    cache: dict[object, float] = {}
    log: list[str] = []
    while not is_over(state):
        action = choose(number, state, seed, cache)
        log.append(str(action))
        state, _ = apply(state, action)
    return state, log
