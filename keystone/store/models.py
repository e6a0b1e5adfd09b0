"""The records the store hands out: frozen dataclasses, so callers cannot edit a game by accident."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from keystone.engine import GameConfig, GameState
from keystone.i18n import Language

Kind = Literal["competitive", "solo", "coop"]
Status = Literal["lobby", "active", "finished", "abandoned"]
Pace = Literal["live", "daily", "relaxed"]

KINDS: tuple[Kind, ...] = ("competitive", "solo", "coop")
PACES: tuple[Pace, ...] = ("live", "daily", "relaxed")
MAX_SEATS: dict[Kind, int] = {"competitive": 4, "solo": 1, "coop": 4}
ASSIGNMENTS = 20  # the Field Journal's assignments are numbered 1 to 20
MAX_STARS = 3
MAX_BOT_LEVEL = 99
MAX_NAME = 100
SHOWN_BASE, SHOWN_SCALE = 1000, 40
"""A rating is shown as 1000 + 40 x (mu - 3 sigma): a newcomer shows 1000, and the number only
climbs once games have made the rating both high and sure."""


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits in a seat: a Discord user, or a bot of some level. Exactly one of the two is set.

    `missed` counts a person's turns run out in a row; `away` means a bot plays for them until they act again.
    """

    name: str
    user_id: int | None = None
    bot_level: int | None = None
    missed: int = 0
    away: bool = False

    @classmethod
    def human(cls, user_id: int, name: str) -> SeatInfo:
        return cls(name=name, user_id=user_id)

    @classmethod
    def bot(cls, level: int, name: str) -> SeatInfo:
        return cls(name=name, bot_level=level)

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    @property
    def bot_decides(self) -> bool:
        """Whether a bot plays this seat's turns: a bot's seat, or a person's while they are away."""
        return self.is_bot or self.away


@dataclass(frozen=True, slots=True)
class Clock:
    """The turn being timed: its turn number, the store seat that must decide, and its times
    (Unix seconds): when it started, when the reminder falls, when the time runs out."""

    turn: int
    seat: int
    started_at: float
    remind_at: float
    deadline: float
    reminded: bool = False


@dataclass(frozen=True, slots=True)
class DueClock:
    """A running, unpaused game's clock whose reminder or deadline has come."""

    game_id: int
    clock: Clock


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Everything about a game except its (larger) state snapshot."""

    id: int
    guild_id: int | None
    channel_id: int
    kind: Kind
    assignment: int | None
    ruleset: str
    config: GameConfig
    host_id: int
    status: Status
    seed: int | None
    seats: tuple[SeatInfo, ...]
    version: int
    created_at: float
    updated_at: float
    pace: Pace | None = None
    """None: the game has no clock (direct-message games, and games begun before clocks)."""
    paused_at: float | None = None
    clock: Clock | None = None
    """The turn being timed, when a person decides in a game with a pace."""
    language: Language | None = None
    """The language of the game's public messages (None: opened before the bot kept it)."""
    hints: bool | None = None
    """Whether players may ask for hints, as the host chose (None: not chosen; see `keystone.app.hints`)."""
    hinted: bool = False
    """Whether anyone asked for a hint in this game (then it is not rated)."""

    def seat_of(self, user_id: int) -> int | None:
        """The position of this user's seat, or None if they are not playing."""
        for position, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return position
        return None

    @property
    def is_open(self) -> bool:
        """Lobby or running: the game that holds its channel."""
        return self.status in ("lobby", "active")


@dataclass(frozen=True, slots=True)
class LoadedGame:
    """A started game with its verified current state."""

    record: GameRecord
    state: GameState


@dataclass(frozen=True, slots=True)
class LogEntry:
    version: int
    seat: int
    notation: str
    created_at: float


@dataclass(frozen=True, slots=True)
class BoardSummary:
    """What statistics keep of a finished board: its highest-scoring row or column (the first in
    reading order on a tie) and how many of its cards show each habitat (by habitat value)."""

    best_line: str
    best_line_points: int
    habitats: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's result when a game ends. `place` 1 is first; tied seats share a place.

    `stars` is for Field Journal games: when set and the seat is a person, the assignment result
    is recorded in that user's campaign in the same transaction that finishes the game.
    `summary`, when given, is kept with the result for statistics.
    """

    position: int
    score: int
    place: int
    won: bool
    stars: int | None = None
    summary: BoardSummary | None = None


@dataclass(frozen=True, slots=True)
class AssignmentBest:
    assignment: int
    stars: int
    best_score: int
    attempts: int
    completed_at: float | None

    @property
    def completed(self) -> bool:
        return self.completed_at is not None


@dataclass(frozen=True, slots=True)
class CampaignProgress:
    user_id: int
    assignments: dict[int, AssignmentBest]

    @property
    def completed(self) -> list[int]:
        return sorted(n for n, a in self.assignments.items() if a.completed)

    @property
    def total_stars(self) -> int:
        return sum(a.stars for a in self.assignments.values())


@dataclass(frozen=True, slots=True)
class UserStats:
    user_id: int
    games: int
    wins: int
    best_score: int | None
    average_score: float | None


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One finished game's result for one person, with what `/keystone stats` needs of the game.

    `summary` is None for a result saved before boards were summarised at a game's end."""

    game_id: int
    position: int
    kind: Kind
    assignment: int | None
    score: int
    place: int
    won: bool
    finished_at: float
    summary: BoardSummary | None


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A rated player ('user:<id>' or 'bot:<level>'): rating `mu`, its uncertainty `sigma`, and
    how many rated games it rests on."""

    player: str
    mu: float
    sigma: float
    games: int

    @property
    def shown(self) -> int:
        """The friendly number: the conservative estimate mu - 3 sigma, scaled (see SHOWN_BASE)."""
        return round(SHOWN_BASE + SHOWN_SCALE * (self.mu - 3 * self.sigma))

    @property
    def user_id(self) -> int | None:
        kind, _, number = self.player.partition(":")
        return int(number) if kind == "user" else None

    @property
    def bot_level(self) -> int | None:
        kind, _, number = self.player.partition(":")
        return int(number) if kind == "bot" else None


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game as one person's history shows it: the game and that person's result."""

    record: GameRecord
    score: int
    place: int
    won: bool
    finished_at: float
