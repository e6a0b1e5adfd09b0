"""Checks on every value before it goes near SQL, each failing with a sentence a person can read."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import TypeVar

from keystone.cards import Habitat
from keystone.engine import GameConfig
from keystone.engine.board import CELLS
from keystone.engine.scoring import LINES
from keystone.i18n import LANGUAGE_NAMES, Language, UnknownLanguage, checked
from keystone.store.errors import InvalidInput
from keystone.store.models import (
    ASSIGNMENTS,
    KINDS,
    MAX_BOT_LEVEL,
    MAX_NAME,
    MAX_SEATS,
    MAX_STARS,
    PACES,
    BoardSummary,
    Clock,
    Kind,
    Pace,
    SeatInfo,
    SeatResult,
)

T = TypeVar("T")

MAX_ID = 2**63 - 1  # Discord snowflakes and our row ids fit SQLite's signed 64-bit integers
MAX_SCORE = 10**6


def integer(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"The {what} must be a whole number.")
    if not low <= value <= high:
        raise InvalidInput(f"The {what} must be between {low} and {high}.")
    return value


def ident(value: object, what: str) -> int:
    return integer(value, what, 1, MAX_ID)


def optional_ident(value: object, what: str) -> int | None:
    return None if value is None else ident(value, what)


def name(value: object) -> str:
    if not isinstance(value, str):
        raise InvalidInput("A seat name must be text.")
    text = value.strip()
    if not text:
        raise InvalidInput("A seat needs a name.")
    if len(text) > MAX_NAME:
        raise InvalidInput(f"A seat name can be at most {MAX_NAME} characters long.")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        raise InvalidInput("A seat name cannot contain control characters.")
    return text


def one_of(value: object, known: tuple[T, ...], what: str) -> T:
    """`value` as the one of `known` it equals, or a sentence naming the choices."""
    for choice in known:
        if value == choice:
            return choice
    raise InvalidInput(f"{what} is one of: {', '.join(map(str, known))}.")


def kind(value: object) -> Kind:
    return one_of(value, KINDS, "A game")


def assignment(value: object) -> int:
    return integer(value, "assignment number", 1, ASSIGNMENTS)


def seat(value: SeatInfo) -> SeatInfo:
    if not isinstance(value, SeatInfo):
        raise InvalidInput("A seat must be a SeatInfo.")
    if (value.user_id is None) == (value.bot_level is None):
        raise InvalidInput("A seat is either a person or a bot, not both or neither.")
    if value.user_id is not None:
        person = SeatInfo.human(ident(value.user_id, "user id"), name(value.name))
        return replace(person, missed=integer(value.missed, "count of missed turns", 0, MAX_ID),
                       away=flag(value.away, "away"))
    return SeatInfo.bot(integer(value.bot_level, "bot level", 0, MAX_BOT_LEVEL), name(value.name))


def flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidInput(f"Whether {what} must be true or false.")
    return value


def language(value: object) -> Language | None:
    """A language the bot speaks, or None for "follow the Discord locale"."""
    if value is None:
        return None
    try:
        return checked(value)
    except UnknownLanguage:
        raise InvalidInput(f"The bot speaks {' or '.join(LANGUAGE_NAMES.values())}; choose one of them.") from None


def pace(value: object) -> Pace:
    return one_of(value, PACES, "A pace")


def clock(value: Clock) -> Clock:
    """A clock whose times come in order: started, then reminded, then out of time."""
    if not isinstance(value, Clock):
        raise InvalidInput("A clock must be a Clock.")
    integer(value.turn, "turn number", 0, MAX_ID)
    integer(value.seat, "seat number", 0, max(MAX_SEATS.values()) - 1)
    times = (value.started_at, value.remind_at, value.deadline)
    if not all(isinstance(t, float | int) and not isinstance(t, bool) and math.isfinite(t) for t in times):
        raise InvalidInput("A clock's times must be finite numbers of seconds.")
    if not value.started_at <= value.remind_at <= value.deadline:
        raise InvalidInput("A clock starts, then reminds, then runs out, in that order.")
    return value


def seats(values: Sequence[SeatInfo], game_kind: Kind) -> list[SeatInfo]:
    checked = [seat(v) for v in values]
    if not 1 <= len(checked) <= MAX_SEATS[game_kind]:
        raise InvalidInput(f"A {game_kind} game has 1 to {MAX_SEATS[game_kind]} seats.")
    users = [s.user_id for s in checked if s.user_id is not None]
    if len(set(users)) != len(users):
        raise InvalidInput("Each person can take only one seat.")
    return checked


def setup(game_kind: Kind, config: GameConfig, seat_count: int | None, journal: int | None) -> None:
    """The game's kind, its engine config, its seats and its assignment must tell one story."""
    if not isinstance(config, GameConfig):
        raise InvalidInput("A game needs an engine GameConfig.")
    if config.coop != (game_kind == "coop"):
        raise InvalidInput("Only a co-op game uses the co-op config, and a co-op game must.")
    if game_kind == "solo" and config.players != 1:
        raise InvalidInput("A solo game has exactly one player.")
    if seat_count is not None and config.players != seat_count:
        raise InvalidInput(f"The config is for {config.players} player(s) but {seat_count} seat(s) are taken.")
    if journal is not None and game_kind == "competitive":
        raise InvalidInput("Field Journal assignments are played solo or co-op.")


def results(values: Sequence[SeatResult], seat_count: int, journal: int | None) -> list[SeatResult]:
    checked = list(values)
    if sorted(getattr(r, "position", -1) for r in checked) != list(range(seat_count)):
        raise InvalidInput(f"Give exactly one result for each of the {seat_count} seat(s).")
    for r in checked:
        if not isinstance(r, SeatResult):
            raise InvalidInput("A result must be a SeatResult.")
        integer(r.score, "score", -MAX_SCORE, MAX_SCORE)
        integer(r.place, "place", 1, seat_count)
        if not isinstance(r.won, bool):
            raise InvalidInput("Whether a seat won must be true or false.")
        if r.stars is not None:
            if journal is None:
                raise InvalidInput("Stars are only given in Field Journal assignments.")
            integer(r.stars, "number of stars", 0, MAX_STARS)
        if r.summary is not None:
            summary(r.summary)
    return checked


LINE_NAMES = frozenset(name for name, _ in LINES)
HABITAT_VALUES = frozenset(h.value for h in Habitat)


def summary(value: object) -> BoardSummary:
    """A board summary names a real row or column and counts at most a board's cells per habitat."""
    if not isinstance(value, BoardSummary):
        raise InvalidInput("A board summary must be a BoardSummary.")
    if value.best_line not in LINE_NAMES:
        raise InvalidInput("A board's best line is one of its rows or columns.")
    integer(value.best_line_points, "best line's points", 0, MAX_SCORE)
    if not set(value.habitats) <= HABITAT_VALUES:
        raise InvalidInput(f"Habitats are {', '.join(sorted(HABITAT_VALUES))}.")
    for count in value.habitats.values():
        integer(count, "number of cards of a habitat", 0, CELLS)
    return value


def campaign_result(journal: object, stars: object, score: object) -> tuple[int, int, int]:
    return (
        assignment(journal),
        integer(stars, "number of stars", 0, MAX_STARS),
        integer(score, "score", -MAX_SCORE, MAX_SCORE),
    )
