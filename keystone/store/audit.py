"""The replay audit of a whole database: every started game rebuilt from its seed and log.

One place decides what auditing a game means, for `store check` and for `store copy`'s check of
its target: a game whose log is whole is replayed move by move (`verify_game`); an ended game
whose log `store prune` removed (see `keystone.store.prune`) can no longer be replayed, so its
kept final state is checked against its checksum, version and seed instead.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

from keystone.engine import load_state
from keystone.store.errors import CorruptGame
from keystone.store.integrity import state_digest
from keystone.store.prune import PRUNED
from keystone.store.store import Store


@dataclass(frozen=True, slots=True)
class Audited:
    """One started game's audit: `problem` is None when it reaches its saved state."""

    game_id: int
    status: str
    pruned: bool
    problem: str | None


async def started_games(store: Store) -> list[tuple[int, str, bool]]:
    """(id, status, pruned) of every started game (lobbies have nothing to audit), oldest first."""
    async with store.database.connection() as db:
        rows = await db.fetch(f"SELECT g.id, g.status, CASE WHEN {PRUNED} THEN 1 ELSE 0 END FROM games g "
                              "WHERE g.snapshot IS NOT NULL ORDER BY g.id")
    return [(int(r[0]), str(r[1]), bool(r[2])) for r in rows]


async def audit_game(store: Store, game_id: int, pruned: bool) -> str | None:
    """Why this game does not reach its saved state, or None when it does."""
    if pruned:
        return await _final_state_problem(store, game_id)
    try:
        await store.verify_game(game_id)
    except CorruptGame as error:
        return error.reason
    return None


async def audit_all(store: Store) -> AsyncIterator[Audited]:
    """Every started game's audit, one at a time (a large database is never held in memory at once)."""
    for game_id, status, pruned in await started_games(store):
        try:
            problem = await audit_game(store, game_id, pruned)
        except Exception as error:  # an audit reports a game it cannot even read, and goes on to the next
            problem = f"it cannot be read ({type(error).__name__}: {' '.join(str(error).split())[:200]})"
        yield Audited(game_id, status, pruned, problem)


async def _final_state_problem(store: Store, game_id: int) -> str | None:
    async with store.database.connection() as db:
        [(snapshot, digest, version, seed)] = await db.fetch(
            "SELECT snapshot, state_hash, version, seed FROM games WHERE id = ?", (game_id,))
    if state_digest(snapshot) != bytes(digest):
        return "its kept final state does not match its checksum (its moves were pruned)"
    try:
        state = load_state(snapshot)
    except ValueError:
        return "its kept final state cannot be read (its moves were pruned)"
    if state.version != version or state.seed != seed:
        return "its kept final state belongs to another version or seed (its moves were pruned)"
    return None
