"""The Field Journal's assignments: the model, loading and checking `journal.json`, and starting one."""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from pydantic import Field, TypeAdapter, ValidationError, model_validator

from keystone.data import load_catalog
from keystone.engine.board import parse_cell
from keystone.engine.campaign.goals import Goal
from keystone.engine.campaign.setup import (
    LAST_ASSIGNMENT,
    DisabledSkill,
    Frozen,
    JournalError,
    Rule,
    Setup,
    StoryTokens,
    UnknownAssignment,
    apply_rule,
)
from keystone.engine.campaign.words import goal_line, setup_lines, tokened
from keystone.engine.state import GameConfig, GameState
from keystone.engine.table import new_game
from keystone.i18n import Language


class Assignment(Frozen):
    number: int = Field(ge=1, le=LAST_ASSIGNMENT)
    title: str = Field(min_length=3, max_length=60)
    title_de: str = Field(min_length=3, max_length=60)
    place: str = Field(min_length=3, max_length=80)
    """Where in North America the assignment is set: proper names, the same in every language."""
    story: str = Field(min_length=20, max_length=600)
    story_de: str = Field(min_length=20, max_length=700)
    """The German words sit beside the English in journal.json, as the cards' German names do, so an
    assignment is checked whole on load: one without German text is refused."""
    setup: Setup = Setup()
    rules: tuple[Rule, ...] = ()
    goals: tuple[Goal, ...] = Field(min_length=1, max_length=3)

    @model_validator(mode="after")
    def _check_rules(self) -> Assignment:
        kinds = [r.kind for r in self.rules]
        if len(set(kinds)) != len(kinds):
            raise ValueError("each kind of special rule may appear once")
        if any(g.kind == "story" for g in self.goals) and self.story_rule is None:
            raise ValueError("a story goal needs a story_tokens rule")
        for rule in self.rules:
            if isinstance(rule, DisabledSkill) and (self.setup.skills is None or rule.skill not in self.setup.skills):
                raise ValueError(f"disabled skill {rule.skill} must be one of the fixed skill tokens")
        return self

    def title_in(self, lang: Language) -> str:
        return self.title_de if lang == "de" else self.title

    def story_in(self, lang: Language) -> str:
        return self.story_de if lang == "de" else self.story

    @property
    def story_rule(self) -> StoryTokens | None:
        return next((r for r in self.rules if isinstance(r, StoryTokens)), None)

    def config(self, coop: bool = False) -> GameConfig:
        """The engine setup: the solo game changed by this assignment's setup and special rules."""
        s = self.setup
        cfg = GameConfig(
            assignment=self.number,
            players=2 if coop else 1,
            coop=coop,
            time_start=s.time_start,
            starting_synergy=[s.starting_synergy],
            skills=list(s.skills) if s.skills else None,
            objectives=[s.objective] if s.objective else None,
            field_size=s.field_size,
            removed_cards=list(s.removed_cards),
            preset=dict(s.preset),
            expansions=list(s.expansions),
        )
        for rule in self.rules:
            apply_rule(cfg, rule)
        return cfg

    def setup_lines(self, lang: Language = "en") -> list[str]:
        """The setup changes as short sentences, for the journal page."""
        return setup_lines(self.setup, lang)

    def goal_lines(self, lang: Language = "en") -> list[str]:
        """Each goal with its star thresholds, as on the journal page."""
        return [tokened(goal_line(g.asks(g.stars[0], lang), g.stars, lang), self.story_rule, lang) for g in self.goals]


def build_journal(raw: Any) -> tuple[Assignment, ...]:
    """Validate raw journal data against the models and the card catalog; JournalError on a fault."""
    if not isinstance(raw, list):
        raise JournalError("journal.json: the top level must be a list of assignments.")
    out = []
    for index, entry in enumerate(raw):
        label = f"journal.json, assignment {index + 1}"
        try:
            item = _ADAPTER.validate_python(entry)
        except ValidationError as exc:
            raise JournalError(f"{label}: {_brief(exc)}") from exc
        problem = _catalog_problem(item)
        if problem:
            raise JournalError(f"{label} ({item.title}): {problem}")
        out.append(item)
    numbers = [a.number for a in out]
    if numbers != list(range(1, LAST_ASSIGNMENT + 1)):
        raise JournalError(f"journal.json: assignments must be numbered 1 to {LAST_ASSIGNMENT} in order.")
    return tuple(out)


