"""What `/keystone review` computes, in the painter's workers: each of a player's decisions in a
finished game beside the hard bot's, both estimated by playing the game out to its end.

The review sees what the player saw: a decision's state is reduced to that player's `player_view`
at that moment, the hard bot chooses from it (`search_action`, with the seed a bot playing that
seat would use), and what the view hides (the deck's order, the others' objectives) is guessed
(`determinize`) as the hard bot guesses it. Once the game is over every card is public, but the
true hidden cards are deliberately not used: a review judges a choice by what could be known when
it was made, not by the luck of the draw.

How a move is valued (`evaluate`): on each of `SAMPLES` guesses it is applied, the rest of the turn
and the next two turns are played by the normal bot's policy for every seat (the hard bot's own
`rollout`), and the position is judged as the hard bot judges it: each seat's expected final points
(`seat_value`: what the board scores now, what its open lines and objective still promise, and
synergy), the player's less the best other seat's (alone: their own). Both moves are valued on the
same guesses, so the difference is not drowned by the luck of a guess. Playing every game out to
its end was tried: three times the cost, and differences of ten points either way from luck alone.

A decision is the first choice of a turn (take a Field card, buy a Wild card, use a skill) and a
Wild card bought at a turn's end; the steps of a skill are not judged on their own (they follow
from the cards it drew). A choice that was the only legal one is not a decision.
Everything here is plain data, pickled to and from a worker; `to_json`/`from_json` keep a review.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from keystone.app.hints import Choice, LineChange, choice_of, hint_seed
from keystone.cards import Habitat
from keystone.data import load_catalog
from keystone.engine import GameState, legal_actions, player_view
from keystone.engine.actions import Action, BuyWild, EndTurn, Pass, Take, UseSkill, parse_action
from keystone.engine.bots.search import DEFAULT_BUDGET, HARD_WEIGHTS, LOOKAHEAD_TURNS, rollout, search_action, sub_seed
from keystone.engine.coop import acting_player
from keystone.engine.determinize import determinize
from keystone.engine.history import History, is_undo
from keystone.engine.results import board_cells, final_scores
from keystone.engine.scoring import score_board
from keystone.engine.state import PlacedCard

FORMAT = 1
"""The kept review's layout; a kept review of another layout is computed again."""
SAMPLES = 8
"""Guesses each move of a decision is played out on (a whole game each: the review's main cost)."""
FIRST_SAMPLE = 1000
"""Guesses are numbered from here, apart from the hard bot's own (`sub_seed` of the same seed)."""
JUDGED = (Take, BuyWild, UseSkill, Pass)


@dataclass(frozen=True, slots=True)
class Point:
    """One decision of the player's: the round, the state before it and what they played."""

    round: int
    state: GameState
    actual: Action


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision judged: the player's move and the hard bot's, each with its effects (read from the
    engine, as a hint reads them) and its estimated value in `value` (only the difference means
    something; both 0 when the two are the same move, which is not played out)."""

    round: int
    version: int
    actual: Choice
    best: Choice

    @property
    def same(self) -> bool:
        return self.actual.notation == self.best.notation

    @property
    def difference(self) -> float:
        """How much better the hard bot's move is estimated to be, in end points (negative: worse)."""
        return self.best.value - self.actual.value


@dataclass(frozen=True, slots=True)
class Review:
    """A player's finished game reviewed: their decisions, and the facts the costliest habit is told with."""

    seat: int
    decisions: tuple[Decision, ...]
    samples: int = SAMPLES
    seconds: float = 0.0
    """CPU seconds the workers spent on it."""
    wilds: int = 0
    """Wild cards the player bought, what they paid for them and what those cards scored at the end."""
    wild_paid: int = 0
    wild_scored: int = 0
    score: int = 0


# ---------------------------------------------------------------------- the decisions


