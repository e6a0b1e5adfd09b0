"""The normal bot's mind: value every legal action by the position it leads to, take the best.

Placing, moving and researching are valued directly on a cached board (`BoardEval`). A skill is
valued by playing out the rest of the turn greedily on a copy and evaluating where it ends; when
that play-out draws hidden cards it is repeated on other guesses of the deck and averaged.
Discarding from the Field is valued by what the card would be worth to the next seat.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from keystone.cards import Ruleset
from keystone.engine.actions import (
    Action,
    BuyWild,
    Discard,
    Draw,
    EndTurn,
    Move,
    Pass,
    Pile,
    Place,
    Research,
    Resolve,
    Skip,
    Take,
    UseSkill,
)
from keystone.engine.bots.evaluate import (
    DEFAULT_WEIGHTS,
    BoardEval,
    Weights,
    card_info,
    seat_eval,
    seat_value,
    turns_left,
)
from keystone.engine.bots.idle import position
from keystone.engine.game import apply, legal_actions
from keystone.engine.state import GameState
from keystone.engine.table import take_cost

MAX_TURN_STEPS = 40
"""A play-out of one turn never needs more decisions than this; it is a guard, not a rule."""
PLAYOUT_MOVE_SOURCES = 3
"""Inside a play-out, moves are tried from this many cards only (the cheapest to lift)."""


def fast_value(state: GameState, board: BoardEval, action: Action) -> float | None:
    """The value after `action` when it only changes the acting seat's board and synergy, else None."""
    seat = state.seat
    synergy = seat.synergy
    match action:
        case Take(slot, cell):
            chosen = state.field[slot]
            assert chosen is not None
            info = card_info(chosen.card)
            gain = chosen.synergy - take_cost(state, slot) + board.placement_synergy(info, cell)
            return board.value_with([(cell, info, 0)], synergy + gain)
        case BuyWild(habitat, cell):
            info = card_info(state.wild_stacks[habitat][-1])
            gain = board.placement_synergy(info, cell) - state.config.wild_cost
            return board.value_with([(cell, info, 0)], synergy + gain)
        case Place(index, cell):
            info = card_info(state.held[index])
            return board.value_with([(cell, info, 0)], synergy + board.placement_synergy(info, cell))
        case Move(source, target):
            placed = seat.board[source]
            assert placed is not None
            info = card_info(placed.card)
            gain = board.placement_synergy(info, target, skip=source)
            return board.value_with([(source, None, 0), (target, info, placed.research)], synergy + gain)
        case Research(cell):
            placed = seat.board[cell]
            step = state.step
            assert placed is not None and step is not None
            return board.value_with([(cell, card_info(placed.card), placed.research + step.count)], synergy)
        case Skip() | EndTurn():
            return board.value(synergy)
    return None


BoardKey = tuple[tuple[str, int] | None, ...]


@functools.lru_cache(maxsize=1 << 14)
def _best_gains(board: BoardKey, objective: int | None, rules: Ruleset, turns: float, synergy: int,
                weights: Weights) -> dict[str, float]:
    """Memo of what each card seen so far would add to this board at best (filled in lazily)."""
    return {}


def best_gain(state: GameState, seat: int, card: str, weights: Weights) -> float:
    """What `card` would add at best to `seat`'s position if placed on one of its empty cells."""
    s = state.seats[seat]
    key: BoardKey = tuple(None if p is None else (p.card, p.research) for p in s.board)
    turns = turns_left(state, seat, weights)
    memo = _best_gains(key, s.objective, state.config.rules, turns, s.synergy, weights)
    if card not in memo:
        board = BoardEval(s.board, s.objective, state.config.rules, turns, weights)
        base = board.value(s.synergy)
        info = card_info(card)
        best = 0.0
        for cell, placed in enumerate(board.cells):
            if placed is None:
                after = board.value_with([(cell, info, 0)], s.synergy + board.placement_synergy(info, cell))
                best = max(best, after - base)
        memo[card] = best
    return memo[card]


def denial_values(state: GameState, weights: Weights) -> dict[int, float]:
    """For each Field slot, what its card would add to the best other seat's position."""
    others = [i for i in range(len(state.seats)) if i != state.current]
    return {
        slot: max((best_gain(state, seat, f.card, weights) for seat in others), default=0.0)
        for slot, f in enumerate(state.field)
        if f is not None
    }


