"""The guided first game's words (`/learn` and `python -m keystone learn` say the same): the step to
take and why, what a move did and which lessons it showed, with the numbers the engine used, the
score sheet explained line by line, and where the lesson's picture points. Every sentence is
computed from the engine's events and states, in the language asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from keystone.app import text
from keystone.app.controls import button_label
from keystone.data import load_catalog
from keystone.data.lesson import Lesson, load_lesson
from keystone.engine import Event, GameState, event_text
from keystone.engine.actions import Action, BuyWild, Discard, Move, Place, Research, Take, UseSkill
from keystone.engine.board import cell_name
from keystone.engine.lesson import Suggestion, taught
from keystone.engine.messages import Param, say
from keystone.engine.scoring import LineScore, ScoreSheet
from keystone.engine.words import goal_sentence
from keystone.i18n import Language, tr, trn
from keystone.render.scoresheet import line_label
from keystone.render.turn import Pointer

MESSAGE_MAX = 2000
"""Discord's limit on a message's length."""


def fit(lines: list[str]) -> str:
    """The lines as one message within Discord's limit (the first lines kept whole)."""
    said = "\n".join(line for line in lines if line)
    return said if len(said) <= MESSAGE_MAX else said[: MESSAGE_MAX - 1] + "…"


def pointers(action: Action) -> tuple[Pointer, ...]:
    """Where the picture points for a move: the Field slot and the cell of a take, the cell of a
    placement, the time track for the action that moves it."""
    match action:
        case Take(slot, cell):
            return (("slot", slot), ("cell", cell))
        case BuyWild(_, cell) | Place(_, cell) | Research(cell):
            return (("cell", cell),)
        case Move(source, target):
            return (("cell", source), ("cell", target))
        case Discard(slot):
            return (("slot", slot),)
        case UseSkill(0):
            return (("time", 0),)
    return ()


def move_label(state: GameState, action: Action, lang: Language) -> str:
    """The button's words for a move: the card and the cell, not just the notation."""
    match action:
        case Take(slot, cell):
            entry = state.field[slot]
            card = text.card_name(entry.card, lang) if entry is not None else str(slot + 1)
            return tr(lang, "learn.button.take", card=card, cell=cell_name(cell))[:80]
        case BuyWild(habitat, cell):
            return tr(lang, "learn.button.wild", habitat=tr(lang, f"habitat.{habitat.value}"), cell=cell_name(cell))
        case Research(cell):
            return tr(lang, "learn.button.research", cell=cell_name(cell))
        case Discard(slot):
            return tr(lang, "learn.button.discard", slot=slot + 1)
        case Place(index, cell):
            return tr(lang, "learn.button.place", card=text.card_name(state.held[index], lang),
                      cell=cell_name(cell))[:80]
    return button_label(str(action).lower(), lang)


def step_words(state: GameState, suggestion: Suggestion, lang: Language) -> str:
    """What to do next and why, from the move the engine was asked to try."""
    number = state.version + 1
    if suggestion.teaches:
        lesson = suggestion.teaches[0]
        said = say(f"learn.do.{lesson}", _params(state, suggestion.after, suggestion.events, lang), lang)
    elif isinstance(suggestion.action, Discard):  # a skill's second discard: the first one was explained
        said = say("learn.do.discard.more", _params(state, suggestion.after, suggestion.events, lang), lang)
    else:
        said = tr(lang, "learn.do.next", move=move_label(state, suggestion.action, lang))
    return tr(lang, "learn.step", number=number, said=said)


def _synergy(amount: object, lang: Language) -> str:
    """An amount of synergy in words ("2 synergy", "2 Eicheln")."""
    return trn(lang, "event.synergy", amount if isinstance(amount, int) else 0)


