"""The daily challenge: what is the same for everyone on a day (setup and seed) and its sentences.

The seed is HMAC-SHA256(secret, day): the same for everyone on a UTC day, different across days,
and not guessable from the date, because the secret is made once at random and kept only in the
database. No sentence here ever shows the secret or a seed.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, date, datetime, timedelta
from typing import Literal

from keystone.engine import GameConfig
from keystone.i18n import COMMANDS, DEFAULT, Language, catalogue, day_text, tr, trn
from keystone.i18n.commands import option, slash
from keystone.store import DailyBoard, DailyGame, GameRecord

Show = Literal["play", "board", "yesterday"]

CONFIG = GameConfig(players=1, rules="second-edition")
"""Every daily challenge is the rulebook's solo game, second edition: one fair setup for all."""

SEED_BITS = 63
BOARD_LINES = 25
"""At most this many results on a board of the day (the message must stay under Discord's limit)."""

def say(lang: Language, key: str, /, **params: object) -> str:
    """A daily sentence in `lang`, naming the commands (and `show:board`) as a client in `lang` shows them
    (English names the choice by its value, as it always has; other languages by the choice's name);
    the days `day` and `other` (`YYYY-MM-DD`) are written as `lang` writes a date."""
    board = "board" if lang == DEFAULT else catalogue(lang, COMMANDS)["choice.board"]
    daily = slash(lang, "keystone daily")
    names = {"daily": daily, "abandon": slash(lang, "keystone abandon"),
             "show_board": f"{daily} {option(lang, 'keystone daily', 'show')}:{board}"}
    days = {k: day_text(lang, str(v)) for k, v in params.items() if k in ("day", "other")}
    return tr(lang, key, **names, **{**params, **days})


NOT_IN_A_DM, DMS_CLOSED = (say(DEFAULT, f"daily.{key}") for key in ("not_in_a_dm", "dms_closed"))
"""Two refusals in English (`say(lang, "daily.dms_closed")` in any language)."""


def day_of(timestamp: float) -> str:
    """The UTC date of a moment, `YYYY-MM-DD`: the day whose challenge is played."""
    return datetime.fromtimestamp(timestamp, UTC).date().isoformat()


def day_before(day: str) -> str:
    return (date.fromisoformat(day) - timedelta(days=1)).isoformat()


def still_playable(day: str, today: str, mine: DailyGame | None) -> bool:
    """Whether someone may still play `day`'s challenge (today's not begun or running, an earlier
    day's still running): until then, nobody else's result of that day is shown to them."""
    if mine is None:
        return day == today
    return mine.is_open


def seed_for(secret: bytes, day: str) -> int:
    """The day's seed: HMAC-SHA256 of the date under the secret, cut to a positive 63-bit number."""
    digest = hmac.new(secret, f"keystone daily {day}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def begins_headline(day: str, lang: Language = DEFAULT) -> str:
    return say(lang, "daily.begins", day=day)


NOT_LISTED = say(DEFAULT, "daily.not_listed")
"""Said under a board to someone not on it, in English (`say(lang, "daily.not_listed")` in any language)."""


def dm_link(channel_id: int) -> str:
    """The address that opens our direct message in Discord."""
    return f"https://discord.com/channels/@me/{channel_id}"


def started_note(day: str, channel_id: int, lang: Language = DEFAULT) -> str:
    return say(lang, "daily.started", day=day, link=dm_link(channel_id))


def resumed_note(day: str, channel_id: int, lang: Language = DEFAULT) -> str:
    return say(lang, "daily.resumed", day=day, link=dm_link(channel_id))


def resume_headline(day: str, lang: Language = DEFAULT) -> str:
    return say(lang, "daily.resume", day=day)


def done_sentence(mine: DailyGame, lang: Language = DEFAULT) -> str:
    """What a second request the same day hears once the day's game is over."""
    if mine.score is None:
        return say(lang, "daily.done.abandoned", day=mine.day)
    key = "daily.done.resigned" if mine.resigned else "daily.done.scored"
    counted = "reply.point.with" if mine.resigned else "reply.point.count"  # "mit 2 Punkten", "2 Punkte"
    return say(lang, key, day=mine.day, points=trn(lang, counted, mine.score))


def busy_sentence(record: GameRecord, other_daily: DailyGame | None, day: str, lang: Language = DEFAULT) -> str:
    """Why the day's game cannot begin in this direct message: another game holds it."""
    if other_daily is not None:
        return say(lang, "daily.busy.daily", other=other_daily.day, day=day)
    return say(lang, "daily.busy.journal" if record.assignment is not None else "daily.busy.game")


def hidden_sentence(day: str, mine: DailyGame | None, lang: Language = DEFAULT) -> str:
    """Why the board is not shown yet: no spoilers before one's own game of that day is over."""
    if mine is not None and mine.is_open:
        return say(lang, "daily.hidden.running", day=day)
    return say(lang, "daily.hidden", day=day)


def board_text(board: DailyBoard, user_id: int, lang: Language = DEFAULT) -> str:
    """A server's board of a day: rank, name and score (resignations last); the asker in bold."""
    lines = [say(lang, "daily.board", day=board.day)]
    place, previous = 0, None
    for index, game in enumerate(board.results[:BOARD_LINES]):
        points = trn(lang, "reply.point.count", game.score or 0)
        if game.resigned:
            result = say(lang, "daily.board.resigned", points=points)
        else:
            if game.score != previous:
                place, previous = index + 1, game.score
            result = points
        rank = "-" if game.resigned else f"{place}."
        name = f"**{game.name}**" if game.user_id == user_id else game.name
        lines.append(f"{rank} {name}: {result}")
    if len(board.results) > BOARD_LINES:
        lines.append(trn(lang, "daily.board.more", len(board.results) - BOARD_LINES))
    if not board.results:
        lines.append(say(lang, "daily.board.nobody"))
    if board.playing:
        lines.append(trn(lang, "daily.board.playing", board.playing))
    return "\n".join(lines)


def result_line(mine: DailyGame, lang: Language = DEFAULT) -> str:
    """Said under the score sheet when a daily game ends."""
    return say(lang, "daily.result", day=mine.day)
