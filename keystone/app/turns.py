"""Turns: a game from its start (once its lobby is full) through every action, undo and pick of a
select menu, the bot turns a failure left undone, and its end by resignation or abandonment."""

from __future__ import annotations

from dataclasses import replace

from keystone.app import clock, journal, pictures, text
from keystone.app.context import (
    Actor,
    Where,
    _announce,
    _refusal,
    _request,
    _say,
    _scheduler_work,
    _speaking,
    _TurnNotes,
    event_words,
    guarded,
)
from keystone.app.controls import cell_select, choice_words, controls_for, undo_control
from keystone.app.hints import hints_allowed
from keystone.app.moves import Moves, _placed, _Turn, _turn_ended
from keystone.app.replies import Reply
from keystone.app.seats import _board, _bot_is_due, _seat_or_refuse, _with_seat
from keystone.engine import (
    Event,
    GameState,
    apply,
    dump_state,
    legal_actions,
    new_game,
    parse_action,
    player_view,
    public_view,
)
from keystone.engine.actions import Resign
from keystone.engine.bots import LEVELS
from keystone.engine.coop import acting_player
from keystone.engine.history import UNDO, Taken, rebuild, undo_allowed
from keystone.store import KEEP, GameRecord, LoadedGame, SeatInfo, Shards


