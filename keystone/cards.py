"""Card, skill-token and objective models: the vocabulary every other module speaks.

The values themselves live in `keystone/data/` and are validated into these models on load.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from keystone.i18n import Language


class Habitat(StrEnum):
    FOREST = "forest"
    DESERT = "desert"
    WETLAND = "wetland"
    ARCTIC = "arctic"


class Season(StrEnum):
    SPRING = "spring"
    SUMMER = "summer"
    FALL = "fall"
    WINTER = "winter"


class Symbol(StrEnum):
    """What a secret-objective goal counts: a season, the Endangered icon or the Tag icon."""

    SPRING = "spring"
    SUMMER = "summer"
    FALL = "fall"
    WINTER = "winter"
    ENDANGERED = "endangered"
    TAG = "tag"


Ruleset = Literal["second-edition", "first-edition"]
"""Second edition (default): ecosystem numbers strictly ascending or descending, gaps allowed.
First edition (variant): consecutive numbers only."""


class Pattern(StrEnum):
    L_SHAPE = "l"
    LINE2 = "line2"
    DIAGONAL = "diagonal"
    LINE3 = "line3"
    COUNT3 = "count3"
    COUNT4 = "count4"


class Card(BaseModel):
    """A Species card (number 1-5) or a Wild card (number None, any 1-5 when scoring)."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    name_de: str | None = None
    """The species' common German name (the data files always give one; cards made in code may not)."""
    number: int | None = Field(default=None, ge=1, le=5)
    habitats: tuple[Habitat, ...] = Field(min_length=1, max_length=4)
    season: Season | None
    keystone: bool = False
    endangered: bool = False
    tag: bool = False
    wild: bool = False
    expansion: str | None = None

    @model_validator(mode="after")
    def _check_icons(self) -> Card:
        if self.endangered and self.tag:
            raise ValueError(f"{self.name}: Endangered and Tag share one icon slot")
        if len(set(self.habitats)) != len(self.habitats):
            raise ValueError(f"{self.name}: a habitat is listed twice")
        if self.wild:
            if self.number is not None or self.keystone or self.endangered or self.tag:
                raise ValueError(f"{self.name}: a Wild card has no number and no icons")
            if len(self.habitats) != 1:
                raise ValueError(f"{self.name}: a Wild card has exactly one habitat")
        else:
            if self.number is None:
                raise ValueError(f"{self.name}: a Species card needs a sequence number")
            if self.season is None:
                raise ValueError(f"{self.name}: a Species card needs a season")
        return self

    def name_in(self, lang: Language) -> str:
        """The card's name as a player reading `lang` knows it (the English name if it has no other)."""
        return self.name_de if lang == "de" and self.name_de is not None else self.name

    def has_symbol(self, symbol: Symbol) -> bool:
        if symbol is Symbol.ENDANGERED:
            return self.endangered
        if symbol is Symbol.TAG:
            return self.tag
        return self.season is not None and self.season.value == symbol.value


EffectKind = Literal["draw_place", "discard_place", "move", "research", "gain", "field_discard"]


class Effect(BaseModel):
    """One step of a skill side. Skill sides are short lists of these, resolved in order.

    - draw_place(count): may draw `count` from the deck, may place one, discard the rest in order.
    - discard_place(count): may look at the top `count` of the discard pile, may place one, return
      the rest to the top of the pile in order.
    - move(count): may move a card on the board to an empty cell, up to `count` times.
    - research(target, count): may put `count` research tokens on one unresearched card that shows
      `target` (a Symbol value, or "wild").
    - gain(count): gain synergy tokens.
    - field_discard(count): must discard `count` Field cards, one at a time, in the order chosen.
    """

    model_config = ConfigDict(frozen=True)

    kind: EffectKind
    count: int = Field(ge=1, le=10)
    target: str | None = None

    @model_validator(mode="after")
    def _check_target(self) -> Effect:
        if self.kind == "research":
            allowed = {s.value for s in Symbol} | {"wild"}
            if self.target not in allowed:
                raise ValueError(f"research target must be one of {sorted(allowed)}")
        elif self.target is not None:
            raise ValueError(f"{self.kind} takes no target")
        return self


class SkillSide(BaseModel):
    """One side of a skill token: a short summary (it labels buttons, so at most 40 characters) and
    the full text, in English and in German, and the effects it resolves."""

    model_config = ConfigDict(frozen=True)

    summary: str = Field(min_length=3, max_length=40)
    summary_de: str = Field(min_length=3, max_length=40)
    text: str = Field(min_length=3)
    text_de: str = Field(min_length=3)
    effects: tuple[Effect, ...] = Field(min_length=1)

    def summary_in(self, lang: Language) -> str:
        return self.summary_de if lang == "de" else self.summary

    def text_in(self, lang: Language) -> str:
        return self.text_de if lang == "de" else self.text


class SkillToken(BaseModel):
    """A two-sided skill token; both sides sit together, as on the physical token."""

    model_config = ConfigDict(frozen=True)

    number: int = Field(ge=1)
    active: SkillSide
    exhausted: SkillSide
    expansion: str | None = None


class Goal(BaseModel):
    model_config = ConfigDict(frozen=True)

    pattern: Pattern
    symbol: Symbol


class ObjectiveCard(BaseModel):
    model_config = ConfigDict(frozen=True)

    number: int = Field(ge=1)
    goals: tuple[Goal, Goal, Goal, Goal]

    @model_validator(mode="after")
    def _distinct_patterns(self) -> ObjectiveCard:
        if len({g.pattern for g in self.goals}) != 4:
            raise ValueError(f"objective {self.number}: the four goals use four different patterns")
        return self


OBJECTIVE_POINTS: tuple[int, ...] = (0, 5, 10, 16, 24)
"""Points for 0, 1, 2, 3 or 4 completed goals of a secret objective."""
