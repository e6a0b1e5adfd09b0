"""Every objective pattern in every rotation and position, listed independently of the scorer.

Reading of the patterns (docs/RULINGS.md): "l" is three cells of a 2x2 square; "line2" two
orthogonally adjacent cells; "diagonal" two diagonally adjacent cells; "line3" three in a straight
orthogonal line; "count3"/"count4" that many cards anywhere.
"""

from __future__ import annotations

from itertools import combinations

import pytest

from keystone.cards import Goal, ObjectiveCard, Pattern, Symbol
from keystone.engine.scoring import PLACEMENTS, Board, score_board
from tests.scoring_helpers import sp

Cells = frozenset[tuple[int, int]]


def squares() -> list[list[tuple[int, int]]]:
    return [[(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)] for r in range(3) for c in range(3)]


def l_shapes() -> set[Cells]:
    return {frozenset(sq[:i] + sq[i + 1 :]) for sq in squares() for i in range(4)}


def pairs() -> set[Cells]:
    across = {frozenset({(r, c), (r, c + 1)}) for r in range(4) for c in range(3)}
    down = {frozenset({(r, c), (r + 1, c)}) for r in range(3) for c in range(4)}
    return across | down


def diagonals() -> set[Cells]:
    falling = {frozenset({(r, c), (r + 1, c + 1)}) for r in range(3) for c in range(3)}
    rising = {frozenset({(r, c + 1), (r + 1, c)}) for r in range(3) for c in range(3)}
    return falling | rising


def triples() -> set[Cells]:
    across = {frozenset({(r, c), (r, c + 1), (r, c + 2)}) for r in range(4) for c in range(2)}
    down = {frozenset({(r, c), (r + 1, c), (r + 2, c)}) for r in range(2) for c in range(4)}
    return across | down


SHAPES = {Pattern.L_SHAPE: l_shapes(), Pattern.LINE2: pairs(), Pattern.DIAGONAL: diagonals(), Pattern.LINE3: triples()}
ALL_CELLS = [(r, c) for r in range(4) for c in range(4)]


def tagged(cells: Cells) -> Board:
    """Tag cards on the given cells, plain cards elsewhere (so only the tag pattern matters)."""
    tag, plain = sp(1, tag=True), sp(1)
    return [((tag if (i // 4, i % 4) in cells else plain), 0) for i in range(16)]


def goal_met(pattern: Pattern, cells: Cells) -> bool:
    others = [p for p in Pattern if p is not pattern][:3]
    goals = (Goal(pattern=pattern, symbol=Symbol.TAG), *(Goal(pattern=p, symbol=Symbol.WINTER) for p in others))
    card = ObjectiveCard(number=1, goals=goals)
    return score_board(tagged(cells), card, 0).goals[0].completed


def test_placement_counts_match_the_hand_listing() -> None:
    expected = {Pattern.L_SHAPE: 36, Pattern.LINE2: 24, Pattern.DIAGONAL: 18, Pattern.LINE3: 16}
    for pattern, shapes in SHAPES.items():
        assert len(shapes) == expected[pattern]
        as_masks = {sum(1 << (r * 4 + c) for r, c in s) for s in shapes}
        assert set(PLACEMENTS[pattern]) == as_masks


@pytest.mark.parametrize("pattern", list(SHAPES))
def test_every_rotation_and_position_completes_its_goal(pattern: Pattern) -> None:
    for cells in SHAPES[pattern]:
        assert goal_met(pattern, cells), sorted(cells)


@pytest.mark.parametrize("pattern", list(SHAPES))
def test_no_other_set_of_that_size_completes_it(pattern: Pattern) -> None:
    size = len(next(iter(SHAPES[pattern])))
    for combo in combinations(ALL_CELLS, size):
        cells = frozenset(combo)
        if cells not in SHAPES[pattern]:
            assert not goal_met(pattern, cells), sorted(cells)


@pytest.mark.parametrize(("pattern", "need"), [(Pattern.COUNT3, 3), (Pattern.COUNT4, 4)])
def test_counts_need_that_many_cards_anywhere(pattern: Pattern, need: int) -> None:
    scattered = [(0, 0), (3, 3), (0, 3), (3, 0), (1, 2)]
    assert not goal_met(pattern, frozenset(scattered[: need - 1]))
    assert goal_met(pattern, frozenset(scattered[:need]))
    assert goal_met(pattern, frozenset(scattered))
