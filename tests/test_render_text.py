"""Text renderings: every fact of the pictures, in plain text for the terminal and screen readers."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keystone.cli.render import rulebook_view
from keystone.data import load_catalog
from keystone.engine import player_view, public_view
from keystone.engine.scoring import rank
from keystone.i18n import Language
from keystone.render import describe_card, text_board, text_scores, text_table
from keystone.render.text import CELL, _wrap_name
from tests.render_helpers import drawn_hand, finished, play, sheets, start

CELLS = [f"{r}{c}" for r in "ABCD" for c in "1234"]


def test_an_empty_board_names_every_cell() -> None:
    view = public_view(start())
    text = text_board(view, 0)
    assert all(re.search(rf"\b{cell}\b", text) for cell in CELLS)
    assert "Ana: 5 synergy, 0 of 16 cells filled (to act)." in text


def test_a_full_board_names_every_card_and_no_empty_cell() -> None:
    view = rulebook_view()
    text = text_board(view, 0)
    catalog = load_catalog()
    for placed in view.seats[0].board:
        assert placed is not None
        card = catalog.card(placed.card)
        if not card.wild:
            assert all(word in text for word in card.name.split())
    grid = "\n".join(line for line in text.splitlines() if line.lstrip().startswith(("|", "A |", "B |", "C |", "D |")))
    assert not any(re.search(rf"\| {cell} +\|", grid) for cell in CELLS)
    assert text.count("R1") == 4  # four research tokens on Sally's board
    assert "Secret objective 1:" in text


def test_the_table_lists_field_costs_and_piles() -> None:
    view = public_view(play(start(), 5))
    text = text_table(view)
    catalog = load_catalog()
    for slot, entry in enumerate(view.field):
        if entry is None:
            continue
        cost = view.field_costs[slot]
        price = "free" if cost == 0 else f"cost {cost}"
        assert f"{slot + 1}. {catalog.card(entry.card).name} (" in text
        line = next(line for line in text.splitlines() if line.startswith(f"  {slot + 1}. "))
        assert line.endswith(price) or f"{price}, " in line
    assert f"Deck: {view.deck_count} cards." in text
    assert f"Time: {view.time} of {view.time_start} left." in text


def test_the_table_says_who_holds_hidden_cards_without_naming_them() -> None:
    state = drawn_hand()
    public = text_table(public_view(state))
    assert f"holds {len(state.held)} cards, seen only by Ana" in public
    own = text_table(player_view(state, 0))
    assert "1. " in own and "place I CELL" in own


def test_scores_show_each_line_and_the_winner() -> None:
    view = public_view(finished())
    result = sheets(view)
    text = text_scores(result, [s.name for s in view.seats])
    totals = next(line for line in text.splitlines() if line.startswith("Total"))
    assert [int(v) for v in totals.split()[1:]] == [s.total for s in result]
    places = rank(result)
    winners = [view.seats[i].name for i, p in enumerate(places) if p == 1]
    assert all(name in text.splitlines()[-1] for name in winners)


def test_the_rulebook_board_scores_97_in_text() -> None:
    view = rulebook_view()
    text = text_scores(sheets(view)[:1], ["Sally"])
    assert re.search(r"^Total\s+97$", text, re.M)


def test_a_tie_is_shared() -> None:
    view = public_view(finished())
    sheet = sheets(view)[0]
    assert "share the win" in text_scores([sheet, sheet], ["A", "B"])


def test_scores_refuse_mismatched_names() -> None:
    view = public_view(finished())
    with pytest.raises(ValueError, match="Expected 2 names"):
        text_scores(sheets(view), ["only one"])
    with pytest.raises(ValueError, match="no score sheets"):
        text_scores([])


def test_a_card_description_names_its_icons() -> None:
    coyote = load_catalog().find("Coyote")
    assert coyote is not None
    text = describe_card(coyote)
    assert text.startswith("Coyote (3; ")
    assert "Keystone" in text and "Spring" in text


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 80))
def test_text_grid_is_aligned_for_any_reachable_board(seed: int, steps: int) -> None:
    state = play(start(2, seed % 40), steps, seed)
    view = public_view(state)
    for seat in range(2):
        lines = [line for line in text_board(view, seat).splitlines() if line.startswith(("   ", " A", " B", " C", " D"))]
        grid = [line for line in lines if "|" in line or "+" in line]
        assert len({len(line) for line in grid}) == 1
        assert len(grid[0]) <= 80


def test_the_rules_text_counts_synergy_per_shared_habitat_symbol_as_the_engine_does() -> None:
    """It used to say a neighbour sharing a habitat *or season* gives synergy."""
    from keystone.app.text import rules_text
    from keystone.data import load_catalog
    from keystone.engine.board import synergy_for_placement

    introduce = rules_text("introduce")
    assert "habitat symbol" in introduce and "seasons never count" in introduce
    cat = load_catalog()
    coyote = cat.find("Coyote")  # forest, desert, wetland
    assert coyote is not None
    same_season = next(c for c in cat.species if c.season == coyote.season and not set(c.habitats) & set(coyote.habitats))
    assert synergy_for_placement(coyote, 0, [None, same_season] + [None] * 14) == 0
    assert synergy_for_placement(coyote, 0, [None, coyote] + [None] * 14) == 3


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_text_board_breaks_long_names_and_never_cuts_them(lang: Language) -> None:
    for card in load_catalog().all_cards():
        number = "W#" if card.wild else str(card.number)
        name = f"{number} {card.name_in(lang)}"
        lines = _wrap_name(number, card.name_in(lang), CELL - 1, lang)
        assert all(len(line) <= CELL - 1 for line in lines), lines
        letters = "".join(line.strip().rstrip("-") for line in lines).replace(" ", "").replace("-", "")
        assert letters == name.replace(" ", "").replace("-", ""), f"{name!r} drawn as {lines}"
    assert _wrap_name("1", "Schwarzschwanz-Präriehund", 17, "de") == ("1 Schwarzschwanz-", "  Präriehund")
