"""The daily challenge's games, servers and boards.

The `DailyGames` half of the `Store` (see `keystone.store.store`); the day's rows, secret and
result writing are in `daily`.
"""

from __future__ import annotations

from keystone.engine import GameState
from keystone.store import daily, validate
from keystone.store.base import StoreBase
from keystone.store.daily import DAILY, DailyBoard, DailyGame, DailyTaken
from keystone.store.integrity import check_initial
from keystone.store.models import GameRecord, SeatInfo
from keystone.store.rows import fetch_record, insert_game, write_start


class DailyGames(StoreBase):
    """The daily_games, daily_servers and daily_secret tables."""

    # ------------------------------------------------------------------ the daily challenge

    async def daily_secret(self) -> bytes:
        """The secret the daily seeds come from: made once, at first use, and kept only here."""
        async with self._db.transaction() as db:
            return await daily.secret(db, self._clock())

    async def daily_game(self, day: str, user_id: int) -> DailyGame | None:
        """This person's game of `day`, if they have begun it."""
        rows = await self._rows(
            f"SELECT {DAILY} FROM daily_games d JOIN games g ON g.id = d.game_id WHERE d.day = ? AND d.user_id = ?",
            (daily.day(day), validate.ident(user_id, "user id")),
        )
        return daily.daily_from_row(rows[0]) if rows else None

    async def daily_of_game(self, game_id: int) -> DailyGame | None:
        """The day and player of a game, when it is a daily challenge."""
        rows = await self._rows(
            f"SELECT {DAILY} FROM daily_games d JOIN games g ON g.id = d.game_id WHERE d.game_id = ?",
            (validate.ident(game_id, "game"),),
        )
        return daily.daily_from_row(rows[0]) if rows else None

    async def start_daily_game(self, *, day: str, user_id: int, channel_id: int, state: GameState) -> GameRecord:
        """Create and start a person's solo game of `day` in one transaction, linked to its date.

        Raises `DailyTaken` if they already have one that day (one attempt), `ChannelBusy` if
        another game is open in the channel; either way nothing is written."""
        day = daily.day(day)
        user_id = validate.ident(user_id, "user id")
        check_initial(state)
        validate.setup("solo", state.config, 1, None)
        seat = validate.seat(SeatInfo.human(user_id, state.seats[0].name))
        async with self._db.transaction() as db:
            taken = await db.fetch(
                "SELECT 1 FROM daily_games WHERE day = ? AND user_id = ?", (day, user_id)
            )
            if taken:
                raise DailyTaken(day)
            game_id = await insert_game(
                db, None, channel_id, "solo", None, state.config, user_id, [seat], self._clock()
            )
            await write_start(db, game_id, state, self._clock())
            await db.execute(
                "INSERT INTO daily_games (day, user_id, game_id) VALUES (?, ?, ?)", (day, user_id, game_id)
            )
            return await fetch_record(db, game_id)

    async def join_daily_board(self, guild_id: int, user_id: int) -> None:
        """Remember that this person plays the daily for this server (their results appear on its board)."""
        params = (validate.ident(guild_id, "server id"), validate.ident(user_id, "user id"))
        async with self._db.transaction() as db:
            await db.execute(
                "INSERT INTO daily_servers (guild_id, user_id, joined_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (*params, self._clock()),
            )

    async def plays_daily_for(self, guild_id: int, user_id: int) -> bool:
        rows = await self._rows(
            "SELECT 1 FROM daily_servers WHERE guild_id = ? AND user_id = ?",
            (validate.ident(guild_id, "server id"), validate.ident(user_id, "user id")),
        )
        return bool(rows)

    async def daily_board(self, guild_id: int, day: str) -> DailyBoard:
        """The day's finished results of this server's daily players, best first (resignations
        last, then earlier finishes first), and how many of them are still playing that day."""
        rows = await self._rows(
            f"SELECT {DAILY} FROM daily_servers r JOIN daily_games d ON d.user_id = r.user_id AND d.day = ? "
            "JOIN games g ON g.id = d.game_id WHERE r.guild_id = ? "
            "ORDER BY d.score IS NULL, d.resigned, d.score DESC, d.finished_at, d.user_id",
            (daily.day(day), validate.ident(guild_id, "server id")),
        )
        games = [daily.daily_from_row(r) for r in rows]
        return DailyBoard(day, tuple(g for g in games if g.scored), sum(1 for g in games if g.is_open))
