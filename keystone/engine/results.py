"""Bridge from a game (state or view) to the scoring module: score sheets, places and who won."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from keystone.cards import Ruleset
from keystone.data import load_catalog
from keystone.engine import campaign
from keystone.engine.scoring import Board, ScoreSheet, rank, score_board
from keystone.engine.state import GameState, PlacedCard
from keystone.engine.views import GameView


def board_cells(board: Sequence[PlacedCard | None]) -> Board:
    cat = load_catalog()
    return [None if p is None else (cat.card(p.card), p.research) for p in board]


def _sheet(board: Sequence[PlacedCard | None], objective: int | None, synergy: int, rules: Ruleset) -> ScoreSheet:
    cat = load_catalog()
    card = cat.objectives[objective] if objective is not None else None
    return score_board(board_cells(board), card, synergy, rules)


def final_scores(state: GameState) -> list[ScoreSheet]:
    """Every seat's score sheet, objective included (for a finished game, or a bot's evaluation)."""
    return [_sheet(s.board, s.objective, s.synergy, state.config.rules) for s in state.seats]


def view_scores(view: GameView) -> list[ScoreSheet]:
    """Score sheets from what this view may see: hidden objectives simply do not count."""
    return [_sheet(s.board, s.objective, s.synergy, view.rules) for s in view.seats]


def places(sheets: Sequence[ScoreSheet], resigned: int | None = None) -> list[int]:
    """Final places; a seat that resigned is last (see `scoring.rank`)."""
    return rank(sheets, resigned)


@dataclass(frozen=True, slots=True)
class Standing:
    """One board's result: its total, its place, whether it won, and an assignment's stars."""

    score: int
    place: int
    won: bool
    stars: int | None = None


def standings(state: GameState) -> list[Standing]:
    """Each board's result at the end. The best place wins; in a Field Journal assignment winning
    means earning at least one star; a seat that resigned is last, wins nothing and earns no stars."""
    sheets = final_scores(state)
    number = state.config.assignment
    stars = None
    if number is not None and state.phase == "over" and state.resigned is None:
        stars = campaign.judge(number, state).stars
    ranks = places(sheets, state.resigned)
    return [Standing(sheet.total, place, (place == 1 if stars is None else stars > 0) and i != state.resigned, stars)
            for i, (sheet, place) in enumerate(zip(sheets, ranks, strict=True))]
