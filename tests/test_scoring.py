"""Ecosystem, objective, synergy and tie rules, on hand-made cards."""

from __future__ import annotations

import pytest

from keystone.cards import Goal, ObjectiveCard, Pattern, Ruleset, Season, Symbol
from keystone.engine.scoring import LineScore, ScoreSheet, rank, score_board
from tests.scoring_helpers import A, Cell, D, F, W, board, column, sp, wild


def row_a(*cells: Cell, rules: Ruleset = "second-edition") -> LineScore:
    sheet = score_board(board(list(cells)), None, 0, rules)
    return sheet.rows[0]


# --------------------------------------------------------------- the rulebook's ecosystem cases


def test_correct_ecosystem_whole_row_scores_one_per_card() -> None:
    line = row_a(sp(1, D), sp(2, D), sp(3, D), sp(5, D))
    assert (line.points, line.cells, line.habitat) == (4, ("A1", "A2", "A3", "A4"), D)


def test_columns_read_top_to_bottom() -> None:
    sheet = score_board(column(sp(5, W), sp(3, W, keystone=True), sp(1, W)), None, 0)
    line = sheet.columns[0]
    assert (line.line, line.cells, line.points) == ("Column 1", ("A1", "B1", "C1"), 6)
    assert [row.points for row in sheet.rows] == [0, 0, 0, 0]


def test_incorrect_ecosystem_in_order_but_no_neighbours_share_a_habitat() -> None:
    line = row_a(sp(1, F), sp(2, D), sp(3, W), sp(4, A))
    assert line.points == 0 and line.habitat is None
    assert line.reason == "no two neighbouring cards share a habitat"
    assert "no ecosystem" in line.explain()


def test_two_ecosystems_in_a_row_the_one_with_the_keystone_wins() -> None:
    # 1-2 share forest, 3-4 share desert; only the desert pair has a Keystone icon.
    line = row_a(sp(1, F), sp(2, F), sp(3, D), sp(4, D, keystone=True))
    assert (line.cells, line.points, line.keystones) == (("A3", "A4"), 4, 1)


def test_two_ecosystems_in_a_row_the_longer_one_wins_descending() -> None:
    line = row_a(sp(5, W), sp(4, W, D), sp(3, D), sp(2, D))
    assert (line.cells, line.points, line.habitat) == (("A2", "A3", "A4"), 3, D)


def test_research_adds_one_per_token() -> None:
    line = row_a((sp(1, A), 1), sp(2, A), (sp(3, A), 1), sp(4, A))
    assert (line.research, line.points) == (2, 6)


def test_each_keystone_scores_the_ecosystem_again() -> None:
    line = row_a((sp(1, F, keystone=True), 1), sp(2, F), sp(3, F, keystone=True))
    assert line.points == 12


def test_wild_fills_in_to_make_a_four_card_ecosystem() -> None:
    line = row_a(sp(1, D, keystone=True), wild(D), sp(3, D), sp(4, D, keystone=True))
    assert (line.points, line.wild_numbers) == (12, {"A2": 2})


def test_gaps_are_allowed_in_the_second_edition() -> None:
    assert row_a(sp(1, F), sp(4, F), sp(5, F)).points == 3


def test_first_edition_needs_consecutive_numbers_on_the_same_board() -> None:
    cells = (sp(1, F), sp(3, F), sp(4, F), sp(5, F))
    assert row_a(*cells).points == 4
    first = row_a(*cells, rules="first-edition")
    assert (first.points, first.cells) == (3, ("A2", "A3", "A4"))


def test_first_edition_wild_must_bridge_exactly() -> None:
    cells = (sp(1, D), wild(D), sp(4, D))
    assert row_a(*cells).points == 3
    assert row_a(*cells, rules="first-edition").points == 2
    lead = row_a(wild(D), wild(D), sp(3, D), rules="first-edition")
    assert (lead.points, lead.wild_numbers) == (3, {"A1": 1, "A2": 2})


def test_first_edition_reason_names_consecutive_numbers() -> None:
    line = row_a(sp(1, F), None, sp(2, F), sp(4, F), rules="first-edition")
    assert line.points == 0 and "consecutive" in (line.reason or "")


def test_equal_numbers_break_a_run() -> None:
    line = row_a(sp(2, F), sp(3, F), sp(3, F), sp(4, F))
    assert line.points == 2
    tie = row_a(sp(3, F), sp(3, F))
    assert tie.points == 0 and tie.reason == "neighbours sharing a habitat have equal numbers"


