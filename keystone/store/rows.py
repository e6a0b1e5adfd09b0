"""SQL shared by the store's methods and the helpers that run inside an open transaction.

Every concern's half of the `Store` (games, moves, clocks, ...) imports from here, never from each other."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any, Literal

from keystone.engine import GameConfig, GameState, dump_config, dump_state, load_config
from keystone.store import validate
from keystone.store.backend import Connection, Dialect, IntegrityViolation, Row
from keystone.store.errors import ChannelBusy, GameNotFound, InvalidInput, StaleVersion, WrongStatus
from keystone.store.integrity import state_digest
from keystone.store.models import BoardSummary, Clock, GameRecord, Kind, SeatInfo


@cache
def record_sql(dialect: Dialect) -> str:
    """The columns of a `GameRecord` from `games g`, seats and clock folded into JSON in `dialect`'s words."""
    return (
        "g.id, g.guild_id, g.channel_id, g.kind, g.assignment, g.ruleset, g.config, g.host_id, g.status, g.seed, "
        "g.version, g.created_at, g.updated_at, "
        f"(SELECT {dialect.seat_list} FROM seats s WHERE s.game_id = g.id), g.pace, g.paused_at, "
        f"(SELECT {dialect.clock_array} FROM clocks c WHERE c.game_id = g.id), g.language, g.hints, g.hinted"
    )


Keep = Literal["keep"]
KEEP: Keep = "keep"
"""For a clock argument: leave the game's clock as it is."""

RECORD_COLUMNS = 20
"""How many columns `record_sql` selects (INTEGRITY's follow)."""
CLOCK = "c.turn, c.seat, c.started_at, c.remind_at, c.deadline, c.reminded"
INTEGRITY = (
    "g.names, g.snapshot, g.state_hash, "
    "(SELECT count(*) FROM actions a WHERE a.game_id = g.id), "
    "(SELECT a.state_hash FROM actions a WHERE a.game_id = g.id ORDER BY a.version DESC LIMIT 1)"
)


class MoveRefused(Exception):
    """The move's statement was refused; `explain_refusal` says why, outside the failed transaction."""


async def insert_move(db: Connection, params: tuple[int, int, int, int, str, str, bytes], now: float) -> None:
    """Commit a move through the `move_commits` view (see migration 3); `MoveRefused` if refused.

    `params` is (game, expected version, seed, seat, notation, snapshot, digest).
    """
    try:
        await db.execute(
            "INSERT INTO move_commits (game_id, expected_version, seed, seat, notation, snapshot, state_hash, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (*params, now),
        )
    except IntegrityViolation as error:
        if error.foreign_key:
            raise InvalidInput(f"Seat {params[3] + 1} is not part of this game.") from error
        raise MoveRefused() from error


def record_from_row(row: Row) -> GameRecord:
    seats = sorted(json.loads(row[13]))
    return GameRecord(
        id=row[0], guild_id=row[1], channel_id=row[2], kind=row[3], assignment=row[4], ruleset=row[5],
        config=load_config(row[6]), host_id=row[7], status=row[8], seed=row[9], version=row[10],
        created_at=row[11], updated_at=row[12],
        seats=tuple(SeatInfo(name=s[3], user_id=s[1], bot_level=s[2], missed=s[4], away=bool(s[5])) for s in seats),
        pace=row[14], paused_at=row[15], clock=None if row[16] is None else clock_from_row(json.loads(row[16])),
        language=row[17], hints=None if row[18] is None else bool(row[18]), hinted=bool(row[19]),
    )


def clock_from_row(row: Sequence[Any]) -> Clock:
    """A Clock from (turn, seat, started_at, remind_at, deadline, reminded), the order of `CLOCK`."""
    return Clock(int(row[0]), int(row[1]), float(row[2]), float(row[3]), float(row[4]), bool(row[5]))


async def fetch_record(db: Connection, game_id: int) -> GameRecord:
    rows = await db.fetch(f"SELECT {record_sql(db.dialect)} FROM games g WHERE g.id = ?", (game_id,))
    if not rows:
        raise GameNotFound(game_id)
    return record_from_row(rows[0])


async def write_seats(db: Connection, game_id: int, seats: Iterable[SeatInfo]) -> None:
    await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
    await db.executemany(
        "INSERT INTO seats (game_id, position, user_id, bot_level, name, missed, away) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(game_id, i, s.user_id, s.bot_level, s.name, s.missed, int(s.away)) for i, s in enumerate(seats)],
    )


