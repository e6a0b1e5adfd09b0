"""Hand-made cards and boards for the scoring tests (no catalog needed)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import count

from keystone.cards import Card, Habitat, Season
from keystone.engine.scoring import Board, BoardCell

F, D, W, A = Habitat.FOREST, Habitat.DESERT, Habitat.WETLAND, Habitat.ARCTIC
_ids = count(1)


def sp(
    number: int,
    *habitats: Habitat,
    keystone: bool = False,
    season: Season = Season.SPRING,
    endangered: bool = False,
    tag: bool = False,
) -> Card:
    """A Species card with just the attributes a test cares about."""
    n = next(_ids)
    return Card(
        id=f"test-{n}",
        name=f"Test {n}",
        number=number,
        habitats=habitats or (F,),
        season=season,
        keystone=keystone,
        endangered=endangered,
        tag=tag,
    )


def wild(habitat: Habitat, season: Season | None = None) -> Card:
    return Card(id=f"wild-{next(_ids)}", name=f"{habitat.value} Wild", habitats=(habitat,), season=season, wild=True)


Cell = Card | BoardCell | None


def board(*rows: Sequence[Cell]) -> Board:
    """A board from up to four rows of up to four cells; a bare Card has no research."""
    out: list[BoardCell | None] = []
    for r in range(4):
        row = list(rows[r]) if r < len(rows) else []
        row += [None] * (4 - len(row))
        out.extend((c, 0) if isinstance(c, Card) else c for c in row)
    return out


def column(*cells: Cell) -> Board:
    """A board with the given cells down column 1 and nothing else."""
    return board(*([c] for c in cells))
