"""Cells of the 4x4 player board: names (A1..D4), neighbours and synergy gained on placement."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from keystone.cards import Card

ROWS = "ABCD"
SIZE = 4
CELLS = 16


def cell_name(index: int) -> str:
    return f"{ROWS[index // SIZE]}{index % SIZE + 1}"


def parse_cell(text: str) -> int | None:
    """'b2' -> 5; None when the text is not a cell of the board."""
    text = text.strip().upper()
    if len(text) != 2 or text[0] not in ROWS or text[1] not in "1234":
        return None
    return ROWS.index(text[0]) * SIZE + int(text[1]) - 1


CELL_NAMES: tuple[str, ...] = tuple(cell_name(i) for i in range(CELLS))


def _neighbours(index: int) -> tuple[int, ...]:
    row, col = divmod(index, SIZE)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        if 0 <= r < SIZE and 0 <= c < SIZE:
            out.append(r * SIZE + c)
    return tuple(out)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(i) for i in range(CELLS))
"""Orthogonal neighbours of each cell (diagonals never count for synergy)."""


def synergy_for_placement(card: Card, index: int, cards: Sequence[Card | None]) -> int:
    """One synergy per habitat symbol shared with each orthogonally adjacent card."""
    mine = set(card.habitats)
    total = 0
    for n in NEIGHBOURS[index]:
        other = cards[n]
        if other is not None:
            total += len(mine.intersection(other.habitats))
    return total


class HoldsCard(Protocol):
    """A cell's content as the state and the views both keep it: the card's id."""

    @property
    def card(self) -> str: ...


def new_cards(old: Sequence[HoldsCard | None], new: Sequence[HoldsCard | None]) -> tuple[int, ...]:
    """The cells of a board that hold a different card in `new` than in `old` (placed, bought or
    moved there): what a turn's picture frames."""
    return tuple(i for i, (a, b) in enumerate(zip(old, new, strict=True))
                 if b is not None and (a is None or a.card != b.card))
