"""The words of `/keystone history` and of the `/keystone replay` choices: one's finished games,
newest first, each with when and where it was played, who played, one's score and place, and
the game number that `/keystone replay` takes.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from keystone.engine.words import plural
from keystone.store import FinishedGame, GameRecord

MESSAGE_LIMIT = 2000
FOOTER_ROOM = 60
MOST_GAMES = 15
"""Games listed by `/keystone history`: what fits one message with room to spare."""
CHOICES = 25
"""Discord offers at most 25 autocomplete choices."""

TITLE = "**Your finished games**, newest first (`/keystone replay game:` shows one turn by turn):"
EMPTY = "You have no finished games yet; when a game you play ends, it is listed here and can be replayed."
KIND_WORDS = {"competitive": "competitive", "solo": "solo", "coop": "co-op"}

NOT_A_NUMBER = "Give the game's number, as `/keystone history` lists it (for example `12`)."
NOT_FINISHED = "That game has not finished; its replay comes when it ends, since a running game still hides cards."
ABANDONED = "That game was abandoned, so it has no final scores to replay."
NOT_YOURS = "You can replay the games you played and the games finished in this channel; game {number} is neither."
CHANGED = "This game's saved moves no longer replay to its end, so it cannot be shown turn by turn."
TOO_LARGE = "This game's replay would be larger than Discord accepts, so it cannot be posted."


def game_number(typed: str) -> int | None:
    """The game number in what was typed or chosen ("12", "#12", "game 12"), or None."""
    match = re.fullmatch(r"\s*(?:game\s*)?#?\s*(\d{1,12})\s*", typed, flags=re.IGNORECASE)
    return int(match.group(1)) if match else None


def ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def kind_words(record: GameRecord) -> str:
    if record.assignment is not None:
        together = " co-op" if record.kind == "coop" else ""
        return f"Field Journal {record.assignment}{together}"
    return KIND_WORDS[record.kind]


def result_words(game: FinishedGame) -> str:
    """"87 points, 1st of 3", "87 points together" (co-op) or "87 points" (solo)."""
    record, points = game.record, plural(game.score, "point")
    if record.kind == "coop":
        return f"{points} together"
    if len(record.seats) == 1:
        return points
    return f"{points}, {ordinal(game.place)} of {len(record.seats)}"


def where_words(record: GameRecord) -> str:
    return "direct message" if record.guild_id is None else f"<#{record.channel_id}>"


def history_line(game: FinishedGame) -> str:
    record = game.record
    players = ", ".join(s.name for s in record.seats)
    return (f"\u2022 <t:{int(game.finished_at)}:d> · {where_words(record)} · {kind_words(record)} · {players} · "
            f"{result_words(game)} · game {record.id}")


def history_text(games: list[FinishedGame]) -> str:
    """The whole private answer, cut to fit one message."""
    if not games:
        return EMPTY
    text = TITLE
    shown = 0
    for game in games:
        line = history_line(game)
        if len(text) + 1 + len(line) > MESSAGE_LIMIT - FOOTER_ROOM:
            break
        text += "\n" + line
        shown += 1
    if shown < len(games):
        text += f"\n...and {plural(len(games) - shown, 'older game')} not shown."
    return text


def day(timestamp: float) -> str:
    """The UTC date, for choices (which cannot show Discord's local-time markup)."""
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d")


def choice_label(record: GameRecord, mine: FinishedGame | None) -> str:
    """"Game 12 · 2026-12-01 · Alice, Bob · 87 points, 1st of 2": at most 100 characters."""
    players = ", ".join(s.name for s in record.seats)
    when = day(mine.finished_at if mine is not None else record.updated_at)
    head = f"Game {record.id} · {when} · "
    tail = f" · {result_words(mine)}" if mine is not None else ""
    room = 100 - len(head) - len(tail)
    if len(players) > room:
        players = players[: max(0, room - 3)].rstrip() + "..."
    return f"{head}{players}{tail}"


def replay_choices(mine: list[FinishedGame], here: list[GameRecord], typed: str) -> list[tuple[str, str]]:
    """(label, value) pairs: one's own finished games and this channel's, newest first, matching `typed`."""
    own = {game.record.id: game for game in mine}
    records = {game.record.id: game.record for game in mine} | {record.id: record for record in here}
    newest = sorted(records.values(), key=lambda r: (own[r.id].finished_at if r.id in own else r.updated_at, r.id),
                    reverse=True)
    wanted = typed.strip().lower().lstrip("#")
    pairs = [(choice_label(r, own.get(r.id)), str(r.id)) for r in newest]
    return [(label, value) for label, value in pairs if wanted in label.lower()][:CHOICES]
