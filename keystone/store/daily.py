"""The daily challenge's records and the SQL that runs inside the store's transactions.

A day is a UTC date written `YYYY-MM-DD`. A person has at most one game per day (the table's key),
and its result is written by the same transaction that finishes the game, so a crash can neither
lose nor double it.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from keystone.store.backend import Connection, Row
from keystone.store.errors import InvalidInput, StoreError
from keystone.store.models import SeatResult, Status

SECRET_BYTES = 32
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")

DAILY = (
    "d.day, d.user_id, d.game_id, g.channel_id, g.status, d.score, d.resigned, d.finished_at, "
    "(SELECT s.name FROM seats s WHERE s.game_id = g.id AND s.position = 0)"
)
"""The columns of a `DailyGame`, from `daily_games d JOIN games g`."""


class DailyTaken(StoreError):
    """This person already has a game for that day: one attempt per day."""

    def __init__(self, day: str) -> None:
        super().__init__(f"You already have a daily challenge for {day}.")
        self.day = day


@dataclass(frozen=True, slots=True)
class DailyGame:
    """A person's game of one day, with where it is played and how it ended (if it has)."""

    day: str
    user_id: int
    game_id: int
    channel_id: int
    status: Status
    score: int | None
    resigned: bool
    finished_at: float | None
    name: str

    @property
    def is_open(self) -> bool:
        """Still running: the day's game can still be played."""
        return self.status in ("lobby", "active")

    @property
    def scored(self) -> bool:
        """Finished with a result (not abandoned)."""
        return self.score is not None


@dataclass(frozen=True, slots=True)
class DailyBoard:
    """A server's board of one day: finished results (best first) and how many still play."""

    day: str
    results: tuple[DailyGame, ...]
    playing: int


def day(value: object) -> str:
    """Check a day (`YYYY-MM-DD`) before it goes near SQL."""
    if not isinstance(value, str) or not _DAY.match(value):
        raise InvalidInput("A day is written YYYY-MM-DD.")
    return value


def daily_from_row(row: Row) -> DailyGame:
    return DailyGame(row[0], row[1], row[2], row[3], row[4], row[5], bool(row[6]), row[7], row[8])


async def secret(db: Connection, now: float) -> bytes:
    """The one daily secret, made on first use from the system's secure random source."""
    await db.execute(
        "INSERT INTO daily_secret (id, secret, created_at) VALUES (1, ?, ?) ON CONFLICT DO NOTHING",
        (secrets.token_bytes(SECRET_BYTES), now),
    )
    rows = await db.fetch("SELECT secret FROM daily_secret WHERE id = 1")
    return bytes(rows[0][0])


async def record_result(db: Connection, game_id: int, results: Sequence[SeatResult], now: float) -> None:
    """If `game_id` is a daily game, keep its result on its day's row (inside the finishing transaction).

    A seat that did not win a solo game resigned (a finished solo game is otherwise always won)."""
    if not results:
        return
    mine = results[0]
    await db.execute(
        "UPDATE daily_games SET score = ?, resigned = ?, finished_at = ? WHERE game_id = ?",
        (mine.score, int(not mine.won), now, game_id),
    )
