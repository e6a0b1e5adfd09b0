"""The co-op variant: partners share one board and one synergy supply and alternate turns.

The engine sees a single seat (`GameConfig.boards == 1`); which person decides is a matter of
whose turn it is, so the Discord layer asks `acting_player` before accepting an action.
"""

from __future__ import annotations

from keystone.engine.state import GameState


def acting_player(state: GameState) -> int:
    """Index of the person who decides now: in co-op the partners alternate turn by turn, the first
    turn belonging to player 0; in any other game it is simply the seat to act."""
    if state.config.coop:
        return state.turn % state.config.players
    return state.current
