"""`python -m keystone learn` in the terminal: Enter plays each suggested move to the end of the game
and its score sheet, in German; a typed move that is not legal is refused in one sentence and the
lesson goes on; `quit` stops."""

from __future__ import annotations

import io

from keystone.cli.learn import main
from keystone.data.lesson import load_lesson
from keystone.engine import apply_text
from keystone.engine.lesson import lesson_game
from keystone.engine.results import final_scores
from keystone.i18n import tr


def test_enter_plays_the_lesson_to_the_score_sheet_in_german_and_a_bad_move_is_refused() -> None:
    plan = load_lesson()
    typed = "take 9 Z9\n" + "\n" * (len(plan.steps) + 5)
    out = io.StringIO()
    assert main(["--lang", "de", "--name", "Zoë 🦊"], io.StringIO(typed), out) == 0
    said = out.getvalue()
    state = lesson_game("Zoë 🦊")
    for step in plan.steps:
        state, _ = apply_text(state, step.move)
    total = final_scores(state)[0].total
    assert tr("de", "learn.sheet.total", points=total).replace("**", "") in said
    assert said.count("[Enter: ") == len(plan.steps) + 1  # the bad move asks again
    assert "Schritt 1:" in said and "**" not in said
    assert tr("en", "learn.closing").replace("**", "") not in said


def test_quit_stops_the_lesson() -> None:
    out = io.StringIO()
    assert main([], io.StringIO("\nquit\n"), out) == 0
    said = out.getvalue()
    assert said.rstrip().endswith(tr("en", "learn.stopped")) and "Step 2:" in said
