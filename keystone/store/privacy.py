"""Forgetting a person or a server, each in one transaction, and the servers the bot was removed from.

The `Privacy` half of the `Store` (see `keystone.store.store`). What is deleted, what is made
anonymous and what is kept, and why, is told in PRIVACY.md; in short:

- a person: their settings, Field Journal progress, daily entries, their own rating and the
  messages owed to them are deleted; in every game they sat in (or hosted, or resigned from) their id
  becomes one anonymous id (negative, random, never a Discord id) and their name the game's words for
  "a former player", snapshot and log digests included; results and others' ratings stay as they
  were. A lobby seat is given up; a running game's seat becomes a normal bot's (a running game with
  no other person in it ends instead).
- a server: its settings, its daily board and everything owed to its channels are deleted; its open
  games end (abandoned); its finished games stay for their players' results, with the server's and
  channels' ids replaced by an anonymous one.

Both are idempotent: asked again, they find nothing left to do.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from keystone.engine import load_config
from keystone.engine.bots import LEVELS
from keystone.store import validate
from keystone.store.backend import Connection
from keystone.store.base import StoreBase
from keystone.store.ratings import user_player
from keystone.store.renaming import rename_game

OPEN = "('lobby', 'active')"
PERSON_GAMES = ("SELECT game_id FROM seats WHERE user_id = ?1 UNION SELECT id FROM games WHERE host_id = ?1 "
                "UNION SELECT game_id FROM resignations WHERE user_id = ?1 "
                "UNION SELECT game_id FROM daily_games WHERE user_id = ?1")
"""Every game that holds the person `?1`: seated, hosting, resigned from, or a daily entry."""


def _as_typed(name: str) -> tuple[str, ...]:
    return (name,)


def anonymous_id() -> int:
    """A stand-in for a forgotten person's or server's id: negative, so never a Discord id, and random,
    so nothing leads back from it."""
    return -(secrets.randbelow(2**62) + 1)


@dataclass(frozen=True, slots=True)
class Labels:
    """What a forgotten person is called, per language ('en', 'de'): as a seat (`former`) and as the
    bot that plays on in their seat (`bot`). A game uses its own language's words (English when unset)."""

    former: Mapping[str, str]
    bot: Mapping[str, str]
    spellings: Callable[[str], Sequence[str]] = _as_typed
    """The ways a name is written in the messages the bot owes (as typed, Markdown escaped, ...)."""

    def of(self, language: str | None) -> tuple[str, str]:
        lang = language if language is not None and language in self.former else "en"
        return self.former[lang], self.bot[lang]


@dataclass(frozen=True, slots=True)
class PersonForgotten:
    """What forgetting a person changed: the games renamed, and the running ones whose seat a bot took."""

    games: int
    handed_to_bot: tuple[int, ...]


