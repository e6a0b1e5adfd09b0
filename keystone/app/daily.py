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
from keystone.engine.words import plural
from keystone.store import DailyBoard, DailyGame, GameRecord

Show = Literal["play", "board", "yesterday"]

CONFIG = GameConfig(players=1, rules="second-edition")
"""Every daily challenge is the rulebook's solo game, second edition: one fair setup for all."""

SEED_BITS = 63
BOARD_LINES = 25
"""At most this many results on a board of the day (the message must stay under Discord's limit)."""

NOT_IN_A_DM = ("The board of the day belongs to a server: ask for it in a channel of a server where you "
               "play the daily.")
DMS_CLOSED = ("I could not send you a direct message: your direct messages seem closed to me. Your daily "
              "challenge is ready and waiting; allow direct messages from this server's members (or open a "
              "direct message with me) and use `/keystone daily` again.")


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


def begins_headline(day: str) -> str:
    return (f"**Daily challenge of {day}** (UTC): the same solo game, cards and skills for everyone today. "
            "One attempt; your result joins the board of the day of each server where you play the daily.")
NOT_LISTED = ("You are not on this server's board: ask for `/keystone daily` here once, and your results "
              "appear on it from then on.")


def dm_link(channel_id: int) -> str:
    """The address that opens our direct message in Discord."""
    return f"https://discord.com/channels/@me/{channel_id}"


def started_note(day: str, channel_id: int) -> str:
    return f"Your daily challenge of {day} has begun in our direct messages: {dm_link(channel_id)}"


def resumed_note(day: str, channel_id: int) -> str:
    return (f"Your daily challenge of {day} is still running in our direct messages; I posted where it stands "
            f"there: {dm_link(channel_id)}")


def resume_headline(day: str) -> str:
    return f"**Daily challenge of {day}**: your game goes on from here."


def done_sentence(mine: DailyGame) -> str:
    """What a second request the same day hears once the day's game is over."""
    if mine.score is None:
        return (f"You have had your daily challenge of {mine.day}: it was abandoned. A new one comes at "
                "midnight UTC.")
    how = "you resigned with" if mine.resigned else "you scored"
    return (f"You have already played the daily challenge of {mine.day}: {how} {plural(mine.score, 'point')}. "
            "`/keystone daily show:board` in a server shows how the others did; a new one comes at midnight UTC.")


def busy_sentence(record: GameRecord, other_daily: DailyGame | None, day: str) -> str:
    """Why the day's game cannot begin in this direct message: another game holds it."""
    if other_daily is not None:
        return (f"Your daily challenge of {other_daily.day} is still running in our direct messages; finish it "
                f"(or end it with `/keystone abandon` there) and today's ({day}) can begin.")
    what = "Field Journal assignment" if record.assignment is not None else "game"
    return (f"A {what} is running in our direct messages; finish it (or end it with `/keystone abandon` "
            "there), then ask for the daily challenge again.")


def hidden_sentence(day: str, mine: DailyGame | None) -> str:
    """Why the board is not shown yet: no spoilers before one's own game of that day is over."""
    if mine is not None and mine.is_open:
        return f"Finish your daily challenge of {day} first; then the board of the day is yours to see."
    return (f"No spoilers: the board of {day} opens to you once you have played that day's daily challenge "
            "(`/keystone daily`).")


def board_text(board: DailyBoard, user_id: int) -> str:
    """A server's board of a day: rank, name and score (resignations last); the asker in bold."""
    lines = [f"**Daily challenge of {board.day}**: this server's board"]
    place, previous = 0, None
    for index, game in enumerate(board.results[:BOARD_LINES]):
        if game.resigned:
            result = f"resigned ({plural(game.score or 0, 'point')})"
        else:
            if game.score != previous:
                place, previous = index + 1, game.score
            result = plural(game.score or 0, "point")
        rank = "-" if game.resigned else f"{place}."
        name = f"**{game.name}**" if game.user_id == user_id else game.name
        lines.append(f"{rank} {name}: {result}")
    if len(board.results) > BOARD_LINES:
        lines.append(f"... and {plural(len(board.results) - BOARD_LINES, 'more result')}.")
    if not board.results:
        lines.append("Nobody here has finished that day's challenge.")
    if board.playing:
        are = "is" if board.playing == 1 else "are"
        lines.append(f"{plural(board.playing, 'player')} {are} still playing.")
    return "\n".join(lines)


def result_line(mine: DailyGame) -> str:
    """Said under the score sheet when a daily game ends."""
    return (f"Your result for the daily challenge of {mine.day} is saved. `/keystone daily show:board` in a "
            "server where you play the daily shows its board of the day.")