def test_gap_breaks_a_run() -> None:
    line = row_a(sp(1, F, keystone=True), None, sp(2, F), sp(3, F))
    assert (line.cells, line.points) == (("A3", "A4"), 2)


def test_ecosystem_needs_one_habitat_shared_by_all_its_cards() -> None:
    # Each neighbour pair shares a habitat, but no habitat runs through all three.
    assert row_a(sp(1, F, D), sp(2, D, W), sp(3, W, A)).points == 2


@pytest.mark.parametrize(
    ("cells", "reason"),
    [
        ((), "no cards"),
        ((sp(1, F),), "fewer than two cards"),
        ((sp(1, F), None, sp(2, F)), "no two cards are next to each other"),
    ],
)
def test_reason_for_an_empty_line(cells: tuple[Cell, ...], reason: str) -> None:
    line = row_a(*cells)
    assert (line.points, line.reason) == (0, reason)


# --------------------------------------------------------------- Wild cards


def test_wild_takes_different_numbers_in_its_row_and_its_column() -> None:
    w = wild(D)
    b = board(
        [w, sp(2, D), sp(3, D), sp(4, D)],
        [sp(4, D)],
        [sp(3, D)],
        [sp(2, D)],
    )
    sheet = score_board(b, None, 0)
    assert (sheet.rows[0].points, sheet.rows[0].wild_numbers) == (4, {"A1": 1})
    assert (sheet.columns[0].points, sheet.columns[0].wild_numbers) == (4, {"A1": 5})


def test_wild_cannot_go_above_five() -> None:
    line = row_a(sp(4, F), sp(5, F), wild(F))
    assert (line.cells, line.points) == (("A1", "A2"), 2)


def test_wild_cannot_go_below_one() -> None:
    line = row_a(sp(2, F), sp(1, F), wild(F))
    assert (line.cells, line.points) == (("A1", "A2"), 2)


def test_wild_needs_a_free_number_between_its_neighbours() -> None:
    line = row_a(sp(2, F, keystone=True), wild(F), sp(3, F, keystone=True))
    assert line.cards == 2


def test_four_wilds_make_a_run() -> None:
    line = row_a(wild(A), wild(A), wild(A), wild(A))
    assert line.points == 4
    assert sorted(line.wild_numbers.values()) == [1, 2, 3, 4]
    assert score_board(board([wild(A)] * 4), None, 0, "first-edition").rows[0].points == 4


def test_wild_of_another_habitat_does_not_join() -> None:
    assert row_a(sp(1, F), wild(D), sp(3, F)).points == 0


# --------------------------------------------------------------- objective, synergy, total


def objective(*goals: tuple[Pattern, Symbol]) -> ObjectiveCard:
    return ObjectiveCard(number=99, goals=tuple(Goal(pattern=p, symbol=s) for p, s in goals))


def test_objective_points_follow_the_table() -> None:
    card = objective(
        (Pattern.LINE2, Symbol.TAG),
        (Pattern.COUNT3, Symbol.SUMMER),
        (Pattern.DIAGONAL, Symbol.WINTER),
        (Pattern.COUNT4, Symbol.FALL),
    )
    tag = sp(1, tag=True)
    summer = sp(1, season=Season.SUMMER)
    winter = sp(1, season=Season.WINTER)
    fall = sp(1, season=Season.FALL)
    expected = {0: 0, 1: 5, 2: 10, 3: 16, 4: 24}
    layouts = [
        board(),
        board([tag, tag]),
        board([tag, tag], [summer, summer, summer]),
        board([tag, tag], [summer, summer, summer], [winter], [None, winter]),
        board([tag, tag, fall, fall], [summer, summer, summer, fall], [winter, fall], [None, winter]),
    ]
    for done, b in enumerate(layouts):
        sheet = score_board(b, card, 0)
        assert (sheet.goals_completed, sheet.objective_points) == (done, expected[done])


def test_one_card_may_serve_several_goals() -> None:
    card = objective(
        (Pattern.LINE2, Symbol.TAG),
        (Pattern.LINE3, Symbol.TAG),
        (Pattern.COUNT3, Symbol.TAG),
        (Pattern.L_SHAPE, Symbol.TAG),
    )
    t = sp(1, tag=True)
    sheet = score_board(board([t, t, t], [t]), card, 0)
    assert sheet.goals_completed == 4


