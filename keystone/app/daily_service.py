"""The daily challenge's calls: beginning or resuming the day's game in a direct message, and a
server's board of the day. What they say is worded in `keystone.app.daily`."""

from __future__ import annotations

from keystone.app import daily, language, pictures, text
from keystone.app.context import Actor, Where, _speaking, guarded
from keystone.app.controls import controls_for
from keystone.app.daily import Show as DailyShow
from keystone.app.moves import Moves
from keystone.app.replies import Reply
from keystone.engine import IllegalAction, new_game, player_view, public_view
from keystone.store import DailyGame, LoadedGame


class DailyService(Moves):
    """One seeded solo game a day for everyone, and each server's board of it."""

    @guarded
    async def daily(self, where: Where, actor: Actor, dm_channel_id: int | None = None) -> Reply:
        """Begin today's daily challenge in the direct message, or tell where the running one stands.

        `where` is that direct message, or a server channel with `dm_channel_id` the person's direct
        message; asking from a server also lists the person on that server's board of the day. The
        public part belongs in the direct message; from a server, the private part is the channel's note.
        """
        day = daily.day_of(self.clock())
        channel = where.channel_id if where.is_dm else dm_channel_id
        lang = _speaking.get().private
        _speaking.set(language.Languages(lang, lang))  # the public part is posted in the person's direct message
        if channel is None:
            raise IllegalAction(daily.say(lang, "daily.dms_closed"))
        if where.guild_id is not None:
            await self.store.join_daily_board(where.guild_id, actor.user_id)
        mine = await self.store.daily_game(day, actor.user_id)
        if mine is not None and not mine.is_open:
            return Reply.refuse(daily.done_sentence(mine, lang))
        if mine is None:
            reply = await self._daily_begin(day, channel, actor)
        else:
            reply = await self._daily_standing(mine)
        if not where.is_dm:
            note = daily.started_note if mine is None else daily.resumed_note
            reply.private = note(day, channel, lang)
        return reply

    async def _daily_begin(self, day: str, channel_id: int, actor: Actor) -> Reply:
        """Start the day's game (seeded from the secret, never shown) with its objective told in the DM."""
        holder = await self.store.get_active_game(channel_id)
        if holder is not None:
            other = await self.store.daily_of_game(holder.id)
            raise IllegalAction(daily.busy_sentence(holder, other, day, _speaking.get().private))
        if self._daily_secret is None:
            self._daily_secret = await self.store.daily_secret()
        state = new_game(daily.CONFIG, daily.seed_for(self._daily_secret, day), [actor.name[:100]])
        record = await self.store.start_daily_game(day=day, user_id=actor.user_id, channel_id=channel_id,
                                                   state=state)
        self._cache[record.id] = LoadedGame(record, state)
        view = player_view(state, 0)
        reply = Reply(files=[await self.painter.draw(pictures.field_file, view, lang=_speaking.get().public)])
        lines = [daily.begins_headline(day, _speaking.get().public)]
        objective = view.seats[0].objective
        if objective is not None:
            lines.append(text.objective_text(objective, _speaking.get().public))
            reply.files.append(await self.painter.draw(pictures.objective_file, view, 0, lang=_speaking.get().public))
        self._hand_over(record, state, public_view(state), lines, reply)
        reply.public = "\n".join(lines)
        return reply

    async def _daily_standing(self, mine: DailyGame) -> Reply:
        """Where the running daily game stands: the board, the Field, what to decide, and the controls."""
        record, state = await self._playing(mine.game_id)
        view = player_view(state, 0)
        mine_lang = _speaking.get().private
        files = [await self.painter.draw(pictures.board_file, view, 0, lang=mine_lang),
                 await self.painter.draw(pictures.field_file, view, lang=mine_lang), *await self._hand(state, view)]
        lang = _speaking.get().public
        lines = [daily.resume_headline(mine.day, lang), text.pending_sentence(view, lang)]
        return Reply(public="\n".join(lines), files=files,
                     controls=controls_for(state, record.id, show_held=True, lang=lang))

    @guarded
    async def daily_board(self, where: Where, actor: Actor, which: DailyShow = "board") -> Reply:
        """This server's board of today (or of yesterday), privately, and only to someone who can no
        longer play that day's challenge: no spoilers."""
        if where.guild_id is None:
            return Reply.refuse(daily.say(_speaking.get().private, "daily.not_in_a_dm"))
        today = daily.day_of(self.clock())
        day = today if which != "yesterday" else daily.day_before(today)
        mine = await self.store.daily_game(day, actor.user_id)
        if daily.still_playable(day, today, mine):
            return Reply.refuse(daily.hidden_sentence(day, mine, _speaking.get().private))
        board = await self.store.daily_board(where.guild_id, day)
        lines = [daily.board_text(board, actor.user_id, _speaking.get().private)]
        if not await self.store.plays_daily_for(where.guild_id, actor.user_id):
            lines.append(daily.say(_speaking.get().private, "daily.not_listed"))
        return Reply(private="\n".join(lines))
