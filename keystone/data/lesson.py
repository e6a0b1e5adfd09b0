"""The guided first game (`lesson.json`): a prepared deal and the moves that teach the game, validated
on load. Which event shows that a lesson happened is the engine's business (`keystone.engine.lesson`);
this is only the plan."""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from keystone.data.catalog import CatalogError, load_catalog

Lesson = Literal["paid", "gained", "collected", "keystone", "skill", "season", "discard", "time", "wild"]
"""What a move can teach, each seen in the events it makes (see `keystone.engine.lesson`)."""
Closing = Literal["ecosystems", "objective", "score"]
"""What the score sheet teaches once the game is over."""
CELL_NAMES = tuple(f"{row}{col}" for row in "ABCD" for col in "1234")


class LessonStep(BaseModel):
    """One step: the move the lesson suggests and the lessons it is there to show."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    move: str = Field(min_length=1)
    teaches: tuple[Lesson, ...] = ()


class LessonPlan(BaseModel):
    """The deal (seed, time marker, synergy, objective, skill tokens, cards already on the board and
    the Field's cards drawn first, in order) and the steps that teach on it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    seed: int = Field(ge=0)
    time: int = Field(ge=1, le=7)
    synergy: int = Field(ge=0)
    objective: int
    skills: tuple[int, ...] = Field(min_length=1, max_length=5)
    board: dict[str, str]
    field: tuple[str, ...] = Field(min_length=6)
    steps: tuple[LessonStep, ...] = Field(min_length=1)
    closing: tuple[Closing, ...] = ()

    @model_validator(mode="after")
    def _check_cards(self) -> LessonPlan:
        catalog = load_catalog()
        for cell, card in self.board.items():
            if cell not in CELL_NAMES:
                raise ValueError(f"board: {cell!r} is not a cell (A1 to D4)")
            catalog.card(card)
        named = [*self.board.values(), *self.field]
        if len(set(named)) != len(named):
            raise ValueError("a card is named twice on the board and the Field")
        species = {c.id for c in catalog.species}
        if unknown := [c for c in self.field if c not in species]:
            raise ValueError(f"field: not species cards: {', '.join(unknown)}")
        if self.objective not in catalog.objectives:
            raise ValueError(f"objective: no card {self.objective}")
        if unknown_skills := [n for n in self.skills if n not in catalog.skills]:
            raise ValueError(f"skills: no tokens {unknown_skills}")
        return self

    @property
    def lessons(self) -> tuple[Lesson, ...]:
        """Every lesson the steps teach, in the order first taught."""
        return tuple(dict.fromkeys(lesson for step in self.steps for lesson in step.teaches))


@functools.cache
def load_lesson() -> LessonPlan:
    """The lesson plan, validated once per process; CatalogError names what is wrong."""
    try:
        raw = json.loads(resources.files("keystone.data").joinpath("lesson.json").read_text(encoding="utf-8"))
        return LessonPlan.model_validate(raw)
    except (OSError, json.JSONDecodeError, ValidationError, KeyError) as exc:
        raise CatalogError(f"lesson.json: {exc}") from exc
