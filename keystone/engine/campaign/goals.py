"""An assignment's goals: what each one measures on the final board, and how it says so.

Ecosystems are measured by scoring's own `longest_ecosystem`, so a goal never disagrees with the
score sheet about what an ecosystem is.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Annotated, Literal, NamedTuple

from pydantic import Field, model_validator

from keystone.cards import Card, Habitat, Ruleset, Symbol
from keystone.engine.board import SIZE
from keystone.engine.campaign.setup import Frozen
from keystone.engine.campaign.words import STORY_PHRASE, article, count
from keystone.engine.scoring import BoardCell, ScoreSheet, longest_ecosystem


class Measure(NamedTuple):
    """What goals read from a board: the cards, the score sheet and the assignment's story species."""

    board: Sequence[BoardCell | None]
    sheet: ScoreSheet
    story: frozenset[str]
    rules: Ruleset


class GoalBase(Frozen):
    kind: str
    stars: tuple[int, ...] = Field(min_length=1, max_length=3)
    """Thresholds, strictly ascending: reaching the first wins, the last is always three stars."""

    @model_validator(mode="after")
    def _check_stars(self) -> GoalBase:
        values = self.stars
        if any(b <= a for a, b in pairwise(values)):
            raise ValueError("star thresholds must be strictly ascending")
        if values[0] < self.floor():
            raise ValueError(f"the first threshold must be at least {self.floor()}")
        if values[-1] > self.ceiling():
            raise ValueError(f"a threshold of {values[-1]} can never be reached (at most {self.ceiling()})")
        return self

    def floor(self) -> int:
        return 1

    def ceiling(self) -> int:
        return 16

    def measure(self, m: Measure) -> int:
        raise NotImplementedError

    def asks(self, amount: int) -> str:
        """The goal as an instruction for a given threshold."""
        raise NotImplementedError

    def result(self, value: int) -> str:
        """What the board achieved, as a clause."""
        raise NotImplementedError


class ScoreGoal(GoalBase):
    kind: Literal["score"]

    def ceiling(self) -> int:
        return 300

    def measure(self, m: Measure) -> int:
        return m.sheet.total

    def asks(self, amount: int) -> str:
        return f"score at least {count(amount, 'point')}"

    def result(self, value: int) -> str:
        return f"you scored {value}"


class EcosystemGoal(GoalBase):
    """An ecosystem of this habitat (any, when None) with at least so many cards, anywhere on the board."""

    kind: Literal["ecosystem"]
    habitat: Habitat | None = None

    def floor(self) -> int:
        return 2  # an ecosystem has at least two cards

    def ceiling(self) -> int:
        return SIZE

    def measure(self, m: Measure) -> int:
        habitats = [self.habitat] if self.habitat is not None else list(Habitat)
        return max(longest_ecosystem(m.board, h, m.rules) for h in habitats)

    def _what(self) -> str:
        return f"{self.habitat.value} ecosystem" if self.habitat is not None else "ecosystem"

    def asks(self, amount: int) -> str:
        return f"build {article(self._what())} of at least {amount} cards"

    def result(self, value: int) -> str:
        return f"your longest {self._what()} has {value} cards" if value else f"you have no {self._what()}"


class EcosystemsGoal(GoalBase):
    """Rows and columns that score an ecosystem."""

    kind: Literal["ecosystems"]

    def ceiling(self) -> int:
        return 2 * SIZE

    def measure(self, m: Measure) -> int:
        return sum(1 for line in (*m.sheet.rows, *m.sheet.columns) if line.points)

    def asks(self, amount: int) -> str:
        if amount == self.ceiling():
            return "score an ecosystem in every row and column"
        return f"score an ecosystem in at least {amount} of the 8 rows and columns"

    def result(self, value: int) -> str:
        return f"{value} scored one"


class ObjectiveGoal(GoalBase):
    kind: Literal["objective"]

    def ceiling(self) -> int:
        return 4

    def measure(self, m: Measure) -> int:
        return m.sheet.goals_completed

    def asks(self, amount: int) -> str:
        return f"complete at least {count(amount, 'goal')} of your secret objective"

    def result(self, value: int) -> str:
        return f"you completed {value}"


class ResearchGoal(GoalBase):
    """Cards showing the symbol (any card, when None) that carry research tokens."""

    kind: Literal["research"]
    symbol: Symbol | None = None

    def measure(self, m: Measure) -> int:
        return sum(1 for cell in m.board if cell is not None and cell[1] > 0 and shows(cell[0], self.symbol))

    def _what(self) -> str:
        return f"{self.symbol.value.capitalize()} card" if self.symbol is not None else "card"

    def asks(self, amount: int) -> str:
        return f"research at least {count(amount, self._what())}"

    def result(self, value: int) -> str:
        return f"{count(value, self._what())} of yours {'carries' if value == 1 else 'carry'} research"


class SymbolGoal(GoalBase):
    """Cards on the board that show a season, the Endangered icon or the Tag icon."""

    kind: Literal["symbol"]
    symbol: Symbol

    def measure(self, m: Measure) -> int:
        return sum(1 for cell in m.board if cell is not None and shows(cell[0], self.symbol))

    def asks(self, amount: int) -> str:
        return f"have at least {count(amount, self.symbol.value.capitalize() + ' card')} on your board"

    def result(self, value: int) -> str:
        return f"you have {value}"


class KeystoneGoal(GoalBase):
    kind: Literal["keystones"]

    def measure(self, m: Measure) -> int:
        return sum(1 for cell in m.board if cell is not None and cell[0].keystone)

    def asks(self, amount: int) -> str:
        return f"have at least {amount} Keystone species on your board"

    def result(self, value: int) -> str:
        return f"you have {value}"


class StoryGoal(GoalBase):
    """Species carrying this assignment's story tokens, on the final board."""

    kind: Literal["story"]

    def measure(self, m: Measure) -> int:
        return sum(1 for cell in m.board if cell is not None and cell[0].id in m.story)

    def asks(self, amount: int) -> str:
        return f"have at least {amount} {STORY_PHRASE} on your board"

    def result(self, value: int) -> str:
        return f"you have {value}"


class SynergyGoal(GoalBase):
    kind: Literal["synergy"]

    def ceiling(self) -> int:
        return 200

    def measure(self, m: Measure) -> int:
        return m.sheet.synergy_tokens

    def asks(self, amount: int) -> str:
        return f"end with at least {count(amount, 'synergy token')}"

    def result(self, value: int) -> str:
        return f"you ended with {value}"


Goal = Annotated[
    ScoreGoal | EcosystemGoal | EcosystemsGoal | ObjectiveGoal | ResearchGoal | SymbolGoal | KeystoneGoal
    | StoryGoal | SynergyGoal,
    Field(discriminator="kind"),
]


def shows(card: Card, symbol: Symbol | None) -> bool:
    """A Wild card shows its season only (ruling 4); None matches every card."""
    if symbol is None:
        return True
    if card.wild and symbol in (Symbol.ENDANGERED, Symbol.TAG):
        return False
    return card.has_symbol(symbol)


def stars_for(thresholds: Sequence[int], value: int) -> int:
    """Thresholds reached, counted so that the last always gives three stars (a lone one is pass/fail)."""
    reached = sum(1 for t in thresholds if value >= t)
    return 0 if reached == 0 else 3 - (len(thresholds) - reached)
