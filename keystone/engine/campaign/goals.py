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
from keystone.engine.campaign.words import story_phrase
from keystone.engine.scoring import BoardCell, ScoreSheet, longest_ecosystem
from keystone.engine.words import symbol_name
from keystone.i18n import DEFAULT, Language, tr, trn


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

    def asks(self, amount: int, lang: Language = DEFAULT) -> str:
        """The goal as an instruction for a given threshold."""
        raise NotImplementedError

    def result(self, value: int, lang: Language = DEFAULT) -> str:
        """What the board achieved, as a clause."""
        return tr(lang, "journal.goal.have", value=value)


class ScoreGoal(GoalBase):
    kind: Literal["score"]

    def ceiling(self) -> int:
        return 300

    def measure(self, m: Measure) -> int:
        return m.sheet.total

    def asks(self, amount: int, lang: Language = DEFAULT) -> str:
        return trn(lang, "journal.goal.score.asks", amount)

    def result(self, value: int, lang: Language = DEFAULT) -> str:
        return tr(lang, "journal.goal.score.result", value=value)


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

    def _what(self, lang: Language, form: str = "") -> str:
        """"wetland ecosystem", or with `form` "a": "a wetland ecosystem"."""
        habitat = self.habitat.value if self.habitat is not None else "any"
        return tr(lang, f"journal.ecosystem.{habitat}" + (f".{form}" if form else ""))

    def asks(self, amount: int, lang: Language = DEFAULT) -> str:
        return tr(lang, "journal.goal.ecosystem.asks", what=self._what(lang, "a"), amount=amount)

    def result(self, value: int, lang: Language = DEFAULT) -> str:
        if not value:
            return tr(lang, "journal.goal.ecosystem.none", what=self._what(lang))
        return tr(lang, "journal.goal.ecosystem.result", what=self._what(lang), value=value)


class EcosystemsGoal(GoalBase):
    """Rows and columns that score an ecosystem."""

    kind: Literal["ecosystems"]

    def ceiling(self) -> int:
        return 2 * SIZE

    def measure(self, m: Measure) -> int:
        return sum(1 for line in (*m.sheet.rows, *m.sheet.columns) if line.points)

    def asks(self, amount: int, lang: Language = DEFAULT) -> str:
        if amount == self.ceiling():
            return tr(lang, "journal.goal.ecosystems.all")
        return tr(lang, "journal.goal.ecosystems.asks", amount=amount)

    def result(self, value: int, lang: Language = DEFAULT) -> str:
        return tr(lang, "journal.goal.ecosystems.result", value=value)


class ObjectiveGoal(GoalBase):
    kind: Literal["objective"]

    def ceiling(self) -> int:
        return 4

    def measure(self, m: Measure) -> int:
        return m.sheet.goals_completed

    def asks(self, amount: int, lang: Language = DEFAULT) -> str:
        return trn(lang, "journal.goal.objective.asks", amount)

    def result(self, value: int, lang: Language = DEFAULT) -> str:
        return tr(lang, "journal.goal.objective.result", value=value)


class ResearchGoal(GoalBase):
    """Cards showing the symbol (any card, when None) that carry research tokens."""

    kind: Literal["research"]
    symbol: Symbol | None = None

    def measure(self, m: Measure) -> int:
        return sum(1 for cell in m.board if cell is not None and cell[1] > 0 and shows(cell[0], self.symbol))

    def _words(self, part: str, n: int, lang: Language) -> str:
        if self.symbol is None:
            return trn(lang, f"journal.goal.research.any.{part}", n)
        return trn(lang, f"journal.goal.research.{part}", n, symbol=symbol_name(self.symbol, lang))

    def asks(self, amount: int, lang: Language = DEFAULT) -> str:
        return self._words("asks", amount, lang)

    def result(self, value: int, lang: Language = DEFAULT) -> str:
        return self._words("result", value, lang)


class SymbolGoal(GoalBase):
    """Cards on the board that show a season, the Endangered icon or the Tag icon."""

    kind: Literal["symbol"]
    symbol: Symbol

    def measure(self, m: Measure) -> int:
        return sum(1 for cell in m.board if cell is not None and shows(cell[0], self.symbol))

    def asks(self, amount: int, lang: Language = DEFAULT) -> str:
        return trn(lang, "journal.goal.symbol.asks", amount, symbol=symbol_name(self.symbol, lang))


class KeystoneGoal(GoalBase):
    kind: Literal["keystones"]

    def measure(self, m: Measure) -> int:
        return sum(1 for cell in m.board if cell is not None and cell[0].keystone)

    def asks(self, amount: int, lang: Language = DEFAULT) -> str:
        return tr(lang, "journal.goal.keystones.asks", amount=amount)


class StoryGoal(GoalBase):
    """Species carrying this assignment's story tokens, on the final board."""

    kind: Literal["story"]

    def measure(self, m: Measure) -> int:
        return sum(1 for cell in m.board if cell is not None and cell[0].id in m.story)

    def asks(self, amount: int, lang: Language = DEFAULT) -> str:
        return tr(lang, "journal.goal.story.asks", amount=amount, species=story_phrase(lang))


class SynergyGoal(GoalBase):
    kind: Literal["synergy"]

    def ceiling(self) -> int:
        return 200

    def measure(self, m: Measure) -> int:
        return m.sheet.synergy_tokens

    def asks(self, amount: int, lang: Language = DEFAULT) -> str:
        return trn(lang, "journal.goal.synergy.asks", amount)

    def result(self, value: int, lang: Language = DEFAULT) -> str:
        return tr(lang, "journal.goal.synergy.result", value=value)


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
