"""Moves: loading a game's state against its log, and committing moves, finishes and abandonments.

The `Moves` half of the `Store` (see `keystone.store.store`). A move is one INSERT into the
`move_commits` view (`rows.insert_move`); the move that ends a game writes its results, campaign,
ratings and daily result in the same transaction.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from keystone.engine import GameState, dump_state, is_over
from keystone.store import daily, validate
from keystone.store.backend import Connection
from keystone.store.base import StoreBase
from keystone.store.errors import GameNotFound, InvalidInput, WrongStatus
from keystone.store.integrity import canonical_notation, checked_state, replay_check, state_digest
from keystone.store.models import MAX_SEATS, Clock, GameRecord, LoadedGame, LogEntry, SeatResult, Status
from keystone.store.outbox import Outgoing, write_posts
from keystone.store.ratings import rate_game
from keystone.store.rows import (
    INTEGRITY,
    KEEP,
    RECORD_COLUMNS,
    Keep,
    MoveRefused,
    fetch_record,
    insert_move,
    record_from_row,
    summary_columns,
    upsert_campaign,
    why_not_committed,
    write_clock,
)


class Moves(StoreBase):
    """A started game's state and its log: the actions table, and the results a finish writes."""

    # ------------------------------------------------------------------ reading moves

    async def load_game(self, game_id: int, *, replay: bool = False) -> LoadedGame:
        """A started game and its state, after checking the snapshot against its history.

        Always checked: the snapshot's digest, that the log holds exactly `version` moves and
        that the last move's recorded digest is the snapshot's. With `replay=True` the game is
        also rebuilt from seed + log move by move (an audit; it fails if the rules of play have
        changed since the game was recorded). Raises `CorruptGame`, `GameNotFound`, or
        `WrongStatus` for a lobby that never started.
        """
        game_id = validate.ident(game_id, "game")
        rows = await self._rows(f"SELECT {self._record}, {INTEGRITY} FROM games g WHERE g.id = ?", (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        row = rows[0]
        record = record_from_row(row)
        names, snapshot, digest, logged, last_digest = row[RECORD_COLUMNS:RECORD_COLUMNS + 5]
        if snapshot is None:
            raise WrongStatus(game_id, record.status, "This game has not started.")
        state = checked_state(record, snapshot, digest, logged, last_digest)
        if replay:
            moves = await self._rows(
                "SELECT version, notation, state_hash FROM actions WHERE game_id = ? ORDER BY version", (game_id,)
            )
            replay_check(record, json.loads(names), moves, digest)
        return LoadedGame(record, state)

    async def verify_game(self, game_id: int) -> LoadedGame:
        """`load_game` with the full replay check."""
        return await self.load_game(game_id, replay=True)

    async def log(self, game_id: int) -> list[str]:
        """The game's moves in order, in engine notation (what `engine.replay` takes)."""
        return [e.notation for e in await self.log_entries(game_id)]

    async def log_entries(self, game_id: int) -> list[LogEntry]:
        game_id = validate.ident(game_id, "game")
        rows = await self._rows(
            "SELECT g.id, a.version, a.seat, a.notation, a.created_at FROM games g "
            "LEFT JOIN actions a ON a.game_id = g.id WHERE g.id = ? ORDER BY a.version",
            (game_id,),
        )
        if not rows:
            raise GameNotFound(game_id)
        return [LogEntry(r[1], r[2], r[3], r[4]) for r in rows if r[1] is not None]

    # ------------------------------------------------------------------ playing

    async def commit_action(
        self,
        game_id: int,
        expected_version: int,
        seat: int,
        action: str,
        new_state: GameState,
        *,
        results: Sequence[SeatResult] | None = None,
        clock: Clock | Keep | None = KEEP,
        posts: Sequence[Outgoing] = (),
    ) -> int:
        """Record one move and its resulting state in one transaction; return the new version.

        `expected_version` is the version `new_state` was computed from; if the stored game has
        moved on, nothing is written and `StaleVersion` is raised (two racing clicks: one wins).
        `seat` is the store seat (0-based) that acted. When `new_state` is over, pass `results`
        and the game finishes in the same transaction. `clock` (the next turn's, or None to stop
        timing) and `posts` (what the move makes the bot owe Discord) are written with it too.
        """
        await self.commit_moves(game_id, expected_version, [(seat, action, new_state)], results=results,
                                clock=clock, posts=posts)
        return new_state.version

    async def commit_moves(
        self,
        game_id: int,
        expected_version: int,
        moves: Sequence[tuple[int, str, GameState]],
        *,
        results: Sequence[SeatResult] | None = None,
        clock: Clock | Keep | None = KEEP,
        posts: Sequence[Outgoing] = (),
        away: int | None = None,
    ) -> None:
        """Record moves that follow one another (seat, notation, state after), with what they cause,
        in one transaction: all or nothing. With `away`, that seat's person is away from now (a vote).

        The first move was computed from `expected_version`, each next one from the one before;
        only the last may end the game (then `results` are required). See `commit_action`."""
        game_id = validate.ident(game_id, "game")
        expected_version = validate.integer(expected_version, "version", 0, validate.MAX_ID - 1)
        if not moves:
            raise InvalidInput("Give at least one move to record.")
        params = []
        for n, (seat, action, new_state) in enumerate(moves):
            seat = validate.integer(seat, "seat number", 0, max(MAX_SEATS.values()) - 1)
            notation = canonical_notation(action)
            if not isinstance(new_state, GameState) or new_state.version != expected_version + n + 1:
                raise InvalidInput("The new state must be exactly one move ahead of the version it was computed from.")
            if is_over(new_state) and n != len(moves) - 1:
                raise InvalidInput("Only the last move recorded together may end the game.")
            snapshot = dump_state(new_state)
            params.append((game_id, expected_version + n, new_state.seed, seat, notation, snapshot,
                           state_digest(snapshot)))
        if is_over(moves[-1][2]) != (results is not None):
            raise InvalidInput("Give results exactly when the move ends the game.")
        try:
            if len(params) == 1 and results is None and clock == KEEP and not posts and away is None:
                async with self._db.connection() as db:
                    await insert_move(db, params[0], self._clock())  # one statement: atomic on its own
                return
            async with self._db.transaction() as db:
                for move in params:
                    await insert_move(db, move, self._clock())
                if away is not None:
                    await db.execute("UPDATE seats SET away = 1 WHERE game_id = ? AND position = ? "
                                     "AND user_id IS NOT NULL", (game_id, away))
                if results is not None:
                    await self._finish(db, game_id, results, "finished")
                elif clock != KEEP:
                    await write_clock(db, game_id, clock)
                await write_posts(db, posts, self._clock())
                return
        except MoveRefused:
            async with self._db.connection() as db:  # PostgreSQL reads nothing in a failed transaction
                await why_not_committed(db, game_id, expected_version)

    async def finish_game(self, game_id: int, results: Sequence[SeatResult]) -> GameRecord:
        """End a running game with per-seat results outside a move (e.g. the others conceded)."""
        async with self._db.transaction() as db:
            record = await fetch_record(db, validate.ident(game_id, "game"))
            if record.status != "active":
                raise WrongStatus(record.id, record.status, "Only a running game can be finished.")
            await self._finish(db, record.id, results, "finished")
            return await fetch_record(db, record.id)

    async def abandon_game(self, game_id: int) -> GameRecord:
        """Close a lobby or running game without results, freeing its channel."""
        async with self._db.transaction() as db:
            record = await fetch_record(db, validate.ident(game_id, "game"))
            if not record.is_open:
                raise WrongStatus(record.id, record.status, "That game has already ended.")
            await self._finish(db, record.id, None, "abandoned")
            return await fetch_record(db, record.id)

    async def _finish(self, db: Connection, game_id: int, results: Sequence[SeatResult] | None, status: Status) -> None:
        now = self._clock()
        await db.execute("UPDATE games SET status = ?, updated_at = ? WHERE id = ?", (status, now, game_id))
        await db.execute("DELETE FROM clocks WHERE game_id = ?", (game_id,))
        if results is None:
            return
        rows = await db.fetch(
            "SELECT s.position, s.user_id, g.assignment FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE s.game_id = ? ORDER BY s.position",
            (game_id,),
        )
        seats = rows
        journal = seats[0][2] if seats else None
        checked = validate.results(results, len(seats), journal)
        for result in checked:
            user_id = seats[result.position][1]
            line, points, habitats = summary_columns(result.summary)
            await db.execute(
                "INSERT INTO results (game_id, position, user_id, score, place, won, finished_at, best_line, "
                "best_line_points, habitats) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, result.position, user_id, result.score, result.place, int(result.won), now,
                 line, points, habitats),
            )
            if result.stars is not None and user_id is not None and journal is not None:
                await upsert_campaign(db, user_id, journal, result.stars, result.score, now)
        await rate_game(db, game_id, checked, now)
        await daily.record_result(db, game_id, checked, now)
