"""The guided first game's plan (`keystone/data/lesson.json`) played through the real engine: its
own moves show every lesson, and whatever legal moves a newcomer makes instead, the lesson still
suggests a legal move until the game ends, and the game does end."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from keystone.data.lesson import Lesson, LessonPlan, load_lesson
from keystone.engine import apply, legal_actions, parse_action, public_view
from keystone.engine.lesson import lesson_game, suggest, taught
from keystone.engine.results import final_scores
from keystone.render.palette import ALERT
from keystone.render.turn import render_turn_image

NAME = "Zoë 🦊 Ёж"


def test_the_plans_own_moves_show_every_lesson_in_order_and_end_the_game() -> None:
    plan = load_lesson()
    state = lesson_game(NAME)
    assert [f.card for f in state.field if f is not None][::-1] == list(plan.field[:6])
    done: set[Lesson] = set()
    for step in plan.steps:
        suggestion = suggest(state, done)
        assert suggestion is not None and str(suggestion.action) == step.move
        assert set(step.teaches) <= set(suggestion.teaches)
        before = state
        state, events = apply(state, parse_action(step.move))
        shown = taught(before, events)
        assert set(step.teaches) <= shown, f"{step.move} showed {shown}"
        done |= shown
    assert done == set(plan.lessons)
    assert state.phase == "over" and suggest(state, done) is None
    sheet = final_scores(state)[0]
    assert any(line.keystones for line in sheet.rows + sheet.columns)
    assert any(line.wild_numbers for line in sheet.rows + sheet.columns)
    assert sheet.goals_completed >= 1


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(min_value=0, max_value=10_000), max_size=12))
def test_after_any_legal_moves_the_lesson_goes_on_to_the_end(picks: list[int]) -> None:
    state = lesson_game(NAME)
    done: set[Lesson] = set()
    for pick in picks:
        legal = legal_actions(state)
        if not legal:
            break
        before = state
        state, events = apply(state, legal[pick % len(legal)])
        done |= taught(before, events)
    for _ in range(80):
        suggestion = suggest(state, done)
        if suggestion is None:
            break
        assert suggestion.action in legal_actions(state)
        before = state
        state, events = apply(state, suggestion.action)
        done |= taught(before, events)
    assert state.phase == "over"


def test_a_plan_naming_a_card_twice_is_refused_on_load() -> None:
    raw = json.loads(load_lesson().model_dump_json())
    raw["field"][0] = raw["board"]["B1"]
    with pytest.raises(ValueError, match="named twice"):
        LessonPlan.model_validate(raw)


def test_the_lesson_picture_frames_the_slot_and_the_cell_of_the_next_move() -> None:
    view = public_view(lesson_game(NAME))
    plain = render_turn_image(view, 0)
    pointed = render_turn_image(view, 0, pointers=(("slot", 2), ("cell", 6)))
    changed = ImageChops.difference(plain, pointed).getbbox()
    assert changed is not None
    solid = Image.new("RGB", plain.size, ALERT)

    def alert_pixels(picture: Image.Image) -> int:
        return ImageChops.difference(picture.convert("RGB"), solid).convert("L").histogram()[0]

    assert alert_pixels(pointed) > alert_pixels(plain) + 1000
