"""Final scoring: ecosystems per row and column, the secret objective, synergy, and ranking.

The score sheet is a pydantic model because the bot renders it as an image and stores it; every
line carries enough detail (cells, habitat, the number each Wild card took) to explain itself.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import NamedTuple, get_args

from pydantic import BaseModel, ConfigDict

from keystone.cards import (
    OBJECTIVE_POINTS,
    Card,
    Habitat,
    ObjectiveCard,
    Pattern,
    Ruleset,
    Season,
    Symbol,
)
from keystone.engine.board import CELL_NAMES, CELLS, ROWS, SIZE
from keystone.engine.words import GOAL_LETTERS, goal_name, plural

__all__ = [
    "Board",
    "BoardCell",
    "GoalResult",
    "LineScore",
    "ScoreSheet",
    "longest_ecosystem",
    "rank",
    "score_board",
]

BoardCell = tuple[Card, int]
"""A placed card and the research tokens on it."""
Board = Sequence[BoardCell | None]
"""16 cells row-major: A1 A2 A3 A4 B1 ... D4 (rows A..D top to bottom, columns 1..4)."""

LOWEST, HIGHEST = 1, 5
"""The numbers a Wild card may take."""
_DEAD = (99, 0)
"""A number range no step can bring back to life: marks a direction a run can no longer take."""

LINES: tuple[tuple[str, tuple[int, ...]], ...] = tuple(
    [(f"Row {ROWS[r]}", tuple(r * SIZE + c for c in range(SIZE))) for r in range(SIZE)]
    + [(f"Column {c + 1}", tuple(r * SIZE + c for r in range(SIZE))) for c in range(SIZE)]
)
"""Every scored line: four rows then four columns, each as its cell indices in reading order."""

_HABITATS: tuple[Habitat, ...] = tuple(Habitat)
_HABITAT_BIT = {h: 1 << i for i, h in enumerate(_HABITATS)}
_FIRST_HABITAT = {m: next(h for h in _HABITATS if m & _HABITAT_BIT[h]) for m in range(1, 1 << len(_HABITATS))}
"""The habitat an ecosystem is named for when its cards share several (the first in game order)."""


# --------------------------------------------------------------------------- models


class LineScore(BaseModel):
    """The one ecosystem scored in a row or column, or why there is none."""

    model_config = ConfigDict(frozen=True)

    line: str
    cells: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    habitat: Habitat | None = None
    wild_numbers: dict[str, int] = {}
    cards: int = 0
    research: int = 0
    keystones: int = 0
    points: int = 0
    reason: str | None = None

    def explain(self) -> str:
        """One sentence a player can check against their board."""
        if self.habitat is None:
            return f"{self.line}: no ecosystem ({self.reason}), 0 points."
        members = []
        for cell, name in zip(self.cells, self.names, strict=True):
            wild = self.wild_numbers.get(cell)
            members.append(f"{name} {cell}" + (f" as {wild}" if wild is not None else ""))
        sums = f"{self.cards} cards" + (f" + {self.research} research" if self.research else "")
        if self.keystones:
            icons = "icon" if self.keystones == 1 else "icons"
            sums += f" = {self.cards + self.research}, x{1 + self.keystones} for {self.keystones} Keystone {icons}"
        return f"{self.line}: {self.habitat.value} ecosystem of {', '.join(members)}: {sums} = {self.points} points."


class GoalResult(BaseModel):
    """One goal of the secret objective and the cells that met it (empty when not met)."""

    model_config = ConfigDict(frozen=True)

    letter: str
    pattern: Pattern
    symbol: Symbol
    completed: bool
    cells: tuple[str, ...] = ()

    def explain(self) -> str:
        what = f"Goal {self.letter} ({goal_name(self.pattern, self.symbol)})"
        if self.completed:
            return f"{what}: met by {', '.join(self.cells)}."
        return f"{what}: not met."


class ScoreSheet(BaseModel):
    """A player's final score, line by line, as the paper score pad has it."""

    model_config = ConfigDict(frozen=True)

    rules: Ruleset
    rows: tuple[LineScore, LineScore, LineScore, LineScore]
    columns: tuple[LineScore, LineScore, LineScore, LineScore]
    objective: int | None
    goals: tuple[GoalResult, ...]
    goals_completed: int
    objective_points: int
    synergy_tokens: int
    synergy_points: int
    total: int

    def explain(self) -> list[str]:
        """Short sentences: each row, each column, each goal, synergy and the total."""
        out = [line.explain() for line in (*self.rows, *self.columns)]
        if self.objective is None:
            out.append("No secret objective, 0 points.")
        else:
            out.extend(goal.explain() for goal in self.goals)
            out.append(
                f"Secret objective {self.objective}: {self.goals_completed} of 4 goals, "
                f"{plural(self.objective_points, 'point')}."
            )
        out.append(f"Synergy: {plural(self.synergy_tokens, 'token')}, {plural(self.synergy_points, 'point')} "
                   "(1 per 3).")
        out.append(f"Total: {plural(self.total, 'point')}.")
        return out


