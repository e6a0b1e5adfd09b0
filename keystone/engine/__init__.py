"""The game engine: pure and deterministic, no I/O, no Discord, no clock.

Public API: `new_game`, `legal_actions`, `apply`, `replay`, `player_view`, `public_view`,
`parse_action`, `IllegalAction` (`sentence(lang)` says it in any language), `event_text`,
`GameConfig`, `GameState`, `dump_state`, `load_state`.
"""

from keystone.engine.actions import Action, BadNotation, IllegalAction, parse_action
from keystone.engine.events import Event, event_text
from keystone.engine.game import apply, apply_text, is_over, legal_actions
from keystone.engine.history import replay
from keystone.engine.state import GameConfig, GameState, dump_config, dump_state, load_config, load_state
from keystone.engine.table import new_game
from keystone.engine.views import GameView, SeatView, player_view, public_view

__all__ = [
    "Action", "BadNotation", "Event", "GameConfig", "GameState", "GameView", "IllegalAction", "SeatView",
    "apply", "apply_text", "dump_config", "dump_state", "event_text", "is_over", "legal_actions", "load_config",
    "load_state", "new_game", "parse_action", "player_view", "public_view", "replay",
]
