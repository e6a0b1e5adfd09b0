"""The bots' fast evaluation: exact where the score sheet is exact, hopeful only about empty cells."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from keystone.cards import OBJECTIVE_POINTS, Pattern, Ruleset
from keystone.data import load_catalog
from keystone.engine.bots.evaluate import (
    DEFAULT_WEIGHTS,
    BoardEval,
    cell_of,
    goal_need,
    line_values,
    objective_points,
    seat_value,
)
from keystone.engine.results import final_scores
from keystone.engine.scoring import Board, score_board
from keystone.engine.state import PlacedCard
from tests.bot_helpers import reached

CATALOG = load_catalog()
CARD_IDS = [c.id for c in CATALOG.all_cards()]
RULES: tuple[Ruleset, ...] = ("second-edition", "first-edition")

placed = st.one_of(st.none(), st.builds(PlacedCard, st.sampled_from(CARD_IDS), st.integers(0, 3)))
boards = st.lists(placed, min_size=16, max_size=16)


def sheet_board(board: list[PlacedCard | None]) -> Board:
    return [None if p is None else (CATALOG.card(p.card), p.research) for p in board]


@settings(max_examples=300, deadline=None)
@given(board=boards, objective=st.sampled_from([None, *range(1, 11)]), synergy=st.integers(0, 40),
       rules=st.sampled_from(RULES))
def test_exact_score_matches_the_score_sheet(
    board: list[PlacedCard | None], objective: int | None, synergy: int, rules: Ruleset
) -> None:
    fast = BoardEval(board, objective, rules, turns=5.0, weights=DEFAULT_WEIGHTS)
    card = CATALOG.objectives[objective] if objective is not None else None
    sheet = score_board(sheet_board(board), card, synergy, rules)
    assert fast.exact_score(synergy) == sheet.total
    assert fast.exact == [line.points for line in (*sheet.rows, *sheet.columns)]


@settings(max_examples=300, deadline=None)
@given(line=st.lists(placed, min_size=4, max_size=4), rules=st.sampled_from(RULES),
       chance=st.floats(0.0, 1.0))
def test_hope_never_lowers_a_line_and_a_full_line_has_none(
    line: list[PlacedCard | None], rules: Ruleset, chance: float
) -> None:
    cells = tuple(cell_of(p) for p in line)
    chances = tuple(chance**j for j in range(5))
    exact, expected = line_values(cells, rules == "first-edition", chances)
    assert expected >= exact
    if None not in cells or chance == 0.0:
        assert expected == exact


def test_an_open_run_is_worth_more_than_a_closed_one() -> None:
    forest = [c for c in CATALOG.species if c.habitats == (CATALOG.species[0].habitats[0],)]
    by_number = {c.number: c for c in forest}
    low, mid = by_number[1], by_number[2]
    open_line = (cell_of(PlacedCard(low.id)), cell_of(PlacedCard(mid.id)), None, None)
    chances = (1.0, 0.5, 0.25, 0.125, 0.0625)
    exact, expected = line_values(open_line, False, chances)
    assert exact == 2 and expected > 2
    closed = (cell_of(PlacedCard(mid.id)), cell_of(PlacedCard(low.id)), None, None)
    closed_exact, closed_expected = line_values(closed, False, chances)
    assert closed_exact == exact and closed_expected < expected


def test_objective_points_follow_the_table_between_whole_goals() -> None:
    for goals, points in enumerate(OBJECTIVE_POINTS):
        assert objective_points(goals) == points
    assert OBJECTIVE_POINTS[1] < objective_points(1.5) < OBJECTIVE_POINTS[2]
    assert objective_points(9) == OBJECTIVE_POINTS[4]


def test_goal_need_counts_missing_cards_and_knows_when_a_goal_is_lost() -> None:
    row_a = 0b1111
    assert goal_need(Pattern.LINE3, row_a, row_a) == 0
    assert goal_need(Pattern.LINE3, 0b0011, 0b0011) == 1
    everything_else = 0xFFFF
    assert goal_need(Pattern.COUNT4, 0b0111, everything_else) is None
    assert goal_need(Pattern.COUNT3, 0, 0) == 3


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 5000))
def test_a_finished_game_is_valued_at_its_final_score(seed: int) -> None:
    state = reached(seed, 400)
    assert state.phase == "over"
    for seat, sheet in enumerate(final_scores(state)):
        assert seat_value(state, seat) == sheet.total