# --------------------------------------------------------------------------- ecosystems


class _Cell(NamedTuple):
    """A placed card reduced to what ecosystem scoring reads; number 0 marks a Wild card."""

    at: int
    number: int
    habitats: int
    keystone: int
    research: int
    label: str
    name: str


class _Run(NamedTuple):
    value: int
    start: int
    end: int
    ascending: bool
    habitats: int


def _compact(board: Board) -> list[_Cell | None]:
    """Check the board's shape and flatten each card to integers, so lines score quickly."""
    if len(board) != CELLS:
        raise ValueError(f"A board has {CELLS} cells, not {len(board)}.")
    out: list[_Cell | None] = []
    bits = _HABITAT_BIT
    for index, cell in enumerate(board):
        if cell is None:
            out.append(None)
            continue
        card, research = cell
        if type(research) is not int or research < 0:
            raise ValueError(f"Research on {CELL_NAMES[index]} must be a whole number of 0 or more.")
        mask = 0
        for habitat in card.habitats:
            mask |= bits[habitat]
        number = 0 if card.wild else (card.number or 0)
        out.append(_Cell(index, number, mask, 1 if card.keystone else 0, research, CELL_NAMES[index], card.name))
    return out


Reach = tuple[int, int, int, int]
"""The numbers the newest card of a run may take going up (low, high) and going down (low, high);
a direction whose low is above its high is closed."""


def first_reach(number: int) -> Reach:
    """A run's first card: a Species card pins its number, a Wild card (0) may be any of 1-5."""
    return (number, number, number, number) if number else (LOWEST, HIGHEST, LOWEST, HIGHEST)


@functools.cache
def next_reach(reach: Reach, number: int, consecutive: bool) -> Reach | None:
    """The rule of an ecosystem, one card at a time: None when the card (0: Wild) cannot come next.

    Numbers must rise strictly in one direction along the line or fall strictly in the other;
    the first-edition variant asks for consecutive numbers. A Wild card takes any number that
    keeps the order. Cached: a step has few possible inputs, and the bots take it very often.
    """
    up_lo, up_hi, dn_lo, dn_hi = reach
    if consecutive:
        up_lo, up_hi = up_lo + 1, min(up_hi + 1, HIGHEST)
        dn_lo, dn_hi = max(dn_lo - 1, LOWEST), dn_hi - 1
    else:
        up_lo, up_hi = up_lo + 1, HIGHEST
        dn_lo, dn_hi = LOWEST, dn_hi - 1
    if number:
        up_lo, up_hi = (number, number) if up_lo <= number <= up_hi else _DEAD
        dn_lo, dn_hi = (number, number) if dn_lo <= number <= dn_hi else _DEAD
    if up_lo > up_hi:
        if dn_lo > dn_hi:
            return None
        up_lo, up_hi = _DEAD
    elif dn_lo > dn_hi:
        dn_lo, dn_hi = _DEAD
    return (up_lo, up_hi, dn_lo, dn_hi)


def _best_run(cells: Sequence[_Cell | None], consecutive: bool) -> _Run | None:
    """The most valuable ecosystem in one line of four cells, or None.

    Runs are grown rightwards from each start, one `next_reach` step per card, so each longer run
    costs one constant step. Ties go to the run with more cards, then the earlier one.
    """
    best: _Run | None = None
    best_value = best_len = 0
    n = len(cells)
    for start in range(n - 1):
        first = cells[start]
        if first is None:
            continue
        _, num, mask, keys, size, _, _ = first
        size += 1
        reach: Reach | None = first_reach(num)
        for end in range(start + 1, n):
            cell = cells[end]
            if cell is None:
                break
            _, num, habitats, keystone, research, _, _ = cell
            mask &= habitats
            if not mask:
                break
            reach = next_reach(reach, num, consecutive)
            if reach is None:
                break
            size += 1 + research
            keys += keystone
            value = size * (1 + keys)
            if value > best_value or (value == best_value and end - start > best_len):
                best_value, best_len = value, end - start
                best = _Run(value, start, end, reach[0] <= reach[1], mask)
    return best


