"""A tiny seeded generator whose whole state is one integer, so it lives inside the game state.

SplitMix64: fast, well distributed, and trivially serialisable, which `random.Random` is not.
"""

from __future__ import annotations

from typing import TypeVar

MASK64 = (1 << 64) - 1
T = TypeVar("T")


def next_u64(state: int) -> tuple[int, int]:
    """Return (new state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def below(state: int, bound: int) -> tuple[int, int]:
    """Return (new state, a uniform integer in [0, bound)) without modulo bias."""
    if bound <= 0:
        raise ValueError("bound must be positive")
    limit = (1 << 64) - ((1 << 64) % bound)
    while True:
        state, value = next_u64(state)
        if value < limit:
            return state, value % bound


def shuffle(state: int, items: list[T]) -> int:
    """Fisher-Yates shuffle of `items` in place; returns the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def seed_state(seed: int) -> int:
    """Mix a user seed (any int) into a generator state."""
    state, _ = next_u64(seed & MASK64)
    return state
