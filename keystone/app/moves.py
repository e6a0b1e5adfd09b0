"""Moves and what they owe: saving moves with all they cause in one transaction (the next turn's
clock, the results, the messages owed to Discord), telling finished turns in one public message each,
the score sheet and verdict at the end, and bots playing their turns in memory."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, replace
from typing import Literal

from keystone.app import clock, daily, journal, markdown, owed, pictures, stats, text, threads
from keystone.app.bots import bot_action
from keystone.app.context import Context, _announce, _by_scheduler, _request, _speaking, event_words
from keystone.app.controls import controls_for
from keystone.app.hints import would_be_rated
from keystone.app.replies import File, Reply
from keystone.app.seats import _board, _bot_is_due, _bot_level, _with_seat
from keystone.engine import Event, GameState, GameView, apply, campaign, public_view
from keystone.engine.board import new_cards
from keystone.engine.coop import acting_player
from keystone.engine.results import final_scores, standings
from keystone.store import KEEP, Clock, GameRecord, LoadedGame, Outgoing, SeatResult

log = logging.getLogger(__name__)

Move = tuple[int, str, GameState]
"""A move to save: the store seat that made it, its notation, and the state after it."""


class Moves(Context):
    """Saving moves with what they owe, and telling the turns they make."""

    async def _save(self, record: GameRecord, old: GameState, moves: list[Move], posts: list[Reply] | None = None,
                    *, away: int | None = None) -> None:
        """Save moves that follow one another with all they cause, in one transaction: the next
        turn's clock, the results when they end the game, and the messages `posts` owe Discord
        (each then knows its outbox id). With `away`, that store seat is handed to the bot too."""
        new = moves[-1][2]
        results = _results(record, new) if new.phase == "over" else None
        if results is not None and record.assignment is not None:
            self._won_before[record.id] = {
                s.user_id: set(await self._won(s.user_id)) for s in record.seats if s.user_id is not None
            }
        timed = record if away is None else _with_seat(record, away, away=True)
        posts = posts or []
        outgoing = self._owed(record, posts)
        timing = self._clock_for(timed, old, new) if results is None else KEEP
        await self.store.commit_moves(record.id, old.version, moves, results=results, clock=timing,
                                      posts=outgoing, away=away)
        self._timed(timing)
        self.moved(record.kind, len(moves))
        if outgoing and not outgoing[0].held:
            self.wake()
        request = _request.get()
        if request is not None:
            request.saved += [notation for _, notation, _ in moves]
        if results is None:
            self._cache[record.id] = LoadedGame(timed, new)
        else:
            self._cache.pop(record.id, None)

    def _owed(self, record: GameRecord, posts: list[Reply]) -> list[Outgoing]:
        """The outbox rows for public messages about to be saved with their cause (each reply learns
        its key): any notices of this request go first (once), a message that ends the game carries
        its thread's farewell, and each is held for the interaction answering with it (the
        scheduler's are not)."""
        request = _request.get()
        if posts and request is not None and request.notices:
            posts[0].public = "\n".join([*request.notices, *([posts[0].public] if posts[0].public else [])])
            request.notices.clear()
        held = not _by_scheduler.get()
        for post in posts:
            if post.ended:
                post.farewell = threads.say(_speaking.get().public, "threads.closing")
        answer = owed.answered()  # only the first message can be the interaction's original answer
        return [owed.to_channel(post, game_id=record.id, guild_id=record.guild_id, channel_id=record.channel_id,
                                held=held, answer=answer if n == 0 else None) for n, post in enumerate(posts)]

    def _timed(self, timing: Clock | Literal["keep"] | None) -> None:
        """A clock was just saved: the scheduler must be awake for its reminder."""
        if isinstance(timing, Clock):
            self.due(timing.remind_at)

    def _clock_for(self, record: GameRecord, old: GameState | None, new: GameState) -> Clock | Literal["keep"] | None:
        """The clock to save with a change of state: a fresh one when the deciding (turn, seat) changes
        to a person, none while a bot (or an away person's bot) decides, and the same clock (KEEP)
        while the decider stays."""
        if record.pace is None:
            return KEEP
        before, after = clock.decider(record, old), clock.decider(record, new)
        if old is not None and before == after:
            return KEEP
        if after is not None and clock.is_timed(record, after):
            return clock.start(after, record.pace, self.clock(), self.clock_scale)
        return None

    async def _won(self, user_id: int) -> list[int]:
        """The assignments this person has won (their campaign progress)."""
        return (await self.store.campaign_progress(user_id)).completed

    async def _tell(self, record: GameRecord, turns: list[_Turn], headline: str = "") -> list[Reply]:
        """One public message for turns that follow one another (a person's, or bots' in a row), then
        the score sheet if the game is over."""
        if not turns:
            return []
        messages = [await self._turn_message(record, turns, headline)]
        if turns[-1].state.phase == "over":
            messages.append(await self._final_message(record, turns[-1].state))
        return messages

    async def _turn_message(self, record: GameRecord, turns: list[_Turn], headline: str = "") -> Reply:
        """The turns in a sentence or two each, a turn picture each, and the next person's mention."""
        public = _speaking.get().public
        lines = [headline] if headline else []
        reply = Reply()
        for turn in turns:
            view = public_view(turn.state)
            told = " ".join(event_words(e, public) for e in turn.events if e.kind != "game_over")
            lines.append(told or _announce("game.ended_turn", name=view.seats[turn.board].name))
            reply.files.append(await self.painter.draw(pictures.turn_file, view, turn.board, turn.placed, lang=public))
        state = turns[-1].state
        if state.phase != "over":
            self._hand_over(record, state, public_view(state), lines, reply)
        reply.public = "\n".join(lines)
        return reply

    @staticmethod
    def _hand_over(record: GameRecord, state: GameState, view: GameView, lines: list[str], reply: Reply) -> None:
        """Say what the next seat must decide; mention and offer controls only to a person."""
        nxt = record.seats[acting_player(state)]
        lines.append(text.pending_sentence(view, _speaking.get().public))
        if nxt.user_id is None or nxt.bot_decides:
            return
        lines.append(_announce("game.your_turn.coop" if record.config.coop else "game.your_turn", user_id=nxt.user_id))
        reply.mention = [nxt.user_id]
        reply.controls = controls_for(state, record.id, show_held=not state.held_private, lang=_speaking.get().public)

    async def _final_message(self, record: GameRecord, state: GameState) -> Reply:
        reply = Reply(ended=True)
        result = await self._final_words(record, state, reply)
        reply.public = _announce("game.over", result=result)
        return reply

    async def _final_words(self, record: GameRecord, state: GameState, reply: Reply) -> str:
        """Attach the score sheet and say who won (ties explained); an assignment gets its verdict; a
        game that would have been rated says it is not when someone asked for a hint."""
        said = await self._final_result(record, state, reply)
        if record.hinted and would_be_rated(record):
            return f"{said}\n{_announce('game.hinted_unrated')}"
        return said

    async def _final_result(self, record: GameRecord, state: GameState, reply: Reply) -> str:
        sheets = final_scores(state)
        view = public_view(state)
        reply.files.append(await self.painter.draw(pictures.scores_file, view, sheets, lang=_speaking.get().public))
        if record.kind == "solo" and record.assignment is None:
            mine = await self.store.daily_of_game(record.id)
            if mine is not None:
                sentence = _winner_sentence(state, [s.total for s in sheets], [1])
                return f"{sentence}\n{daily.result_line(mine, _speaking.get().public)}"
        if record.assignment is not None and state.resigned is None:
            before = self._won_before.pop(record.id, {})
            return self._verdict(record, state, before)
        if len(state.seats) == 1:
            return _winner_sentence(state, [s.total for s in sheets], [1])
        results = _results(record, state)
        return _winner_sentence(state, [s.total for s in sheets], [r.place for r in results])

    def _verdict(self, record: GameRecord, state: GameState, before: dict[int, set[int]]) -> str:
        """The judge's verdict; unlock news for each person (named when partners share it)."""
        number = record.assignment
        assert number is not None
        result = campaign.judge(number, state, _speaking.get().public)
        lines = result.sentences()
        people = [s for s in record.seats if s.user_id is not None]
        if not result.won:
            return "\n".join(lines + journal.unlock_lines(number, False, (), _speaking.get().public))
        for person in people:
            news = journal.unlock_lines(number, result.won, before.get(person.user_id or 0, set()),
                                        _speaking.get().public)
            if len(people) > 1:
                news = [_announce("game.unlock_for", name=person.name, line=line) for line in news]
            lines += news
        return "\n".join(lines)

    async def _hand(self, state: GameState, view: GameView) -> list[File]:
        """A picture of the cards the actor holds (drawn or searched), if any."""
        if not state.held:
            return []
        return [await self.painter.draw(pictures.hand_file, view, list(state.held), lang=_speaking.get().private)]

    async def _bot_turns(self, record: GameRecord, state: GameState) -> tuple[list[_Turn], list[Move]]:
        """Play, in memory, every bot seat's turn(s) until a person must act or the game ends: each
        turn with its public events (for the one message that tells them), and the moves to save."""
        turns: list[_Turn] = []
        moves: list[Move] = []
        while _bot_is_due(record, state):
            state, turn, made = await self._bot_plays_turn(record, state, acting_player(state))
            turns.append(turn)
            moves += made
        return turns, moves

    async def _bot_plays_turn(self, record: GameRecord, state: GameState, decider: int
                              ) -> tuple[GameState, _Turn, list[Move]]:
        """A bot plays, in memory, the rest of the turn store seat `decider` is deciding: at the seat's
        own level for a bot, as a normal bot for a person who is away or out of time."""
        events: list[Event] = []
        moves: list[Move] = []
        start = state
        level = _bot_level(record.seats[decider])
        while not _turn_ended(start, state) and acting_player(state) == decider:
            action = await asyncio.to_thread(bot_action, state, level)
            state, more = apply(state, action)
            moves.append((decider, str(action), state))
            events += [e for e in more if not e.private]
        board = _board(record, decider)
        return state, _Turn(board, state, events, tuple(sorted(_placed(start, state, board)))), moves

    async def _play_bots(self, record: GameRecord, state: GameState, headline: str = "") -> list[Reply]:
        """Play the bot turns due now and save them with the one message that tells them (and the
        score sheet if they end the game); the messages, or none when no bot is due."""
        turns, moves = await self._bot_turns(record, state)
        if not moves:
            return []
        messages = await self._tell(record, turns, headline)
        await self._save(record, state, moves, messages)
        return messages

    async def _catch_up(self, record: GameRecord, state: GameState) -> Reply:
        """Play a bot turn that a crash or failure left undone, and show the table as it now stands."""
        messages = await self._play_bots(record, state, _announce("game.bot_caught_up"))
        self._retry.discard(record.id)
        return replace(messages[0], more=messages[1:]) if messages else Reply()

    async def delivered(self, key: str) -> None:
        """An interaction posted this owed message: the deliverer must not post it again."""
        await self.store.mark_sent(key)

    async def undelivered(self, keys: list[str]) -> None:
        """An interaction could not post these owed messages: the deliverer posts them in the channel."""
        await self.store.release(keys)
        self.wake()