def test_wild_shows_its_season_only() -> None:
    card = objective(
        (Pattern.LINE2, Symbol.WINTER),
        (Pattern.LINE3, Symbol.SPRING),
        (Pattern.COUNT3, Symbol.SUMMER),
        (Pattern.L_SHAPE, Symbol.FALL),
    )
    b = board([sp(1, season=Season.WINTER), wild(F, Season.WINTER), wild(F, None)])
    goals = score_board(b, card, 0).goals
    assert goals[0].completed and goals[0].cells == ("A1", "A2")
    seasonless = board([sp(1, season=Season.SPRING), wild(F, None), sp(1, season=Season.SPRING)])
    assert not score_board(seasonless, card, 0).goals[1].completed


def test_no_objective_scores_nothing_for_it() -> None:
    sheet = score_board(board([sp(1), sp(2)]), None, 5)
    assert (sheet.goals, sheet.objective_points, sheet.objective) == ((), 0, None)
    assert "No secret objective" in " ".join(sheet.explain())


@pytest.mark.parametrize(("tokens", "points"), [(0, 0), (2, 0), (3, 1), (7, 2), (30, 10)])
def test_synergy_scores_one_per_three(tokens: int, points: int) -> None:
    sheet = score_board(board(), None, tokens)
    assert (sheet.synergy_points, sheet.total) == (points, points)


def test_total_adds_every_part() -> None:
    card = objective(
        (Pattern.LINE2, Symbol.TAG),
        (Pattern.COUNT4, Symbol.FALL),
        (Pattern.DIAGONAL, Symbol.WINTER),
        (Pattern.L_SHAPE, Symbol.ENDANGERED),
    )
    sheet = score_board(board([sp(1, F, tag=True), sp(2, F, tag=True)]), card, 10)
    ecosystem_points = sum(line.points for line in (*sheet.rows, *sheet.columns))
    assert (ecosystem_points, sheet.objective_points, sheet.synergy_points) == (2, 5, 3)
    assert sheet.total == 10


# --------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ((board()[:15], None, 0), "16 cells"),
        ((board([(sp(1), -1)]), None, 0), "Research on A1"),
        ((board(), None, -1), "Synergy"),
        ((board(), None, 0, "third-edition"), "Unknown rules"),
    ],
)
def test_bad_input_raises_a_readable_sentence(args: tuple[object, ...], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        score_board(*args)  # type: ignore[arg-type]


# --------------------------------------------------------------- ties


def sheet_with(total_synergy: int, goal_cards: int) -> ScoreSheet:
    """A sheet with `goal_cards` tag goals met and synergy tokens chosen to hit a total."""
    card = objective(
        (Pattern.COUNT3, Symbol.TAG),
        (Pattern.COUNT4, Symbol.TAG),
        (Pattern.LINE2, Symbol.WINTER),
        (Pattern.DIAGONAL, Symbol.WINTER),
    )
    t = sp(1, tag=True)
    cells = [[t] for _ in range(goal_cards)]  # down column 1: tag cards, all "1" so no ecosystem
    return score_board(board(*cells), card, total_synergy)


def test_rank_by_total_then_goals_then_synergy() -> None:
    one_goal = sheet_with(3 * 11, 3)  # 5 + 11 = 16 points, 1 goal, 33 tokens
    two_goals = sheet_with(0 + 18, 4)  # 10 + 6 = 16 points, 2 goals, 18 tokens
    assert one_goal.total == two_goals.total == 16
    assert rank([one_goal, two_goals]) == [2, 1]
    more = sheet_with(35, 3)  # 16 points, 1 goal, 35 tokens
    assert more.total == 16
    assert rank([one_goal, more]) == [2, 1]


def test_full_tie_is_shared_and_the_next_place_is_skipped() -> None:
    a, b = sheet_with(9, 0), sheet_with(9, 0)
    c = sheet_with(3, 0)
    top = sheet_with(30, 0)
    assert rank([a, b, c]) == [1, 1, 3]
    assert rank([c, top, a, b]) == [4, 1, 2, 2]
    assert rank([]) == []


def test_equal_ecosystems_show_the_longer_then_the_earlier() -> None:
    longer = row_a((sp(1, F), 1), sp(2, F, D), sp(3, D), sp(4, D))
    assert (longer.points, longer.cells) == (3, ("A2", "A3", "A4"))
    earlier = row_a(sp(1, F), sp(2, F), sp(3, D), sp(4, D))
    assert (earlier.points, earlier.cells) == (2, ("A1", "A2"))
