"""The Field Journal: twenty solo assignments, each a setup, special rules and goals, and their judge.

Pure like the rest of the engine: the only input it reads is the packaged `journal.json`. The
Discord layer (/journal) and the store build on the functions at the end of this module:
- the journal: `assignments()`, `assignment(n)` (title, place, story, `setup_lines()`, rules with
  their `name`/`text`, `goal_lines()`), `story_species(n)`;
- playing: `config_for(n, coop)` or `start(n, seed, name, coop)`; the config carries
  `assignment=n`, so a saved state is judged on its own; `keystone.engine.coop.acting_player`
  says which partner decides a co-op turn;
- the end: `judge(n, state)` -> `AssignmentResult` (won, stars, `sentences()`), and during play
  `progress(n, state)` or the cheaper `goal_values(n, state)`;
- progress per player, kept by the store: `recommended(won)` names the next assignment in order
  (every one may be played at any time), and `envelope_open(started)` says whether the person has
  started the last one (then offer `expansions=[ENVELOPE]` everywhere).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Sequence
from importlib import resources
from itertools import pairwise
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from keystone.cards import Card, Habitat, Ruleset, Symbol
from keystone.data import Catalog, load_catalog
from keystone.engine.board import parse_cell
from keystone.engine.game import new_game
from keystone.engine.scoring import BoardCell, ScoreSheet, score_board
from keystone.engine.state import GameConfig, GameState

__all__ = [
    "ENVELOPE",
    "LAST_ASSIGNMENT",
    "Assignment",
    "AssignmentResult",
    "GoalOutcome",
    "JournalError",
    "assignment",
    "assignments",
    "build_journal",
    "config_for",
    "envelope_open",
    "evaluate",
    "goal_values",
    "judge",
    "progress",
    "recommended",
    "start",
    "story_species",
]

LAST_ASSIGNMENT = 20
ENVELOPE = "envelope"
"""The expansion the sealed envelope holds: opened at the start of the last assignment, then open to all games."""
SOLO_TIME = 4
SOLO_SYNERGY = 5
BOARD_LINE = 4
WILD_HIGHEST = 5
STAR_WORDS = ("no stars", "one star", "two stars", "three stars")
STORY_PHRASE = "story-token species"
"""How goals name story species until an assignment puts its own token's name in (`_tokened`)."""


def _catalog() -> Catalog:
    return load_catalog()


class JournalError(ValueError):
    """Bad journal data, or a request the journal cannot answer; `str()` is a readable sentence."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --------------------------------------------------------------------------- setup and rules


class Setup(_Frozen):
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


class _Rule(_Frozen):
    name: str = Field(min_length=3, max_length=40)
    """Short and memorable; a refused action's sentence quotes it."""
    text: str = Field(min_length=10)


class NoWilds(_Rule):
    kind: Literal["no_wilds"]


class WildCost(_Rule):
    kind: Literal["wild_cost"]
    cost: int = Field(ge=11, le=40)


class DisabledSkill(_Rule):
    kind: Literal["disabled_skill"]
    skill: int = Field(ge=1)


class ExtraDiscards(_Rule):
    kind: Literal["extra_discards"]
    count: int = Field(ge=1, le=3)


class StoryTokens(_Rule):
    """Certain species carry a story token in this assignment; goals may count them on the board."""

    kind: Literal["story_tokens"]
    token: str = Field(min_length=3, max_length=30)
    """What one token stands for, e.g. "radio collar"."""
    species: tuple[str, ...] = Field(min_length=3)


Rule = Annotated[NoWilds | WildCost | DisabledSkill | ExtraDiscards | StoryTokens, Field(discriminator="kind")]


# --------------------------------------------------------------------------- goals


class _Measure(NamedTuple):
    """What goals read from a board: the cards, the score sheet and the assignment's story species."""

    board: Sequence[BoardCell | None]
    sheet: ScoreSheet
    story: frozenset[str]
    rules: Ruleset


class _Goal(_Frozen):
    kind: str
    stars: tuple[int, ...] = Field(min_length=1, max_length=3)
    """Thresholds, strictly ascending: reaching the first wins, the last is always three stars."""

    @model_validator(mode="after")
    def _check_stars(self) -> _Goal:
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

    def measure(self, m: _Measure) -> int:
        raise NotImplementedError

    def asks(self, amount: int) -> str:
        """The goal as an instruction for a given threshold."""
        raise NotImplementedError

    def result(self, value: int) -> str:
        """What the board achieved, as a clause."""
        raise NotImplementedError


