"""Bot opponents: easy (random legal moves), normal (greedy), hard (search over guessed hidden cards).

No level chooses a skill that would only cost time (nothing on the table for it to act on) while
another action is legal (`idle`, ruling 204): a bot stands in for absent people, and in a solo game
such a skill throws away the turn, or a space of the time track.

`choose_action(view_or_state, level, rng_seed)` returns one action for the seat to act. A bot only
ever reads that seat's `player_view`: when handed a full state it takes the view first, and where
it needs what it cannot see (the deck, others' objectives) it samples them with `determinize`.
The same arguments always give the same action: there is no clock inside; the hard bot's effort
is a simulation budget, and a caller may pass `deadline()` to stop it early.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Literal, get_args

from keystone.engine.actions import Action
from keystone.engine.bots.greedy import greedy_action
from keystone.engine.bots.idle import useful
from keystone.engine.bots.search import DEFAULT_BUDGET, search_action, sub_seed
from keystone.engine.determinize import determinize
from keystone.engine.game import apply, legal_actions
from keystone.engine.state import GameConfig, GameState
from keystone.engine.table import new_game
from keystone.engine.views import GameView, player_view

Level = Literal["easy", "normal", "hard"]
LEVELS: tuple[str, ...] = get_args(Level)
"""The one list of bot levels, easiest first; the app, the cogs and the command line all use it."""
NORMAL_SAMPLES = 3
"""Guesses of the deck the normal bot averages over when a skill draws hidden cards."""

__all__ = ["DEFAULT_BUDGET", "LEVELS", "Level", "bot_seed", "choose_action", "play_bots", "sub_seed"]


def _view_and_config(
    view_or_state: GameView | GameState, config: GameConfig | None
) -> tuple[GameView, GameConfig | None]:
    if isinstance(view_or_state, GameState):
        state = view_or_state
        return player_view(state, state.current), config or state.config
    return view_or_state, config


def choose_action(
    view_or_state: GameView | GameState,
    level: str,
    rng_seed: int,
    *,
    config: GameConfig | None = None,
    budget: int | None = None,
    deadline: Callable[[], bool] | None = None,
) -> Action:
    """The action `level` plays for the seat to act.

    `config` is the game's (public) setup when the caller passes a view; `budget` is the hard
    bot's number of simulated turns (default `DEFAULT_BUDGET`); `deadline()` returning True makes
    the hard bot stop searching and answer with what it has.
    """
    if level not in LEVELS:
        raise ValueError(f"There is no bot level {level!r}; choose {', '.join(LEVELS[:-1])} or {LEVELS[-1]}.")
    view, cfg = _view_and_config(view_or_state, config)
    if view.over:
        raise ValueError("The game is over; there is nothing left to play.")
    if view.viewer != view.current:
        raise ValueError("A bot can only act for the seat whose turn it is, seeing what that seat sees.")
    if level == "easy":
        state = determinize(view, sub_seed(rng_seed, 0), cfg)
        return random.Random(rng_seed).choice(useful(state, legal_actions(state)))
    if level == "normal":
        guesses = [determinize(view, sub_seed(rng_seed, i), cfg) for i in range(NORMAL_SAMPLES)]
        return greedy_action(guesses[0], others=guesses[1:])
    return search_action(view, cfg, rng_seed, budget if budget is not None else DEFAULT_BUDGET, deadline)


def bot_seed(game_seed: int, state: GameState) -> int:
    """The seed a bot uses for one decision: fixed by the game and the move number, so replays agree."""
    return sub_seed(game_seed, state.version + 1)


def play_bots(
    levels: Sequence[str], seed: int, config: GameConfig | None = None, budget: int | None = None,
    on_move: Callable[[GameState, Action], None] | None = None,
) -> GameState:
    """Play a whole game with one bot level per seat; return the finished state.

    `on_move(state, action)` is called before each action is applied (for logs and timing).
    """
    cfg = config if config is not None else GameConfig(players=len(levels))
    state = new_game(cfg, seed, [f"{level.capitalize()} {i + 1}" for i, level in enumerate(levels)])
    while state.phase != "over":
        action = choose_action(state, levels[state.current], bot_seed(seed, state), budget=budget)
        if on_move is not None:
            on_move(state, action)
        state, _ = apply(state, action)
    return state
