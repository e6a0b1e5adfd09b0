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

from keystone.app.markdown import plain_names
from keystone.engine import GameState
from keystone.engine.coop import acting_player
from keystone.i18n import DEFAULT, Language, tr, trn
from keystone.i18n.commands import option, slash
from keystone.store import Clock, GameRecord, SeatInfo
from keystone.store import Pace as Pace  # the pace vocabulary, as the cogs name it (they do not reach into the store)

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

def say(lang: Language, key: str, /, **params: object) -> str:
    """A clock sentence in `lang`, with the commands it names as a client in `lang` shows them."""
    commands = {"back": slash(lang, "keystone back"), "resign": slash(lang, "keystone resign"),
                "resume": slash(lang, "keystone clock resume"), "clock_pace": slash(lang, "keystone clock pace"),
                "notify": slash(lang, "keystone notify"), "pace_option": option(lang, "keystone new", "pace"),
                "on_option": option(lang, "keystone notify", "on")}
    return tr(lang, key, **commands, **plain_names(params))


NO_CLOCK_IN_DM, NO_PACE, NOTIFY_ON, NOTIFY_OFF, NO_CLOCK_SOLO = (
    say(DEFAULT, f"clock.{key}") for key in ("no_clock_in_dm", "no_pace", "notify_on", "notify_off", "no_clock_solo"))
"""The clock's fixed sentences in English (`say(lang, "clock.no_pace")` in any language)."""


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


def start(who: Decider, pace: Pace, now: float, scale: float = 1.0) -> Clock:
    """The clock of a turn handed to `who` at `now`; `scale` shortens every pace alike (see
    KEYSTONE_CLOCK_SCALE: 1 in real play)."""
    span = TURN_TIME[pace] * scale
    return Clock(who.turn, who.seat, now, now + span * REMINDER_AT, now + span)


def duration_words(seconds: float, lang: Language = DEFAULT) -> str:
    """"3 days", "12 hours", "10 minutes", "less than a minute": whole days from two days up,
    whole hours from two hours up, else minutes."""
    for size, unit in ((DAY, "day"), (HOUR, "hour")):
        if seconds >= 2 * size:
            return trn(lang, f"clock.{unit}", round(seconds / size))
    if seconds >= MINUTE:
        return trn(lang, "clock.minute", round(seconds / MINUTE))
    return tr(lang, "clock.under_a_minute")


def pace_words(pace: Pace, lang: Language = DEFAULT) -> str:
    """"daily (24 hours a turn)"."""
    return tr(lang, "clock.pace", pace=tr(lang, f"clock.pace.{pace}"), time=duration_words(TURN_TIME[pace], lang))


def time_left(record: GameRecord, now: float, lang: Language = DEFAULT) -> str | None:
    """"12 hours left", "clock paused" or "time is up" for a running game's timed turn; None when
    nothing is being timed (no pace, a bot to play, a lobby)."""
    if record.status != "active" or record.pace is None:
        return None
    if record.paused_at is not None:
        return tr(lang, "clock.paused")
    if record.clock is None:
        return None
    left = record.clock.deadline - now
    return tr(lang, "clock.left", time=duration_words(left, lang)) if left > 0 else tr(lang, "clock.up")


def vote_opens_in(record: GameRecord, now: float) -> float:
    """Seconds until the seat being timed may be voted away (0 once half its time has gone)."""
    return 0.0 if record.clock is None else max(0.0, record.clock.remind_at - now)


def votes_needed(electorate: int) -> int:
    """More than half of those who may vote."""
    return electorate // 2 + 1


def back_sentence(name: str, lang: Language = DEFAULT) -> str:
    return say(lang, "clock.back", name=name)


def reminder_sentence(user_id: int, left: str, link: str, lang: Language = DEFAULT) -> str:
    """The channel reminder half-way through a person's turn."""
    return say(lang, "clock.reminder", user_id=user_id, left=left, link=link)


def reminder_by_dm(where: str, left: str, link: str, lang: Language = DEFAULT) -> str:
    """The same reminder by direct message, for people who asked for it with `/keystone notify`."""
    return say(lang, "clock.reminder.dm", where=where, left=left, link=link)


def timed_out_sentence(seat: SeatInfo, lang: Language = DEFAULT) -> str:
    """What the table reads when a person's time ran out, by whether they are now away."""
    if seat.away:
        return say(lang, "clock.timed_out.away", name=seat.name, turns=trn(lang, "clock.turn", seat.missed))
    return say(lang, "clock.timed_out", name=seat.name)


def voted_away_sentence(name: str, lang: Language = DEFAULT) -> str:
    return say(lang, "clock.voted_away", name=name)


def vote_sentence(voter: str, name: str, votes: int, needed: int, lang: Language = DEFAULT) -> str:
    return say(lang, "clock.vote", voter=voter, name=name, votes=votes, needed=trn(lang, "clock.vote.needed", needed))


def paused_sentence(name: str, lang: Language = DEFAULT) -> str:
    return say(lang, "clock.paused_by", name=name)


def vote_problem(record: GameRecord, state: GameState, voter: int, target: int, now: float,
                 lang: Language = DEFAULT) -> str | None:
    """Why `voter` may not vote `target`'s seat away now (one sentence), or None when they may."""
    seat = record.seats[target]
    if record.seats[voter].away:
        return say(lang, "clock.vote.voter_away")
    if target == voter:
        return say(lang, "clock.vote.own")
    if seat.is_bot:
        return say(lang, "clock.vote.bot", name=seat.name)
    if seat.away:
        return say(lang, "clock.vote.away", name=seat.name)
    if record.pace is None:
        return say(lang, "clock.no_pace")
    who = decider(record, state)
    if who is None or who.seat != target:
        acting = tr(lang, "clock.nobody") if who is None else record.seats[who.seat].name
        return say(lang, "clock.vote.not_their_turn", name=seat.name, acting=acting)
    if record.paused_at is not None:
        return say(lang, "clock.vote.paused")
    wait = vote_opens_in(record, now)
    if wait > 0:
        return say(lang, "clock.vote.wait", name=seat.name, time=duration_words(wait, lang))
    return None
