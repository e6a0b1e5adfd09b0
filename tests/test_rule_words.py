"""Short rule words players read on buttons, token pictures and objective cards say what the engine
does, in English and German: a skill's summary and a secret objective goal's sentence."""

from __future__ import annotations

import pytest

from keystone.cards import Pattern, SkillSide, Symbol
from keystone.data import load_catalog
from keystone.engine.board import SIZE
from keystone.engine.scoring import PLACEMENTS
from keystone.engine.words import goal_sentence

CAT = load_catalog()
LOOKING = [(token.number, name, side) for token in (*CAT.skills.values(), *CAT.extra_skills.values())
           for name, side in (("active", token.active), ("exhausted", token.exhausted))
           if any(e.kind == "discard_place" for e in side.effects)]


def test_the_discard_pile_skills_are_found() -> None:
    assert [(number, name) for number, name, _ in LOOKING] == [(1, "exhausted"), (2, "active")]


@pytest.mark.parametrize(("number", "name", "side"), LOOKING, ids=[f"{n}-{s}" for n, s, _ in LOOKING])
def test_a_discard_pile_skill_says_look_at_the_top_3_not_search(number: int, name: str, side: SkillSide) -> None:
    """The skill looks at the top three cards of the discard pile only; "search" read as the whole pile."""
    count = next(e.count for e in side.effects if e.kind == "discard_place")
    assert count == 3
    english, german = side.summary_in("en"), side.summary_in("de")
    assert english.startswith("Look at ") and f"top {count} discards" in english and "earch" not in english
    assert german.startswith(f"Oberste {count} der Ablage"), german
    assert "top three cards of the discard pile" in side.text_in("en")
    assert "die obersten drei Karten der Ablage" in side.text_in("de")


def _straight_threes() -> set[int]:
    """Three cells next to each other in one row or one column, worked out apart from the scorer."""
    masks = set()
    for line in range(SIZE):
        for start in range(SIZE - 2):
            masks.add(sum(1 << (line * SIZE + start + i) for i in range(3)))  # in a row
            masks.add(sum(1 << ((start + i) * SIZE + line) for i in range(3)))  # in a column
    return masks


def test_3_in_a_line_says_the_three_cards_are_adjacent_in_one_row_or_column() -> None:
    assert set(PLACEMENTS[Pattern.LINE3]) == _straight_threes()  # what the goal's code requires
    assert goal_sentence(Pattern.LINE3, Symbol.TAG) == "3 cards with the Tag icon next to each other in one row or column"
    german = goal_sentence(Pattern.LINE3, Symbol.TAG, "de")
    assert german == "3 Karten mit dem Symbol Besendert direkt nebeneinander in einer Linie (Reihe oder Spalte)"
