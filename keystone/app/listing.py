"""The words of `/keystone games`: one line per lobby or running game, saying where it is, who
sits there, whose turn it is and the round, with a link that jumps to its channel.

Games where it is the asker's turn come first and are marked, so the list answers "where am I
awaited?" at a glance. The list is cut to fit one Discord message, saying how many are left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from keystone.app import clock
from keystone.app.markdown import plain
from keystone.engine import GameState
from keystone.engine.coop import acting_player
from keystone.i18n import DEFAULT, Language, tr, trn
from keystone.i18n.commands import slash
from keystone.store import GameRecord

Scope = Literal["mine", "server"]

MESSAGE_LIMIT = 2000
"""Discord's limit on a message's length, in characters."""
FOOTER_ROOM = 60
"""Characters kept free for the line that says how many games were left out."""
MOST_LINES = 40
"""More lines never fit in one message (each is longer than 50 characters), so states of games
beyond these, which only add to the count, need not be read."""

def say(lang: Language, key: str, /, **params: object) -> str:
    """A sentence of the list in `lang`, naming commands as a client in `lang` shows them."""
    return tr(lang, key, new=slash(lang, "keystone new"), games=slash(lang, "keystone games"), **params)


EMPTY: dict[Scope, str] = {scope: say(DEFAULT, f"listing.empty.{scope}") for scope in ("mine", "server")}
NO_SERVER = say(DEFAULT, "listing.no_server")
"""The answers to an empty list and to a server list in a direct message, in English (`say` words them in any)."""


@dataclass(frozen=True, slots=True)
class Listed:
    """A game to list; `state` is None for a lobby, or for a game whose saved state could not be read."""

    record: GameRecord
    state: GameState | None


def jump_link(record: GameRecord) -> str:
    """The address that opens the game's channel (or direct message) in Discord."""
    where = "@me" if record.guild_id is None else str(record.guild_id)
    return f"https://discord.com/channels/{where}/{record.channel_id}"


def is_my_turn(game: Listed, user_id: int) -> bool:
    """Whether this person decides now in this running game."""
    if game.state is None or game.state.phase == "over":
        return False
    return game.record.seats[acting_player(game.state)].user_id == user_id


def _turn_words(game: Listed, user_id: int, lang: Language) -> str:
    """"**your turn** · round 3", "Bob to play · round 3", or the lobby's wait."""
    record, state = game.record, game.state
    if record.status == "lobby":
        missing = record.config.players - len(record.seats)
        return tr(lang, "listing.lobby.waiting", missing=missing) if missing > 0 else tr(lang, "listing.lobby.full")
    if state is None:
        return tr(lang, "listing.unreadable")
    if is_my_turn(game, user_id):
        who = tr(lang, "listing.your_turn")
    else:
        who = tr(lang, "listing.to_play", name=plain(record.seats[acting_player(state)].name))
    return tr(lang, "listing.round", who=who, round=state.turn // record.config.players + 1)


def game_line(game: Listed, user_id: int, now: float | None = None, lang: Language = DEFAULT) -> str:
    """One game: where, who plays, whose turn and the round, the time left on the turn (from `now`),
    and the jump link; marked when it is this person's turn."""
    record = game.record
    where = tr(lang, "listing.dm") if record.guild_id is None else f"<#{record.channel_id}>"
    players = ", ".join(plain(s.name) for s in record.seats)
    mark = "\u27a4" if is_my_turn(game, user_id) else "\u2022"
    left = None if now is None else clock.time_left(record, now, lang)
    timing = f" · {left}" if left else ""
    return tr(lang, "listing.line", mark=mark, where=where, players=players, turn=_turn_words(game, user_id, lang),
              timing=timing, link=jump_link(record))


def games_text(scope: Scope, games: list[Listed], user_id: int, now: float | None = None,
               lang: Language = DEFAULT) -> str:
    """The whole answer: a title, the lines (this person's turns first) cut to fit one message."""
    if not games:
        return say(lang, f"listing.empty.{scope}")
    ordered = sorted(games, key=lambda g: not is_my_turn(g, user_id))  # stable: latest activity stays first
    waiting = sum(is_my_turn(g, user_id) for g in games)
    turns = tr(lang, "listing.waiting", count=waiting) if waiting else ""
    text = tr(lang, "listing.title", title=tr(lang, f"listing.title.{scope}"), count=len(games), turns=turns)
    shown = 0
    for game in ordered:
        line = game_line(game, user_id, now, lang)
        if len(text) + 1 + len(line) > MESSAGE_LIMIT - FOOTER_ROOM:
            break
        text += "\n" + line
        shown += 1
    if shown < len(games):
        text += "\n" + trn(lang, "listing.more", len(games) - shown)
    return text
