"""Games and their seats: reading game records, opening lobbies and games, seating and unseating.

The `Games` half of the `Store` (see `keystone.store.store`); a game's moves are in `moves`.
"""

from __future__ import annotations

from collections.abc import Sequence

from keystone.engine import GameConfig, GameState
from keystone.i18n import Language
from keystone.store import validate
from keystone.store.backend import Connection, Row
from keystone.store.base import StoreBase
from keystone.store.errors import GameNotFound, InvalidInput, LobbyError, WrongStatus
from keystone.store.integrity import check_initial
from keystone.store.models import MAX_SEATS, Clock, FinishedGame, GameRecord, Kind, Pace, SeatInfo, Status
from keystone.store.outbox import Outgoing, write_posts
from keystone.store.rows import (
    RECORD_COLUMNS,
    fetch_record,
    insert_game,
    record_from_row,
    write_clock,
    write_seats,
    write_start,
)
from keystone.store.shards import Shards, condition

USERS_OPEN_GAMES = (
    "FROM seats m CROSS JOIN games g ON g.id = m.game_id WHERE m.user_id = ? AND g.status IN ('lobby', 'active')"
)


class Games(StoreBase):
    """Game records and lobbies: the games and seats tables."""

    # ------------------------------------------------------------------ reading games

    async def get_game(self, game_id: int) -> GameRecord:
        """The game's record (any status); raises `GameNotFound`."""
        game_id = validate.ident(game_id, "game")
        rows = await self._rows(f"SELECT {self._record} FROM games g WHERE g.id = ?", (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        return record_from_row(rows[0])

    async def get_active_game(self, channel_id: int) -> GameRecord | None:
        """The lobby or running game in this channel, if any (there is at most one)."""
        rows = await self._rows(
            f"SELECT {self._record} FROM games g WHERE g.channel_id = ? AND g.status IN ('lobby', 'active')",
            (validate.ident(channel_id, "channel id"),),
        )
        return record_from_row(rows[0]) if rows else None

    async def list_games(self, status: Status = "active", *, shards: Shards | None = None) -> list[GameRecord]:
        """Games with this status, oldest activity first (e.g. running games after a restart); with
        `shards`, only the games those shards own."""
        if status not in ("lobby", "active", "finished", "abandoned"):
            raise InvalidInput("A game's status is lobby, active, finished or abandoned.")
        owned, params = condition(shards)
        rows = await self._rows(
            f"SELECT {self._record} FROM games g WHERE g.status = ?{owned} ORDER BY g.updated_at, g.id",
            (status, *params),
        )
        return [record_from_row(r) for r in rows]

    async def open_games_for_user(self, user_id: int) -> list[GameRecord]:
        """Every lobby and running game this person sits in, anywhere; latest activity first.

        The CROSS JOIN makes SQLite start from this person's seats (the `seats_by_user` index), so
        the cost follows their games, not every open game.
        """
        rows = await self._rows(
            f"SELECT {self._record} {USERS_OPEN_GAMES} ORDER BY g.updated_at DESC, g.id DESC",
            (validate.ident(user_id, "user id"),),
        )
        return [record_from_row(r) for r in rows]

    async def open_games_in_server(self, guild_id: int) -> list[GameRecord]:
        """Every lobby and running game in this server's channels and threads; latest activity first.

        `games_by_status` narrows to open games (few beside the finished ones) before the server is matched.
        """
        rows = await self._rows(
            f"SELECT {self._record} FROM games g WHERE g.status IN ('lobby', 'active') AND g.guild_id = ? "
            "ORDER BY g.updated_at DESC, g.id DESC",
            (validate.ident(guild_id, "server id"),),
        )
        return [record_from_row(r) for r in rows]

    async def finished_games_for_user(self, user_id: int, limit: int = 15) -> list[FinishedGame]:
        """This person's finished games with their result, newest first, at most `limit`.

        Read from their results (`results_by_user_time`), so the cost follows their own games; a
        game they resigned from and a bot finished for them is no longer theirs (no result of theirs).
        """
        rows = await self._rows(
            f"SELECT {self._record}, r.score, r.place, r.won, r.finished_at FROM results r "
            "CROSS JOIN games g ON g.id = r.game_id WHERE r.user_id = ? "
            "ORDER BY r.finished_at DESC, g.id DESC LIMIT ?",
            (validate.ident(user_id, "user id"), validate.integer(limit, "limit", 1, 100)),
        )
        return [FinishedGame(record_from_row(r), *_result_of(r[RECORD_COLUMNS:])) for r in rows]

    async def finished_games_in_channel(self, channel_id: int, limit: int = 25) -> list[GameRecord]:
        """The games finished in this channel or direct message, newest first, at most `limit`."""
        rows = await self._rows(
            f"SELECT {self._record} FROM games g WHERE g.channel_id = ? AND g.status = 'finished' "
            "ORDER BY g.updated_at DESC, g.id DESC LIMIT ?",
            (validate.ident(channel_id, "channel id"), validate.integer(limit, "limit", 1, 100)),
        )
        return [record_from_row(r) for r in rows]

    async def mark_hinted(self, game_id: int) -> None:
        """Note that a player of this game asked for a hint: the game will not be rated."""
        async with self._db.transaction() as db:
            await db.execute("UPDATE games SET hinted = 1 WHERE id = ?", (validate.ident(game_id, "game id"),))

    # ------------------------------------------------------------------ creating games and lobbies

    async def create_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        kind: Kind,
        host_id: int,
        host_name: str,
        config: GameConfig,
        assignment: int | None = None,
        pace: Pace | None = None,
        language: Language | None = None,
        hints: bool | None = None,
    ) -> GameRecord:
        """Open a lobby in a channel with the host in seat 0; raises `ChannelBusy` if one is open.

        `pace` is how long each turn may take once the game runs (None: no clock); `language` is the
        language of its public messages; `hints` whether players may ask for hints (None: the host
        did not choose)."""
        game_kind = validate.kind(kind)
        journal = None if assignment is None else validate.assignment(assignment)
        validate.setup(game_kind, config, None, journal)
        host = validate.seat(SeatInfo.human(host_id, host_name))
        timed = None if pace is None else validate.pace(pace)
        spoken = validate.language(language)
        async with self._db.transaction() as db:
            game_id = await insert_game(
                db, guild_id, channel_id, game_kind, journal, config, host_id, [host], self._clock()
            )
            await db.execute("UPDATE games SET pace = ?, language = ?, hints = ? WHERE id = ?",
                             (timed, spoken, None if hints is None else int(bool(hints)), game_id))
            return await fetch_record(db, game_id)

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        kind: Kind,
        host_id: int,
        seats: Sequence[SeatInfo],
        state: GameState,
        assignment: int | None = None,
    ) -> GameRecord:
        """Create a game that starts at once (a solo assignment, say) from its initial state."""
        game_kind = validate.kind(kind)
        journal = None if assignment is None else validate.assignment(assignment)
        checked = validate.seats(seats, game_kind)
        check_initial(state)
        validate.setup(game_kind, state.config, len(checked), journal)
        async with self._db.transaction() as db:
            game_id = await insert_game(
                db, guild_id, channel_id, game_kind, journal, state.config, host_id, checked, self._clock()
            )
            await write_start(db, game_id, state, self._clock())
            return await fetch_record(db, game_id)

    # ------------------------------------------------------------------ lobby management

    async def join_lobby(self, game_id: int, seat: SeatInfo) -> GameRecord:
        """Seat a person or a bot at the end of the lobby; raises `LobbyError` if full or seated."""
        seat = validate.seat(seat)
        async with self._db.transaction() as db:
            record = await self._lobby(db, game_id)
            if len(record.seats) >= MAX_SEATS[record.kind]:
                raise LobbyError(f"This lobby is full ({MAX_SEATS[record.kind]} seats).")
            if seat.user_id is not None and record.seat_of(seat.user_id) is not None:
                raise LobbyError("You already have a seat in this lobby.")
            await write_seats(db, record.id, [*record.seats, seat])
            return await self._touch(db, record.id)

    async def leave_lobby(self, game_id: int, user_id: int) -> GameRecord:
        """Give up a person's seat. If the host leaves, the next person seated becomes host;
        if no person is left, the lobby is abandoned and the channel is free again."""
        user_id = validate.ident(user_id, "user id")
        async with self._db.transaction() as db:
            record = await self._lobby(db, game_id)
            position = record.seat_of(user_id)
            if position is None:
                raise LobbyError("You do not have a seat in this lobby.")
            return await self._drop_seat(db, record, position)

    async def start_game(
        self, game_id: int, state: GameState, *, seat_order: Sequence[int] | None = None,
        clock: Clock | None = None, posts: Sequence[Outgoing] = (),
    ) -> GameRecord:
        """Turn the lobby into a running game with its initial state (`engine.new_game`'s result).

        `seat_order`, a permutation of the seat positions, reorders the seats first (for a
        random starting player); the state's boards must already follow that order. `clock` times
        the first turn and `posts` are owed, in the same transaction.
        """
        check_initial(state)
        async with self._db.transaction() as db:
            record = await self._lobby(db, game_id)
            seats = list(record.seats)
            if seat_order is not None:
                if sorted(seat_order) != list(range(len(seats))):
                    raise InvalidInput("The seat order must name every seat exactly once.")
                seats = [seats[i] for i in seat_order]
            validate.setup(record.kind, state.config, len(seats), record.assignment)
            await write_seats(db, record.id, seats)
            await write_start(db, record.id, state, self._clock())
            if clock is not None:
                await write_clock(db, record.id, clock)
            await write_posts(db, posts, self._clock())
            return await fetch_record(db, record.id)

    async def _lobby(self, db: Connection, game_id: int) -> GameRecord:
        record = await fetch_record(db, validate.ident(game_id, "game"))
        if record.status != "lobby":
            raise WrongStatus(record.id, record.status, "That game is no longer taking seats.")
        return record

    async def _drop_seat(self, db: Connection, record: GameRecord, position: int) -> GameRecord:
        seats = [s for i, s in enumerate(record.seats) if i != position]
        people = [s for s in seats if s.user_id is not None]
        if not people:
            await db.execute(
                "UPDATE games SET status = 'abandoned', updated_at = ? WHERE id = ?", (self._clock(), record.id)
            )
            return await fetch_record(db, record.id)
        if record.seats[position].user_id == record.host_id:
            await db.execute("UPDATE games SET host_id = ? WHERE id = ?", (people[0].user_id, record.id))
        await write_seats(db, record.id, seats)
        return await self._touch(db, record.id)

    async def _touch(self, db: Connection, game_id: int) -> GameRecord:
        await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (self._clock(), game_id))
        return await fetch_record(db, game_id)

    async def replace_seat(
        self, game_id: int, position: int, seat: SeatInfo, *, resigned: bool = False
    ) -> GameRecord:
        """Hand a running game's seat to someone else (a bot taking over from a player who resigned).

        The seat row is updated in place, so the log rows that name its position stay valid. With
        `resigned`, the person leaving is remembered: the game's rating counts them last, not the bot.
        """
        seat = validate.seat(seat)
        async with self._db.transaction() as db:
            record = await fetch_record(db, validate.ident(game_id, "game"))
            if record.status != "active":
                raise WrongStatus(record.id, record.status, "Only a running game's seats can change hands.")
            validate.integer(position, "seat number", 0, len(record.seats) - 1)
            if seat.user_id is not None and record.seat_of(seat.user_id) not in (None, position):
                raise LobbyError("That person already has a seat in this game.")
            leaving = record.seats[position].user_id
            if resigned and leaving is not None:
                await db.execute(
                    "INSERT INTO resignations (game_id, position, user_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    (record.id, position, leaving),
                )
            await db.execute(
                "UPDATE seats SET user_id = ?, bot_level = ?, name = ?, missed = ?, away = ? "
                "WHERE game_id = ? AND position = ?",
                (seat.user_id, seat.bot_level, seat.name, seat.missed, int(seat.away), record.id, position),
            )
            return await self._touch(db, record.id)


def _result_of(row: Row) -> tuple[int, int, bool, float]:
    """(score, place, won, finished_at) from the result columns that follow a RECORD."""
    score, place, won, finished_at = row
    return score, place, bool(won), finished_at
