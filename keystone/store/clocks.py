"""Turn clocks, pauses, away seats and the votes that make a seat away.

The `Clocks` half of the `Store` (see `keystone.store.store`): the clocks and away_votes tables and
the seats' missed turns.
"""

from __future__ import annotations

from collections.abc import Sequence

from keystone.store import validate
from keystone.store.backend import Connection
from keystone.store.base import StoreBase
from keystone.store.errors import InvalidInput, WrongStatus
from keystone.store.models import MAX_SEATS, Clock, DueClock, GameRecord, Pace, SeatInfo
from keystone.store.outbox import Outgoing, write_posts
from keystone.store.rows import CLOCK, KEEP, Keep, clock_from_row, fetch_record, write_clock
from keystone.store.shards import Shards, condition

CLAIM_HOLD = 60.0
"""Seconds a scheduler holds a passed deadline it is acting on (see `Store.claim_deadline`)."""
TIMED = "FROM clocks c CROSS JOIN games g ON g.id = c.game_id WHERE g.status = 'active' AND g.paused_at IS NULL"
"""Clocks of running, unpaused games; CROSS JOIN keeps SQLite walking a clocks index in time order."""


class Clocks(StoreBase):
    """How long a turn may take, and what happens when it runs out."""

    # ------------------------------------------------------------------ turn clocks

    async def set_pace(self, game_id: int, pace: Pace | None, *, clock: Clock | Keep | None = KEEP,
                       posts: Sequence[Outgoing] = ()) -> GameRecord:
        """Give a lobby or running game its pace (None: no clock), with the turn's new `clock` and
        what it makes the bot owe Discord, in one transaction."""
        checked = None if pace is None else validate.pace(pace)
        async with self._db.transaction() as db:
            record = await self._open_game(db, game_id)
            await db.execute("UPDATE games SET pace = ? WHERE id = ?", (checked, record.id))
            if checked is None:
                await db.execute("DELETE FROM clocks WHERE game_id = ?", (record.id,))
            elif clock != KEEP:
                await write_clock(db, record.id, clock)
            await write_posts(db, posts, self._clock())
            return await fetch_record(db, record.id)

    async def set_clock(self, game_id: int, clock: Clock | None) -> None:
        """Time a new turn (replacing the game's clock), or stop timing (None: a bot decides, say).

        Only a running game with a pace is timed; otherwise nothing is written.
        """
        game_id = validate.ident(game_id, "game")
        async with self._db.connection() as db:
            await write_clock(db, game_id, clock)

    async def time_lost_clock(self, game_id: int, version: int, clock: Clock) -> bool:
        """Give a running game at `version` that has no clock this one; False (nothing written) when
        the game moved on or was timed meanwhile, by this process or another on the same database."""
        game_id = validate.ident(game_id, "game")
        c = validate.clock(clock)
        async with self._db.connection() as db:
            changed = await db.execute(
                "INSERT INTO clocks (game_id, turn, seat, started_at, remind_at, deadline, reminded) "
                "SELECT id, ?, ?, ?, ?, ?, ? FROM games WHERE id = ? AND version = ? AND status = 'active' "
                "AND pace IS NOT NULL ON CONFLICT (game_id) DO NOTHING",
                (c.turn, c.seat, c.started_at, c.remind_at, c.deadline, int(c.reminded), game_id, version),
            )
        return changed == 1

    async def claim_reminder(self, game_id: int, turn: int, seat: int, posts: Sequence[Outgoing] = ()) -> bool:
        """Mark the reminder of the clock timing (`turn`, `seat`) sent and owe its `posts`, in one
        transaction; True only for the one caller that marked it (so a reminder goes out once,
        however many ticks or processes ask), and only while that clock still times the game."""
        game_id = validate.ident(game_id, "game")
        async with self._db.transaction() as db:
            changed = await db.execute(
                "UPDATE clocks SET reminded = 1 WHERE game_id = ? AND turn = ? AND seat = ? AND reminded = 0 "
                "AND deadline > ? AND EXISTS (SELECT 1 FROM games g WHERE g.id = clocks.game_id "
                "AND g.status = 'active' AND g.paused_at IS NULL)",
                (game_id, turn, seat, self._clock()),
            )
            if changed != 1:
                return False
            await write_posts(db, posts, self._clock())
            return True

    async def claim_deadline(self, game_id: int, turn: int, seat: int, *, away_after: int,
                             hold: float = CLAIM_HOLD) -> SeatInfo | None:
        """Take on the passed deadline of the clock timing (`turn`, `seat`) and count the person's
        missed turn, in one transaction; their seat as it now stands, or None when there is nothing
        to do (a move, a pause or another scheduler came first).

        The clock is held for `hold` seconds (another scheduler leaves it alone meanwhile, and takes
        it over after, if this one died before the stand-in's move replaced the clock); the miss is
        counted once per turn however often the deadline is taken on; after `away_after` in a row
        the seat is away."""
        game_id = validate.ident(game_id, "game")
        away_after = validate.integer(away_after, "count of missed turns", 1, 1000)
        now = self._clock()
        async with self._db.transaction() as db:
            changed = await db.execute(
                "UPDATE clocks SET claimed_until = ? WHERE game_id = ? AND turn = ? AND seat = ? AND deadline <= ? "
                "AND (claimed_until IS NULL OR claimed_until <= ?) AND EXISTS (SELECT 1 FROM games g "
                "WHERE g.id = clocks.game_id AND g.status = 'active' AND g.paused_at IS NULL)",
                (now + hold, game_id, turn, seat, now, now),
            )
            if changed != 1:
                return None
            await db.execute(
                "UPDATE seats SET missed = missed + 1, missed_turn = ?, "
                "away = CASE WHEN away = 1 OR missed + 1 >= ? THEN 1 ELSE 0 END "
                "WHERE game_id = ? AND position = ? AND user_id IS NOT NULL "
                "AND (missed_turn IS NULL OR missed_turn <> ?)",
                (turn, away_after, game_id, seat, turn),
            )
            return (await fetch_record(db, game_id)).seats[seat]

    async def due_clocks(self, now: float, limit: int = 100, *, shards: Shards | None = None) -> list[DueClock]:
        """Running, unpaused games whose deadline has passed, then those whose reminder is due
        (not yet sent, deadline still ahead); soonest first, at most `limit` of each; with
        `shards`, only the games those shards own (filtered before the limit, so none is starved).

        Each half walks its index (`clocks_by_deadline`, `clocks_unsent_reminders`) from the
        oldest entry and stops at `now`, so the cost follows what is due, not how many games run.
        """
        limit = validate.integer(limit, "limit", 1, 10_000)
        owned, params = condition(shards)
        late = await self._rows(
            f"SELECT c.game_id, {CLOCK} {TIMED}{owned} AND c.deadline <= ? "
            "AND (c.claimed_until IS NULL OR c.claimed_until <= ?) ORDER BY c.deadline LIMIT ?",
            (*params, now, now, limit),
        )
        reminders = await self._rows(
            f"SELECT c.game_id, {CLOCK} {TIMED}{owned} AND c.reminded = 0 AND c.remind_at <= ? AND c.deadline > ? "
            "ORDER BY c.remind_at LIMIT ?",
            (*params, now, now, limit),
        )
        return [DueClock(r[0], clock_from_row(r[1:])) for r in late + reminders]

    async def next_due(self, *, shards: Shards | None = None) -> float | None:
        """The earliest unsent reminder or deadline among running, unpaused games (None: nothing
        timed); with `shards`, among the games those shards own."""
        owned, params = condition(shards)
        deadline = await self._rows(
            f"SELECT c.deadline {TIMED}{owned} AND c.claimed_until IS NULL ORDER BY c.deadline LIMIT 1", params
        )
        held = await self._rows(f"SELECT min(c.claimed_until) {TIMED}{owned} AND c.claimed_until IS NOT NULL", params)
        reminder = await self._rows(
            f"SELECT c.remind_at {TIMED}{owned} AND c.reminded = 0 ORDER BY c.remind_at LIMIT 1", params
        )
        times = [float(r[0][0]) for r in (deadline, reminder, held) if r and r[0][0] is not None]
        return min(times) if times else None

    async def clockless_games(self, *, shards: Shards | None = None) -> list[tuple[int, int]]:
        """Running games with a pace that have no clock, as (game id, version): either a bot (or an
        away person's bot) decides, or a clock was lost (a crash before clocks were saved with moves)."""
        owned, params = condition(shards)
        rows = await self._rows(
            "SELECT g.id, g.version FROM games g WHERE g.status = 'active' AND g.pace IS NOT NULL "
            f"AND NOT EXISTS (SELECT 1 FROM clocks c WHERE c.game_id = g.id){owned} ORDER BY g.id",
            params,
        )
        return [(int(r[0]), int(r[1])) for r in rows]

    async def pause_clock(self, game_id: int, posts: Sequence[Outgoing] = ()) -> GameRecord:
        """Stop the game's clock from now (moves may still be made); pausing twice changes nothing."""
        async with self._db.transaction() as db:
            record = await self._open_game(db, game_id)
            await db.execute(
                "UPDATE games SET paused_at = ? WHERE id = ? AND paused_at IS NULL", (self._clock(), record.id)
            )
            await write_posts(db, posts, self._clock())
            return await fetch_record(db, record.id)

    async def resume_clock(self, game_id: int, posts: Sequence[Outgoing] = ()) -> GameRecord:
        """Run the clock again, moving the reminder and deadline on by the time it stood still (since
        the pause, or since the turn started if it started while paused)."""
        async with self._db.transaction() as db:
            record = await self._open_game(db, game_id)
            if record.paused_at is not None:
                await db.execute(
                    "UPDATE clocks SET remind_at = remind_at + (?1 - CASE WHEN ?2 > started_at THEN ?2 "
                    "ELSE started_at END), deadline = deadline + (?1 - CASE WHEN ?2 > started_at THEN ?2 "
                    "ELSE started_at END) WHERE game_id = ?3",
                    (self._clock(), record.paused_at, record.id),
                )
                await db.execute("UPDATE games SET paused_at = NULL WHERE id = ?", (record.id,))
            await write_posts(db, posts, self._clock())
            return await fetch_record(db, record.id)

    async def _open_game(self, db: Connection, game_id: int) -> GameRecord:
        record = await fetch_record(db, validate.ident(game_id, "game"))
        if not record.is_open:
            raise WrongStatus(record.id, record.status, "That game has already ended.")
        return record

    async def set_away(self, game_id: int, position: int, away: bool, *, clock: Clock | Keep | None = KEEP,
                       posts: Sequence[Outgoing] = ()) -> SeatInfo:
        """Hand the seat to a bot until its person comes back (True), or give it back (False, which
        also clears their missed turns); with the turn's new `clock` and what it makes the bot owe
        Discord, in one transaction."""
        away = validate.flag(away, "away")
        async with self._db.transaction() as db:
            if clock != KEEP:
                await write_clock(db, validate.ident(game_id, "game"), clock)
            await write_posts(db, posts, self._clock())
            position = await self._person_seat(db, game_id, position)
            if away:
                await db.execute("UPDATE seats SET away = 1 WHERE game_id = ? AND position = ?", (game_id, position))
            else:
                await db.execute(
                    "UPDATE seats SET away = 0, missed = 0 WHERE game_id = ? AND position = ?", (game_id, position)
                )
            return (await fetch_record(db, game_id)).seats[position]

    async def _person_seat(self, db: Connection, game_id: int, position: int) -> int:
        record = await fetch_record(db, validate.ident(game_id, "game"))
        if record.status != "active":
            raise WrongStatus(record.id, record.status, "Only a running game's seats can be away.")
        validate.integer(position, "seat number", 0, len(record.seats) - 1)
        if record.seats[position].is_bot:
            raise InvalidInput("A bot's seat is never away.")
        return position

    async def add_away_vote(self, game_id: int, position: int, turn: int, voter_id: int) -> int:
        """Record a vote to hand this seat's turn to a bot (once per voter) and return the votes so far."""
        game_id = validate.ident(game_id, "game")
        params = (
            game_id, validate.integer(position, "seat number", 0, max(MAX_SEATS.values()) - 1),
            validate.integer(turn, "turn number", 0, validate.MAX_ID), validate.ident(voter_id, "user id"),
        )
        async with self._db.transaction() as db:
            await db.execute(
                "INSERT INTO away_votes (game_id, seat, turn, voter_id) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                params,
            )
            rows = await db.fetch(
                "SELECT count(*) FROM away_votes WHERE game_id = ? AND seat = ? AND turn = ?", params[:3]
            )
            return int(rows[0][0])