@dataclass(frozen=True, slots=True)
class _Turn:
    """A finished turn: the board that played it, the state after it, its public events and the
    cells where it placed cards (framed on the turn picture)."""

    board: int
    state: GameState
    events: list[Event]
    placed: tuple[int, ...] = ()


def _placed(before: GameState, after: GameState, board: int) -> set[int]:
    """The cells of `board` that hold a new card after a move (placed, bought or moved there)."""
    return set(new_cards(before.seats[board].board, after.seats[board].board))


def _turn_ended(before: GameState, after: GameState) -> bool:
    return after.turn != before.turn or after.phase == "over"


def _results(record: GameRecord, state: GameState) -> list[SeatResult]:
    """Each store seat's result, as the engine ranks its board: co-op partners share their one
    board's result, so an assignment's stars reach every partner's campaign."""
    boards = standings(state)
    played = [boards[_board(record, i)] for i in range(len(record.seats))]
    return [SeatResult(i, b.score, b.place, b.won, b.stars, stats.board_summary(state, _board(record, i)))
            for i, b in enumerate(played)]


def _winner_sentence(state: GameState, sheets_totals: list[int], ranks: list[int]) -> str:
    scores = ", ".join(f"{markdown.plain(s.name)} {t}" for s, t in zip(state.seats, sheets_totals, strict=True))
    winners = [state.seats[i].name for i, r in enumerate(ranks) if r == 1]
    if len(state.seats) == 1:
        return _announce("final.solo", scores=scores)
    if len(winners) == 1:
        return _announce("final.winner", scores=scores, winner=winners[0])
    return _announce("final.shared", scores=scores, winners=_announce("final.and").join(winners))