class ScoreGoal(_Goal):
    kind: Literal["score"]

    def ceiling(self) -> int:
        return 300

    def measure(self, m: _Measure) -> int:
        return m.sheet.total

    def asks(self, amount: int) -> str:
        return f"score at least {_count(amount, 'point')}"

    def result(self, value: int) -> str:
        return f"you scored {value}"


class EcosystemGoal(_Goal):
    """An ecosystem of this habitat (any, when None) with at least so many cards, anywhere on the board."""

    kind: Literal["ecosystem"]
    habitat: Habitat | None = None

    def floor(self) -> int:
        return 2  # an ecosystem has at least two cards

    def ceiling(self) -> int:
        return BOARD_LINE

    def measure(self, m: _Measure) -> int:
        habitats = [self.habitat] if self.habitat is not None else list(Habitat)
        return max(_longest_ecosystem(m.board, h, m.rules) for h in habitats)

    def _what(self) -> str:
        return f"{self.habitat.value} ecosystem" if self.habitat is not None else "ecosystem"

    def asks(self, amount: int) -> str:
        return f"build {_article(self._what())} of at least {amount} cards"

    def result(self, value: int) -> str:
        return f"your longest {self._what()} has {value} cards" if value else f"you have no {self._what()}"


class EcosystemsGoal(_Goal):
    """Rows and columns that score an ecosystem."""

    kind: Literal["ecosystems"]

    def ceiling(self) -> int:
        return 2 * BOARD_LINE

    def measure(self, m: _Measure) -> int:
        return sum(1 for line in (*m.sheet.rows, *m.sheet.columns) if line.points)

    def asks(self, amount: int) -> str:
        if amount == self.ceiling():
            return "score an ecosystem in every row and column"
        return f"score an ecosystem in at least {amount} of the 8 rows and columns"

    def result(self, value: int) -> str:
        return f"{value} scored one"


class ObjectiveGoal(_Goal):
    kind: Literal["objective"]

    def ceiling(self) -> int:
        return 4

    def measure(self, m: _Measure) -> int:
        return m.sheet.goals_completed

    def asks(self, amount: int) -> str:
        return f"complete at least {_count(amount, 'goal')} of your secret objective"

    def result(self, value: int) -> str:
        return f"you completed {value}"


class ResearchGoal(_Goal):
    """Cards showing the symbol (any card, when None) that carry research tokens."""

    kind: Literal["research"]
    symbol: Symbol | None = None

    def measure(self, m: _Measure) -> int:
        return sum(1 for cell in m.board if cell is not None and cell[1] > 0 and _shows(cell[0], self.symbol))

    def _what(self) -> str:
        return f"{self.symbol.value.capitalize()} card" if self.symbol is not None else "card"

    def asks(self, amount: int) -> str:
        return f"research at least {_count(amount, self._what())}"

    def result(self, value: int) -> str:
        return f"{_count(value, self._what())} of yours {'carries' if value == 1 else 'carry'} research"


class SymbolGoal(_Goal):
    """Cards on the board that show a season, the Endangered icon or the Tag icon."""

    kind: Literal["symbol"]
    symbol: Symbol

    def measure(self, m: _Measure) -> int:
        return sum(1 for cell in m.board if cell is not None and _shows(cell[0], self.symbol))

    def asks(self, amount: int) -> str:
        return f"have at least {_count(amount, self.symbol.value.capitalize() + ' card')} on your board"

    def result(self, value: int) -> str:
        return f"you have {value}"


class KeystoneGoal(_Goal):
    kind: Literal["keystones"]

    def measure(self, m: _Measure) -> int:
        return sum(1 for cell in m.board if cell is not None and cell[0].keystone)

    def asks(self, amount: int) -> str:
        return f"have at least {amount} Keystone species on your board"

    def result(self, value: int) -> str:
        return f"you have {value}"


