"""Game views for the rendering tests: reached by playing the real engine, never built by hand
(except the rulebook's finished board, which the demo also draws)."""

from __future__ import annotations

import functools
import io
import random

from PIL import Image, ImageSequence

from keystone.data import load_catalog
from keystone.engine import GameConfig, GameState, apply, apply_text, is_over, legal_actions, new_game
from keystone.engine.scoring import ScoreSheet, score_board
from keystone.engine.views import GameView

SKILLS = [1, 2, 3, 4, 9]


def start(players: int = 2, seed: int = 3) -> GameState:
    names = ["Ana", "Bo", "Cy", "Dee"][:players]
    return new_game(GameConfig(players=players, skills=list(SKILLS)), seed, names)


def play(state: GameState, steps: int, seed: int = 0) -> GameState:
    """Random legal actions, `steps` of them or until the game ends."""
    rng = random.Random(seed)
    for _ in range(steps):
        if is_over(state):
            break
        state, _ = apply(state, rng.choice(legal_actions(state)))
    return state


@functools.cache
def finished(players: int = 2, seed: int = 3) -> GameState:
    return play(start(players, seed), 10_000, seed)


def drawn_hand(seed: int = 3) -> GameState:
    """The first seat has used skill 1 and drawn three cards it alone may see."""
    state, _ = apply_text(start(2, seed), "skill 1")
    state, _ = apply_text(state, "draw")
    assert state.held and state.held_private
    return state


def sheets(view: GameView) -> list[ScoreSheet]:
    catalog = load_catalog()
    out = []
    for seat in view.seats:
        board = [None if p is None else (catalog.card(p.card), p.research) for p in seat.board]
        objective = catalog.objectives.get(seat.objective) if seat.objective is not None else None
        out.append(score_board(board, objective, seat.synergy, view.rules))
    return out


def image(data: bytes) -> Image.Image:
    """Decode PNG bytes (fails the test if they are not a PNG)."""
    picture = Image.open(io.BytesIO(data))
    assert picture.format == "PNG"
    picture.load()
    return picture


def frame_count(data: bytes) -> int:
    """How many frames an animated picture holds (fails the test if it is not an animated GIF)."""
    animation = Image.open(io.BytesIO(data))
    assert animation.format == "GIF" and getattr(animation, "is_animated", False)
    return sum(1 for _ in ImageSequence.Iterator(animation))
