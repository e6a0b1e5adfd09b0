"""How good a seat's position is, fast: the bots call this tens of thousands of times a move.

A position is worth what it would score now (ecosystems, objective, synergy) plus the promise of
what is still open: partial ecosystems whose empty cells could be filled, objective goals that
are still reachable, and synergy that can still buy cards. The promise shrinks as the game nears
its end, so at the end the value is the exact score.

Cards are reduced to small integers once (`CardInfo`), and a board to a list of `Cell` tuples;
`BoardEval` caches each line so that trying a card on a cell re-evaluates just its row and column.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from keystone.cards import OBJECTIVE_POINTS, Habitat, Pattern, Ruleset, Symbol
from keystone.engine.board import NEIGHBOURS
from keystone.engine.scoring import LINES, PLACEMENTS, Reach, first_reach, next_reach
from keystone.engine.state import GameState, PlacedCard
from keystone.engine.table import catalog

SYMBOL_BIT: dict[Symbol, int] = {s: 1 << i for i, s in enumerate(Symbol)}
HABITAT_BIT: dict[Habitat, int] = {h: 1 << i for i, h in enumerate(Habitat)}
ANY_HABITAT = (1 << len(Habitat)) - 1
LINE_CELLS: tuple[tuple[int, ...], ...] = tuple(cells for _, cells in LINES)
LINE_GETTERS = tuple(operator.itemgetter(*cells) for cells in LINE_CELLS)
"""Each line's four cells picked out of a board list as one tuple (the cache key of `line_values`)."""
LINES_OF_CELL: tuple[tuple[int, int], ...] = tuple((i // 4, 4 + i % 4) for i in range(16))
"""For each cell, the index (into LINE_CELLS) of its row and of its column."""


class CardInfo(NamedTuple):
    number: int
    """0 for a Wild card (any number 1-5)."""
    habitats: int
    keystone: int
    symbols: int
    """Bits of `SYMBOL_BIT` the card shows for objectives (a Wild card shows only its season)."""


Cell = tuple[int, int, int, int]
"""A placed card for scoring: (number, habitat mask, keystone 0/1, research tokens)."""


@functools.cache
def card_info(card_id: str) -> CardInfo:
    card = catalog().card(card_id)
    habitats = 0
    for h in card.habitats:
        habitats |= HABITAT_BIT[h]
    symbols = 0
    for s in Symbol:
        if card.has_symbol(s) and not (card.wild and s in (Symbol.ENDANGERED, Symbol.TAG)):
            symbols |= SYMBOL_BIT[s]
    return CardInfo(card.number or 0, habitats, int(card.keystone and not card.wild), symbols)


def cell_of(placed: PlacedCard | None) -> Cell | None:
    if placed is None:
        return None
    info = card_info(placed.card)
    return (info.number, info.habitats, info.keystone, placed.research)


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's tunable numbers, set by matches of the normal bot against variants of itself."""

    fill_chance: float = 0.62
    """Chance, per empty cell a partial ecosystem still needs, that a fitting card arrives in time."""
    goal_chance: float = 0.5
    """The same for a card showing an objective goal's symbol."""
    synergy_early: float = 0.55
    """Points per synergy token while many turns remain (it buys better cards and Wild cards)."""
    synergy_late: float = 1 / 3
    """Points per synergy token at the end (the score sheet's one point per three)."""
    turns_per_time: float = 2.5
    """Turns each seat is expected to get per space left on the time track."""


DEFAULT_WEIGHTS = Weights()


# --------------------------------------------------------------------------- lines


@functools.lru_cache(maxsize=1 << 17)
def line_values(cells: tuple[Cell | None, ...], consecutive: bool, chances: tuple[float, ...]) -> tuple[int, float]:
    """(exact points, expected points) of one row or column.

    Exact follows the score sheet, taking scoring's own `next_reach` step for each card.
    Expected also lets each empty cell stand for a card still to come (any habitat, any number),
    worth `chances[j]` of the gain when a run needs `j` such cards.
    """
    exact = 0
    hopes: list[tuple[int, int]] = []
    n = len(cells)
    for start in range(n - 1):
        first = cells[start]
        if first is None:
            mask, size, keys, jokers = ANY_HABITAT, 1, 0, 1
            reach: Reach | None = first_reach(0)
        else:
            mask, size, keys, jokers = first[1], 1 + first[3], first[2], 0
            reach = first_reach(first[0])
        for end in range(start + 1, n):
            cell = cells[end]
            if cell is None:
                reach = next_reach(reach, 0, consecutive)  # a card still to come: any number, any habitat
                jokers += 1
                size += 1
            else:
                mask &= cell[1]
                if not mask:
                    break
                reach = next_reach(reach, cell[0], consecutive)
                size += 1 + cell[3]
                keys += cell[2]
            if reach is None:
                break
            value = size * (1 + keys)
            if jokers:
                hopes.append((value, jokers))
            elif value > exact:
                exact = value
    gain = 0.0
    for value, jokers in hopes:
        if value > exact and jokers < len(chances):
            g = chances[jokers] * (value - exact)
            if g > gain:
                gain = g
    return exact, exact + gain


# --------------------------------------------------------------------------- objective


SYMBOLS: tuple[Symbol, ...] = tuple(Symbol)


def symbol_masks(infos: Sequence[CardInfo | None]) -> list[int]:
    """For each symbol (in `SYMBOLS` order), the cells whose card shows it, as a bit mask."""
    masks = [0] * len(SYMBOLS)
    for i, info in enumerate(infos):
        if info is not None:
            set_symbols(masks, info.symbols, i)
    return masks


def set_symbols(masks: list[int], symbols: int, index: int) -> None:
    bit = 1 << index
    for k in range(len(masks)):
        if symbols >> k & 1:
            masks[k] |= bit


_COUNT_NEEDED: dict[str, int] = {Pattern.COUNT3.value: 3, Pattern.COUNT4.value: 4}
_PLACEMENTS: dict[str, tuple[int, ...]] = {p.value: masks for p, masks in PLACEMENTS.items()}


@functools.lru_cache(maxsize=1 << 16)
def goal_need(pattern: str, have: int, filled: int) -> int | None:
    """How many more cards showing the symbol the goal needs (0: met), or None if it is out of reach.

    `pattern` is a `Pattern` or its plain value; the evaluation passes the value (`objective_goals`)
    so that no key of this cache holds an enum member. Keys of plain strings and ints are left alone
    by the garbage collector, while tens of thousands of keys holding a member stayed tracked and
    made each full collection, in the middle of some bot's move, take about 100 ms.
    """
    empty = 0xFFFF & ~filled
    count = _COUNT_NEEDED.get(pattern)
    if count is not None:
        need = max(0, count - have.bit_count())
        return need if need <= empty.bit_count() else None
    blocked = filled & ~have
    best: int | None = None
    for mask in _PLACEMENTS[pattern]:
        if mask & blocked:
            continue
        need = (mask & ~have).bit_count()
        if best is None or need < best:
            best = need
            if need == 0:
                break
    return best


def objective_points(goals_expected: float) -> float:
    """The objective table read at a fractional number of goals (straight lines between entries)."""
    g = min(max(goals_expected, 0.0), 4.0)
    low = int(g)
    if low >= 4:
        return float(OBJECTIVE_POINTS[4])
    frac = g - low
    return OBJECTIVE_POINTS[low] + frac * (OBJECTIVE_POINTS[low + 1] - OBJECTIVE_POINTS[low])


@functools.cache
def objective_goals(objective: int) -> tuple[tuple[str, int], ...]:
    """An objective's goals as (pattern's value, index into `SYMBOLS`)."""
    return tuple((g.pattern.value, SYMBOLS.index(g.symbol)) for g in catalog().objectives[objective].goals)


def objective_value(objective: int | None, masks: Sequence[int], filled: int, chance: float) -> tuple[int, float]:
    """(goals met, expected points) of a secret objective."""
    if objective is None:
        return 0, 0.0
    done = 0
    hope = 0.0
    for pattern, symbol in objective_goals(objective):
        need = goal_need(pattern, masks[symbol], filled)
        if need == 0:
            done += 1
        elif need is not None:
            hope += chance**need
    return done, objective_points(done + hope)


# --------------------------------------------------------------------------- whole seat


def turns_left(state: GameState, seat: int, weights: Weights) -> float:
    """A guess at how many more turns `seat` will start (not counting one in progress).

    The game ends when a board fills or the time track runs out, then the round is finished.
    """
    if state.phase == "over":
        return 0.0
    if state.final_round:
        return 1.0 if seat > state.current else 0.0
    fullest = min(sum(1 for p in s.board if p is None) for s in state.seats)
    total = min(float(fullest), state.time * weights.turns_per_time)
    return max(0.0, total - (1.0 if seat == state.current else 0.0))


def chances_for(empty: int, turns: float, base: float) -> tuple[float, ...]:
    """Chance that a run needing j more cards gets them, for j = 0..4, given turns and empty cells."""
    if empty == 0:
        return (1.0,)
    fill = min(1.0, turns / empty)
    out = [1.0]
    for j in range(1, 5):
        out.append((base * fill) ** j if j <= turns + 0.5 else 0.0)
    return tuple(out)


class BoardEval:
    """One seat's board with each line's values cached, so single-cell changes are cheap to try."""

    __slots__ = (
        "cells", "chances", "consecutive", "exact", "expected", "filled", "goal_chance", "goals", "infos",
        "masks", "objective", "synergy_weight", "total",
    )

    def __init__(
        self, board: Sequence[PlacedCard | None], objective: int | None, rules: Ruleset,
        turns: float, weights: Weights,
    ) -> None:
        self.infos: list[CardInfo | None] = [None if p is None else card_info(p.card) for p in board]
        self.cells: list[Cell | None] = [cell_of(p) for p in board]
        self.objective = objective
        self.consecutive = rules == "first-edition"
        empty = sum(1 for c in self.cells if c is None)
        self.chances = chances_for(empty, turns, weights.fill_chance)
        self.goal_chance = weights.goal_chance * min(1.0, turns / max(empty, 1))
        progress = min(1.0, turns / 12.0)
        self.synergy_weight = weights.synergy_late + (weights.synergy_early - weights.synergy_late) * progress
        self.filled = sum(1 << i for i, c in enumerate(self.cells) if c is not None)
        self.masks = symbol_masks(self.infos)
        values = [self._line(k, self.cells) for k in range(8)]
        self.exact = [v[0] for v in values]
        self.expected = [v[1] for v in values]
        self.total = sum(self.expected)
        self.goals = objective_goals(objective) if objective is not None else ()

    def _line(self, k: int, cells: Sequence[Cell | None]) -> tuple[int, float]:
        return line_values(LINE_GETTERS[k](cells), self.consecutive, self.chances)

    def _objective_after(self, changes: Sequence[tuple[int, CardInfo | None, int]], filled: int) -> float:
        """Expected objective points after `changes`, recomputing only the goals' own symbols."""
        done = 0
        hope = 0.0
        for pattern, symbol in self.goals:
            have = self.masks[symbol]
            for index, info, _ in changes:
                have &= ~(1 << index)
                if info is not None and info.symbols >> symbol & 1:
                    have |= 1 << index
            need = goal_need(pattern, have, filled)
            if need == 0:
                done += 1
            elif need is not None:
                hope += self.goal_chance**need
        return objective_points(done + hope)

    def value(self, synergy: int) -> float:
        """Expected points of the board as it stands, with `synergy` tokens in hand."""
        _, objective = objective_value(self.objective, self.masks, self.filled, self.goal_chance)
        return sum(self.expected) + objective + synergy * self.synergy_weight

    def exact_score(self, synergy: int) -> int:
        done, _ = objective_value(self.objective, self.masks, self.filled, 0.0)
        return sum(self.exact) + OBJECTIVE_POINTS[done] + synergy // 3

    def value_with(self, changes: Sequence[tuple[int, CardInfo | None, int]], synergy: int) -> float:
        """Expected points after setting some cells: each change is (cell, card or None, research)."""
        cells = list(self.cells)
        filled = self.filled
        touched: set[int] = set()
        for index, info, research in changes:
            if info is None:
                cells[index] = None
                filled &= ~(1 << index)
            else:
                cells[index] = (info.number, info.habitats, info.keystone, research)
                filled |= 1 << index
            touched.update(LINES_OF_CELL[index])
        total = self.total
        for k in touched:
            total += self._line(k, cells)[1] - self.expected[k]
        objective = self._objective_after(changes, filled) if self.goals else 0.0
        return total + objective + synergy * self.synergy_weight

    def placement_synergy(self, info: CardInfo, index: int, skip: int = -1) -> int:
        """Synergy gained by placing `info` on `index` (one per habitat shared with each neighbour)."""
        gained = 0
        for n in NEIGHBOURS[index]:
            other = self.infos[n]
            if other is not None and n != skip:
                gained += (info.habitats & other.habitats).bit_count()
        return gained


def seat_eval(state: GameState, seat: int, weights: Weights = DEFAULT_WEIGHTS) -> BoardEval:
    s = state.seats[seat]
    return BoardEval(s.board, s.objective, state.config.rules, turns_left(state, seat, weights), weights)


def seat_value(state: GameState, seat: int, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """Expected final points of `seat`; exactly its score once the game is over."""
    board = seat_eval(state, seat, weights)
    synergy = state.seats[seat].synergy
    if state.phase == "over":
        return float(board.exact_score(synergy))
    return board.value(synergy)
