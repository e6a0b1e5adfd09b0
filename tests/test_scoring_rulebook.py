"""The rulebook's worked scoring examples, with the real card data.

Sally's board (expanded scoring example), rebuilt from the text: each row and column names its
cards, which fixes every cell. `*` marks a research token.

         1                  2                  3                  4
    A  Black Bear 4       Saguaro Cactus 1   American Bison 4   Mountain Lion 5*
    B  Bald Cypress 1     Cottontail 2*      Snail Kite 3       Peregrine Falcon 4
    C  Piping Plover 2    Coyote 3           Desert Tortoise 2* Desert Wild
    D  Swallow-T. Kite 3  Mountain Goat 3    Musk Ox 4*         Prairie Orchid 1

Research: the text puts one on Mountain Lion (row 1, column 4), Cottontail (row 2, column 2) and
Musk Ox (row 4). Row 3's token is on the Desert Tortoise: on the Coyote it would lift column 2 to
15, on the Wild card column 4 to 18, and the text gives 12 and 15.
"""

from __future__ import annotations

import pytest

from keystone.cards import Card, Habitat, Pattern, Season
from keystone.data import Catalog, load_catalog
from keystone.engine.scoring import PLACEMENTS, Board, BoardCell, score_board


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


Cell = str | tuple[str, int] | Card | None
"""A card by name, a name with its research tokens, a card itself, or an empty cell."""

DESERT_WILD = Card(id="wild-desert", name="Desert Wild", habitats=(Habitat.DESERT,), season=None, wild=True)

SALLY: list[list[Cell]] = [
    ["American Black Bear", "Saguaro Cactus", "American Bison", ("Mountain Lion", 1)],
    ["Montezuma Bald Cypress", ("Cottontail Rabbit", 1), "Snail Kite", "Peregrine Falcon"],
    ["Piping Plover", "Coyote", ("Desert Tortoise", 1), DESERT_WILD],
    ["Swallow-Tailed Kite", "Mountain Goat", ("Musk Ox", 1), "Prairie Fringed Orchid"],
]


def build(catalog: Catalog, rows: list[list[Cell]]) -> Board:
    out: list[BoardCell | None] = []
    for row in rows:
        for cell in row:
            name, research = cell if isinstance(cell, tuple) else (cell, 0)
            if name is None:
                out.append(None)
                continue
            card = name if isinstance(name, Card) else catalog.find(name)
            assert card is not None, name
            out.append((card, research))
    return out


def test_sally_scores_97_exactly(catalog: Catalog) -> None:
    sheet = score_board(build(catalog, SALLY), catalog.objectives[1], 7)
    assert [line.points for line in sheet.columns] == [3, 12, 0, 15]
    assert [line.points for line in sheet.rows] == [16, 10, 12, 3]
    assert (sheet.goals_completed, sheet.objective_points) == (4, 24)
    assert sheet.synergy_points == 2
    assert sheet.total == 97


def test_sally_lines_are_the_ones_the_text_names(catalog: Catalog) -> None:
    sheet = score_board(build(catalog, SALLY), catalog.objectives[1], 7)
    cells = {line.line: line.cells for line in (*sheet.rows, *sheet.columns)}
    assert cells["Row A"] == ("A2", "A3", "A4")  # the Black Bear is out of order
    assert cells["Row B"] == ("B1", "B2", "B3", "B4")
    assert cells["Row C"] == ("C2", "C3", "C4")  # the desert run, not Plover + Coyote
    assert cells["Row D"] == ("D2", "D3")
    assert cells["Column 1"] == ("B1", "C1", "D1")
    assert cells["Column 2"] == ("A2", "B2", "C2")
    assert cells["Column 4"] == ("A4", "B4", "C4", "D4")
    assert sheet.columns[2].habitat is None


def test_sally_wild_is_a_1_in_its_row_and_another_number_in_its_column(catalog: Catalog) -> None:
    sheet = score_board(build(catalog, SALLY), catalog.objectives[1], 7)
    assert sheet.rows[2].wild_numbers == {"C4": 1}
    assert sheet.columns[3].wild_numbers["C4"] in (2, 3)


def test_sally_goals_use_the_cards_the_text_names(catalog: Catalog) -> None:
    sheet = score_board(build(catalog, SALLY), catalog.objectives[1], 7)
    line2, line3 = sheet.goals[1], sheet.goals[2]
    assert line2.cells == ("B3", "C3")  # Snail Kite and Desert Tortoise
    assert line3.cells == ("D1", "D2", "D3")  # Swallow-Tailed Kite, Mountain Goat, Musk Ox
    coyote_goat_ox = (1 << 9) | (1 << 13) | (1 << 14)  # C2, D2, D3
    assert coyote_goat_ox in PLACEMENTS[Pattern.L_SHAPE]
    for names, season in (
        (("Coyote", "Mountain Goat", "Musk Ox"), Season.SPRING),
        (("American Black Bear", "Saguaro Cactus", "Montezuma Bald Cypress", "Snail Kite"), Season.SUMMER),
    ):
        assert all(getattr(catalog.find(n), "season", None) is season for n in names)


def test_sally_board_is_first_edition_different(catalog: Catalog) -> None:
    sheet = score_board(build(catalog, SALLY), catalog.objectives[1], 7, "first-edition")
    # Row A's 1-4-5 and column 4's 5-4-W-1 need gaps; the consecutive rule cuts them down.
    assert sheet.rows[0].points < 16 and sheet.columns[3].points < 15
    assert sheet.total < 97


# Thomas (first objective example, card 2): L Summer, diagonal Endangered, 3 in a line Tag,
# 4 of a type Fall. The rulebook shows no board, so this one is laid out to match the text:
#
#         1                  2                  3                4
#    A  Saguaro (Su)       .                  Aspen (F)        Swallow-T. Kite (T)
#    B  Black Bear (Su)    Bald Cypress (Su)  Sugar Maple (F)  Mountain Goat (T)
#    C  Snail Kite (E)     .                  Mallard (F)      Musk Ox (T)
#    D  .                  Desert Tortoise(E) Canada Goose (F) .
THOMAS: list[list[Cell]] = [
    ["Saguaro Cactus", None, "Aspen", "Swallow-Tailed Kite"],
    ["American Black Bear", "Montezuma Bald Cypress", "Sugar Maple", "Mountain Goat"],
    ["Snail Kite", None, "Mallard", "Musk Ox"],
    [None, "Desert Tortoise", "Canada Goose", None],
]


def test_thomas_completes_all_four_goals(catalog: Catalog) -> None:
    sheet = score_board(build(catalog, THOMAS), catalog.objectives[2], 0)
    assert [g.completed for g in sheet.goals] == [True, True, True, True]
    assert sheet.objective_points == 24
    assert sheet.goals[0].cells == ("A1", "B1", "B2")  # the L, turned
    assert sheet.goals[1].cells == ("C1", "D2")


@pytest.mark.parametrize(("cell", "goal"), [((1, 1), 0), ((3, 1), 1), ((1, 3), 2), ((2, 2), 3)])
def test_thomas_loses_one_goal_per_missing_card(catalog: Catalog, cell: tuple[int, int], goal: int) -> None:
    rows = [list(r) for r in THOMAS]
    rows[cell[0]][cell[1]] = None
    sheet = score_board(build(catalog, rows), catalog.objectives[2], 0)
    assert [g.completed for g in sheet.goals] == [i != goal for i in range(4)]
    assert sheet.objective_points == 16