async def write_clock(db: Connection, game_id: int, clock: Clock | None) -> None:
    """Time a new turn (replacing the game's clock, and any hold on it), or stop timing (None).
    Only a running game with a pace is timed; otherwise nothing is written."""
    if clock is None:
        await db.execute("DELETE FROM clocks WHERE game_id = ?", (game_id,))
        return
    c = validate.clock(clock)
    await db.execute(
        "INSERT INTO clocks (game_id, turn, seat, started_at, remind_at, deadline, reminded) "
        "SELECT id, ?, ?, ?, ?, ?, ? FROM games WHERE id = ? AND status = 'active' AND pace IS NOT NULL "
        "ON CONFLICT (game_id) DO UPDATE SET turn = excluded.turn, seat = excluded.seat, "
        "started_at = excluded.started_at, remind_at = excluded.remind_at, deadline = excluded.deadline, "
        "reminded = excluded.reminded, claimed_until = NULL",
        (c.turn, c.seat, c.started_at, c.remind_at, c.deadline, int(c.reminded), game_id),
    )


async def why_not_committed(db: Connection, game_id: int, expected: int) -> None:
    """Explain a refused commit (the game was not at the expected version and active); always raises."""
    rows = await db.fetch("SELECT status, version FROM games WHERE id = ?", (game_id,))
    if not rows:
        raise GameNotFound(game_id)
    status, version = rows[0]
    if status == "lobby":
        raise WrongStatus(game_id, status, "This game has not started yet.")
    if version != expected:
        raise StaleVersion(game_id, expected, version)
    if status != "active":
        raise WrongStatus(game_id, status, "This game is over.")
    raise InvalidInput("That state belongs to a different game.")


async def upsert_campaign(db: Connection, user_id: int, journal: int, stars: int, score: int, now: float) -> None:
    # On conflict every right-hand side reads the row as it was before this update. Columns are
    # named with their table: PostgreSQL finds a bare `stars` ambiguous beside `excluded.stars`.
    await db.execute(
        "INSERT INTO campaign (user_id, assignment, stars, best_score, attempts, completed_at, updated_at) "
        "VALUES (?, ?, ?, ?, 1, ?, ?) "
        "ON CONFLICT (user_id, assignment) DO UPDATE SET "
        "best_score = CASE WHEN excluded.stars > campaign.stars "
        "OR (excluded.stars = campaign.stars AND excluded.best_score > campaign.best_score) "
        "THEN excluded.best_score ELSE campaign.best_score END, "
        "stars = CASE WHEN excluded.stars > campaign.stars THEN excluded.stars ELSE campaign.stars END, "
        "attempts = campaign.attempts + 1, "
        "completed_at = coalesce(campaign.completed_at, excluded.completed_at), updated_at = excluded.updated_at",
        (user_id, journal, stars, score, now if stars > 0 else None, now),
    )


async def insert_game(
    db: Connection, guild_id: int | None, channel_id: int, kind: Kind, journal: int | None,
    config: GameConfig, host_id: int, seats: Sequence[SeatInfo], now: float,
) -> int:
    """Insert a lobby with its seats and return its id; `ChannelBusy` if the channel has an open game."""
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


async def write_start(db: Connection, game_id: int, state: GameState, now: float) -> None:
    """Turn the game into a running one at `state`, its initial state (version 0)."""
    snapshot = dump_state(state)
    names = json.dumps([s.name for s in state.seats])
    await db.execute(
        "UPDATE games SET status = 'active', seed = ?, names = ?, config = ?, ruleset = ?, snapshot = ?, "
        "version = 0, state_hash = ?, updated_at = ? WHERE id = ?",
        (state.seed, names, dump_config(state.config), state.config.rules, snapshot,
         state_digest(snapshot), now, game_id),
    )


def summary_columns(summary: BoardSummary | None) -> tuple[str | None, int | None, str | None]:
    """A result's (best_line, best_line_points, habitats) columns for a board summary (or None)."""
    if summary is None:
        return None, None, None
    return summary.best_line, summary.best_line_points, json.dumps(dict(sorted(summary.habitats.items())))


def summary_of(line: str | None, points: int | None, habitats: str | None) -> BoardSummary | None:
    """The board summary those columns hold (None for a result saved before summaries were)."""
    if line is None or points is None or habitats is None:
        return None
    return BoardSummary(line, points, json.loads(habitats))