def _params(before: GameState, after: GameState, events: Sequence[Event], lang: Language) -> dict[str, Param]:
    """What a lesson's words quote, taken from the events the engine made (or, for a step not yet
    taken, would make) and the states around them: the card, slot, cell, skill and time, the
    synergy paid, gained and collected, and the cards the payment went to."""
    params: dict[str, Param] = {"had": _synergy(before.seats[0].synergy, lang), "time": after.time,
                                "wild_cost": _synergy(after.config.wild_cost, lang)}
    for event in events:
        for key in ("card", "slot", "cell", "skill", "habitat"):
            if key in event.params:
                params[key] = event.params[key]
        for key in ("paid", "gained", "collected"):
            if isinstance(event.params.get(key), int):
                params[f"{key}_words"] = _synergy(event.params[key], lang)
        if event.kind == "take":
            slot = int(str(event.params["slot"])) - 1
            params["cards"] = [f.card for f in before.field[slot + 1:] if f is not None]
        if event.kind == "wild":
            params["habitat"] = load_catalog().card(str(event.params["card"])).habitats[0].value
        if event.kind == "skill" and "skill" in event.params:
            params["summary"] = load_catalog().skill(int(str(event.params["skill"]))).active.summary_in(lang)
    if before.step is not None and before.step.target is not None:
        params["target"] = before.step.target
    return params


def explained(before: GameState, after: GameState, action: Action, events: Sequence[Event],
              expected: Suggestion | None, done: set[Lesson], lang: Language,
              said: Callable[[Event], str] | None = None) -> list[str]:
    """What a move did, in the engine's words (`said`: how the caller words an event), then what
    each lesson it showed for the first time means, with the numbers the engine used; a move other
    than the suggested one is welcomed."""
    lines = []
    if expected is not None and expected.action != action:
        lines.append(tr(lang, "learn.other"))
    told = said or (lambda e: event_text(e, lang))
    lines.append(" ".join(told(e) for e in events if not e.private or e.seat == 0))
    params = _params(before, after, events, lang)
    for lesson in sorted(taught(before, events) - done, key=load_lesson().lessons.index):
        lines.append(say(f"learn.done.{lesson}", params, lang))
    if expected is not None and expected.action != action and expected.teaches:
        lines.append(tr(lang, "learn.adapts"))
    return [line for line in lines if line]


def score_sheet_lines(sheet: ScoreSheet, lang: Language) -> list[str]:
    """The score sheet, line by line: each ecosystem and how it adds up, the lines without one,
    each goal of the secret objective, the synergy left and the total."""
    lines: list[str] = []
    empty: list[str] = []
    for line in (*sheet.rows, *sheet.columns):
        if line.habitat is None:
            empty.append(line_label(line.line, lang))
        else:
            lines.append(_ecosystem_words(line, lang))
    if empty:
        lines.append(tr(lang, "learn.sheet.empty", lines=", ".join(empty)))
    for goal in sheet.goals:
        what = goal_sentence(goal.pattern, goal.symbol, lang)
        if goal.completed:
            lines.append(tr(lang, "learn.sheet.goal.met", letter=goal.letter, goal=what, cells=", ".join(goal.cells)))
        else:
            lines.append(tr(lang, "learn.sheet.goal.missed", letter=goal.letter, goal=what))
    lines.append(say("learn.sheet.objective", {"count": sheet.goals_completed, "points": sheet.objective_points},
                     lang))
    lines.append(say("learn.sheet.synergy", {"count": sheet.synergy_tokens, "points": sheet.synergy_points}, lang))
    lines.append(tr(lang, "learn.sheet.total", points=sheet.total))
    return lines


def _ecosystem_words(line: LineScore, lang: Language) -> str:
    """One scored line: its habitat, its cards, research, keystones, Wild numbers and points."""
    assert line.habitat is not None
    parts = [say("learn.sheet.cards", {"count": line.cards}, lang)]
    if line.research:
        parts.append(say("learn.sheet.research", {"count": line.research}, lang))
    if line.keystones:
        parts.append(say("learn.sheet.keystones", {"count": line.keystones, "factor": 1 + line.keystones}, lang))
    for cell, number in line.wild_numbers.items():
        parts.append(tr(lang, "learn.sheet.wild", cell=cell, number=number))
    habitat = tr(lang, f"habitat.{line.habitat.value}")
    return tr(lang, "learn.sheet.line", line=line_label(line.line, lang), habitat=habitat,
              cells=", ".join(line.cells), sum=" ".join(parts), points=line.points)


def missed(done: set[Lesson], lang: Language, rules: str) -> list[str]:
    """The lessons this game did not show (the newcomer made other moves), to read up on with
    `rules` (the command that tells the rules, as the reader types it)."""
    missing = [tr(lang, f"learn.name.{lesson}") for lesson in load_lesson().lessons if lesson not in done]
    if not missing:
        return []
    return [tr(lang, "learn.missed", lessons=", ".join(missing), rules=rules)]
