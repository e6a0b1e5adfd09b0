"""Which seat is whose, shared by the service's concerns: the board a store seat plays, the seat an
actor sits in or asks for, a seat away or back, and whether a bot must decide now."""

from __future__ import annotations

from dataclasses import replace
from textwrap import shorten

from keystone.app import markdown
from keystone.app.context import Actor, _refusal
from keystone.engine import GameState
from keystone.engine.bots import LEVELS
from keystone.engine.coop import acting_player
from keystone.store import GameRecord, SeatInfo


def _board(record: GameRecord, seat: int) -> int:
    """The engine seat (board) a store seat plays: co-op partners all play board 0."""
    return 0 if record.config.coop else seat


def _seat_or_refuse(record: GameRecord, actor: Actor) -> int:
    seat = record.seat_of(actor.user_id)
    if seat is None:
        raise _refusal("seat.not_playing")
    return seat


def _find_seat(record: GameRecord, state: GameState, actor: Actor, wanted: str | None) -> int:
    """The store seat asked for: a seat number (what autocomplete sends), a seat's name, or a mention."""
    if wanted is None:
        seat = record.seat_of(actor.user_id)
        return state.current if seat is None else seat
    typed = wanted.strip().lower().lstrip("@")
    if typed.isascii() and typed.isdigit() and len(typed) <= 3 and 1 <= int(typed) <= len(record.seats):
        return int(typed) - 1  # ASCII digits only: "²" is a digit to Python, but no number int() reads
    for i, s in enumerate(record.seats):
        if s.name.lower() == typed or str(s.user_id) == typed.strip("<>@!"):
            return i
    names = ", ".join(markdown.plain(s.name) for s in record.seats)
    raise _refusal("seat.unknown", wanted=markdown.plain(shorten(wanted.strip(), 40)), names=names)


def _with_seat(record: GameRecord, position: int, *, away: bool) -> GameRecord:
    """The record with one person's seat away (or back, with their missed turns cleared)."""
    seat = record.seats[position]
    changed = replace(seat, away=away, missed=seat.missed if away else 0)
    return replace(record, seats=(*record.seats[:position], changed, *record.seats[position + 1:]))


def _anyone_active(record: GameRecord) -> bool:
    """Whether some person at the table still plays their own seat (is not away)."""
    return any(not s.is_bot and not s.away for s in record.seats)


def _bot_is_due(record: GameRecord, state: GameState) -> bool:
    """Whether a bot must decide now (a bot's seat, or an away person's): it should already have
    played, as a person would be waiting. An away person's seat is played only while some person
    at the table is still playing: once everyone is away the game waits (no burst of bot turns
    playing it to the end), and the first person to act takes it on again."""
    if state.phase == "over":
        return False
    seat = record.seats[acting_player(state)]
    return seat.bot_decides and (seat.is_bot or _anyone_active(record))


def _bot_level(seat: SeatInfo) -> int:
    """The level a bot plays this seat at: its own for a bot's seat, normal for a person's."""
    return LEVELS.index("normal") if seat.bot_level is None else seat.bot_level
