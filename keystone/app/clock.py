"""Turn clocks, without I/O: how long each pace gives a turn, when its reminder falls, who is being
timed, and the words for time left. The service stores the clocks; the scheduler acts on them.

A game in a server channel runs at a pace: `live` (10 minutes a turn), `daily` (24 hours, the
default) or `relaxed` (3 days). Half-way through a turn the person to act is reminded; when the
time runs out a normal bot plays that turn for them, and after `AWAY_AFTER` such turns in a row
the bot keeps their seat until they act again. Direct-message games have no clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import get_args

from keystone.engine import GameState
from keystone.engine.coop import acting_player
from keystone.engine.words import plural
from keystone.store import Clock, GameRecord, Pace, SeatInfo

MINUTE, HOUR, DAY = 60.0, 3600.0, 86400.0

TURN_TIME: dict[Pace, float] = {"live": 10 * MINUTE, "daily": DAY, "relaxed": 3 * DAY}
"""How long the person to act has for a turn, in seconds, at each pace."""
DEFAULT_PACE: Pace = "daily"
"""The pace of a channel game when `/keystone new` names none."""
REMINDER_AT = 0.5
"""The share of the turn's time after which the reminder falls (and a vote becomes possible)."""
AWAY_AFTER = 2
"""Turns run out in a row after which a bot keeps the seat until its person comes back."""
PACES: tuple[Pace, ...] = get_args(Pace)

NO_CLOCK_IN_DM = (
    "Games in a direct message have no turn clock, so they take no `pace`; play at whatever speed you like."
)
NO_PACE = "This game has no turn clock; the host can give it one with `/keystone clock pace:`."
NOTIFY_ON = (
    "From now on a reminder of your turn also comes to you by direct message, with a link to the game. "
    "`/keystone notify on:False` stops it."
)
NOTIFY_OFF = "Reminders of your turn now come only in the game's channel."
NO_CLOCK_SOLO = "A solo assignment has no turn clock, so it takes no `pace`; play at whatever speed you like."


@dataclass(frozen=True, slots=True)
class Decider:
    """Who must decide now: the turn number and the store seat."""

    turn: int
    seat: int


def decider(record: GameRecord, state: GameState | None) -> Decider | None:
    """The (turn, store seat) that must decide in this state; None before the start or once it is over."""
    if state is None or state.phase == "over":
        return None
    return Decider(state.turn, acting_player(state))


def is_timed(record: GameRecord, who: Decider | None) -> bool:
    """Whether this decider's turn runs on a clock: the game has a pace and a person (not away) decides."""
    return record.pace is not None and who is not None and not record.seats[who.seat].bot_decides


def start(who: Decider, pace: Pace, now: float) -> Clock:
    """The clock of a turn handed to `who` at `now`."""
    span = TURN_TIME[pace]
    return Clock(who.turn, who.seat, now, now + span * REMINDER_AT, now + span)


def duration_words(seconds: float) -> str:
    """"3 days", "12 hours", "10 minutes", "less than a minute": whole days from two days up,
    whole hours from two hours up, else minutes."""
    for size, unit in ((DAY, "day"), (HOUR, "hour")):
        if seconds >= 2 * size:
            return plural(round(seconds / size), unit)
    if seconds >= MINUTE:
        return plural(round(seconds / MINUTE), "minute")
    return "less than a minute"


def pace_words(pace: Pace) -> str:
    """"daily (24 hours a turn)"."""
    return f"{pace} ({duration_words(TURN_TIME[pace])} a turn)"


def time_left(record: GameRecord, now: float) -> str | None:
    """"12 hours left", "clock paused" or "time is up" for a running game's timed turn; None when
    nothing is being timed (no pace, a bot to play, a lobby)."""
    if record.status != "active" or record.pace is None:
        return None
    if record.paused_at is not None:
        return "clock paused"
    if record.clock is None:
        return None
    left = record.clock.deadline - now
    return f"{duration_words(left)} left" if left > 0 else "time is up"


def vote_opens_in(record: GameRecord, now: float) -> float:
    """Seconds until the seat being timed may be voted away (0 once half its time has gone)."""
    return 0.0 if record.clock is None else max(0.0, record.clock.remind_at - now)


def votes_needed(electorate: int) -> int:
    """More than half of those who may vote."""
    return electorate // 2 + 1


def back_sentence(name: str) -> str:
    return f"{name} is back and plays their own seat again."


def reminder_sentence(user_id: int, left: str, link: str) -> str:
    """The channel reminder half-way through a person's turn."""
    return (f"<@{user_id}>, a reminder: it is still your turn here, {left} left. If the time runs out, a normal "
            f"bot plays this turn for you. [Jump to the game]({link})")


def reminder_by_dm(where: str, left: str, link: str) -> str:
    """The same reminder by direct message, for people who asked for it with `/keystone notify`."""
    return f"Your Keystone turn is waiting in {where}: {left} left. [Jump to the game]({link})"


def timed_out_sentence(seat: SeatInfo) -> str:
    """What the table reads when a person's time ran out, by whether they are now away."""
    if seat.away:
        return (f"Time ran out for {seat.name} again ({plural(seat.missed, 'turn')} in a row), so a normal bot "
                f"plays their seat until they come back with `/keystone back` or any move of theirs.")
    return f"Time ran out for {seat.name}, so a normal bot played this turn for them."


def voted_away_sentence(name: str) -> str:
    return (f"The others voted, so a normal bot plays {name}'s seat until they come back with "
            "`/keystone back` or any move of theirs.")


def vote_sentence(voter: str, name: str, votes: int, needed: int) -> str:
    return (f"{voter} votes to hand {name}'s seat to a bot until they come back: "
            f"{votes} of the {plural(needed, 'vote')} needed.")


def paused_sentence(name: str) -> str:
    return (f"{name} paused the clock: no reminders and no turn runs out until `/keystone clock resume`. "
            "Moves can still be made.")


def vote_problem(record: GameRecord, state: GameState, voter: int, target: int, now: float) -> str | None:
    """Why `voter` may not vote `target`'s seat away now (one sentence), or None when they may."""
    seat = record.seats[target]
    if target == voter:
        return "You cannot vote on your own seat; to hand it to a bot for good, use `/keystone resign`."
    if seat.is_bot:
        return f"{seat.name} is a bot and never keeps anyone waiting."
    if seat.away:
        return f"A bot already plays {seat.name}'s seat until they come back."
    if record.pace is None:
        return NO_PACE
    who = decider(record, state)
    if who is None or who.seat != target:
        acting = "nobody" if who is None else record.seats[who.seat].name
        return f"You can only vote while it is {seat.name}'s turn; it is {acting}'s turn now."
    if record.paused_at is not None:
        return "The clock is paused, so there is no vote until the host resumes it."
    wait = vote_opens_in(record, now)
    if wait > 0:
        return (f"You can vote once half of {seat.name}'s time for this turn has gone, "
                f"in {duration_words(wait)}.")
    return None
