"""The words of `/keystone history` and of the `/keystone replay` choices: one's finished games,
newest first, each with when and where it was played, who played, one's score and place, and
the game number that `/keystone replay` takes.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from keystone.app.markdown import plain
from keystone.i18n import DEFAULT, Language, day_text, tr, trn
from keystone.i18n.commands import option, slash
from keystone.store import FinishedGame, GameRecord

MESSAGE_LIMIT = 2000
FOOTER_ROOM = 60
MOST_GAMES = 15
"""Games listed by `/keystone history`: what fits one message with room to spare."""
CHOICES = 25
"""Discord offers at most 25 autocomplete choices."""

def say(lang: Language, key: str, /, **params: object) -> str:
    """A history sentence in `lang`, naming the commands as a client in `lang` shows them."""
    replay = slash(lang, "keystone replay")
    return tr(lang, key, history=slash(lang, "keystone history"),
              replay_game=f"{replay} {option(lang, 'keystone replay', 'game')}:", **params)


TITLE, EMPTY, NOT_A_NUMBER, NOT_FINISHED, ABANDONED, CHANGED, TOO_LARGE = (
    say(DEFAULT, f"history.{key}")
    for key in ("title", "empty", "not_a_number", "not_finished", "abandoned", "changed", "too_large"))
NOT_YOURS = say(DEFAULT, "history.not_yours", number="{number}")
"""The English sentences (`NOT_YOURS` still to be given its `{number}`); `say` words them in any language."""


def game_number(typed: str) -> int | None:
    """The game number in what was typed or chosen ("12", "#12", "game 12"), or None."""
    match = re.fullmatch(r"\s*(?:game\s*)?#?\s*(\d{1,12})\s*", typed, flags=re.IGNORECASE)
    return int(match.group(1)) if match else None


def ordinal(place: int, lang: Language = DEFAULT) -> str:
    """ "1st", "2nd", "11th" in English; "1.", "2." in German."""
    if lang != DEFAULT:
        return tr(lang, "history.ordinal", place=place)
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def kind_words(record: GameRecord, lang: Language = DEFAULT) -> str:
    if record.assignment is not None:
        return tr(lang, f"history.kind.journal{'.coop' if record.kind == 'coop' else ''}", number=record.assignment)
    if record.config.lesson:
        return tr(lang, "history.kind.lesson")
    return tr(lang, f"history.kind.{record.kind}")


def result_words(game: FinishedGame, lang: Language = DEFAULT) -> str:
    """"87 points, 1st of 3", "87 points together" (co-op) or "87 points" (solo)."""
    record, points = game.record, trn(lang, "reply.point.count", game.score)
    if record.kind == "coop":
        return tr(lang, "history.together", points=points)
    if len(record.seats) == 1:
        return points
    return tr(lang, "history.place", points=points, place=ordinal(game.place, lang), seats=len(record.seats))


def where_words(record: GameRecord, lang: Language = DEFAULT) -> str:
    return tr(lang, "listing.dm") if record.guild_id is None else f"<#{record.channel_id}>"


def history_line(game: FinishedGame, lang: Language = DEFAULT) -> str:
    record = game.record
    players = ", ".join(plain(s.name) for s in record.seats)
    return tr(lang, "history.line", time=int(game.finished_at), where=where_words(record, lang),
              kind=kind_words(record, lang), players=players, result=result_words(game, lang), number=record.id)


def history_text(games: list[FinishedGame], lang: Language = DEFAULT) -> str:
    """The whole private answer, cut to fit one message."""
    if not games:
        return say(lang, "history.empty")
    text = say(lang, "history.title")
    shown = 0
    for game in games:
        line = history_line(game, lang)
        if len(text) + 1 + len(line) > MESSAGE_LIMIT - FOOTER_ROOM:
            break
        text += "\n" + line
        shown += 1
    if shown < len(games):
        text += "\n" + trn(lang, "history.more", len(games) - shown)
    return text


def day(timestamp: float) -> str:
    """The UTC date, for choices (which cannot show Discord's local-time markup)."""
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d")


def choice_label(record: GameRecord, mine: FinishedGame | None, lang: Language = DEFAULT) -> str:
    """"Game 12 · 2026-12-01 · Alice, Bob · 87 points, 1st of 2": at most 100 characters."""
    players = ", ".join(s.name for s in record.seats)
    when = day(mine.finished_at if mine is not None else record.updated_at)
    head = tr(lang, "history.choice", number=record.id, day=day_text(lang, when))
    tail = f" · {result_words(mine, lang)}" if mine is not None else ""
    room = 100 - len(head) - len(tail)
    if len(players) > room:
        players = players[: max(0, room - 3)].rstrip() + "..."
    return f"{head}{players}{tail}"


def replay_choices(mine: list[FinishedGame], here: list[GameRecord], typed: str,
                   lang: Language = DEFAULT) -> list[tuple[str, str]]:
    """(label, value) pairs: one's own finished games and this channel's, newest first, matching `typed`."""
    own = {game.record.id: game for game in mine}
    records = {game.record.id: game.record for game in mine} | {record.id: record for record in here}
    newest = sorted(records.values(), key=lambda r: (own[r.id].finished_at if r.id in own else r.updated_at, r.id),
                    reverse=True)
    wanted = typed.strip().lower().lstrip("#")
    pairs = [(choice_label(r, own.get(r.id), lang), str(r.id)) for r in newest]
    return [(label, value) for label, value in pairs if wanted in label.lower()][:CHOICES]
