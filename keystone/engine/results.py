"""Bridge from a game (state or view) to the scoring module: final and provisional score sheets."""

from __future__ import annotations

from collections.abc import Sequence

from keystone.cards import Ruleset
from keystone.data import load_catalog
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
