"""The `Store`: games, their action logs, results and campaigns, in SQLite or PostgreSQL.

`Store.open` takes a file path (SQLite, write-ahead logging) or a `postgresql://` URL; both run
the same SQL through `backend` and give the same guarantees. A move is one INSERT into the
`move_commits` view, whose trigger checks the version and writes snapshot and log row together;
other writes are write transactions that queue behind each other (SQLite's BEGIN IMMEDIATE,
PostgreSQL's advisory lock), so a second process waits instead of failing half-way. Values only
ever reach SQL as parameters.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from urllib.parse import urlsplit

import aiosqlite
import asyncpg

from keystone.engine import GameConfig, GameState, dump_config, dump_state, is_over
from keystone.i18n import Language
from keystone.store import daily, validate
from keystone.store.backend import (
    Connection,
    Database,
    IntegrityViolation,
    PostgresDatabase,
    Row,
    SqliteDatabase,
    is_url,
    shown,
)
from keystone.store.daily import DAILY, DailyBoard, DailyGame, DailyTaken
from keystone.store.errors import (
    ChannelBusy,
    DamagedDatabase,
    DatabaseUnreachable,
    ForeignServerDatabase,
    GameNotFound,
    InvalidInput,
    LobbyError,
    NewerSchema,
    ReadOnlyDatabase,
    SchemaError,
    WrongStatus,
)
from keystone.store.identify import Found, identify
from keystone.store.integrity import canonical_notation, check_initial, checked_state, replay_check, state_digest
from keystone.store.migrate import APPLICATION_ID, latest, migrate
from keystone.store.models import (
    MAX_SEATS,
    AssignmentBest,
    BoardSummary,
    CampaignProgress,
    Clock,
    DueClock,
    FinishedGame,
    GameRecord,
    Kind,
    LoadedGame,
    LogEntry,
    Pace,
    PlayerRating,
    PlayerResult,
    SeatInfo,
    SeatResult,
    Status,
    UserStats,
)
from keystone.store.outbox import Deliveries, Outgoing, write_posts
from keystone.store.ratings import rate_game, user_player
from keystone.store.rows import (
    CLOCK,
    INTEGRITY,
    KEEP,
    RECORD_COLUMNS,
    Keep,
    MoveRefused,
    clock_from_row,
    fetch_record,
    insert_move,
    record_from_row,
    record_sql,
    upsert_campaign,
    why_not_committed,
    write_clock,
    write_seats,
)
from keystone.store.shards import Shards, condition

USERS_OPEN_GAMES = (
    "FROM seats m CROSS JOIN games g ON g.id = m.game_id WHERE m.user_id = ? AND g.status IN ('lobby', 'active')"
)
"""A person's lobbies and running games; CROSS JOIN keeps SQLite starting from their seats (see `backend`)."""
CLAIM_HOLD = 60.0
"""Seconds a scheduler holds a passed deadline it is acting on (see `Store.claim_deadline`)."""
TIMED = "FROM clocks c CROSS JOIN games g ON g.id = c.game_id WHERE g.status = 'active' AND g.paused_at IS NULL"
"""Clocks of running, unpaused games; CROSS JOIN keeps SQLite walking a clocks index in time order."""


async def use_write_ahead_log(db: aiosqlite.Connection, attempts: int = 200) -> str:
    """Switch to WAL and return the journal mode now in use.

    While another connection is making the same switch SQLite answers "locked" at once instead of
    waiting (the busy timeout does not apply), so two bots starting together would fail; retry.
    """
    for _ in range(attempts - 1):
        try:
            return await journal_mode(db, "WAL")
        except sqlite3.OperationalError as error:
            if "locked" not in str(error):
                raise
            await asyncio.sleep(0.05)
    return await journal_mode(db, "WAL")


async def journal_mode(db: aiosqlite.Connection, mode: str) -> str:
    rows = await db.execute_fetchall(f"PRAGMA journal_mode = {mode}")
    return str(next(iter(rows))[0])


