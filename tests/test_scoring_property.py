"""The fast scorer against a plain brute-force one: every Wild number, every run, every cell set."""

from __future__ import annotations

from itertools import combinations, pairwise, product

from hypothesis import given, settings
from hypothesis import strategies as st

from keystone.cards import Card, Goal, Habitat, ObjectiveCard, Pattern, Ruleset, Season, Symbol
from keystone.engine.scoring import LINES, Board, BoardCell, ScoreSheet, score_board

RULES: tuple[Ruleset, ...] = ("second-edition", "first-edition")


# --------------------------------------------------------------- strategies

COMMON = [Habitat.FOREST, Habitat.DESERT, Habitat.WETLAND]  # few habitats, so runs are common
habitat_sets = st.sets(st.sampled_from(COMMON), min_size=1, max_size=2).map(
    lambda s: tuple(h for h in Habitat if h in s)
)


@st.composite
def cards(draw: st.DrawFn) -> Card:
    if draw(st.integers(0, 3)) == 0:
        return Card(
            id="w",
            name="Wild",
            habitats=(draw(st.sampled_from(COMMON)),),
            season=draw(st.none() | st.sampled_from(list(Season))),
            wild=True,
        )
    icon = draw(st.sampled_from(["", "endangered", "tag"]))
    return Card(
        id="s",
        name="Species",
        number=draw(st.integers(1, 5)),
        habitats=draw(habitat_sets),
        season=draw(st.sampled_from(list(Season))),
        keystone=draw(st.booleans()),
        endangered=icon == "endangered",
        tag=icon == "tag",
    )


cells = st.integers(0, 4).flatmap(lambda k: st.none() if k == 0 else st.tuples(cards(), st.integers(0, 2)))
boards = st.lists(cells, min_size=16, max_size=16)
objectives = st.permutations(list(Pattern)).flatmap(
    lambda ps: st.tuples(*[st.sampled_from(list(Symbol)) for _ in range(4)]).map(
        lambda syms: ObjectiveCard(
            number=1, goals=tuple(Goal(pattern=p, symbol=s) for p, s in zip(ps[:4], syms, strict=True))
        )
    )
)


# --------------------------------------------------------------- brute force


def in_order(numbers: list[int], consecutive: bool) -> bool:
    steps = [b - a for a, b in pairwise(numbers)]
    if consecutive:
        return all(s == 1 for s in steps) or all(s == -1 for s in steps)
    return all(s > 0 for s in steps) or all(s < 0 for s in steps)


def brute_line(line: list[BoardCell | None], consecutive: bool) -> int:
    """Try every number for every Wild card and every run; keep the best value."""
    wild_at = [i for i, c in enumerate(line) if c is not None and c[0].wild]
    best = 0
    for choice in product(range(1, 6), repeat=len(wild_at)):
        numbers = {i: n for i, n in zip(wild_at, choice, strict=True)}
        for start in range(4):
            for end in range(start + 2, 5):
                run = line[start:end]
                if any(c is None for c in run):
                    continue
                placed = [c for c in run if c is not None]
                shared = set.intersection(*(set(c[0].habitats) for c in placed))
                nums = [numbers.get(start + k) or (c[0].number or 0) for k, c in enumerate(placed)]
                if shared and in_order(nums, consecutive):
                    size = len(placed) + sum(c[1] for c in placed)
                    best = max(best, size * (1 + sum(c[0].keystone for c in placed)))
    return best


def shows(card: Card, symbol: Symbol) -> bool:
    if symbol is Symbol.ENDANGERED:
        return card.endangered
    if symbol is Symbol.TAG:
        return card.tag
    return card.season is not None and card.season.value == symbol.value


def shape_ok(pattern: Pattern, cells: tuple[int, ...]) -> bool:
    rc = [divmod(i, 4) for i in cells]
    rows = {r for r, _ in rc}
    cols = {c for _, c in rc}
    if pattern is Pattern.LINE2:
        (r1, c1), (r2, c2) = rc
        return abs(r1 - r2) + abs(c1 - c2) == 1
    if pattern is Pattern.DIAGONAL:
        (r1, c1), (r2, c2) = rc
        return abs(r1 - r2) == 1 and abs(c1 - c2) == 1
    if pattern is Pattern.LINE3:
        spread_r, spread_c = max(rows) - min(rows), max(cols) - min(cols)
        return (len(rows) == 1 and spread_c == 2) or (len(cols) == 1 and spread_r == 2)
    return max(rows) - min(rows) == 1 and max(cols) - min(cols) == 1  # L: 3 cells in a 2x2 box


def brute_goal(board: Board, goal: Goal) -> bool:
    have = [i for i, c in enumerate(board) if c is not None and shows(c[0], goal.symbol)]
    if goal.pattern is Pattern.COUNT3:
        return len(have) >= 3
    if goal.pattern is Pattern.COUNT4:
        return len(have) >= 4
    size = 3 if goal.pattern in (Pattern.L_SHAPE, Pattern.LINE3) else 2
    return any(shape_ok(goal.pattern, combo) for combo in combinations(have, size))


# --------------------------------------------------------------- properties


@settings(max_examples=300, deadline=None)
@given(boards, objectives, st.integers(0, 40), st.sampled_from(RULES))
def test_fast_scorer_matches_brute_force(board: Board, objective: ObjectiveCard, synergy: int, rules: Ruleset) -> None:
    sheet = score_board(board, objective, synergy, rules)
    consecutive = rules == "first-edition"
    got = [line.points for line in (*sheet.rows, *sheet.columns)]
    want = [brute_line([board[i] for i in idx], consecutive) for _, idx in LINES]
    assert got == want
    goals = [brute_goal(board, g) for g in objective.goals]
    assert [g.completed for g in sheet.goals] == goals
    objective_points = (0, 5, 10, 16, 24)[sum(goals)]
    assert sheet.total == sum(want) + objective_points + synergy // 3


@settings(max_examples=200, deadline=None)
@given(boards, st.sampled_from(RULES))
def test_each_scored_line_is_a_valid_ecosystem(board: Board, rules: Ruleset) -> None:
    sheet: ScoreSheet = score_board(board, None, 0, rules)
    labels = [f"{r}{c}" for r in "ABCD" for c in range(1, 5)]
    for line in (*sheet.rows, *sheet.columns):
        if line.habitat is None:
            assert line.points == 0 and line.reason
            continue
        placed = [board[labels.index(cell)] for cell in line.cells]
        assert all(c is not None and line.habitat in c[0].habitats for c in placed)
        nums = [
            line.wild_numbers[cell] if c is not None and c[0].wild else (c[0].number if c else 0) or 0
            for cell, c in zip(line.cells, placed, strict=True)
        ]
        assert all(1 <= n <= 5 for n in nums)
        assert set(line.wild_numbers) == {cell for cell, c in zip(line.cells, placed, strict=True) if c and c[0].wild}
        assert in_order(nums, rules == "first-edition")
        assert line.cards == len(placed) >= 2
        assert line.points == (line.cards + line.research) * (1 + line.keystones)
        assert str(line.points) in line.explain()