def decision_points(start: GameState, log: Sequence[str], person: int) -> tuple[list[Point], GameState]:
    """Every decision `person` (the store's seat: in co-op, a partner) made in the game the log
    builds from `start`, undone ones left out; and the state the log ends in."""
    history = History(start)
    points: list[Point] = []
    for notation in log:
        state = history.state
        if is_undo(notation):
            taken = history.undo()
            if points and points[-1].state is taken.before:
                points.pop()
            continue
        history.play(notation)
        action = parse_action(notation)
        if acting_player(state) != person or not isinstance(action, (*JUDGED, EndTurn)):
            continue
        if (state.phase == "main" or isinstance(action, BuyWild)) and len(legal_actions(state)) > 1:
            points.append(Point(state.turn // max(1, state.config.players) + 1, state, action))
    return points, history.state


def evaluate(state: GameState, actions: Sequence[Action], samples: int = SAMPLES) -> list[float]:
    """Each action's mean margin in expected end points for the seat to act, over the same `samples`
    guesses of what its view hides (see the module docstring)."""
    me = state.current
    view = player_view(state, me)
    seed = hint_seed(state)
    totals = [0.0] * len(actions)
    for i in range(samples):
        guess = determinize(view, sub_seed(seed, FIRST_SAMPLE + i), state.config)
        for k, action in enumerate(actions):
            totals[k] += rollout(guess, action, HARD_WEIGHTS, LOOKAHEAD_TURNS)
    return [total / samples for total in totals]


def hard_choice(state: GameState, budget: int = DEFAULT_BUDGET) -> Action:
    """The hard bot's move for the seat to act, from that seat's view (as a bot playing it chooses)."""
    return search_action(player_view(state, state.current), state.config, hint_seed(state), budget)


def review_decision(point: Point, samples: int = SAMPLES, budget: int = DEFAULT_BUDGET) -> tuple[Decision, float]:
    """One decision judged (runs in a worker), and the CPU seconds it took."""
    began = time.process_time()
    state, actual = point.state, point.actual
    best = hard_choice(state, budget)
    values = [0.0, 0.0] if best == actual else evaluate(state, [actual, best], samples)
    me = state.current
    decision = Decision(point.round, state.version, choice_of(state, me, actual, values[0]),
                        choice_of(state, me, best, values[1]))
    return decision, time.process_time() - began


def points_of(start: GameState, log: Sequence[str], person: int) -> tuple[list[Point], dict[str, int], float]:
    """The decisions to judge (runs in a worker), the facts of the game's end, and the CPU seconds."""
    began = time.process_time()
    points, end = decision_points(start, log, person)
    return points, end_facts(end, person), time.process_time() - began


def end_facts(end: GameState, person: int) -> dict[str, int]:
    """The player's Wild cards at the end: how many they bought, what they paid and what they scored
    (the board's points less the points of the same board without them), and the board's points."""
    board = 0 if end.config.coop else person
    seat = end.seats[board]
    sheet = final_scores(end)[board]
    catalog = load_catalog()
    kept: list[PlacedCard | None] = [None if p is not None and catalog.card(p.card).wild else p for p in seat.board]
    objective = catalog.objectives[seat.objective] if seat.objective is not None else None
    without = score_board(board_cells(kept), objective, seat.synergy, end.config.rules)
    wilds = sum(1 for p in seat.board if p is not None and catalog.card(p.card).wild)
    return {"wilds": seat.wilds_bought, "wild_paid": seat.wilds_bought * end.config.wild_cost,
            "wild_scored": sheet.total - without.total if wilds else 0, "score": sheet.total}


# ---------------------------------------------------------------------- keeping


def to_json(review: Review) -> str:
    """The review as kept: plain JSON, no words and no names."""
    data = asdict(review)
    data["format"] = FORMAT
    return json.dumps(data, separators=(",", ":"), default=_plain)


def _plain(value: object) -> object:
    if isinstance(value, Habitat):
        return value.value
    raise TypeError(type(value).__name__)  # a programming error: only enums are turned into text


def from_json(text: str) -> Review | None:
    """A kept review, or None when it is of another layout or unreadable (it is then computed again)."""
    try:
        data = json.loads(text)
        if data.get("format") != FORMAT:
            return None
        decisions = tuple(Decision(d["round"], d["version"], _choice_of(d["actual"]), _choice_of(d["best"]))
                          for d in data["decisions"])
        return Review(int(data["seat"]), decisions, int(data["samples"]), float(data["seconds"]),
                      int(data["wilds"]), int(data["wild_paid"]), int(data["wild_scored"]), int(data["score"]))
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def _choice_of(data: dict[str, Any]) -> Choice:
    lines = tuple(LineChange(line["line"], None if line["habitat"] is None else Habitat(line["habitat"]),
                             line["cards"], line["before"], line["after"]) for line in data.pop("lines"))
    return replace(Choice(**data), lines=lines)


__all__ = ["Decision", "Point", "Review", "decision_points", "evaluate", "from_json", "hard_choice", "points_of",
           "review_decision", "to_json"]