def movable_first(state: GameState, board: BoardEval, actions: list[Action]) -> list[Action]:
    """Only the moves of the `PLAYOUT_MOVE_SOURCES` cards whose removal costs least (and `skip`)."""
    sources = {a.source for a in actions if isinstance(a, Move)}
    if len(sources) <= PLAYOUT_MOVE_SOURCES:
        return actions
    synergy = state.seat.synergy
    lifted = sorted(sources, key=lambda cell: -board.value_with([(cell, None, 0)], synergy))
    keep = set(lifted[:PLAYOUT_MOVE_SOURCES])
    return [a for a in actions if not isinstance(a, Move) or a.source in keep]


def finish_turn(state: GameState, me: int, weights: Weights, skills: bool = False) -> tuple[GameState, bool]:
    """Play seat `me`'s turn on to its end greedily; also say whether hidden cards were drawn.

    With `skills`, a turn that has not begun may also choose a skill (each played out once).
    The turn ends when the turn counter moves on, not when the seat changes: with one board
    (solo, co-op) the same seat acts next, and its next turns are no part of this one.
    """
    drew = False
    turn = state.turn
    for _ in range(MAX_TURN_STEPS):
        if state.phase in ("over", "after") or state.current != me or state.turn != turn:
            break
        action = greedy_action(state, weights, simulate=skills and state.phase == "main")
        drew = drew or isinstance(action, Draw)
        state, _ = apply(state, action)
    return state, drew


def simulated_value(
    state: GameState, action: Action, weights: Weights, others: Sequence[GameState]
) -> tuple[float, bool]:
    """Value of a skill action: play the turn out; average over other guesses if it drew cards.

    Also whether the play-out changed the seat's own position (board, research, synergy) in any
    guess: a skill that changes none only costs time (`idle`).
    """
    me = state.current
    before = position(state, me)
    end, drew = finish_turn(apply(state, action)[0], me, weights)
    values = [seat_value(end, me, weights)]
    changed = position(end, me) != before
    if drew:
        for other in others:
            end, _ = finish_turn(apply(other, action)[0], me, weights)
            values.append(seat_value(end, me, weights))
            changed = changed or position(end, me) != position(other, me)
    return sum(values) / len(values), changed


def action_values(
    state: GameState, weights: Weights = DEFAULT_WEIGHTS, simulate: bool = True,
    others: Sequence[GameState] = (),
) -> list[tuple[Action, float]]:
    """Every legal action with its value for the acting seat (higher is better).

    With `simulate` off (inside a play-out), skills and the order of exhausted tokens are not
    explored: skills are skipped and tokens resolve in the order offered, and only the cards
    that are cheapest to lift are considered for a move.

    A skill whose play-out leaves the seat's board, research and synergy as they were would only
    cost time (the turn, and for the all-exhausted action a space of the time track): it is left
    out whenever any other action is legal, whatever its value says (ruling 204).
    """
    actions = legal_actions(state)
    if len(actions) == 1:
        return [(actions[0], 0.0)]
    board = seat_eval(state, state.current, weights)
    if not simulate and state.step is not None and state.step.kind == "move":
        actions = movable_first(state, board, actions)
    denial: dict[int, float] | None = None
    out: list[tuple[Action, float]] = []
    idle: list[Action] = []
    for action in actions:
        value = fast_value(state, board, action)
        if value is None:
            match action:
                case Discard(slot):
                    denial = denial if denial is not None else denial_values(state, weights)
                    value = denial[slot]
                case Draw():
                    value = float("inf")
                case Pile(index):
                    value = -float(index)
                case Resolve(number):
                    value = simulated_value(state, action, weights, others)[0] if simulate else -float(number)
                case UseSkill():
                    if not simulate:
                        continue
                    value, changed = simulated_value(state, action, weights, others)
                    if not changed:
                        idle.append(action)
                case Pass():
                    value = 0.0
                case _:
                    continue
        out.append((action, value))
    if idle and len(idle) < len(out):
        dropped = set(idle)
        out = [(action, value) for action, value in out if action not in dropped]
    return out


def best_of(scored: Sequence[tuple[Action, float]]) -> Action:
    """The highest-valued action; ties go to the first in legal order, so choices are reproducible."""
    best_action, best_value = scored[0]
    for action, value in scored[1:]:
        if value > best_value + 1e-9:
            best_action, best_value = action, value
    return best_action


def greedy_action(state: GameState, weights: Weights = DEFAULT_WEIGHTS, simulate: bool = True,
                  others: Sequence[GameState] = ()) -> Action:
    """The best action by `action_values`."""
    scored = action_values(state, weights, simulate, others)
    return best_of(scored) if scored else legal_actions(state)[0]
