"""Shared helpers for the bot tests: states reached by random play, and the same table with other secrets."""

from __future__ import annotations

import random

from keystone.engine import GameConfig, GameState, apply, legal_actions, new_game


def reached(seed: int, moves: int, players: int = 2) -> GameState:
    """A state reached by random legal moves from a fresh deal."""
    state = new_game(GameConfig(players=players), seed, [f"P{i}" for i in range(players)])
    chooser = random.Random(seed)
    for _ in range(moves):
        if state.phase == "over":
            break
        state, _ = apply(state, chooser.choice(legal_actions(state)))
    return state


def with_other_secrets(state: GameState, seed: int) -> GameState:
    """The same table with different hidden parts: deck order, others' objectives, the generator."""
    other = state.clone()
    random.Random(seed).shuffle(other.deck)
    free = [n for n in range(1, 11) if n not in {s.objective for s in other.seats}]
    for i, seat in enumerate(other.seats):
        if i != state.current and free and state.phase != "over":
            seat.objective = free.pop()
    other.rng ^= 0x5DEECE66D
    other.seed += 1
    return other
