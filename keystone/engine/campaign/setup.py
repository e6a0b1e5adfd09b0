"""An assignment's setup and special rules: how its game differs from the solo base game."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from keystone.data import load_catalog
from keystone.engine.actions import IllegalAction
from keystone.engine.state import GameConfig
from keystone.i18n import Language, tr

LAST_ASSIGNMENT = 20
"""The number of assignments in the Field Journal; the last one opens the sealed envelope."""
ENVELOPE = "envelope"
"""The expansion the sealed envelope holds: opened at the start of the last assignment, then open to all games."""
SOLO_TIME = 4
SOLO_SYNERGY = 5


class JournalError(ValueError):
    """Bad journal data, or a request the journal cannot answer; `str()` is a readable sentence."""


class UnknownAssignment(JournalError, IllegalAction):
    """A number that names no assignment: a player's mistake, so a refusal in any language."""


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Setup(Frozen):
    """How an assignment's game differs from the solo base game before the first turn."""

    time_start: int = Field(default=SOLO_TIME, ge=1, le=8)
    starting_synergy: int = Field(default=SOLO_SYNERGY, ge=0, le=40)
    skills: tuple[int, ...] | None = Field(default=None, min_length=1, max_length=10)
    """Fixed skill tokens; None deals five at random as usual."""
    objective: int | None = None
    """A fixed secret objective card; None deals one at random."""
    field_size: int = Field(default=6, ge=3, le=8)
    removed_cards: tuple[str, ...] = ()
    preset: dict[str, str] = {}
    """Species already on the board before the first turn: cell (A1..D4) -> card id."""
    expansions: tuple[str, ...] = ()


class SpecialRule(Frozen):
    name: str = Field(min_length=3, max_length=40)
    """Short and memorable; a refused action's sentence quotes it."""
    name_de: str = Field(min_length=3, max_length=40)
    text: str = Field(min_length=10)
    text_de: str = Field(min_length=10)
    """Every special rule is in German too, so a German player reads it whole; a missing one refuses the journal."""

    def name_in(self, lang: Language) -> str:
        return self.name_de if lang == "de" else self.name

    def text_in(self, lang: Language) -> str:
        return self.text_de if lang == "de" else self.text


class NoWilds(SpecialRule):
    kind: Literal["no_wilds"]


class WildCost(SpecialRule):
    kind: Literal["wild_cost"]
    cost: int = Field(ge=11, le=40)


class DisabledSkill(SpecialRule):
    kind: Literal["disabled_skill"]
    skill: int = Field(ge=1)


class ExtraDiscards(SpecialRule):
    kind: Literal["extra_discards"]
    count: int = Field(ge=1, le=3)


class StoryTokens(SpecialRule):
    """Certain species carry a story token in this assignment; goals may count them on the board.

    `text` says why they carry it, naming no cards: the cards are named from `species`, the list the
    story goal counts, so the page and the goal cannot disagree about which cards count.
    """

    kind: Literal["story_tokens"]
    token: str = Field(min_length=3, max_length=30)
    """What one token stands for, e.g. "radio collar"."""
    token_de: str = Field(min_length=3, max_length=30)
    species: tuple[str, ...] = Field(min_length=3)
    """Ids of the cards that carry the token, in the order the page names them."""

    def token_in(self, lang: Language) -> str:
        return self.token_de if lang == "de" else self.token

    def token_phrase(self, lang: Language) -> str:
        """"a radio collar"; in German the token as a label, „Senderhalsband“, since its article varies."""
        if lang == "de":
            return f"„{self.token_de}“"
        return ("an " if self.token[:1].lower() in "aeiou" else "a ") + self.token

    def card_names(self, lang: Language) -> list[str]:
        """The names of the cards that carry the token, as the cards print them in `lang`."""
        cat = load_catalog()
        return [cat.card(card).name_in(lang) for card in self.species]

    def cards_sentence(self, lang: Language) -> str:
        """Exactly which cards carry the token, e.g. "The cards with a radio collar are exactly these: Woodland
        Caribou, ... and Mountain Goat.", so no player need guess whether a Red Wolf counts."""
        names = self.card_names(lang)
        listed = tr(lang, "journal.story.list", rest=", ".join(names[:-1]), last=names[-1])
        return tr(lang, "journal.story.cards", token=self.token_phrase(lang), cards=listed)

    def text_in(self, lang: Language) -> str:
        """Why the cards carry the token, then exactly which cards do."""
        return f"{super().text_in(lang)} {self.cards_sentence(lang)}"


Rule = Annotated[NoWilds | WildCost | DisabledSkill | ExtraDiscards | StoryTokens, Field(discriminator="kind")]


def apply_rule(cfg: GameConfig, rule: SpecialRule) -> None:
    """Change the engine setup for one special rule (story tokens change nothing there)."""
    match rule:
        case NoWilds():
            cfg.wilds_allowed = False
            cfg.rule_names["wilds"] = rule.name
        case WildCost(cost=cost):
            cfg.wild_cost = cost
            cfg.rule_names["wild_cost"] = rule.name
        case DisabledSkill(skill=skill):
            cfg.disabled_skills.append(skill)
            cfg.rule_names[f"skill:{skill}"] = rule.name
        case ExtraDiscards(count=count):
            cfg.extra_field_discards = count
