"""Judging an assignment game: each goal measured on the board, its stars, and a sentence for each."""

from __future__ import annotations

from pydantic import Field

from keystone.data import load_catalog
from keystone.engine.campaign.goals import GoalBase, Measure, stars_for
from keystone.engine.campaign.journal import Assignment, assignment
from keystone.engine.campaign.setup import Frozen, JournalError, StoryTokens
from keystone.engine.campaign.words import STAR_WORDS, capital, goal_line, tokened
from keystone.engine.scoring import ScoreSheet, score_board
from keystone.engine.state import GameState


class GoalOutcome(Frozen):
    kind: str
    asked: str
    """The goal and its thresholds, as on the journal page."""
    value: int
    thresholds: tuple[int, ...]
    stars: int = Field(ge=0, le=3)
    sentence: str
    """How it went, e.g. "Score at least 40 points: you scored 52, two stars (three stars at 60)."."""

    @property
    def met(self) -> bool:
        return self.stars > 0


class AssignmentResult(Frozen):
    number: int
    title: str
    finished: bool
    won: bool
    """Every goal reached its first threshold (always False before the game ends)."""
    stars: int = Field(ge=0, le=3)
    """The fewest stars any goal earned: a result is only as good as its weakest goal."""
    score: int
    goals: tuple[GoalOutcome, ...]
    sheet: ScoreSheet

    def sentences(self) -> list[str]:
        """A headline and one sentence per goal, ready to post."""
        if not self.finished:
            head = f"Assignment {self.number}, {self.title}: in progress, {self.score} points so far."
        elif self.won:
            head = f"Assignment {self.number}, {self.title}: complete with {STAR_WORDS[self.stars]}."
        else:
            head = f"Assignment {self.number}, {self.title}: not complete this time."
        return [head, *(g.sentence for g in self.goals)]


def _outcome(goal: GoalBase, m: Measure, rule: StoryTokens | None) -> GoalOutcome:
    value = goal.measure(m)
    stars = stars_for(goal.stars, value)
    asked = goal.asks(goal.stars[0])
    sentence = f"{capital(asked)}: {goal.result(value)}"
    if stars:
        sentence += f", {STAR_WORDS[stars]}"
        if stars < 3:
            following = goal.stars[sum(1 for t in goal.stars if value >= t)]
            sentence += f" ({STAR_WORDS[stars + 1]} at {following})"
    else:
        sentence += ", not reached"
    return GoalOutcome(kind=goal.kind, asked=tokened(goal_line(asked, goal.stars), rule), value=value,
                       thresholds=goal.stars, stars=stars, sentence=tokened(sentence + ".", rule))


def _measured(a: Assignment, state: GameState) -> tuple[ScoreSheet, Measure]:
    if state.config != a.config(state.config.coop):
        raise JournalError(f"This game was not set up for assignment {a.number}, {a.title}.")
    cat = load_catalog()
    seat = state.seats[0]
    board = [None if p is None else (cat.card(p.card), p.research) for p in seat.board]
    objective = cat.objectives[seat.objective] if seat.objective is not None else None
    sheet = score_board(board, objective, seat.synergy, state.config.rules)
    story = frozenset(a.story_rule.species) if a.story_rule else frozenset()
    return sheet, Measure(board, sheet, story, state.config.rules)


def evaluate(a: Assignment, state: GameState) -> AssignmentResult:
    """Measure an assignment's goals on a game set up for it; `won` stays False until the game ends."""
    sheet, m = _measured(a, state)
    outcomes = tuple(_outcome(g, m, a.story_rule) for g in a.goals)
    finished = state.phase == "over"
    stars = min(o.stars for o in outcomes) if finished else 0
    return AssignmentResult(number=a.number, title=a.title, finished=finished, won=stars > 0, stars=stars,
                            score=sheet.total, goals=outcomes, sheet=sheet)


def goal_values(number: int, state: GameState) -> tuple[int, tuple[int, ...]]:
    """The score and each goal's measured value, cheaply: for bots and progress bars."""
    a = assignment(number)
    sheet, m = _measured(a, state)
    return sheet.total, tuple(g.measure(m) for g in a.goals)


def progress(number: int, state: GameState) -> AssignmentResult:
    """The goals measured on the board as it stands, e.g. for a progress line during play."""
    return evaluate(assignment(number), state)


def judge(number: int, state: GameState) -> AssignmentResult:
    """Judge a finished assignment game: won, stars 0-3 and a sentence per goal."""
    if state.phase != "over":
        raise JournalError(f"Assignment {number} is still being played; it is judged when the game ends.")
    return progress(number, state)