class StoryGoal(_Goal):
    """Species carrying this assignment's story tokens, on the final board."""

    kind: Literal["story"]

    def measure(self, m: _Measure) -> int:
        return sum(1 for cell in m.board if cell is not None and cell[0].id in m.story)

    def asks(self, amount: int) -> str:
        return f"have at least {amount} {STORY_PHRASE} on your board"

    def result(self, value: int) -> str:
        return f"you have {value}"


class SynergyGoal(_Goal):
    kind: Literal["synergy"]

    def ceiling(self) -> int:
        return 200

    def measure(self, m: _Measure) -> int:
        return m.sheet.synergy_tokens

    def asks(self, amount: int) -> str:
        return f"end with at least {_count(amount, 'synergy token')}"

    def result(self, value: int) -> str:
        return f"you ended with {value}"


Goal = Annotated[
    ScoreGoal | EcosystemGoal | EcosystemsGoal | ObjectiveGoal | ResearchGoal | SymbolGoal | KeystoneGoal
    | StoryGoal | SynergyGoal,
    Field(discriminator="kind"),
]


def _article(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _shows(card: Card, symbol: Symbol | None) -> bool:
    """A Wild card shows its season only (ruling 4); None matches every card."""
    if symbol is None:
        return True
    if card.wild and symbol in (Symbol.ENDANGERED, Symbol.TAG):
        return False
    return card.has_symbol(symbol)


def _longest_ecosystem(board: Sequence[BoardCell | None], habitat: Habitat, rules: Ruleset) -> int:
    """Cards in the longest valid ecosystem of one habitat in any row or column (0 when none).

    Scoring keeps only each line's most valuable ecosystem, which may be of another habitat, so
    this looks at every run of neighbouring cards that show the habitat instead.
    """
    consecutive = rules == "first-edition"
    best = 0
    for line in _LINES:
        cells = [board[i] for i in line]
        for first in range(BOARD_LINE - 1):
            for last in range(first + max(best, 1), BOARD_LINE):
                run = cells[first : last + 1]
                numbers = [0 if c[0].wild else (c[0].number or 0) for c in run if c and habitat in c[0].habitats]
                if len(numbers) < len(run):
                    break
                if _in_order(numbers, consecutive) or _in_order(numbers[::-1], consecutive):
                    best = len(run)
    return best


_LINES: tuple[tuple[int, ...], ...] = tuple(
    [tuple(r * BOARD_LINE + c for c in range(BOARD_LINE)) for r in range(BOARD_LINE)]
    + [tuple(r * BOARD_LINE + c for r in range(BOARD_LINE)) for c in range(BOARD_LINE)]
)


def _in_order(numbers: Sequence[int], consecutive: bool) -> bool:
    """Whether cards with these numbers (0 = a Wild card, any of 1-5) can rise strictly left to right.

    Second edition: each number above the last, gaps allowed; a Wild card takes the lowest it can.
    First edition: each exactly one above the last.
    """
    if consecutive:
        starts = {n - i for i, n in enumerate(numbers) if n}
        if len(starts) > 1:
            return False
        low = starts.pop() if starts else 1
        return low >= 1 and low + len(numbers) - 1 <= WILD_HIGHEST
    current = 0
    for n in numbers:
        if n and n <= current:
            return False
        current = n or current + 1
    return current <= WILD_HIGHEST


def _stars_for(thresholds: Sequence[int], value: int) -> int:
    """Thresholds reached, counted so that the last always gives three stars (a lone one is pass/fail)."""
    reached = sum(1 for t in thresholds if value >= t)
    return 0 if reached == 0 else 3 - (len(thresholds) - reached)


# --------------------------------------------------------------------------- assignments


class Assignment(_Frozen):
    number: int = Field(ge=1, le=LAST_ASSIGNMENT)
    title: str = Field(min_length=3, max_length=60)
    place: str = Field(min_length=3, max_length=80)
    """Where in North America the assignment is set."""
    story: str = Field(min_length=20, max_length=600)
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
            _apply_rule(cfg, rule)
        return cfg

    def setup_lines(self) -> list[str]:
        """The setup changes as short sentences, for the journal page."""
        return _setup_lines(self.setup)

    def goal_lines(self) -> list[str]:
        """Each goal with its star thresholds, as on the journal page."""
        return [_tokened(_goal_line(g), self.story_rule) for g in self.goals]


def _apply_rule(cfg: GameConfig, rule: _Rule) -> None:
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


def _setup_lines(s: Setup) -> list[str]:
    cat = _catalog()
    lines = [f"The time marker starts on {s.time_start}" + ("." if s.time_start != SOLO_TIME else " as usual."),
             f"You start with {s.starting_synergy} synergy tokens."]
    if s.skills:
        lines.append("Skill tokens in play: " + ", ".join(str(n) for n in s.skills) + ".")
    if s.objective:
        lines.append(f"Your secret objective is card {s.objective}.")
    if s.field_size != 6:
        lines.append(f"The Field holds {s.field_size} cards.")
    if s.removed_cards:
        lines.append("Left out of the deck: " + ", ".join(cat.card(c).name for c in s.removed_cards) + ".")
    for cell, card in s.preset.items():
        lines.append(f"Already on your board: {cat.card(card).name} on {cell.upper()}.")
    if ENVELOPE in s.expansions:
        lines.append("The sealed envelope is opened: its species join the deck and its skill token the pool.")
    return lines


def _goal_line(goal: _Goal) -> str:
    """E.g. "Score at least 75 points for one star, 85 for two, 95 for three." or a lone pass/fail goal."""
    line = goal.asks(goal.stars[0])
    line = line[0].upper() + line[1:]
    if len(goal.stars) == 1:
        return line + "."
    first = 4 - len(goal.stars)
    levels = [f"{t} for {STAR_WORDS[first + i].split()[0]}" for i, t in enumerate(goal.stars) if i]
    return f"{line} for {STAR_WORDS[first]}, " + ", ".join(levels) + "."


def _tokened(text: str, rule: StoryTokens | None) -> str:
    """Name the assignment's own story token in a goal sentence."""
    return text.replace(STORY_PHRASE, f"species with {_article(rule.token)}") if rule else text


# --------------------------------------------------------------------------- loading and checking


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
    cat = _catalog()
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
    """All twenty assignments in order, read from the packaged journal.json and validated once."""
    try:
        text = resources.files("keystone.data").joinpath("journal.json").read_text(encoding="utf-8")
        raw = json.loads(text)
    except (OSError, json.JSONDecodeError) as exc:
        raise JournalError(f"journal.json: cannot be read as JSON ({exc}).") from exc
    return build_journal(raw)


def assignment(number: int) -> Assignment:
    """One assignment by number; JournalError with a sentence for a number not in the journal."""
    if type(number) is not int or not 1 <= number <= LAST_ASSIGNMENT:
        raise JournalError(f"There is no assignment {number}; the journal has assignments 1 to {LAST_ASSIGNMENT}.")
    return assignments()[number - 1]


def config_for(number: int, coop: bool = False) -> GameConfig:
    """The GameConfig that plays an assignment, alone or in co-op (two players, one shared board)."""
    return assignment(number).config(coop)


def start(number: int, seed: int, name: str, coop: bool = False) -> GameState:
    """A new game of an assignment. In co-op the partners share the one board, named `name`."""
    return new_game(config_for(number, coop), seed, [name])


def story_species(number: int) -> frozenset[str]:
    """Ids of the species that carry story tokens in an assignment (empty when it has none)."""
    rule = assignment(number).story_rule
    return frozenset(rule.species) if rule else frozenset()


# --------------------------------------------------------------------------- judging


class GoalOutcome(_Frozen):
    kind: str
    asked: str
    """The goal and its thresholds, as on the journal page."""
    value: int
    thresholds: tuple[int, ...]
    stars: int = Field(ge=0, le=3)
    sentence: str
    """How it went, e.g. "Score at least 40 points: you scored 52, two stars (three stars at 60)."."""

    @property
    def met(self) -> bool:
        return self.stars > 0


class AssignmentResult(_Frozen):
    number: int
    title: str
    finished: bool
    won: bool
    """Every goal reached its first threshold (always False before the game ends)."""
    stars: int = Field(ge=0, le=3)
    """The fewest stars any goal earned: a result is only as good as its weakest goal."""
    score: int
    goals: tuple[GoalOutcome, ...]
    sheet: ScoreSheet

    def sentences(self) -> list[str]:
        """A headline and one sentence per goal, ready to post."""
        if not self.finished:
            head = f"Assignment {self.number}, {self.title}: in progress, {self.score} points so far."
        elif self.won:
            head = f"Assignment {self.number}, {self.title}: complete with {STAR_WORDS[self.stars]}."
        else:
            head = f"Assignment {self.number}, {self.title}: not complete this time."
        return [head, *(g.sentence for g in self.goals)]


def _outcome(goal: _Goal, m: _Measure, rule: StoryTokens | None) -> GoalOutcome:
    value = goal.measure(m)
    stars = _stars_for(goal.stars, value)
    asked = goal.asks(goal.stars[0])
    sentence = f"{asked[0].upper()}{asked[1:]}: {goal.result(value)}"
    if stars:
        sentence += f", {STAR_WORDS[stars]}"
        if stars < 3:
            following = goal.stars[sum(1 for t in goal.stars if value >= t)]
            sentence += f" ({STAR_WORDS[stars + 1]} at {following})"
    else:
        sentence += ", not reached"
    return GoalOutcome(kind=goal.kind, asked=_tokened(_goal_line(goal), rule), value=value, thresholds=goal.stars,
                       stars=stars, sentence=_tokened(sentence + ".", rule))


def _measured(a: Assignment, state: GameState) -> tuple[ScoreSheet, _Measure]:
    if state.config != a.config(state.config.coop):
        raise JournalError(f"This game was not set up for assignment {a.number}, {a.title}.")
    cat = _catalog()
    seat = state.seats[0]
    board = [None if p is None else (cat.card(p.card), p.research) for p in seat.board]
    objective = cat.objectives[seat.objective] if seat.objective is not None else None
    sheet = score_board(board, objective, seat.synergy, state.config.rules)
    story = frozenset(a.story_rule.species) if a.story_rule else frozenset()
    return sheet, _Measure(board, sheet, story, state.config.rules)


def evaluate(a: Assignment, state: GameState) -> AssignmentResult:
    """Measure an assignment's goals on a game set up for it; `won` stays False until the game ends."""
    sheet, m = _measured(a, state)
    outcomes = tuple(_outcome(g, m, a.story_rule) for g in a.goals)
    finished = state.phase == "over"
    stars = min(o.stars for o in outcomes) if finished else 0
    return AssignmentResult(number=a.number, title=a.title, finished=finished, won=stars > 0, stars=stars,
                            score=sheet.total, goals=outcomes, sheet=sheet)


def goal_values(number: int, state: GameState) -> tuple[int, tuple[int, ...]]:
    """The score and each goal's measured value, cheaply: for bots and progress bars."""
    a = assignment(number)
    sheet, m = _measured(a, state)
    return sheet.total, tuple(g.measure(m) for g in a.goals)


def progress(number: int, state: GameState) -> AssignmentResult:
    """The goals measured on the board as it stands, e.g. for a progress line during play."""
    return evaluate(assignment(number), state)


def judge(number: int, state: GameState) -> AssignmentResult:
    """Judge a finished assignment game: won, stars 0-3 and a sentence per goal."""
    if state.phase != "over":
        raise JournalError(f"Assignment {number} is still being played; it is judged when the game ends.")
    return progress(number, state)


# --------------------------------------------------------------------------- progress through the journal


def _numbers(assignments_: Iterable[int]) -> set[int]:
    done = set(assignments_)
    bad = sorted(n for n in done if type(n) is not int or not 1 <= n <= LAST_ASSIGNMENT)
    if bad:
        raise JournalError(f"There is no assignment {bad[0]}; the journal has assignments 1 to {LAST_ASSIGNMENT}.")
    return done


def recommended(completed: Iterable[int]) -> int:
    """The assignment to play next: the lowest not yet won (the last once all are won).

    Only a recommendation: the rulebook suggests playing in order, but a player "may choose to skip
    around", so every assignment may be started at any time.
    """
    done = _numbers(completed)
    return next((n for n in range(1, LAST_ASSIGNMENT + 1) if n not in done), LAST_ASSIGNMENT)


def envelope_open(started: Iterable[int]) -> bool:
    """Whether the sealed envelope is open for someone who has started these assignments.

    The rulebook opens it "at the start of the final assignment (#20)", and an opened envelope
    cannot be sealed again, so starting the last assignment opens it for good, however that game ends.
    """
    return LAST_ASSIGNMENT in _numbers(started)
