"""Scoring speed: a full 16-card board with two Wild cards, objective and synergy included.

Target: under 200 microseconds median for `score_board` on that board.
Run: python bench/bench_scoring.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from keystone.cards import Card, Habitat
from keystone.data import load_catalog
from keystone.engine.scoring import Board, BoardCell, score_board

ROWS = [
    ["American Black Bear", "Saguaro Cactus", "American Bison", ("Mountain Lion", 1)],
    ["Montezuma Bald Cypress", ("Cottontail Rabbit", 1), "Snail Kite", "Peregrine Falcon"],
    ["Piping Plover", "Coyote", ("Desert Tortoise", 1), "wild:desert"],
    ["wild:wetland", "Mountain Goat", ("Musk Ox", 1), "Prairie Fringed Orchid"],
]


def full_board() -> Board:
    """The rulebook's example board with a second Wild card in D1: 16 cards, two of them Wild."""
    catalog = load_catalog()
    cells: list[BoardCell | None] = []
    for row in ROWS:
        for entry in row:
            name, research = entry if isinstance(entry, tuple) else (entry, 0)
            if name.startswith("wild:"):
                habitat = Habitat(name.split(":")[1])
                card: Card | None = Card(id=name, name=name, habitats=(habitat,), season=None, wild=True)
            else:
                card = catalog.find(name)
            assert card is not None, name
            cells.append((card, research))
    return cells


def median_us(board: Board, rules: str, rounds: int = 2000, batch: int = 10) -> float:
    objective = load_catalog().objectives[1]
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(batch):
            score_board(board, objective, 7, rules)  # type: ignore[arg-type]
        samples.append((time.perf_counter() - started) * 1e6 / batch)
    return statistics.median(samples)


def main() -> None:
    board = full_board()
    assert sum(1 for c in board if c is not None and c[0].wild) == 2
    median_us(board, "second-edition", rounds=200)  # warm up
    second = median_us(board, "second-edition")
    first = median_us(board, "first-edition")
    print(f"score_board, 16 cards with 2 Wild cards, second edition: median {second:.1f} us [target < 200 us]")
    print(f"score_board, same board, first edition: median {first:.1f} us")


if __name__ == "__main__":
    main()
