"""One wording for secret-objective goals, the rulebook's, on every surface that names a goal; and every
game word in English and in the German edition's words."""

from __future__ import annotations

import pytest

from keystone.app.text import objective_text
from keystone.cards import Habitat, Pattern, Season, Symbol
from keystone.cli.objectives import listing
from keystone.data import load_catalog
from keystone.engine.scoring import score_board
from keystone.engine.words import (
    DISCORD_ACTIONS,
    HABITAT_NAMES,
    ICON_LABELS,
    PATTERN_NAMES,
    SEASON_NAMES,
    TERMINAL_ACTIONS,
    action_words,
    counted,
    goal_name,
    goal_sentence,
    habitat_name,
    icon_label,
    pattern_name,
    season_name,
)
from keystone.i18n import tr

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


def test_each_word_has_its_german_edition_form() -> None:
    assert [habitat_name(h, "de") for h in Habitat] == ["Wald", "Wüste", "Feuchtgebiet", "Arktis"]
    assert [season_name(s, "de") for s in Season] == ["Frühling", "Sommer", "Herbst", "Winter"]
    assert icon_label("keystone", "de") == "Schlüsselart" and icon_label("forest", "de") == "Wald"
    assert [tr("de", k) for k in ("token.synergy", "token.research", "token.skill", "word.wild", "word.field")] == [
        "Eichel", "Notizmarker", "Forschungsplättchen", "Wildniskarte", "Auslage"]
    assert tr("de", "action.take") == "Spezies ansiedeln"


def test_the_english_words_stay_the_module_names() -> None:
    assert [habitat_name(h) for h in Habitat] == list(HABITAT_NAMES.values()) == ["Forest", "Desert", "Wetland", "Arctic"]
    assert [season_name(s, "en") for s in Season] == list(SEASON_NAMES.values())
    assert {n: icon_label(n, "en") for n in ICON_LABELS} == dict(ICON_LABELS)
    assert [pattern_name(p, "en") for p in Pattern] == list(PATTERN_NAMES.values())


def test_a_goal_reads_in_german() -> None:
    assert goal_name(Pattern.L_SHAPE, Symbol.SUMMER) == "L Shaped, Summer"
    assert goal_name(Pattern.L_SHAPE, Symbol.SUMMER, "de") == "L-Form, Sommer"
    assert goal_sentence(Pattern.DIAGONAL, Symbol.ENDANGERED, "de") == (
        "2 Karten mit dem Symbol Gefährdet, die sich diagonal berühren")
    assert goal_sentence(Pattern.COUNT4, Symbol.FALL, "de") == (
        "4 oder mehr Karten mit dem Symbol Herbst irgendwo auf deinem Tableau")


@pytest.mark.parametrize(("key", "count", "en", "de"), [
    ("token.synergy", 1, "1 synergy token", "1 Eichel"), ("token.synergy", 3, "3 synergy tokens", "3 Eicheln"),
    ("token.research", 2, "2 research tokens", "2 Notizmarker"), ("word.point", 1, "1 point", "1 Punkt"),
    ("word.point", 0, "0 points", "0 Punkte"), ("word.wild", 2, "2 Wild cards", "2 Wildniskarten"),
    ("card", 2, "2 cards", "2 Karten"),
])
def test_a_counted_word_takes_its_form_in_each_language(key: str, count: int, en: str, de: str) -> None:
    assert (counted(key, count), counted(key, count, "de")) == (en, de)


def test_each_way_to_act_is_in_both_languages() -> None:
    assert action_words("discord") is DISCORD_ACTIONS and action_words("terminal") is TERMINAL_ACTIONS
    german = action_words("discord", "de")
    assert german.choices() == "/ansiedeln, /forschen oder /wildnis"
    assert (german.draw, german.resolve) == ("Ziehen", "einen „Ausführen“-Knopf")
    assert DISCORD_ACTIONS.choices() == "/take, /skill or /wild"
    assert action_words("terminal", "de").take == TERMINAL_ACTIONS.take, "typed notation is the same in German"
