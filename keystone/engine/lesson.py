"""The guided first game: its prepared deal, which lessons a move's events show, and the move to
suggest next. The plan itself is data (`keystone/data/lesson.json`); everything here is computed
from the real rules, so a lesson's words always tell what the engine actually did.

A lesson's progress is never stored: it is what the moves so far have shown (`taught`, over the
game's log), so a game resumed after a restart goes on where it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from keystone.cards import Season
from keystone.data.lesson import Lesson, LessonPlan, load_lesson
from keystone.engine.actions import Action, Discard, EndTurn, Pass, Skip, UseSkill, parse_action
from keystone.engine.events import Event
from keystone.engine.game import apply, legal_actions
from keystone.engine.history import History
from keystone.engine.state import GameConfig, GameState
from keystone.engine.table import catalog, new_game

__all__ = ["Suggestion", "lesson_config", "lesson_game", "lessons_shown", "suggest", "taught"]


def lesson_config(plan: LessonPlan | None = None) -> GameConfig:
    """The engine's setup for the lesson: one board, its time marker, synergy, objective, skill
    tokens, cards already placed and the Field's cards drawn first."""
    plan = plan or load_lesson()
    return GameConfig(players=1, time_start=plan.time, starting_synergy=[plan.synergy], objectives=[plan.objective],
                      skills=list(plan.skills), preset=dict(plan.board), stacked=list(plan.field), lesson=plan.name)


def lesson_game(name: str, plan: LessonPlan | None = None) -> GameState:
    """The lesson's first state, for a player called `name`."""
    plan = plan or load_lesson()
    return new_game(lesson_config(plan), plan.seed, [name])


def taught(before: GameState, events: Iterable[Event]) -> set[Lesson]:
    """The lessons an action's events show (`before`: the state it was applied to)."""
    out: set[Lesson] = set()
    for event in events:
        params = event.params
        gained = params.get("gained")
        if isinstance(gained, int) and gained > 0:
            out.add("gained")
        card = params.get("card")
        if event.kind in ("take", "place") and isinstance(card, str) and catalog().card(card).keystone:
            out.add("keystone")
        match event.kind:
            case "take":
                if _positive(params.get("paid")):
                    out.add("paid")
                if _positive(params.get("collected")):
                    out.add("collected")
            case "skill" if event.key == "event.skill.use":
                out.add("skill")
            case "research" if before.step is not None and before.step.target in {s.value for s in Season}:
                out.add("season")
            case "discard":
                out.add("discard")
            case "time":
                out.add("time")
            case "wild":
                out.add("wild")
    return out


def lessons_shown(start: GameState, log: Sequence[str]) -> set[Lesson]:
    """The lessons a game's logged moves have shown so far (one taken back stays learnt)."""
    history = History(start)
    done: set[Lesson] = set()
    for notation in log:
        before = history.state
        done |= taught(before, history.play(notation))
    return done


def _positive(value: object) -> bool:
    return isinstance(value, int) and value > 0


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The move the lesson suggests now, what it will teach (empty: it only carries the game on),
    and the events it makes, for the words that explain it beforehand."""

    action: Action
    teaches: tuple[Lesson, ...]
    events: tuple[Event, ...]
    after: GameState


def suggest(state: GameState, done: Iterable[Lesson], plan: LessonPlan | None = None) -> Suggestion | None:
    """The next move: the plan's own step when it is legal and still teaches something new; else
    any legal move that teaches the first lesson still to come (the lesson adapts to a different
    move); else the move that gains most, so the game goes on. None once the game is over."""
    plan = plan or load_lesson()
    legal = legal_actions(state)
    if not legal:
        return None
    missing = [lesson for lesson in plan.lessons if lesson not in set(done)]
    tried = {str(a): _tried(state, a, missing) for a in legal}
    for step in plan.steps:
        wanted = [lesson for lesson in step.teaches if lesson in missing]
        found = tried.get(str(parse_action(step.move)))
        if found is not None and (set(wanted) & set(found.teaches) or (not step.teaches and state.phase == "resolve")):
            return found
    for lesson in missing:
        fits = [s for s in tried.values() if lesson in s.teaches and not _ends_early(s, missing)]
        if fits:
            return max(fits, key=lambda s: (len(s.teaches), s.after.seats[0].synergy))
    return max(tried.values(), key=_carries_on)


def _tried(state: GameState, action: Action, missing: Sequence[Lesson]) -> Suggestion:
    after, events = apply(state, action)
    shown = taught(state, events)
    return Suggestion(action, tuple(lesson for lesson in missing if lesson in shown), tuple(events), after)


def _ends_early(suggestion: Suggestion, missing: Sequence[Lesson]) -> bool:
    """Whether a move would end the game while lessons other than its own are still to come."""
    return suggestion.after.phase == "over" and bool(set(missing) - set(suggestion.teaches) - {"wild"})


def _carries_on(suggestion: Suggestion) -> tuple[int, int, int]:
    """How well a move that teaches nothing new carries the game on: not ending it, not skipping
    or passing, then the synergy it leaves."""
    quiet = isinstance(suggestion.action, Skip | Pass | EndTurn | Discard) or suggestion.action == UseSkill(0)
    return (suggestion.after.phase != "over", not quiet, suggestion.after.seats[0].synergy)
