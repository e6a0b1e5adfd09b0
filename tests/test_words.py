"""One wording for secret-objective goals, the rulebook's, on every surface that names a goal."""

from __future__ import annotations

from keystone.app.text import objective_text
from keystone.cards import Pattern
from keystone.cli.objectives import listing
from keystone.data import load_catalog
from keystone.engine.scoring import score_board
from keystone.engine.words import PATTERN_NAMES, goal_name, goal_sentence

GUIDE = {"L Shaped", "2 in a Line", "3 of a Type", "Diagonal", "3 in a Line", "4 of a Type"}
"""The pattern names of the rulebook's Secret Objective Goals Guide."""


def test_pattern_names_are_the_goals_guide_names() -> None:
    assert set(PATTERN_NAMES.values()) == GUIDE
    assert set(PATTERN_NAMES) == set(Pattern)


def test_a_diagonal_is_two_cards_and_a_type_counts_anywhere() -> None:
    card = load_catalog().objectives[2]  # the rulebook's example: L Summer, Diagonal Endangered, ...
    diagonal = next(g for g in card.goals if g.pattern is Pattern.DIAGONAL)
    assert goal_sentence(diagonal.pattern, diagonal.symbol) == (
        "2 cards with the Endangered icon diagonally touching each other"
    )
    four = next(g for g in card.goals if g.pattern is Pattern.COUNT4)
    assert goal_sentence(four.pattern, four.symbol) == "4 or more cards with the Fall icon anywhere on your board"


def test_messages_command_line_and_score_sheet_word_each_goal_alike() -> None:
    objectives = load_catalog().objectives
    printed = listing(objectives)
    empty = [None] * 16
    for number, card in objectives.items():
        message = objective_text(number)
        sheet = score_board(empty, card, 0).explain()
        for goal in card.goals:
            sentence = goal_sentence(goal.pattern, goal.symbol)
            assert sentence in message
            assert f"{PATTERN_NAMES[goal.pattern]}: {sentence}." in printed
            assert any(f"({goal_name(goal.pattern, goal.symbol)})" in line for line in sheet)