async def claim(db: aiosqlite.Connection, found: Found) -> None:
    """Mark a new or adopted file as ours; for our own file, prove it can be written (then undo).

    A file SQLite could only open read-only would otherwise be accepted and fail at the first move.
    The id is set before write-ahead logging, so a new file's header holds it from the start.
    """
    if found is not Found.OURS:
        await db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        return
    await db.execute("BEGIN IMMEDIATE")
    try:
        await db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    finally:
        await db.execute("ROLLBACK")


async def open_sqlite(path: str | Path, durable: bool) -> SqliteDatabase:
    """The file, identified as ours (or new) before anything is written, in write-ahead logging."""
    found = await asyncio.to_thread(identify, path)
    try:
        db = await aiosqlite.connect(path, isolation_level=None)
    except sqlite3.Error as error:
        raise DamagedDatabase(str(path), str(error)) from error
    try:
        await db.execute("PRAGMA busy_timeout = 10000")
        await claim(db, found)
        mode = await use_write_ahead_log(db)
        if mode != "wal" and str(path) != ":memory:":
            raise SchemaError(f"The database could not switch to write-ahead logging (it uses {mode}).")
        await db.execute(f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}")
        await db.execute("PRAGMA foreign_keys = ON")
    except sqlite3.DatabaseError as error:
        await db.close()
        raise sqlite_refusal(path, error) from error
    except BaseException:
        await db.close()
        raise
    return SqliteDatabase(db)


def sqlite_refusal(path: str | Path, error: sqlite3.DatabaseError) -> SchemaError:
    if "readonly" in str(error):
        return ReadOnlyDatabase(str(path), "SQLite could only open it for reading")
    return DamagedDatabase(str(path), str(error))


UNREACHABLE = (OSError, asyncio.TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError)
"""What connecting to a server can raise: refused, unknown host, timeout, bad password, no such database."""


async def open_postgres(url: str, durable: bool) -> PostgresDatabase:
    """A pool on the server's database, once it is known to be ours (or empty) and not newer."""
    try:
        db = await PostgresDatabase.connect(url, durable=durable)
    except UNREACHABLE as error:
        raise DatabaseUnreachable(shown(url), _reason(error, url)) from None
    try:
        async with db.connection() as connection:
            await refuse_foreign_or_newer(connection, url)
    except BaseException:
        await db.close()
        raise
    return db


async def check_postgres(url: str) -> None:
    """Connect and read the schema version, as `open` does, writing nothing."""
    await (await open_postgres(url, durable=True)).close()


