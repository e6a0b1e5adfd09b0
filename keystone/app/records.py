"""Records of play: the list of one's open games (or a server's), statistics and the leaderboard,
one's finished games and their replays."""

from __future__ import annotations

import logging

from keystone.app import daily, listing, markdown, replays, stats
from keystone.app import history as history_words
from keystone.app.context import Actor, Context, Where, _announce, _say, _speaking, guarded
from keystone.app.replies import File, Reply
from keystone.engine import IllegalAction, new_game
from keystone.i18n import Language
from keystone.render.replay import ReplayTooLarge
from keystone.store import GameNotFound, GameRecord, StoreError
from keystone.store.prune import log_pruned

log = logging.getLogger(__name__)

REPLAYS_KEPT = 4
"""Replay pictures kept in memory (a few MB each): asking twice for one game draws it once."""


class Records(Context):
    """Games listed, counted, rated and replayed."""

    @guarded
    async def games(self, where: Where, actor: Actor, scope: listing.Scope = "mine") -> Reply:
        """Privately: every lobby and running game this person sits in, anywhere; with `server`,
        every one in this server instead. Each line says whose turn it is, the asker's turns first."""
        if scope == "server":
            if where.guild_id is None:
                return Reply.refuse(listing.say(_speaking.get().private, "listing.no_server"))
            records = await self.store.open_games_in_server(where.guild_id)
        else:
            records = await self.store.open_games_for_user(actor.user_id)
        games: list[listing.Listed] = []
        others = 0
        for record in records:
            # Every game of the asker's is read (their turns sort first); of the others, only as many as can show.
            mine = record.seat_of(actor.user_id) is not None
            others += not mine
            games.append(await self._listed(record, read=mine or others <= listing.MOST_LINES))
        return Reply(private=listing.games_text(scope, games, actor.user_id, self.clock(), _speaking.get().private))

    async def _listed(self, record: GameRecord, *, read: bool) -> listing.Listed:
        """A game with its state for the list (when `read`): the cached state if current, else the
        stored one (not cached: a list may hold many games). One unreadable game does not hide the others."""
        if record.status != "active" or not read:
            return listing.Listed(record, None)
        cached = self._cache.get(record.id)
        if cached is not None and cached.state.version == record.version:
            return listing.Listed(record, cached.state)
        try:
            return listing.Listed(record, (await self.store.load_game(record.id)).state)
        except StoreError:
            log.exception("could not read game %s for the games list", record.id)
            return listing.Listed(record, None)

    @guarded
    async def stats(self, where: Where, actor: Actor, user_id: int | None = None, name: str | None = None) -> Reply:
        """Privately: a person's record (the asker's unless another is named), anywhere."""
        who = actor.user_id if user_id is None else user_id
        hidden = [] if who == actor.user_id else await self._daily_days_open_to(actor.user_id)
        results = await stats.with_summaries(self.store, await self.store.player_results(who, hidden))
        record = stats.Record(
            name=name or actor.name, own=who == actor.user_id, results=results,
            progress=await self.store.campaign_progress(who), rating=await self.store.user_rating(who),
        )
        return Reply(private=stats.stats_text(record, _speaking.get().private))

    async def _daily_days_open_to(self, user_id: int) -> list[str]:
        """The days whose daily challenge this person may still play (today, yesterday if begun and
        unfinished): other people's results of those days stay hidden from them."""
        today = daily.day_of(self.clock())
        days = [today, daily.day_before(today)]
        return [day for day in days if daily.still_playable(day, today, await self.store.daily_game(day, user_id))]

    @guarded
    async def leaderboard(self, where: Where, actor: Actor) -> Reply:
        """Publicly, in a server: its rated players (bot levels included), best first; mentions
        name people without pinging them."""
        if where.guild_id is None:
            return Reply.refuse(stats.say(_speaking.get().private, "stats.no_server"))
        ratings = await self.store.server_ratings(where.guild_id)
        if not ratings:
            return Reply.refuse(stats.say(_speaking.get().private, "stats.nobody_rated"))
        return Reply(public=stats.leaderboard_text(ratings, actor.user_id, _speaking.get().public))

    @guarded
    async def history(self, actor: Actor) -> Reply:
        """Privately: this person's finished games, newest first, with the numbers replay takes."""
        games = await self.store.finished_games_for_user(actor.user_id, history_words.MOST_GAMES)
        return Reply(private=history_words.history_text(games, _speaking.get().private))

    @guarded
    async def replay(self, where: Where, actor: Actor, game: str) -> Reply:
        """A finished game's boards growing turn by turn, as one animated picture: posted in the
        channel where the game was played, privately anywhere else. Only one's own games and the
        games finished in this channel; never a running game (it still hides cards)."""
        number = history_words.game_number(game)
        if number is None:
            raise IllegalAction(history_words.say(_speaking.get().private, "history.not_a_number"))
        try:
            record: GameRecord | None = await self.store.get_game(number)
        except GameNotFound:
            record = None
        if record is None or (record.seat_of(actor.user_id) is None and record.channel_id != where.channel_id):
            # One answer for a game that does not exist and one the asker may not see: an outsider
            # learns neither that it exists nor how it stands.
            raise IllegalAction(history_words.say(_speaking.get().private, "history.not_yours", number=number))
        if record.status == "abandoned":
            raise IllegalAction(history_words.say(_speaking.get().private, "history.abandoned"))
        if record.status != "finished":
            raise IllegalAction(history_words.say(_speaking.get().private, "history.not_finished"))
        if await log_pruned(self.store, record.id):
            raise IllegalAction(history_words.say(_speaking.get().private, "store.replay_pruned", number=record.id))
        here = record.channel_id == where.channel_id
        speaking = _speaking.get()
        picture = await self._replay_picture(record, speaking.public if here else speaking.private)
        players = ", ".join(markdown.plain(s.name) for s in record.seats)
        if here:
            return Reply(public=_announce("game.replay", number=record.id, players=players), files=[picture])
        return Reply(private=_say("game.replay", number=record.id, players=players), private_files=[picture])

    async def _replay_picture(self, record: GameRecord, lang: Language) -> File:
        """The replay of a finished game in `lang`, drawn off the event loop (one at a time) and kept for reuse."""
        async with self._drawing_replay:
            cached = self._replays.get((record.id, lang))
            if cached is not None:
                return cached
            loaded = await self.store.load_game(record.id)
            end = loaded.state
            start = new_game(end.config, end.seed, [s.name for s in end.seats])
            log = await self.store.log(record.id)
            try:
                picture = await self.painter.draw(replays.replay_file, start, log, record.id, end, lang=lang)
            except (replays.Unreplayable, replays.NotFinished) as exc:
                raise IllegalAction(history_words.say(_speaking.get().private, "history.changed")) from exc
            except ReplayTooLarge as exc:
                raise IllegalAction(history_words.say(_speaking.get().private, "history.too_large")) from exc
            self._replays[record.id, lang] = picture
            while len(self._replays) > REPLAYS_KEPT:
                del self._replays[next(iter(self._replays))]
            return picture

    async def suggest_replays(self, where: Where, actor: Actor, typed: str = "") -> list[tuple[str, str]]:
        """(label, value) pairs for `/keystone replay`: one's finished games and this channel's."""
        mine = await self.store.finished_games_for_user(actor.user_id, history_words.CHOICES)
        here = await self.store.finished_games_in_channel(where.channel_id, history_words.CHOICES)
        return history_words.replay_choices(mine, here, typed, (await self.languages(where, actor)).private)