class Privacy(StoreBase):
    """Forgetting people and servers."""

    # ------------------------------------------------------------------ a person

    async def games_of_person(self, user_id: int) -> list[int]:
        """Every game that holds this person: seated, hosting, resigned from, or a daily entry."""
        user_id = validate.ident(user_id, "user id")
        rows = await self._rows(f"{PERSON_GAMES} ORDER BY 1", (user_id,))
        return [int(r[0]) for r in rows]

    async def forget_person(self, user_id: int, labels: Labels) -> PersonForgotten:
        """Forget this person in one transaction (see the module's docstring); the caller holds the
        locks of their games, so no move is computed from a state that still names them."""
        user_id = validate.ident(user_id, "user id")
        anon = anonymous_id()
        async with self._db.transaction() as db:
            names = {str(r[0]) for r in await db.fetch("SELECT name FROM seats WHERE user_id = ?", (user_id,))}
            games = await db.fetch(
                "SELECT g.id, g.status, g.language, coalesce(l.language, 'en') FROM games g "
                f"LEFT JOIN server_settings l ON l.guild_id = g.guild_id WHERE g.id IN ({PERSON_GAMES}) ORDER BY g.id",
                (user_id,))
            handed: list[int] = []
            for game_id, status, language, server_language in games:
                former, bot = labels.of(language or server_language)
                if status == "lobby":
                    await self._leave_lobby(db, int(game_id), user_id, anon)
                    continue
                seated = await self._positions(db, int(game_id), user_id)
                if status == "active" and not await self._others_play(db, int(game_id), user_id):
                    await self._end(db, int(game_id))  # alone, or with bots only: nobody to play on for
                elif status == "active" and await self._hand_seat_to_bot(db, int(game_id), user_id, bot):
                    handed.append(int(game_id))
                    await db.execute(  # a running game's host is someone still at the table, if anyone is
                        "UPDATE games SET host_id = coalesce((SELECT s.user_id FROM seats s WHERE s.game_id = games.id "
                        "AND s.user_id IS NOT NULL ORDER BY s.position LIMIT 1), host_id) WHERE id = ? AND host_id = ?",
                        (game_id, user_id))
                await self._rename(db, int(game_id), user_id, seated, names, former, bot)
            await self._anonymise_rows(db, user_id, anon)
            await self._forget_owed(db, user_id, names, labels.spellings)
        return PersonForgotten(len(games), tuple(handed))

    async def _leave_lobby(self, db: Connection, game_id: int, user_id: int, anon: int) -> None:
        """Give up the person's lobby seat; a lobby left without people is abandoned."""
        seats = await db.fetch("SELECT user_id, bot_level, name FROM seats WHERE game_id = ? ORDER BY position",
                               (game_id,))
        kept = [(u, b, n) for u, b, n in seats if u != user_id]
        people = [u for u, _, _ in kept if u is not None]
        await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await db.executemany("INSERT INTO seats (game_id, position, user_id, bot_level, name) VALUES (?, ?, ?, ?, ?)",
                             [(game_id, i, u, b, n) for i, (u, b, n) in enumerate(kept)])
        host, status = (people[0], "lobby") if people else (anon, "abandoned")
        await db.execute(
            "UPDATE games SET host_id = CASE WHEN host_id = ? THEN ? ELSE host_id END, status = ?, updated_at = ? "
            "WHERE id = ?", (user_id, host, status, self._clock(), game_id))

    async def _others_play(self, db: Connection, game_id: int, user_id: int) -> bool:
        rows = await db.fetch("SELECT 1 FROM seats WHERE game_id = ? AND user_id IS NOT NULL AND user_id <> ?",
                              (game_id, user_id))
        return bool(rows)

    async def _end(self, db: Connection, game_id: int) -> None:
        """Abandon an open game (no result, nobody rated), with its clock and votes."""
        await db.execute("DELETE FROM clocks WHERE game_id = ?", (game_id,))
        await db.execute("DELETE FROM away_votes WHERE game_id = ?", (game_id,))
        await db.execute("UPDATE games SET status = 'abandoned', updated_at = ? WHERE id = ?", (self._clock(), game_id))

    async def _hand_seat_to_bot(self, db: Connection, game_id: int, user_id: int, bot: str) -> bool:
        """A normal bot takes the person's seat in a running game (not counted as a resignation)."""
        changed = await db.execute(
            "UPDATE seats SET user_id = NULL, bot_level = ?, name = ?, missed = 0, away = 0 "
            "WHERE game_id = ? AND user_id = ?", (LEVELS.index("normal"), bot, game_id, user_id))
        await db.execute("DELETE FROM away_votes WHERE game_id = ? AND voter_id = ?", (game_id, user_id))
        return changed > 0

    async def _positions(self, db: Connection, game_id: int, user_id: int) -> set[int]:
        """The seats this person holds in a game, or held until they resigned."""
        rows = await db.fetch("SELECT position FROM seats WHERE game_id = ?1 AND user_id = ?2 UNION "
                              "SELECT position FROM resignations WHERE game_id = ?1 AND user_id = ?2",
                              (game_id, user_id))
        return {int(r[0]) for r in rows}

    async def _rename(self, db: Connection, game_id: int, user_id: int, seated: set[int], names: set[str],
                      former: str, bot: str) -> None:
        """The person's names leave this game's seats, board names, snapshot and digests; the board
        names they had join `names` (to find them in messages still owed)."""
        await db.execute("UPDATE seats SET name = ? WHERE game_id = ? AND user_id = ?", (former, game_id, user_id))
        for position in seated:  # a bot that took their seat (they resigned) was named after them
            await db.execute("UPDATE seats SET name = ? WHERE game_id = ? AND position = ? AND user_id IS NULL",
                             (bot, game_id, position))
        row = (await db.fetch("SELECT config, seed, names, snapshot FROM games WHERE id = ?", (game_id,)))[0]
        if row[1] is None or row[2] is None or row[3] is None:
            return
        config, boards = load_config(row[0]), [str(n) for n in json.loads(row[2])]
        if config.coop:  # one shared board, named after everyone, as the game's start named it
            seats = await db.fetch("SELECT name FROM seats WHERE game_id = ? ORDER BY position", (game_id,))
            boards = [" & ".join(str(r[0]) for r in seats)[:100]]
        else:
            names.update(boards[p] for p in seated if p < len(boards))
            boards = [former if i in seated else name for i, name in enumerate(boards)]
        log = [(int(v), str(n)) for v, n in await db.fetch(
            "SELECT version, notation FROM actions WHERE game_id = ? ORDER BY version", (game_id,))]
        renamed = rename_game(config, int(row[1]), str(row[3]), log, boards)
        await db.execute("UPDATE games SET names = ?, snapshot = ?, state_hash = ? WHERE id = ?",
                         (renamed.names, renamed.snapshot, renamed.digest, game_id))
        digests = renamed.digests or (((log[-1][0], renamed.digest),) if log else ())
        await db.executemany("UPDATE actions SET state_hash = ? WHERE game_id = ? AND version = ?",
                             [(digest, game_id, version) for version, digest in digests])

    async def _anonymise_rows(self, db: Connection, user_id: int, anon: int) -> None:
        """Results, rating history and game records keep their rows under the anonymous id; what
        was the person's alone is deleted."""
        for sql in ("UPDATE seats SET user_id = ?2 WHERE user_id = ?1",
                    "UPDATE results SET user_id = ?2 WHERE user_id = ?1",
                    "UPDATE resignations SET user_id = ?2 WHERE user_id = ?1",
                    "UPDATE games SET host_id = ?2 WHERE host_id = ?1"):
            await db.execute(sql, (user_id, anon))
        await db.execute("UPDATE rating_changes SET player = ? WHERE player = ?",
                         (user_player(anon), user_player(user_id)))
        await db.execute("DELETE FROM ratings WHERE player = ?", (user_player(user_id),))
        for table, column in (("user_settings", "user_id"), ("campaign", "user_id"), ("daily_games", "user_id"),
                              ("daily_servers", "user_id"), ("away_votes", "voter_id")):
            await db.execute(f"DELETE FROM {table} WHERE {column} = ?", (user_id,))

    async def _forget_owed(self, db: Connection, user_id: int, names: set[str],
                           spellings: Callable[[str], Sequence[str]]) -> None:
        """Messages to the person are deleted; messages still owed that name them are never sent (a
        message already sent keeps no text)."""
        await db.execute("DELETE FROM outbox WHERE user_id = ?", (user_id,))
        spelled = {str(user_id)} | {json.dumps(form, ensure_ascii=False)[1:-1]
                                    for name in names if name for form in spellings(name)}
        for text in sorted(spelled):
            await db.execute("UPDATE outbox SET body = '', gave_up = 'forgotten', answer = NULL WHERE sent_at IS NULL "
                             "AND gave_up IS NULL AND body LIKE ? ESCAPE '!'", (f"%{_literal(text)}%",))

    # ------------------------------------------------------------------ a server

    async def forget_server(self, guild_id: int) -> int:
        """Forget this server in one transaction; returns how many of its open games ended."""
        guild_id = validate.ident(guild_id, "server id")
        anon = anonymous_id()
        async with self._db.transaction() as db:
            open_games = [int(r[0]) for r in await db.fetch(
                f"SELECT id FROM games WHERE guild_id = ? AND status IN {OPEN}", (guild_id,))]
            for game_id in open_games:
                await self._end(db, game_id)
            await db.execute("DELETE FROM outbox WHERE guild_id = ? OR game_id IN (SELECT id FROM games "
                             "WHERE guild_id = ?)", (guild_id, guild_id))
            await db.execute("UPDATE games SET guild_id = NULL, channel_id = ? WHERE guild_id = ?", (anon, guild_id))
            for table in ("server_settings", "daily_servers", "server_departures"):
                await db.execute(f"DELETE FROM {table} WHERE guild_id = ?", (guild_id,))
        return len(open_games)

    async def server_left(self, guild_id: int) -> None:
        """The bot was removed from this server: from now its data waits to be forgotten (the first
        removal counts, if it is told twice)."""
        guild_id = validate.ident(guild_id, "server id")
        async with self._db.transaction() as db:
            await db.execute("INSERT INTO server_departures (guild_id, left_at) VALUES (?, ?) "
                             "ON CONFLICT (guild_id) DO NOTHING", (guild_id, self._clock()))

    async def server_back(self, guild_id: int) -> None:
        """The bot is in this server again: nothing of it will be forgotten."""
        guild_id = validate.ident(guild_id, "server id")
        if not await self._rows("SELECT 1 FROM server_departures WHERE guild_id = ?", (guild_id,)):
            return  # the usual case, at every start-up: no write
        async with self._db.transaction() as db:
            await db.execute("DELETE FROM server_departures WHERE guild_id = ?", (guild_id,))

    async def known_servers(self) -> set[int]:
        """Every server the database holds something of (games, settings, a daily board)."""
        rows = await self._rows("SELECT guild_id FROM games WHERE guild_id IS NOT NULL UNION "
                                "SELECT guild_id FROM server_settings UNION SELECT guild_id FROM daily_servers", ())
        return {int(r[0]) for r in rows}

    async def departed_servers(self, before: float) -> list[int]:
        """Servers the bot left before this time and has not rejoined, longest gone first."""
        rows = await self._rows("SELECT guild_id FROM server_departures WHERE left_at <= ? ORDER BY left_at",
                                (float(before),))
        return [int(r[0]) for r in rows]


def _literal(text: str) -> str:
    """`text` matched as itself inside a LIKE pattern (escaped with '!')."""
    return text.replace("!", "!!").replace("%", "!%").replace("_", "!_")
