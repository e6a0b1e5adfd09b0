"""Making room: old ended games' move logs and settled posts removed, their results kept.

`prune` removes, for every game that ended (finished or abandoned) before a moment, its move log
and the posts the bot delivered for it (`outbox` rows, where the pictures are kept), and the
settled posts of no game written before then. The game's row with its final state, its seats,
results, ratings, rating changes, campaign and daily results stay, so statistics, the
leaderboard, the history and the daily boards read exactly as before. Running games and lobbies
are never touched, and neither is a post still waiting to be delivered.

Without a log an ended game can no longer be replayed: `log_pruned` says so (the replay command
tells the player politely), and the audit checks its final state alone (`keystone.store.audit`).

The log is append-only: its delete trigger is lifted inside each batch's own write transaction and
restored before the commit, so no other writer ever sees the log without it. A batch holds the
write lock briefly (a running bot's moves wait, they do not fail); an interrupted prune has removed
whole batches only, and runs again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from keystone.store.backend import Connection
from keystone.store.models import PlayerResult
from keystone.store.rows import summary_of
from keystone.store.store import Store

ENDED = "g.status IN ('finished', 'abandoned') AND g.updated_at < ?"
"""Games that ended before the moment (a game's last update is its end)."""
PRUNED = ("g.status IN ('finished', 'abandoned') AND g.version > 0 "
          "AND NOT EXISTS (SELECT 1 FROM actions a WHERE a.game_id = g.id)")
"""An ended game with moves whose log is gone: pruned (no bot writes such a game; only `prune` makes one)."""
SETTLED_POSTS = (
    "FROM outbox o WHERE (o.sent_at IS NOT NULL OR o.gave_up IS NOT NULL) AND ((o.game_id IS NULL AND "
    f"o.created_at < ?1) OR o.game_id IN (SELECT g.id FROM games g WHERE {ENDED.replace('?', '?1')}))"
)
"""Posts delivered (or given up) of games ended before the moment, and of no game written before it."""
GAMES_PER_BATCH = 50
POSTS_PER_BATCH = 500


@dataclass(frozen=True, slots=True)
class Pruned:
    """What a prune removed (or, when `done` is False, would remove)."""

    games: int
    """Ended games whose move log was removed."""
    moves: int
    posts: int
    post_bytes: int
    """The size of the removed posts' bodies (their pictures, mostly)."""
    done: bool


async def prune(store: Store, before: float, *, apply: bool) -> Pruned:
    """Remove the move logs and settled posts of games ended before `before` (Unix seconds); with
    `apply` False, only count them (a dry run: nothing is written)."""
    if not apply:
        return await _count(store, before)
    games = moves = 0
    while batch := await _games_to_prune(store, before):
        async with store.database.transaction() as db:
            moves += await _delete_logs(db, batch)
        games += len(batch)
    posts = size = 0
    while True:
        async with store.database.transaction() as db:
            found = await db.fetch(f"SELECT o.id, length(o.body) {SETTLED_POSTS} ORDER BY o.id LIMIT {POSTS_PER_BATCH}",
                                   (before,))
            if not found:
                break
            await db.execute(f"DELETE FROM outbox WHERE id IN ({_marks(found)})", [r[0] for r in found])
        posts += len(found)
        size += sum(int(r[1]) for r in found)
    return Pruned(games, moves, posts, size, done=True)


async def log_pruned(store: Store, game_id: int) -> bool:
    """Whether this game's move log was removed by a prune (it ended, and cannot be replayed)."""
    async with store.database.connection() as db:
        rows = await db.fetch(f"SELECT 1 FROM games g WHERE g.id = ? AND {PRUNED}", (game_id,))
    return bool(rows)


async def unsummarised(store: Store, before: float) -> list[PlayerResult]:
    """The results, in games a prune would take the log of, saved before boards were summarised at a
    game's end: statistics summarise them from the game once, which a prune must let happen first."""
    async with store.database.connection() as db:
        rows = await db.fetch(
            "SELECT r.game_id, r.position, g.kind, g.assignment, r.score, r.place, r.won, r.finished_at, "
            f"r.best_line, r.best_line_points, r.habitats FROM results r JOIN games g ON g.id = r.game_id "
            f"WHERE r.best_line IS NULL AND {ENDED} AND EXISTS (SELECT 1 FROM actions a WHERE a.game_id = g.id) "
            "ORDER BY r.game_id, r.position", (before,))
    return [PlayerResult(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7], summary_of(r[8], r[9], r[10]))
            for r in rows]


async def _count(store: Store, before: float) -> Pruned:
    async with store.database.connection() as db:
        [(games, moves)] = await db.fetch(
            "SELECT count(DISTINCT a.game_id), count(*) FROM actions a JOIN games g ON g.id = a.game_id "
            f"WHERE {ENDED}", (before,))
        [(posts, size)] = await db.fetch(f"SELECT count(*), coalesce(sum(length(o.body)), 0) {SETTLED_POSTS}",
                                         (before,))
    return Pruned(int(games), int(moves), int(posts), int(size), done=False)


async def _games_to_prune(store: Store, before: float) -> list[int]:
    async with store.database.connection() as db:
        rows = await db.fetch(
            f"SELECT g.id FROM games g WHERE {ENDED} AND EXISTS (SELECT 1 FROM actions a WHERE a.game_id = g.id) "
            f"ORDER BY g.id LIMIT {GAMES_PER_BATCH}", (before,))
    return [int(r[0]) for r in rows]


async def _delete_logs(db: Connection, games: Sequence[int]) -> int:
    """Inside the caller's write transaction: the games' log rows, past the append-only trigger, which
    is back in place before the transaction ends. The games are re-checked to have ended (a batch is
    chosen before its transaction starts)."""
    ended = f"SELECT g.id FROM games g WHERE g.id IN ({_marks(games)}) AND g.status IN ('finished', 'abandoned')"
    if db.dialect.name == "postgresql":
        await db.execute("ALTER TABLE actions DISABLE TRIGGER actions_no_delete")
        removed = await db.execute(f"DELETE FROM actions WHERE game_id IN ({ended})", games)
        await db.execute("ALTER TABLE actions ENABLE TRIGGER actions_no_delete")
        return removed
    [(trigger,)] = await db.fetch("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'actions_no_delete'")
    await db.execute("DROP TRIGGER actions_no_delete")
    removed = await db.execute(f"DELETE FROM actions WHERE game_id IN ({ended})", games)
    await db.execute(trigger)  # the very text the migration wrote, so the schema reads as before
    return removed


def _marks(values: Sequence[object]) -> str:
    return ", ".join("?" for _ in values)
