"""Shared helpers for the store tests and the crash worker: start games and play random legal moves."""

from __future__ import annotations

import random

from keystone.engine import GameConfig, GameState, apply, is_over, legal_actions, new_game
from keystone.store import GameRecord, SeatInfo, SeatResult, Store

NAMES = ("Ada", "Brook", "Cyd", "Dara")


def random_move(state: GameState, rng: random.Random) -> tuple[str, GameState]:
    """A random legal move in notation, and the state it leads to."""
    action = rng.choice(legal_actions(state))
    new, _ = apply(state, action)
    return str(action), new


def results_for(state: GameState) -> list[SeatResult]:
    """Plausible results for a finished state: synergy stands in for the score."""
    scores = [s.synergy for s in state.seats]
    best = max(scores)
    return [
        SeatResult(position=i, score=v, place=1 + sum(o > v for o in scores), won=v == best)
        for i, v in enumerate(scores)
    ]


async def query(store: Store, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Run SQL on the store's own database (either kind), behind the store's back, as a test must."""
    async with store.database.connection() as db:
        return await db.fetch(sql, params)


async def start_game(store: Store, channel_id: int = 100, seed: int = 1, players: int = 2) -> GameRecord:
    """An active competitive game between people with user ids 1..players."""
    seats = [SeatInfo.human(i + 1, NAMES[i]) for i in range(players)]
    state = new_game(GameConfig(players=players), seed, [s.name for s in seats])
    return await store.create_game(
        guild_id=9, channel_id=channel_id, kind="competitive", host_id=1, seats=seats, state=state
    )


async def play(store: Store, game_id: int, moves: int, rng: random.Random) -> GameState:
    """Commit up to `moves` random moves (fewer if the game ends) and return the last state."""
    state = (await store.load_game(game_id)).state
    for _ in range(moves):
        if is_over(state):
            break
        text, new = random_move(state, rng)
        results = results_for(new) if is_over(new) else None
        await store.commit_action(game_id, state.version, state.current, text, new, results=results)
        state = new
    return state