class Turns(Moves):
    """Acting in a game: its start, each action, undo, the choices, resigning and abandoning."""

    async def _start(self, record: GameRecord, actor: Actor) -> Reply:
        seed = self._seeds()
        names = [s.name for s in record.seats]
        if record.config.coop:
            names = [" & ".join(names)[:100]]
        state = new_game(record.config, seed, names)
        started = replace(record, status="active", version=0)
        view = public_view(state)
        reply = Reply(files=[await self.painter.draw(pictures.field_file, view, lang=_speaking.get().public)])
        lines = [_announce("game.begins"), hints_said(record)]
        self._hand_over(record, state, view, lines, reply)
        reply.public = "\n".join(lines)
        if record.assignment is not None:
            page = "\n".join(journal.page_lines(record.assignment, record.config.coop, _speaking.get().public))
            reply.public = f"{page}\n{reply.public}"
        elif len(record.seats) > 1:
            reply.public = f"{reply.public}\n{_announce('game.objective_hint')}"
        first = self._clock_for(started, None, state)
        posts = self._owed(started, [reply])
        record = await self.store.start_game(record.id, state, clock=None if first == KEEP else first, posts=posts)
        self._timed(first)
        self._cache[record.id] = LoadedGame(record, state)
        reply.more = await self._play_bots(record, state)
        seat = record.seat_of(actor.user_id)
        board = _board(record, seat) if seat is not None else None
        objective = state.seats[board].objective if board is not None else None
        if board is not None and objective is not None:
            reply.private = text.objective_text(objective, _speaking.get().private)
            secret = player_view(state, board)
            reply.private_files = [
                await self.painter.draw(pictures.objective_file, secret, board, lang=_speaking.get().private)
            ]
        return reply

    @guarded
    async def act(
        self, where: Where, actor: Actor, notation: str, *, game_id: int | None = None, version: int | None = None
    ) -> Reply:
        """Apply one action for `actor`; `game_id`/`version` come from a button and catch stale presses."""
        gid = game_id if game_id is not None else (await self._game_here(where)).id
        async with self._locked(gid):
            return await self._act(where, gid, actor, notation, version)

    async def _act(self, where: Where, game_id: int, actor: Actor, notation: str, version: int | None) -> Reply:
        turn = await self._turn(where, game_id, actor, version)
        if isinstance(turn, Reply):
            return turn
        record, state, seat = turn
        action = parse_action(notation)
        if isinstance(action, Resign):
            raise _refusal("game.resign_command")
        new, events = apply(state, action)
        board = _board(record, seat)
        if not _turn_ended(state, new):
            await self._save(record, state, [(seat, str(action), new)])
            notes = self._told_so_far(record.id, state.turn)
            notes.events += [e for e in events if not e.private]
            notes.placed |= _placed(state, new, board)
            return await self._step(record, new, board, events, undoable=undo_allowed(state, new) is None)
        notes = self._told_so_far(record.id, state.turn)
        ended = _Turn(board, new, [*notes.events, *(e for e in events if not e.private)],
                      tuple(sorted(notes.placed | _placed(state, new, board))))
        messages = await self._tell(record, [ended])
        await self._save(record, state, [(seat, str(action), new)], messages)
        self._turn_notes.pop(record.id, None)
        reply = messages[0]
        reply.more = messages[1:] + await self._play_bots(record, new)
        private = [event_words(e, _speaking.get().private) for e in events if e.private and e.seat == board]
        reply.private = "\n".join(private) or None
        return reply

    def _told_so_far(self, game_id: int, turn: int) -> _TurnNotes:
        """The public events and placed cells of the turn in progress (kept in memory: after a
        restart the summary tells only what happened since)."""
        noted = self._turn_notes.get(game_id)
        if noted is None or noted.turn != turn:
            noted = _TurnNotes(turn)
            self._turn_notes[game_id] = noted
        return noted

    @guarded
    async def undo(self, where: Where, actor: Actor, *, game_id: int | None = None, version: int | None = None
                   ) -> Reply:
        """Take back the actor's last action of this turn, if no hidden card has come out since;
        logged as `undo`, answered privately with what was taken back and the step controls.
        `game_id`/`version` come from the Undo button and catch a stale press."""
        gid = game_id if game_id is not None else (await self._game_here(where)).id
        async with self._locked(gid):
            turn = await self._turn(where, gid, actor, version)
            if isinstance(turn, Reply):
                return turn
            record, state, seat = turn
            history = rebuild(new_game(state.config, state.seed, [s.name for s in state.seats]),
                              await self.store.log(gid))
            if dump_state(history.state) != dump_state(state):
                raise _refusal("game.unreplayable")
            taken = history.undo()
            await self._save(record, state, [(seat, UNDO, history.state)])
            board = _board(record, seat)
            self._untell(record.id, taken, state, board)
            said = " ".join(event_words(e, _speaking.get().private) for e in taken.events
                            if not e.private or e.seat == board)
            reply = await self._step(record, history.state, board, [], undoable=history.why_not_undo() is None)
            taken_back = _say("game.taken_back", said=said or f"`{taken.notation}`")
            reply.private = f"{taken_back}\n{reply.private or ''}".rstrip()
            return reply

    def _untell(self, game_id: int, taken: Taken, after: GameState, board: int) -> None:
        """Drop a taken-back action's events and placed cells from the turn's public summary."""
        notes = self._turn_notes.get(game_id)
        if notes is None or notes.turn != taken.before.turn:
            return
        public = [e for e in taken.events if not e.private]
        if public and notes.events[-len(public):] == public:
            del notes.events[-len(public):]
        notes.placed -= _placed(taken.before, after, board)

    async def _step(self, record: GameRecord, state: GameState, board: int, events: list[Event], *,
                    undoable: bool = False) -> Reply:
        """A step of the actor's turn, privately: what just happened, what to decide, the controls
        (with Undo while the last action may be taken back), and a picture of the cards in hand."""
        view = player_view(state, board)
        lang = _speaking.get().private
        lines = [event_words(e, lang) for e in events if not e.private or e.seat == board]
        lines.append(text.pending_sentence(view, lang))
        controls = controls_for(state, record.id, show_held=True, lang=lang)
        if undoable:
            controls.append(undo_control(record.id, state.version, lang))
        return Reply(private="\n".join(lines), private_files=await self._hand(state, view),
                     private_controls=controls, step=True)

    async def _turn(
        self, where: Where, game_id: int, actor: Actor, version: int | None
    ) -> tuple[GameRecord, GameState, int] | Reply:
        """The game, its state and the actor's seat when the decision is theirs; else the Reply saying why not.

        A press from another channel is refused, a stale one is told the game moved on, and a bot
        turn left undone (a crash came between) is played first."""
        record, state = await self._playing(game_id)
        if record.channel_id != where.channel_id:
            raise _refusal("game.elsewhere")
        seat = _seat_or_refuse(record, actor)
        record = await self._come_back(record, seat, state)
        if version is not None and version != state.version:
            return await self._stale(game_id)
        if _bot_is_due(record, state):
            return await self._catch_up(record, state)
        _check_turn(record, state, seat)
        return record, state, seat

    async def _come_back(self, record: GameRecord, seat: int, state: GameState) -> GameRecord:
        """Any action of a person clears their missed turns; one who was away plays their own seat
        again (said publicly), and their turn, if it is theirs now, is timed afresh (one transaction)."""
        sitting = record.seats[seat]
        if not (sitting.away or sitting.missed):
            return record
        back = _with_seat(record, seat, away=False)
        timing = self._clock_for(back, None, state) if sitting.away else KEEP
        await self.store.set_away(record.id, seat, False, clock=timing)
        self._timed(timing)
        if sitting.away:
            request = _request.get()
            if request is not None:
                request.notices.append(clock.back_sentence(sitting.name, _speaking.get().public))
        return await self.store.get_game(record.id)

    @guarded
    async def choose(self, where: Where, actor: Actor, game_id: int, version: int, value: str) -> Reply:
        """A select-menu pick: a whole action is applied; a prefix ("take 3") asks for the cell."""
        async with self._locked(game_id):
            turn = await self._turn(where, game_id, actor, version)
            if isinstance(turn, Reply):
                return turn
            record, state, seat = turn
            notations = [str(a) for a in legal_actions(state)]
            if value in notations:
                return await self._act(where, game_id, actor, value, version)
            follow = cell_select(state, game_id, value, _speaking.get().private)
            if follow is None:
                raise _refusal("game.not_available")
            files = await self._hand(state, player_view(state, _board(record, seat)))
            choice = choice_words(state, value, _speaking.get().private)
            return Reply(private=_say("game.choose_cell", choice=choice), private_files=files,
                         private_controls=[follow], step=True)

    @guarded
    async def show_choices(self, where: Where, actor: Actor, game_id: int, version: int) -> Reply:
        """The private controls (with held card names) for the seat to act."""
        async with self._locked(game_id):
            turn = await self._turn(where, game_id, actor, version)
            if isinstance(turn, Reply):
                return turn
            record, state, seat = turn
            lang = _speaking.get().private
            held = ", ".join(text.card_name(c, lang) for c in state.held)
            files = await self._hand(state, player_view(state, _board(record, seat)))
            return Reply(private=_say("game.your_cards", cards=held), private_files=files,
                         private_controls=controls_for(state, game_id, show_held=True, lang=lang), step=True)

    async def play_due_bot_turns(self, *, everywhere: bool = False,
                                 shards: Shards | None = None) -> list[tuple[int, Reply]]:
        """Play bot turns that are due but were never played (a crash or failure came between).

        With `everywhere` (at start-up) every running game is checked (only those `shards` own, if
        given), else only those a failure in this process interrupted. Returns (channel id, public
        reply) for each game that moved on."""
        with _scheduler_work():
            return await self._play_due_bot_turns(everywhere, shards)

    async def _play_due_bot_turns(self, everywhere: bool, shards: Shards | None) -> list[tuple[int, Reply]]:
        if everywhere:
            running = await self.store.list_games("active", shards=shards)
            wanted = [r.id for r in running if any(s.bot_decides for s in r.seats)]
        else:
            wanted = sorted(self._retry)
        posts: list[tuple[int, Reply]] = []
        for game_id in wanted:
            reply = await self._due_here(game_id)
            if reply.public is not None:
                record = await self.store.get_game(game_id)
                posts.append((record.channel_id, reply))
        return posts

    @guarded
    async def _due_here(self, game_id: int) -> Reply:
        """The catch-up reply for one game, or an empty Reply when no bot turn is due there."""
        async with self._locked(game_id):
            self._retry.discard(game_id)
            record, state = await self._playing(game_id)
            await self._speak_for_game(record)
            if not _bot_is_due(record, state):
                return Reply()
            return await self._catch_up(record, state)

    @guarded
    async def resign(self, where: Where, actor: Actor) -> Reply:
        """Give up: with three or more seats and another person left, a normal bot takes the seat over;
        otherwise the game ends here and the resigner is ranked last."""
        gid = (await self._game_here(where)).id
        async with self._locked(gid):
            record, state = await self._playing(gid)
            seat = _seat_or_refuse(record, actor)
            people = [s for i, s in enumerate(record.seats) if s.user_id is not None and i != seat]
            if len(record.seats) >= 3 and people:
                return await self._hand_to_bot(record, state, seat, actor)
            resignation = Resign(_board(record, seat))
            new, _ = apply(state, resignation)
            reply = Reply(ended=True)
            result = await self._final_words(record, new, reply)
            reply.public = _announce("game.resigned", name=actor.name, result=result)
            await self._save(record, state, [(seat, str(resignation), new)], [reply])
            return reply

    async def _hand_to_bot(self, record: GameRecord, state: GameState, seat: int, actor: Actor) -> Reply:
        """Seat a normal bot where the resigner sat and let it play on if it is its turn."""
        bot = SeatInfo.bot(LEVELS.index("normal"), _announce("game.bot_for", name=actor.name)[:100])
        record = await self.store.replace_seat(record.id, seat, bot, resigned=True)
        self._turn_notes.pop(record.id, None)
        headline = _announce("game.resigned.bot", name=actor.name)
        messages = await self._play_bots(record, state, headline)
        if messages:
            return replace(messages[0], more=messages[1:])
        reply = Reply()
        lines = [headline]
        self._hand_over(record, state, public_view(state), lines, reply)
        reply.public = "\n".join(lines)
        return reply

    @guarded
    async def abandon(self, where: Where, actor: Actor) -> Reply:
        gid = (await self._game_here(where)).id
        async with self._locked(gid):
            record = await self.store.get_game(gid)
            if actor.user_id != record.host_id and not actor.can_manage:
                return Reply.refuse(_say("game.abandon.denied"))
            await self.store.abandon_game(gid)
            self._cache.pop(gid, None)
            return Reply(public=_announce("game.abandoned", name=actor.name), ended=True)


def hints_said(record: GameRecord) -> str:
    """"Hints: on." or "Hints: off.", as the lobby and the start of the game say it."""
    return _announce("lobby.hints.on" if hints_allowed(record) else "lobby.hints.off")


def _check_turn(record: GameRecord, state: GameState, seat: int) -> None:
    """Refuse anyone but the person who decides now, naming them."""
    decider = acting_player(state)
    if seat != decider:
        who = record.seats[decider].name
        raise _refusal("game.turn.coop" if record.config.coop else "game.turn.other", name=who)