def longest_ecosystem(board: Board, habitat: Habitat, rules: Ruleset = "second-edition") -> int:
    """Cards in the longest ecosystem of one habitat in any row or column (0 when none).

    A line scores only its most valuable ecosystem, which may be of another habitat, so this reads
    each line with only that habitat's cards, counted plainly (no research, no Keystone bonus).
    """
    bit = _HABITAT_BIT[habitat]
    cells = [
        None if c is None or not c.habitats & bit else c._replace(habitats=bit, keystone=0, research=0)
        for c in _compact(board)
    ]
    consecutive = rules == "first-edition"
    runs = (_best_run([cells[i] for i in line], consecutive) for _, line in LINES)
    return max((run.end - run.start + 1 for run in runs if run is not None), default=0)


def _line_reason(cells: Sequence[_Cell | None], consecutive: bool) -> str:
    """Why a line holds no ecosystem, in words a player recognises."""
    placed = [c for c in cells if c is not None]
    if len(placed) < 2:
        return "fewer than two cards" if placed else "no cards"
    pairs = [(a, b) for a, b in pairwise(cells) if a is not None and b is not None]
    if not pairs:
        return "no two cards are next to each other"
    if not any(a.habitats & b.habitats for a, b in pairs):
        return "no two neighbouring cards share a habitat"
    if consecutive:
        return "neighbours sharing a habitat do not have consecutive numbers"
    return "neighbours sharing a habitat have equal numbers"


def _wild_numbers(run: Sequence[_Cell], ascending: bool, consecutive: bool) -> dict[str, int]:
    """A valid number for each Wild card in a chosen run (lowest going up, highest going down)."""
    cells = list(run) if ascending else list(reversed(run))
    numbers: list[int] = []
    if consecutive:
        pinned = next(((i, c.number) for i, c in enumerate(cells) if c.number), (0, LOWEST))
        numbers = [pinned[1] - pinned[0] + i for i in range(len(cells))]
    else:
        current = 0
        for cell in cells:
            current = cell.number if cell.number else current + 1
            numbers.append(current)
    return {c.label: numbers[i] for i, c in enumerate(cells) if c.number == 0}


def _score_line(label: str, cells: Sequence[_Cell | None], consecutive: bool) -> LineScore:
    run = _best_run(cells, consecutive)
    if run is None:
        return LineScore(line=label, reason=_line_reason(cells, consecutive))
    members = [c for c in cells[run.start : run.end + 1] if c is not None]
    research = keystones = 0
    wilds = False
    for c in members:
        research += c.research
        keystones += c.keystone
        wilds = wilds or c.number == 0
    return LineScore(
        line=label,
        cells=tuple(c.label for c in members),
        names=tuple(c.name for c in members),
        habitat=_FIRST_HABITAT[run.habitats],
        wild_numbers=_wild_numbers(members, run.ascending, consecutive) if wilds else {},
        cards=len(members),
        research=research,
        keystones=keystones,
        points=run.value,
    )


# --------------------------------------------------------------------------- objective goals

_SHAPES: dict[Pattern, tuple[tuple[int, int], ...]] = {
    Pattern.L_SHAPE: ((0, 0), (1, 0), (1, 1)),  # three cells of a 2x2 square
    Pattern.LINE2: ((0, 0), (0, 1)),
    Pattern.DIAGONAL: ((0, 0), (1, 1)),
    Pattern.LINE3: ((0, 0), (0, 1), (0, 2)),
}
"""Shaped patterns as (row, column) offsets; every rotation and reflection also counts."""

_COUNTS: dict[Pattern, int] = {Pattern.COUNT3: 3, Pattern.COUNT4: 4}


def _orientations(shape: Iterable[tuple[int, int]]) -> set[tuple[tuple[int, int], ...]]:
    """All 8 rotations/reflections of a shape, each shifted to start at (0, 0)."""
    out = set()
    cells = list(shape)
    for _ in range(4):
        cells = [(c, -r) for r, c in cells]  # quarter turn
        for variant in (cells, [(r, -c) for r, c in cells]):
            top = min(r for r, _ in variant)
            left = min(c for _, c in variant)
            out.add(tuple(sorted((r - top, c - left) for r, c in variant)))
    return out


