"""Bot seats' moves: the engine's bots, with a plain cheap policy should one fail."""

from __future__ import annotations

import logging
import time

from keystone.engine import Action, GameState, legal_actions, player_view
from keystone.engine.actions import EndTurn, Skip, Take
from keystone.engine.bots import LEVELS, choose_action

THINK_SECONDS = 1.5
"""A hard bot stops searching after this long, so a channel never waits on it for long."""

log = logging.getLogger(__name__)


def bot_action(state: GameState, level: int) -> Action:
    """The action a bot of `level` (0 easy, 1 normal, 2 hard) plays now."""
    stop = time.monotonic() + THINK_SECONDS
    view = player_view(state, state.current)
    seed = (state.seed * 1_000_003 + state.version) % 2**31
    try:
        action = choose_action(view, LEVELS[min(level, len(LEVELS) - 1)], seed, config=state.config,
                              deadline=lambda: time.monotonic() > stop)
    except Exception:
        log.exception("bot failed at version %s of a game seeded %s; playing a plain move", state.version, state.seed)
        return simple_action(state)
    return action if action in legal_actions(state) else simple_action(state)


def simple_action(state: GameState) -> Action:
    """Take the rightmost affordable card into the first empty cell; otherwise the first legal move."""
    legal = legal_actions(state)
    takes = [a for a in legal if isinstance(a, Take)]
    if takes:
        slot = max(a.slot for a in takes)
        return next(a for a in takes if a.slot == slot)
    for kind in (EndTurn, Skip):
        found = [a for a in legal if isinstance(a, kind)]
        if found:
            return found[0]
    return legal[0]
