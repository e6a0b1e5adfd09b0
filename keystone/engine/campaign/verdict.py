"""Judging an assignment game: each goal measured on the board, its stars, and a sentence for each."""

from __future__ import annotations

from pydantic import Field

from keystone.data import load_catalog
from keystone.engine.campaign.goals import GoalBase, Measure, stars_for
from keystone.engine.campaign.journal import Assignment, assignment
from keystone.engine.campaign.setup import Frozen, JournalError, StoryTokens
from keystone.engine.campaign.words import capital, goal_line, stars_word, tokened
from keystone.engine.scoring import ScoreSheet, score_board
from keystone.engine.state import GameState
from keystone.i18n import DEFAULT, Language, tr, trn


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
    lang: Language = DEFAULT
    """The language of the sentences (and of `title`)."""
    notes: tuple[str, ...] = ()
    """Sentences after the goals: which cards carry the assignment's story token, as its page says."""

    def sentences(self) -> list[str]:
        """A headline, one sentence per goal and the notes, ready to post."""
        which = "progress" if not self.finished else "won" if self.won else "lost"
        stars = stars_word(self.stars, self.lang, "with") if self.won else ""
        head = tr(self.lang, f"journal.verdict.{which}", number=self.number, title=self.title,
                  score=trn(self.lang, "reply.point.count", self.score),
                  stars=stars)
        return [head, *(g.sentence for g in self.goals), *self.notes]


def _outcome(goal: GoalBase, m: Measure, rule: StoryTokens | None, lang: Language) -> GoalOutcome:
    value = goal.measure(m)
    stars = stars_for(goal.stars, value)
    asked = goal.asks(goal.stars[0], lang)
    sentence = tr(lang, "journal.verdict.goal", asked=capital(asked), result=goal.result(value, lang))
    if stars:
        sentence += f", {stars_word(stars, lang)}"
        if stars < 3:
            following = goal.stars[sum(1 for t in goal.stars if value >= t)]
            sentence += " " + tr(lang, "journal.verdict.next", stars=stars_word(stars + 1, lang), amount=following)
    else:
        sentence += ", " + tr(lang, "journal.verdict.missed")
    return GoalOutcome(kind=goal.kind, asked=tokened(goal_line(asked, goal.stars, lang), rule, lang), value=value,
                       thresholds=goal.stars, stars=stars, sentence=tokened(sentence + ".", rule, lang))


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


def evaluate(a: Assignment, state: GameState, lang: Language = DEFAULT) -> AssignmentResult:
    """Measure an assignment's goals on a game set up for it; `won` stays False until the game ends.
    The sentences are in `lang`."""
    sheet, m = _measured(a, state)
    outcomes = tuple(_outcome(g, m, a.story_rule, lang) for g in a.goals)
    finished = state.phase == "over"
    stars = min(o.stars for o in outcomes) if finished else 0
    rule = a.story_rule
    notes = (rule.cards_sentence(lang),) if rule is not None else ()
    return AssignmentResult(number=a.number, title=a.title_in(lang), finished=finished, won=stars > 0, stars=stars,
                            score=sheet.total, goals=outcomes, sheet=sheet, lang=lang, notes=notes)


def goal_values(number: int, state: GameState) -> tuple[int, tuple[int, ...]]:
    """The score and each goal's measured value, cheaply: for bots and progress bars."""
    a = assignment(number)
    sheet, m = _measured(a, state)
    return sheet.total, tuple(g.measure(m) for g in a.goals)


def progress(number: int, state: GameState, lang: Language = DEFAULT) -> AssignmentResult:
    """The goals measured on the board as it stands, e.g. for a progress line during play."""
    return evaluate(assignment(number), state, lang)


def judge(number: int, state: GameState, lang: Language = DEFAULT) -> AssignmentResult:
    """Judge a finished assignment game: won, stars 0-3 and a sentence per goal."""
    if state.phase != "over":
        raise JournalError(f"Assignment {number} is still being played; it is judged when the game ends.")
    return progress(number, state, lang)