async def refuse_foreign_or_newer(db: Connection, url: str) -> None:
    """Tables in the connection's schema but no `schema_version`: another program's; refused."""
    tables = {r[0] for r in await db.fetch("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}
    if not tables:
        return
    if "schema_version" not in tables:
        raise ForeignServerDatabase(shown(url))
    version = (await db.fetch("SELECT coalesce(max(version), 0) FROM schema_version"))[0][0]
    if version > latest("postgresql"):
        raise NewerSchema(version, latest("postgresql"))


def _reason(error: BaseException, url: str) -> str:
    """Why a server could not be used, in a few words, never with the URL's password."""
    if isinstance(error, asyncio.TimeoutError):
        reason = "it did not answer in time"
    elif isinstance(error, OSError):
        reason = f"the connection failed: {error.strerror or error}"
    else:
        reason = " ".join(str(error).split()) or type(error).__name__
    password = urlsplit(url).password
    return reason.replace(password, "[redacted]") if password else reason


class Store(Deliveries):
    """Persistence for the bot. Create with `await Store.open(target)`; finish with `await close()`."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock
        self._record = record_sql(db.dialect)

    # ------------------------------------------------------------------ opening and closing

    @classmethod
    async def open(
        cls,
        target: str | Path,
        *,
        durable: bool = True,
        clock: Callable[[], float] = time.time,
    ) -> Store:
        """Open (creating if needed) and migrate the database: a SQLite file, or a PostgreSQL
        server's database given as a `postgresql://` URL.

        `durable=True` makes every commit survive power loss; `False` only protects against the
        process dying, which is faster. Raises `SchemaError` (a `DatabaseUnusable` naming the
        file or server) for a file that is missing its folder, damaged, read-only, another
        program's, a server that cannot be reached, or a database written by a newer bot; such a
        database is refused before anything is written.
        """
        db = await (open_postgres(str(target), durable) if is_url(target) else open_sqlite(target, durable))
        try:
            await migrate(db, clock)
        except sqlite3.DatabaseError as error:
            await db.close()
            raise sqlite_refusal(target, error) from error
        except asyncpg.PostgresError as error:
            await db.close()
            raise SchemaError(f"The PostgreSQL database {shown(str(target))} could not be brought up to date "
                              f"({' '.join(str(error).split())}); nothing was changed.") from error
        except BaseException:
            await db.close()
            raise
        return cls(db, clock)

    @staticmethod
    async def check(target: str | Path) -> None:
        """Raise what `open` would, and `DamagedDatabase` for any unreadable page or stored text.

        Writes nothing (not even a journal beside a file), so it is safe to run at start-up
        before anything else; it reads a whole SQLite file, so it is slower than `open`. For a
        server it proves the server answers and holds no newer or foreign schema.
        """
        if is_url(target):
            await check_postgres(str(target))
        else:
            await asyncio.to_thread(identify, target, thorough=True)

    @property
    def database(self) -> Database:
        """The connection itself, for the store's own tools (copying between databases)."""
        return self._db

    async def close(self) -> None:
        """Close the connection (SQLite checkpoints its write-ahead log on the last close)."""
        await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _rows(self, sql: str, params: Sequence[object]) -> list[Row]:
        async with self._db.connection() as db:
            return await db.fetch(sql, params)

    async def schema_version(self) -> int:
        rows = await self._rows("SELECT coalesce(max(version), 0) FROM schema_version", ())
        return int(rows[0][0])

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
    ) -> GameRecord:
        """Open a lobby in a channel with the host in seat 0; raises `ChannelBusy` if one is open.

        `pace` is how long each turn may take once the game runs (None: no clock); `language` is the
        language of its public messages."""
        game_kind = validate.kind(kind)
        journal = None if assignment is None else validate.assignment(assignment)
        validate.setup(game_kind, config, None, journal)
        host = validate.seat(SeatInfo.human(host_id, host_name))
        timed = None if pace is None else validate.pace(pace)
        spoken = validate.language(language)
        async with self._db.transaction() as db:
            game_id = await self._insert_game(db, guild_id, channel_id, game_kind, journal, config, host_id, [host])
            await db.execute("UPDATE games SET pace = ?, language = ? WHERE id = ?", (timed, spoken, game_id))
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
            game_id = await self._insert_game(
                db, guild_id, channel_id, game_kind, journal, state.config, host_id, checked
            )
            await self._write_start(db, game_id, state)
            return await fetch_record(db, game_id)

    async def _insert_game(
        self, db: Connection, guild_id: int | None, channel_id: int, kind: Kind, journal: int | None,
        config: GameConfig, host_id: int, seats: Sequence[SeatInfo],
    ) -> int:
        now = self._clock()
        params = (
            validate.optional_ident(guild_id, "server id"), validate.ident(channel_id, "channel id"), kind, journal,
            config.rules, dump_config(config), validate.ident(host_id, "host id"), now, now,
        )
        try:
            rows = await db.fetch(
                "INSERT INTO games (guild_id, channel_id, kind, assignment, ruleset, config, host_id, status, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?) RETURNING id",
                params,
            )
        except IntegrityViolation as error:
            raise ChannelBusy(channel_id) from error
        game_id = int(rows[0][0])
        await write_seats(db, game_id, seats)
        return game_id

    async def _write_start(self, db: Connection, game_id: int, state: GameState) -> None:
        snapshot = dump_state(state)
        names = json.dumps([s.name for s in state.seats])
        await db.execute(
            "UPDATE games SET status = 'active', seed = ?, names = ?, config = ?, ruleset = ?, snapshot = ?, "
            "version = 0, state_hash = ?, updated_at = ? WHERE id = ?",
            (state.seed, names, dump_config(state.config), state.config.rules, snapshot,
             state_digest(snapshot), self._clock(), game_id),
        )

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
            await self._write_start(db, record.id, state)
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
            line, points, habitats = _summary_columns(result.summary)
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

    # ------------------------------------------------------------------ campaign and statistics

    async def record_assignment_result(self, user_id: int, assignment: int, stars: int, score: int) -> AssignmentBest:
        """Count one attempt at an assignment and keep the best result (most stars, then score)."""
        user_id = validate.ident(user_id, "user id")
        journal, stars, score = validate.campaign_result(assignment, stars, score)
        async with self._db.transaction() as db:
            await upsert_campaign(db, user_id, journal, stars, score, self._clock())
            rows = await db.fetch(
                "SELECT assignment, stars, best_score, attempts, completed_at FROM campaign "
                "WHERE user_id = ? AND assignment = ?",
                (user_id, journal),
            )
            return AssignmentBest(*rows[0])

    async def campaign_progress(self, user_id: int) -> CampaignProgress:
        rows = await self._rows(
            "SELECT assignment, stars, best_score, attempts, completed_at FROM campaign WHERE user_id = ? "
            "ORDER BY assignment",
            (validate.ident(user_id, "user id"),),
        )
        return CampaignProgress(user_id, {r[0]: AssignmentBest(*r) for r in rows})

    async def started_assignments(self, user_id: int) -> set[int]:
        """The assignments this person has ever begun: sat at when the game started, or has a result for.

        Games are kept after they end, so this counts a start even when it was abandoned or lost
        (a lobby that never started does not count).
        """
        user_id = validate.ident(user_id, "user id")
        rows = await self._rows(
            "SELECT g.assignment FROM games g JOIN seats s ON s.game_id = g.id "
            "WHERE s.user_id = ? AND g.assignment IS NOT NULL AND g.snapshot IS NOT NULL "
            "UNION SELECT assignment FROM campaign WHERE user_id = ?",
            (user_id, user_id),
        )
        return {r[0] for r in rows}

    async def user_stats(self, user_id: int) -> UserStats:
        """Totals over the user's finished games that recorded results."""
        user_id = validate.ident(user_id, "user id")
        rows = await self._rows(
            "SELECT count(*), coalesce(sum(won), 0), max(score), avg(score) FROM results WHERE user_id = ?",
            (user_id,),
        )
        games, wins, best, average = rows[0]
        return UserStats(user_id, games, int(wins), best, None if average is None else float(average))

    # ------------------------------------------------------------------ statistics and ratings

    async def player_results(self, user_id: int, hidden_days: Sequence[str] = ()) -> list[PlayerResult]:
        """Every result this person has in a finished game, oldest first, with the game's kind;
        daily challenges of `hidden_days` left out (days the asker may still play: no spoilers)."""
        days = [daily.day(d) for d in hidden_days]
        hidden = (  # PostgreSQL has no empty IN ()
            f"AND r.game_id NOT IN (SELECT game_id FROM daily_games WHERE day IN ({', '.join('?' for _ in days)})) "
            if days else ""
        )
        rows = await self._rows(
            "SELECT r.game_id, r.position, g.kind, g.assignment, r.score, r.place, r.won, r.finished_at, "
            "r.best_line, r.best_line_points, r.habitats FROM results r JOIN games g ON g.id = r.game_id "
            f"WHERE r.user_id = ? {hidden}ORDER BY r.finished_at, r.game_id",
            (validate.ident(user_id, "user id"), *days),
        )
        return [
            PlayerResult(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7], _summary_of(r[8], r[9], r[10]))
            for r in rows
        ]

    async def fill_summaries(self, game_id: int, summaries: dict[int, BoardSummary]) -> None:
        """Keep board summaries for results saved before summaries were (position -> summary);
        a result that already has one keeps it."""
        game_id = validate.ident(game_id, "game")
        checked = {validate.integer(p, "seat number", 0, 3): validate.summary(s) for p, s in summaries.items()}
        async with self._db.transaction() as db:
            for position, summary in checked.items():
                await db.execute(
                    "UPDATE results SET best_line = ?, best_line_points = ?, habitats = ? "
                    "WHERE game_id = ? AND position = ? AND best_line IS NULL",
                    (*_summary_columns(summary), game_id, position),
                )

    async def user_rating(self, user_id: int) -> PlayerRating | None:
        """This person's rating, or None before their first rated game."""
        rows = await self._rows(
            "SELECT player, mu, sigma, games FROM ratings WHERE player = ?",
            (user_player(validate.ident(user_id, "user id")),),
        )
        return PlayerRating(*rows[0]) if rows else None

    async def server_ratings(self, guild_id: int) -> list[PlayerRating]:
        """The ratings of everyone (bot levels included) who played a rated game in this server's
        channels or threads, best first: highest shown rating, then more games, then identity."""
        rows = await self._rows(
            "SELECT p.player, p.mu, p.sigma, p.games FROM ratings p WHERE p.player IN ("
            "SELECT c.player FROM rating_changes c JOIN games g ON g.id = c.game_id WHERE g.guild_id = ?) "
            "ORDER BY p.mu - 3 * p.sigma DESC, p.games DESC, p.player",
            (validate.ident(guild_id, "server id"),),
        )
        return [PlayerRating(*r) for r in rows]


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

    async def notify(self, user_id: int) -> bool:
        """Whether this person wants their reminders by direct message too."""
        rows = await self._rows(
            "SELECT notify FROM user_settings WHERE user_id = ?", (validate.ident(user_id, "user id"),)
        )
        return bool(rows and rows[0][0])

    async def set_notify(self, user_id: int, on: bool) -> None:
        user_id, on = validate.ident(user_id, "user id"), validate.flag(on, "to notify")
        async with self._db.transaction() as db:
            await db.execute(
                "INSERT INTO user_settings (user_id, notify) VALUES (?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify",
                (user_id, int(on)),
            )

    async def chosen_languages(self, user_id: int, guild_id: int | None) -> tuple[Language | None, Language | None]:
        """The language this person chose for their private answers, and the one this server chose
        for its public messages (None where nothing was chosen, and for the server of a direct message)."""
        user_id, guild_id = validate.ident(user_id, "user id"), validate.optional_ident(guild_id, "server id")
        rows = await self._rows(
            "SELECT (SELECT language FROM user_settings WHERE user_id = ?), "
            "(SELECT language FROM server_settings WHERE guild_id = ?)", (user_id, guild_id or 0),
        )
        return validate.language(rows[0][0]), validate.language(rows[0][1])

    async def set_language(self, user_id: int, lang: Language | None) -> None:
        """Keep this person's language for private answers; None goes back to their Discord locale."""
        await self._keep_language("user_settings", "user_id", validate.ident(user_id, "user id"), lang)

    async def set_server_language(self, guild_id: int, lang: Language | None) -> None:
        """Keep this server's language for public messages; None goes back to the server's Discord locale."""
        await self._keep_language("server_settings", "guild_id", validate.ident(guild_id, "server id"), lang)

    async def set_games_language(self, guild_id: int, lang: Language) -> None:
        """The language of the public messages of this server's open games (its lobbies and running games)."""
        guild_id, lang = validate.ident(guild_id, "server id"), validate.language(lang) or "en"
        async with self._db.transaction() as db:
            await db.execute("UPDATE games SET language = ? WHERE guild_id = ? AND status IN ('lobby', 'active')",
                             (lang, guild_id))

    async def _keep_language(self, table: str, key: str, owner: int, lang: Language | None) -> None:
        lang = validate.language(lang)
        async with self._db.transaction() as db:
            await db.execute(
                f"INSERT INTO {table} ({key}, language) VALUES (?, ?) "
                f"ON CONFLICT ({key}) DO UPDATE SET language = excluded.language",
                (owner, lang),
            )

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
            game_id = await self._insert_game(db, None, channel_id, "solo", None, state.config, user_id, [seat])
            await self._write_start(db, game_id, state)
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


def _result_of(row: Row) -> tuple[int, int, bool, float]:
    """(score, place, won, finished_at) from the result columns that follow a RECORD."""
    score, place, won, finished_at = row
    return score, place, bool(won), finished_at


def _summary_columns(summary: BoardSummary | None) -> tuple[str | None, int | None, str | None]:
    if summary is None:
        return None, None, None
    return summary.best_line, summary.best_line_points, json.dumps(dict(sorted(summary.habitats.items())))


def _summary_of(line: str | None, points: int | None, habitats: str | None) -> BoardSummary | None:
    if line is None or points is None or habitats is None:
        return None
    return BoardSummary(line, points, json.loads(habitats))