_ADAPTER: TypeAdapter[Assignment] = TypeAdapter(Assignment)


def _brief(exc: ValidationError) -> str:
    """Pydantic's errors on one line: "goals.0.stars: Value error, ...; title: Field required"."""
    return "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())


def _catalog_problem(a: Assignment) -> str | None:
    """The first way an assignment disagrees with the card catalog, or None."""
    cat = load_catalog()
    s = a.setup
    try:
        species = {c.id for c in cat.species_for(s.expansions)}
        pool = cat.skills_for(s.expansions)
    except ValueError as exc:
        return str(exc)
    story = a.story_rule.species if a.story_rule else ()
    unknown = [c for c in (*s.removed_cards, *s.preset.values(), *story) if c not in species]
    if unknown:
        return f"{unknown[0]!r} is not a species of this game."
    bad_cells = [c for c in s.preset if parse_cell(c) is None]
    if bad_cells:
        return f"{bad_cells[0]!r} is not a board cell."
    if len({parse_cell(c) for c in s.preset}) != len(s.preset):
        return "a board cell is preset twice."
    if len(set(s.preset.values())) != len(s.preset) or set(s.preset.values()) & set(s.removed_cards):
        return "a preset card is repeated or also removed from the deck."
    if s.skills and (len(set(s.skills)) != len(s.skills) or not set(s.skills) <= set(pool)):
        return f"skill tokens {list(s.skills)} must be distinct tokens of this game."
    if s.objective is not None and s.objective not in cat.objectives:
        return f"there is no secret objective card {s.objective}."
    for goal in a.goals:
        if goal.kind == "story" and goal.stars[-1] > len(story):
            return f"only {len(story)} species carry story tokens."
    return None


@functools.cache
def assignments() -> tuple[Assignment, ...]:
    """Every assignment in order, read from the packaged journal.json and validated once."""
    try:
        text = resources.files("keystone.data").joinpath("journal.json").read_text(encoding="utf-8")
        raw = json.loads(text)
    except (OSError, json.JSONDecodeError) as exc:
        raise JournalError(f"journal.json: cannot be read as JSON ({exc}).") from exc
    return build_journal(raw)


def assignment(number: int) -> Assignment:
    """One assignment by number; JournalError with a sentence for a number not in the journal."""
    if type(number) is not int or not 1 <= number <= LAST_ASSIGNMENT:
        raise UnknownAssignment.said("misc.journal.no_assignment", number=number, last=LAST_ASSIGNMENT)
    return assignments()[number - 1]


def config_for(number: int, coop: bool = False) -> GameConfig:
    """The GameConfig that plays an assignment, alone or in co-op (two players, one shared board)."""
    return assignment(number).config(coop)


def start(number: int, seed: int, name: str, coop: bool = False) -> GameState:
    """A new game of an assignment. In co-op the partners share the one board, named `name`."""
    return new_game(config_for(number, coop), seed, [name])


def rule_name_in(name: str, lang: Language) -> str:
    """A special rule's name, as a game's setup keeps it (in English, `GameConfig.rule_names`), said
    in `lang`: "Leave No Trace" is "Keine Spuren". A name no assignment gives is returned as it is."""
    found = next((r for a in assignments() for r in a.rules if r.name == name), None)
    return found.name_in(lang) if found is not None else name


def story_species(number: int) -> frozenset[str]:
    """Ids of the species that carry story tokens in an assignment (empty when it has none)."""
    rule = assignment(number).story_rule
    return frozenset(rule.species) if rule else frozenset()
