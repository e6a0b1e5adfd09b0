"""Turn clocks and absent players: the scheduler's due work (reminders, turns run out, games whose
clock went missing), votes to hand a late seat to a bot, coming back, the pace, pausing and resuming,
and reminders by direct message. The pure clock rules are in `keystone.app.clock`."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Literal

from keystone.app import clock, listing, owed
from keystone.app.context import Actor, Where, _announce, _refusal, _say, _scheduler_work, _speaking, guarded
from keystone.app.replies import Post, Reply
from keystone.app.seats import _anyone_active, _bot_is_due, _find_seat, _seat_or_refuse, _with_seat
from keystone.app.turns import Turns
from keystone.engine import GameState, IllegalAction
from keystone.store import KEEP, Clock, DueClock, GameRecord, Pace, Shards

log = logging.getLogger(__name__)


class Timing(Turns):
    """The clock of each turn, and the seats of people who are away."""

    async def due_work(self, now: float | None = None, *, shards: Shards | None = None) -> list[Post]:
        """Do what the clocks say is due (in the games `shards` own, if given), and return what it
        made the bot owe Discord (already in the outbox, for the deliverer): turns run out are played
        by a bot and told; reminders due are claimed with their messages (so each is owed once,
        restarts included), for the channel and the person's direct messages when they asked for them.
        When both a reminder and the deadline have passed (the bot was down), only the turn is played.
        Running games whose clock went missing are timed again first."""
        with _scheduler_work():
            return await self._due_work(self.clock() if now is None else now, shards)

    async def _due_work(self, now: float, shards: Shards | None) -> list[Post]:
        await self.time_clockless(shards=shards)
        posts: list[Post] = []
        for due in await self.store.due_clocks(now, shards=shards):
            try:
                if due.clock.deadline <= now:
                    record = await self.store.get_game(due.game_id)
                    reply = await self._time_out(due)
                    if reply.public is not None:
                        posts.append(Post(reply, channel_id=record.channel_id))
                else:
                    posts += await self._remind(due, now)
            except Exception:
                log.exception("could not handle the clock of game %s", due.game_id)
        return posts

    async def time_clockless(self, *, shards: Shards | None = None) -> int:
        """Give a clock to every running game with a pace whose person deciding has none (a crash
        or an older bot lost it); returns how many were timed. A game found needing none (a bot
        decides) is not read again until it moves."""
        timed = 0
        for game_id, version in await self.store.clockless_games(shards=shards):
            if self._clock_checked.get(game_id) == version:
                continue
            async with self._locked(game_id):
                loaded = await self.store.load_game(game_id)
                if loaded.record.clock is not None or loaded.record.version != version:
                    continue  # it moved on while this waited (a bot turn saved the next clock)
                fresh = self._clock_for(loaded.record, None, loaded.state)
                if isinstance(fresh, Clock):
                    if not await self.store.time_lost_clock(game_id, version, fresh):
                        continue  # another process timed it, or it moved on, meanwhile
                    log.warning("game %s had no clock for its turn %s; timed it from now", game_id, fresh.turn)
                    timed += 1
                else:
                    self._clock_checked[game_id] = version
        return timed

    async def _remind(self, due: DueClock, now: float) -> list[Post]:
        record = await self.store.get_game(due.game_id)
        person = record.seats[due.clock.seat]
        if person.user_id is None:
            return []
        public = await self._server_language(record)
        left = clock.duration_words(due.clock.deadline - now, public)
        link = listing.jump_link(record)
        reminder = Reply(public=clock.reminder_sentence(person.user_id, left, link, public), mention=[person.user_id])
        posts = [Post(reminder, channel_id=record.channel_id)]
        outgoing = [owed.to_channel(reminder, game_id=record.id, guild_id=record.guild_id,
                                    channel_id=record.channel_id, held=False, for_turn=due.clock.turn)]
        if await self.store.notify(person.user_id):
            chosen, _ = await self.store.chosen_languages(person.user_id, None)
            own = chosen or public
            where = clock.say(own, "clock.reminder.in_dm") if record.guild_id is None else f"<#{record.channel_id}>"
            left = clock.duration_words(due.clock.deadline - now, own)
            text = clock.reminder_by_dm(where, left, link, own)
            posts.append(Post(Reply(private=text), user_id=person.user_id))
            outgoing.append(owed.to_person(text, game_id=record.id, user_id=person.user_id, for_turn=due.clock.turn))
        if not await self.store.claim_reminder(record.id, due.clock.turn, due.clock.seat, outgoing):
            return []
        self.wake()
        return posts

    @guarded
    async def _time_out(self, due: DueClock) -> Reply:
        """The turn ran out: if the clock still times the turn being decided, a normal bot plays it
        for the person, who missed one more turn (and is away after `clock.AWAY_AFTER`). The clock
        is claimed first, so two schedulers never both play it, and the miss counts once per turn."""
        with _scheduler_work():
            return await self._time_out_locked(due)

    async def _time_out_locked(self, due: DueClock) -> Reply:
        async with self._locked(due.game_id):
            record, state = await self._playing(due.game_id)
            await self._speak_for_game(record)
            if record.paused_at is not None:
                return Reply()
            now = clock.decider(record, state)
            if now is None or (now.turn, now.seat) != (due.clock.turn, due.clock.seat):
                fresh = self._clock_for(record, None, state)  # the clock was behind the game: time what is decided now
                await self.store.set_clock(record.id, None if fresh == KEEP else fresh)
                return Reply()
            if not clock.is_timed(record, now):
                return await self._catch_up(record, state) if _bot_is_due(record, state) else Reply()
            sitting = await self.store.claim_deadline(record.id, now.turn, now.seat, away_after=clock.AWAY_AFTER)
            if sitting is None:
                return Reply()  # another scheduler holds it, or a move came first
            record = await self.store.get_game(record.id)
            headline = clock.timed_out_sentence(sitting, _speaking.get().public)
            if not _anyone_active(record):
                headline += "\n" + clock.say(_speaking.get().public, "clock.everyone_away")
            return await self._stand_in(record, state, now.seat, headline)

    async def _stand_in(self, record: GameRecord, state: GameState, seat: int, headline: str, *,
                        away: int | None = None) -> Reply:
        """A normal bot plays the rest of this seat's turn (told with what the person did of it),
        then any bot turns after it, all told in one message saved with the moves."""
        notes = self._turn_notes.pop(record.id, None)
        begun = state.turn
        after, turn, moves = await self._bot_plays_turn(record, state, seat)
        if notes is not None and notes.turn == begun:
            turn = replace(turn, events=notes.events + turn.events,
                           placed=tuple(sorted(notes.placed | set(turn.placed))))
        seated = record if away is None else _with_seat(record, away, away=True)
        more, more_moves = await self._bot_turns(seated, after)
        messages = await self._tell(seated, [turn, *more], headline)
        await self._save(record, state, moves + more_moves, messages, away=away)
        return replace(messages[0], more=messages[1:])

    @guarded
    async def vote_away(self, where: Where, actor: Actor, seat: str) -> Reply:
        """Vote to hand the seat whose turn is running late to a normal bot now; it passes when more
        than half of the other people at the table (bots and away seats aside) have voted this turn."""
        gid = (await self._game_here(where)).id
        async with self._locked(gid):
            record, state = await self._playing(gid)
            voter = _seat_or_refuse(record, actor)
            target = _find_seat(record, state, actor, seat)
            problem = clock.vote_problem(record, state, voter, target, self.clock(), _speaking.get().private)
            if problem is not None:
                return Reply.refuse(problem)
            electorate = sum(1 for i, s in enumerate(record.seats) if i != target and not s.bot_decides)
            votes = await self.store.add_away_vote(gid, target, state.turn, actor.user_id)
            name = record.seats[target].name
            if votes < clock.votes_needed(electorate):
                needed = clock.votes_needed(electorate)
                return Reply(public=clock.vote_sentence(actor.name, name, votes, needed, _speaking.get().public))
            return await self._stand_in(record, state, target, clock.voted_away_sentence(name, _speaking.get().public),
                                        away=target)

    @guarded
    async def back(self, where: Where, actor: Actor) -> Reply:
        """Take one's seat back from the bot that played it while one was away."""
        gid = (await self._game_here(where)).id
        async with self._locked(gid):
            record, state = await self._playing(gid)
            seat = _seat_or_refuse(record, actor)
            if not record.seats[seat].away:
                await self._come_back(record, seat, state)
                return Reply.refuse(_say("game.not_away"))
            reply = Reply(public=clock.back_sentence(record.seats[seat].name, _speaking.get().public))
            back = _with_seat(record, seat, away=False)
            timing = self._clock_for(back, None, state)
            await self.store.set_away(gid, seat, False, clock=timing, posts=self._owed(record, [reply]))
            self._timed(timing)
            self._cache.pop(gid, None)
            reply.more = await self._play_bots(back, state)  # everyone was away: the table plays on
            return reply

    @guarded
    async def set_pace(self, where: Where, actor: Actor, pace: Pace) -> Reply:
        """Change the game's pace (host or channel managers); the turn in progress restarts from now."""
        record = await self._clock_here(where, actor)
        async with self._locked(record.id):
            line = _announce("game.pace_set", name=actor.name, pace=clock.pace_words(pace, _speaking.get().public))
            timing: Clock | Literal["keep"] | None = KEEP
            if record.status == "active":
                _, state = await self._playing(record.id)
                timing = self._clock_for(replace(record, pace=pace), None, state)
                if isinstance(timing, Clock):
                    turn_time = clock.duration_words(clock.TURN_TIME[pace], _speaking.get().public)
                    line += _announce("game.pace_turn", time=turn_time)
            reply = Reply(public=line)
            await self.store.set_pace(record.id, pace, clock=timing, posts=self._owed(record, [reply]))
            self._timed(timing)
            return reply

    @guarded
    async def pause_clock(self, where: Where, actor: Actor) -> Reply:
        """Stop the clock (holidays): no reminders, no turns run out; moves can still be made."""
        record = await self._clock_here(where, actor)
        if record.pace is None:
            return Reply.refuse(clock.say(_speaking.get().private, "clock.no_pace"))
        if record.paused_at is not None:
            return Reply.refuse(_say("game.clock_paused_already"))
        reply = Reply(public=clock.paused_sentence(actor.name, _speaking.get().public))
        await self.store.pause_clock(record.id, self._owed(record, [reply]))
        return reply

    @guarded
    async def resume_clock(self, where: Where, actor: Actor) -> Reply:
        """Start the clock again; the turn keeps the time it had left when paused."""
        record = await self._clock_here(where, actor)
        if record.paused_at is None:
            return Reply.refuse(_say("game.clock_running"))
        paused, record = record, await self.store.resume_clock(record.id)
        self._timed(record.clock)
        left = clock.time_left(record, self.clock(), _speaking.get().public)
        reply = Reply(public=_announce("game.clock_started.left", name=actor.name, left=left) if left
                      else _announce("game.clock_started", name=actor.name))
        await self.store.post(self._owed(paused, [reply]))
        return reply

    async def _clock_here(self, where: Where, actor: Actor) -> GameRecord:
        """This channel's game, when the actor may set its clock (its host, or a channel manager)."""
        if where.is_dm:
            raise IllegalAction(clock.say(_speaking.get().private, "clock.no_clock_in_dm"))
        record = await self._game_here(where)
        if actor.user_id != record.host_id and not actor.can_manage:
            raise _refusal("game.clock_denied")
        return record

    @guarded
    async def notify(self, actor: Actor, on: bool) -> Reply:
        """Whether reminders of one's turns also come by direct message (answered privately)."""
        await self.store.set_notify(actor.user_id, on)
        return Reply(private=clock.say(_speaking.get().private, "clock.notify_on" if on else "clock.notify_off"))