def _placements(shape: Iterable[tuple[int, int]]) -> tuple[int, ...]:
    """Every position of every orientation of a shape on the board, as cell bit masks."""
    masks = set()
    for variant in _orientations(shape):
        height = 1 + max(r for r, _ in variant)
        width = 1 + max(c for _, c in variant)
        for row in range(SIZE - height + 1):
            for col in range(SIZE - width + 1):
                masks.add(sum(1 << ((row + r) * SIZE + col + c) for r, c in variant))
    return tuple(sorted(masks))


PLACEMENTS: dict[Pattern, tuple[int, ...]] = {p: _placements(s) for p, s in _SHAPES.items()}
"""Board cell masks (bit i = cell i) that complete each shaped pattern."""


_ALL_SYMBOLS = tuple(Symbol)
_SEASON_SYMBOL = {season: Symbol(season.value) for season in Season}


def _symbol_masks(board: Board) -> dict[Symbol, int]:
    """For each symbol, the cells whose card shows it (a Wild card shows only its season)."""
    masks = dict.fromkeys(_ALL_SYMBOLS, 0)
    for index, cell in enumerate(board):
        if cell is None:
            continue
        card = cell[0]
        bit = 1 << index
        if card.season is not None:
            masks[_SEASON_SYMBOL[card.season]] |= bit
        if card.wild:
            continue
        if card.endangered:
            masks[Symbol.ENDANGERED] |= bit
        elif card.tag:
            masks[Symbol.TAG] |= bit
    return masks


def _cells_of(mask: int) -> tuple[str, ...]:
    """Cell labels of a bit mask, lowest cell first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CELL_NAMES[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def _check_goal(pattern: Pattern, have: int) -> int:
    """The cells that meet a pattern (0 when unmet): a count takes every matching card."""
    need = _COUNTS.get(pattern)
    if need is not None:
        return have if have.bit_count() >= need else 0
    for mask in PLACEMENTS[pattern]:
        if mask & have == mask:
            return mask
    return 0


def _score_goals(board: Board, objective: ObjectiveCard) -> tuple[GoalResult, ...]:
    masks = _symbol_masks(board)
    results = []
    for letter, goal in zip(GOAL_LETTERS, objective.goals, strict=True):
        met = _check_goal(goal.pattern, masks[goal.symbol])
        results.append(
            GoalResult(
                letter=letter,
                pattern=goal.pattern,
                symbol=goal.symbol,
                completed=bool(met),
                cells=_cells_of(met),
            )
        )
    return tuple(results)


# --------------------------------------------------------------------------- the whole sheet

_RULESETS: tuple[str, ...] = get_args(Ruleset)


def score_board(
    board: Board, objective: ObjectiveCard | None, synergy: int, rules: Ruleset = "second-edition"
) -> ScoreSheet:
    """Score a finished board; raises ValueError with a readable sentence on bad input."""
    if rules not in _RULESETS:
        raise ValueError(f"Unknown rules {rules!r}; choose one of {', '.join(_RULESETS)}.")
    if type(synergy) is not int or synergy < 0:
        raise ValueError("Synergy tokens must be a whole number of 0 or more.")
    cells = _compact(board)
    consecutive = rules == "first-edition"
    lines = [_score_line(label, [cells[i] for i in idx], consecutive) for label, idx in LINES]
    goals = _score_goals(board, objective) if objective is not None else ()
    done = sum(g.completed for g in goals)
    objective_points = OBJECTIVE_POINTS[done]
    synergy_points = synergy // 3
    return ScoreSheet(
        rules=rules,
        rows=(lines[0], lines[1], lines[2], lines[3]),
        columns=(lines[4], lines[5], lines[6], lines[7]),
        objective=None if objective is None else objective.number,
        goals=goals,
        goals_completed=done,
        objective_points=objective_points,
        synergy_tokens=synergy,
        synergy_points=synergy_points,
        total=sum(line.points for line in lines) + objective_points + synergy_points,
    )


def rank(sheets: Sequence[ScoreSheet], resigned: int | None = None) -> list[int]:
    """1-based places: highest total, then most goals, then most synergy tokens; ties share a place.

    Places after a shared one are skipped (1, 1, 3), as in any sports table. A seat that resigned
    comes last whatever it scored; the others are ranked among themselves.
    """
    keys = [(s.total, s.goals_completed, s.synergy_tokens) for s in sheets]
    others = [k for i, k in enumerate(keys) if i != resigned]
    return [len(keys) if i == resigned else 1 + sum(other > key for other in others) for i, key in enumerate(keys)]
