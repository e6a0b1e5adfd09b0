"""The game service: the one place that loads a game, checks who may act, applies an action,
saves it, renders pictures and says what to post. Cogs and the terminal mode call it.

Per-game work is serialised by an asyncio.Lock per game id; the store's optimistic version check
guards against anything that slips past (another process, a stale button).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from textwrap import shorten
from typing import Concatenate, Literal, ParamSpec

from keystone.app import (
    clock,
    daily,
    ids,
    journal,
    language,
    listing,
    markdown,
    owed,
    pictures,
    replays,
    stats,
    text,
    threads,
)
from keystone.app import history as history_words
from keystone.app.bots import bot_action
from keystone.app.controls import cell_select, choice_words, controls_for, undo_control
from keystone.app.daily import Show as DailyShow
from keystone.app.painter import Painter
from keystone.app.replies import Control, File, Option, Post, Reply
from keystone.cards import Habitat, Ruleset
from keystone.engine import (
    Event,
    GameConfig,
    GameState,
    GameView,
    IllegalAction,
    apply,
    campaign,
    dump_state,
    event_text,
    legal_actions,
    new_game,
    parse_action,
    player_view,
    public_view,
)
from keystone.engine.actions import Resign
from keystone.engine.bots import LEVELS, Level
from keystone.engine.coop import acting_player
from keystone.engine.history import UNDO, Taken, rebuild, undo_allowed
from keystone.engine.results import final_scores, standings, view_scores
from keystone.i18n import Language, messages, tr
from keystone.i18n.commands import option, slash
from keystone.render import changed_cells
from keystone.render.replay import ReplayTooLarge
from keystone.store import (
    KEEP,
    Clock,
    CorruptGame,
    DailyGame,
    DueClock,
    GameNotFound,
    GameRecord,
    Kind,
    LoadedGame,
    Outgoing,
    Pace,
    SeatInfo,
    SeatResult,
    Shards,
    StaleVersion,
    Store,
    StoreError,
)

log = logging.getLogger(__name__)

P = ParamSpec("P")
Mode = Literal["competitive", "coop"]
Wordlist = Literal["habitat", "topic", "assignment"]
"""The suggestions that need no game: habitats, rules topics, the journal's assignments."""

MOVED_ON = tr("en", "reply.moved_on")
"""The English start of a stale press's answer (tests look for it)."""
REPLAYS_KEPT = 4
"""Replay pictures kept in memory (a few MB each): asking twice for one game draws it once."""


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is asking: a user id, a display name, whether they may manage the channel (and the
    server), and their Discord client's locale ("de", "en-US"; None when unknown)."""

    user_id: int
    name: str
    can_manage: bool = False
    can_manage_server: bool = False
    locale: str | None = None


@dataclass(frozen=True, slots=True)
class Where:
    """The channel asked from; `guild_id` is None in a direct message. `guild_locale` is the
    server's Discord locale (None when unknown or in a direct message)."""

    channel_id: int
    guild_id: int | None = None
    guild_locale: str | None = None

    @property
    def is_dm(self) -> bool:
        return self.guild_id is None


@dataclass(slots=True)
class _Request:
    """What one service call has done so far, so an apology can say truly what was kept."""

    game_id: int | None = None
    saved: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    """Public lines to tell whatever the answer (a player back from being away)."""


_request: ContextVar[_Request | None] = ContextVar("request", default=None)
_by_scheduler: ContextVar[bool] = ContextVar("by_scheduler", default=False)
"""Whether the work running now is the scheduler's: what it owes goes straight to the outbox's
deliverer; otherwise an interaction answers with it first (and it is held for that answer)."""
Move = tuple[int, str, GameState]
"""A move to save: the store seat that made it, its notation, and the state after it."""
_speaking: ContextVar[language.Languages] = ContextVar(
    "speaking", default=language.Languages("en", "en"),  # noqa: B039 (a tuple: immutable)
)
"""The languages of the service call running now: its private answers' and its public messages'."""


@contextmanager
def _scheduler_work() -> Iterator[None]:
    """While the scheduler works, what it owes goes to the deliverer rather than being held."""
    token = _by_scheduler.set(True)
    try:
        yield
    finally:
        _by_scheduler.reset(token)


def _say(key: str, /, **params: object) -> str:
    """A private message (only the asker reads it) in the asker's language."""
    return _words(_speaking.get().private, key, **params)


def _announce(key: str, /, **params: object) -> str:
    """A public message (everyone in the channel reads it) in the channel's language."""
    return _words(_speaking.get().public, key, **params)


def _refusal(key: str, /, **params: object) -> IllegalAction:
    """A private refusal in the asker's language, to raise."""
    return IllegalAction(_say(key, **params))


_COMMANDS = {"board": "keystone board", "new": "keystone new", "objective": "keystone objective",
             "resign": "keystone resign", "journal_list": "journal list", "journal_start": "journal start",
             "clock_pause": "keystone clock pause", "clock_resume": "keystone clock resume"}
"""The commands messages name, as `{placeholder}`: each filled with the command as the reader's client shows it."""


def _words(lang: Language, key: str, /, **params: object) -> str:
    """`key` in `lang`, with every command it names as a client in `lang` shows it."""
    names = {name: slash(lang, path) for name, path in _COMMANDS.items()}
    return tr(lang, key, **names, **markdown.plain_names(params))


def event_words(event: Event, lang: Language) -> str:
    """An event told in `lang`: the one place that turns a game event into words for a message (the
    names in it escaped, so Discord shows them as typed)."""
    return event_text(replace(event, params=markdown.plain_names(event.params)), lang)


def error_words(error: Exception, lang: Language) -> str:
    """A refusal (illegal action or store error) told in `lang`: the one place that words them. The
    store speaks English: its sentences a player meets are found by their words among the
    `reply.store.*` messages (or, with a number in them, by the error's class)."""
    if isinstance(error, IllegalAction):
        return error.sentence(lang)
    if isinstance(error, GameNotFound):
        return tr(lang, "reply.store.game_not_found", game_id=error.game_id)
    if isinstance(error, CorruptGame):
        return tr(lang, "reply.store.corrupt", game_id=error.game_id, reason=error.reason)
    key = _store_keys().get(str(error)) if isinstance(error, StoreError) else None
    return str(error) if key is None else tr(lang, key)


@functools.cache
def _store_keys() -> dict[str, str]:
    """The store's fixed English sentences a player may meet, to their message keys."""
    english = messages("en")
    return {english[key]: key for key in english if key.startswith("reply.store.") and "{" not in english[key]}


def guarded(
    method: Callable[Concatenate[GameService, P], Awaitable[Reply]],
) -> Callable[Concatenate[GameService, P], Awaitable[Reply]]:
    """Make a service call answer every failure with a private sentence instead of raising, and speak
    the languages of its `Where` and `Actor` while it runs."""

    @functools.wraps(method)
    async def call(self: GameService, /, *args: P.args, **kwargs: P.kwargs) -> Reply:
        request = _Request()
        token, speaking = _request.set(request), _speaking.set(_speaking.get())
        try:
            try:
                _speaking.set(await self._speaking_to(*args, *kwargs.values()))
                reply = await method(self, *args, **kwargs)
            except Exception as exc:
                reply = await self._answer_failure(exc, request)
            reply = _with_notices(reply, request.notices)
            if reply.ended and reply.farewell is None:
                reply.farewell = threads.say(_speaking.get().public, "threads.closing")
            return reply
        finally:
            _request.reset(token)
            _speaking.reset(speaking)

    return call


class GameService:
    def __init__(
        self, store: Store, *, seeds: Callable[[], int] | None = None, clock: Callable[[], float] = time.time,
        painter: Painter | None = None, clock_scale: float = 1.0,
    ) -> None:
        self.store = store
        self.clock_scale = clock_scale
        """Turns last this share of their pace's time (KEYSTONE_CLOCK_SCALE; 1 in real play)."""
        self.painter = painter or Painter()
        """Draws every picture off the event loop: in threads unless the bot gives it worker processes."""
        self.clock = clock
        """Unix seconds now: turn clocks start, remind and run out by it (tests move it by hand)."""
        self._daily_secret: bytes | None = None
        self._locks: dict[int, asyncio.Lock] = {}
        self._seeds = seeds or (lambda: random.SystemRandom().randrange(2**31))
        self._cache: dict[int, LoadedGame] = {}
        self._won_before: dict[int, dict[int, set[int]]] = {}
        """Per finished journal game: each person's won assignments before it ended (for unlock news)."""
        self._turn_notes: dict[int, _TurnNotes] = {}
        """Per game: the turn in progress and its public events so far, told when the turn ends."""
        self._retry: set[int] = set()
        """Games a failure interrupted: a bot turn may be due there (see `play_due_bot_turns`)."""
        self._replays: dict[tuple[int, Language], File] = {}
        """The last few replay pictures drawn, by game and language: a finished game never changes."""
        self._drawing_replay = asyncio.Semaphore(1)
        """One replay drawn at a time: each holds every frame of a game in memory while it encodes."""
        self._clock_checked: dict[int, int] = {}
        """Per running game without a clock: the version at which it was found needing none."""
        self.wake: Callable[[], None] = lambda: None
        self.due: Callable[[float], None] = lambda at: None
        """Told the time (Unix seconds) a clock just saved first falls due, so that the scheduler
        sleeps no longer than that (it may be sleeping until a later time, or its longest wait)."""
        """Called when messages are owed that no interaction will post (the scheduler's deliverer listens)."""

    # ------------------------------------------------------------------ plumbing

    @asynccontextmanager
    async def _locked(self, game_id: int) -> AsyncIterator[None]:
        """Serialise work on one game; a failure inside is charged to that game (see `_answer_failure`)."""
        request = _request.get()
        if request is not None:
            request.game_id = game_id
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            yield

    async def _speaking_to(self, *given: object) -> language.Languages:
        """The languages of a call from its `Where` and `Actor` (an actor alone: a private answer;
        neither: as set already, by a game's server for the clock's posts)."""
        where = next((g for g in given if isinstance(g, Where)), None)
        actor = next((g for g in given if isinstance(g, Actor)), None)
        if actor is None:
            return _speaking.get()
        return await self.languages(where or Where(0), actor)

    async def _server_language(self, record: GameRecord) -> Language:
        """The language of a game's channel with no interaction to read locales from (the clock, bot
        turns after a restart): the one kept with the game (resolved when its lobby opened, and
        changed with the server's choice); for a game opened before, the server's choice (the host's
        in a direct message), else English."""
        if record.language is not None:
            return record.language
        chosen, server = await self.store.chosen_languages(record.host_id, record.guild_id)
        return (chosen if record.guild_id is None else server) or "en"

    async def _speak_for_game(self, record: GameRecord) -> None:
        """With no interaction: the game's channel language, for public and private words alike."""
        lang = await self._server_language(record)
        _speaking.set(language.Languages(lang, lang))

    async def _answer_failure(self, error: Exception, request: _Request) -> Reply:
        """The refusal for an illegal or stale request; for an unexpected failure, an apology that says
        truly which moves were saved, and a note to retry any bot turn it interrupted."""
        if isinstance(error, StaleVersion):
            self._cache.pop(error.game_id, None)
            return await self._stale(error.game_id)
        if isinstance(error, IllegalAction | StoreError):
            return Reply.refuse(error_words(error, _speaking.get().private))
        saved, game_id = request.saved, request.game_id
        log.error("unexpected failure in game %s after %d saved move(s)", game_id, len(saved), exc_info=error)
        if game_id is not None:
            self._cache.pop(game_id, None)
            self._retry.add(game_id)
        if not saved:
            return Reply.refuse(_say("reply.apology"))
        return Reply.refuse(_say(f"reply.apology.saved.{'one' if len(saved) == 1 else 'other'}", count=len(saved)))

    async def _game_here(self, where: Where, missing: str = "reply.no_game") -> GameRecord:
        """This channel's game (a lobby or a running one); refuses with `missing` when there is none."""
        record = await self.store.get_active_game(where.channel_id)
        if record is None:
            raise _refusal(missing)
        return record

    async def _load(self, game_id: int) -> LoadedGame:
        record = await self.store.get_game(game_id)
        cached = self._cache.get(game_id)
        if cached is not None and cached.state.version == record.version and record.status == "active":
            return LoadedGame(record, cached.state)
        loaded = await self.store.load_game(game_id)
        self._cache[game_id] = loaded
        return loaded

    async def _stale(self, game_id: int) -> Reply:
        loaded = await self.store.load_game(game_id)
        view = public_view(loaded.state)
        picture = await self.painter.draw(pictures.field_file, view, lang=_speaking.get().private)
        lang = _speaking.get().private
        return Reply(private=f"{_say('reply.moved_on')}\n{text.pending_sentence(view, lang)}", private_files=[picture])

    # ------------------------------------------------------------------ lobby

    @guarded
    async def new(
        self, where: Where, actor: Actor, players: int = 2, rules: Ruleset = "second-edition", *,
        mode: Mode = "competitive", assignment: int | None = None, opponent: Level | None = None,
        envelope: bool = False, pace: Pace | None = None,
    ) -> Reply:
        """Open a lobby in this channel; in a direct message start a solo game (or one against bots) at once.
        A channel game's turns run on a clock at `pace` (daily when not given); a DM game has none."""
        problem = await self.why_not_new(where, actor, players, mode=mode, assignment=assignment,
                                         opponent=opponent, envelope=envelope, pace=pace)
        if problem is not None:
            raise IllegalAction(problem)
        if assignment is not None and mode == "competitive":
            return await self.journal_start(where, actor, assignment)
        kind, config = _new_config(where, players, rules, mode, assignment, opponent, envelope)
        record = await self.store.create_lobby(
            guild_id=where.guild_id, channel_id=where.channel_id, kind=kind, host_id=actor.user_id,
            host_name=actor.name, config=config, assignment=assignment,
            pace=None if where.is_dm else pace or clock.DEFAULT_PACE, language=_speaking.get().public,
        )
        level = opponent or "normal"
        wanted_bots = config.players - 1 if where.is_dm else (1 if opponent else 0)
        for _ in range(wanted_bots):
            record = await self.store.join_lobby(record.id, _bot_seat(record, level))
        if where.is_dm:
            return await self._start(record, actor)
        about = _announce("lobby.about", number=assignment,
                          title=campaign.assignment(assignment).title_in(_speaking.get().public)) if assignment else ""
        bots = _announce("lobby.bot_seated", bot=_a_bot(level)) if opponent else ""
        paced = _announce("lobby.paced", pace=clock.pace_words(record.pace, _speaking.get().public)) \
            if record.pace else ""
        key = "lobby.opened.coop" if kind == "coop" else "lobby.opened"
        rules_said = _announce(f"value.rules.{config.rules}")
        return self._lobby_reply(record, _announce(key, name=actor.name, players=config.players, rules=rules_said,
                                                   about=about, bots=bots, paced=paced))

    async def why_not_new(
        self, where: Where, actor: Actor, players: int = 2, *, mode: Mode = "competitive",
        assignment: int | None = None, opponent: Level | None = None, envelope: bool = False,
        pace: Pace | None = None,
    ) -> str | None:
        """Why `new` would refuse these options, or None: asked before a thread is opened for a game,
        so a refusal leaves no empty thread behind. Said in the asker's language."""
        speaking = _speaking.set(await self._speaking_to(where, actor))
        try:
            problem = _new_problem(where, players, mode, assignment, opponent, envelope)
            if problem is None and pace is not None and where.is_dm:
                problem = clock.say(_speaking.get().private, "clock.no_clock_in_dm")
            if problem is None and pace is not None and assignment is not None and mode == "competitive":
                problem = clock.say(_speaking.get().private, "clock.no_clock_solo")
            if problem is None and envelope and not await self._envelope_open(actor.user_id):
                problem = _say("reply.envelope.closed", last=campaign.LAST_ASSIGNMENT)
            return problem
        finally:
            _speaking.reset(speaking)

    async def _won(self, user_id: int) -> list[int]:
        """The assignments this person has won (their campaign progress)."""
        return (await self.store.campaign_progress(user_id)).completed

    def _lobby_reply(self, record: GameRecord, headline: str) -> Reply:
        names = ", ".join(markdown.plain(s.name) for s in record.seats) or _announce("lobby.nobody")
        body = _announce("lobby.seated", headline=headline, seated=len(record.seats), wanted=record.config.players,
                         names=names)
        buttons = [
            Control(ids.lobby_id(record.id, "join"), _announce("lobby.button.join"), "success"),
            Control(ids.lobby_id(record.id, "leave"), _announce("lobby.button.leave"), "secondary"),
            Control(ids.lobby_id(record.id, "bot"), _announce("lobby.button.bot"), "secondary"),
            Control(ids.lobby_id(record.id, "start"), _announce("lobby.button.start"), "primary"),
            Control(ids.level_id(record.id), _announce("lobby.select.level"),
                    options=tuple(Option(_announce(f"lobby.level.{level}"), level) for level in LEVELS)),
        ]
        return Reply(public=body, controls=buttons)

    @guarded
    async def lobby(
        self, where: Where, actor: Actor, what: str, game_id: int | None = None, level: Level = "normal"
    ) -> Reply:
        """join / leave / start / bot (of `level`), from a command (channel) or a lobby control (game id)."""
        gid = game_id if game_id is not None else (await self._game_here(where, "reply.no_lobby")).id
        async with self._locked(gid):
            record = await self.store.get_game(gid)
            if record.channel_id != where.channel_id:
                return Reply.refuse(_say("lobby.elsewhere"))
            if record.status != "lobby":
                return Reply.refuse(_say("lobby.started"))
            if what == "join":
                if len(record.seats) >= record.config.players:
                    return Reply.refuse(_say("lobby.full"))
                record = await self.store.join_lobby(gid, SeatInfo.human(actor.user_id, actor.name))
                return self._lobby_reply(record, _announce("lobby.joined", name=actor.name))
            if what == "leave":
                record = await self.store.leave_lobby(gid, actor.user_id)
                if record.status != "lobby":
                    return Reply(public=_announce("lobby.left.closed", name=actor.name), ended=True)
                return self._lobby_reply(record, _announce("lobby.left", name=actor.name))
            if actor.user_id != record.host_id:
                return Reply.refuse(_say("lobby.host_only"))
            if what == "bot":
                if len(record.seats) >= record.config.players:
                    return Reply.refuse(_say("lobby.full"))
                record = await self.store.join_lobby(gid, _bot_seat(record, level))
                return self._lobby_reply(record, _announce("lobby.joined", name=_a_bot(level)))
            if len(record.seats) < record.config.players:
                return Reply.refuse(_say("lobby.short", players=record.config.players, seated=len(record.seats)))
            return await self._start(record, actor)

    async def _start(self, record: GameRecord, actor: Actor) -> Reply:
        seed = self._seeds()
        names = [s.name for s in record.seats]
        if record.config.coop:
            names = [" & ".join(names)[:100]]
        state = new_game(record.config, seed, names)
        started = replace(record, status="active", version=0)
        view = public_view(state)
        reply = Reply(files=[await self.painter.draw(pictures.field_file, view, lang=_speaking.get().public)])
        lines = [_announce("game.begins")]
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

    # ------------------------------------------------------------------ playing

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

    async def _hand(self, state: GameState, view: GameView) -> list[File]:
        """A picture of the cards the actor holds (drawn or searched), if any."""
        if not state.held:
            return []
        return [await self.painter.draw(pictures.hand_file, view, list(state.held), lang=_speaking.get().private)]

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

    async def _playing(self, game_id: int) -> tuple[GameRecord, GameState]:
        loaded = await self._load(game_id)
        if loaded.record.status != "active":
            raise _refusal("game.not_running")
        return loaded.record, loaded.state

    async def _playing_here(self, where: Where) -> tuple[GameRecord, GameState]:
        return await self._playing((await self._game_here(where)).id)

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

    async def _final_words(self, record: GameRecord, state: GameState, reply: Reply) -> str:
        """Attach the score sheet and say who won (ties explained); an assignment gets its verdict."""
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

    # ------------------------------------------------------------------ the Field Journal

    async def _envelope_open(self, user_id: int) -> bool:
        """Whether the sealed envelope is open for this person: they have started the last assignment."""
        return campaign.envelope_open(await self.store.started_assignments(user_id))

    @guarded
    async def journal_list(self, actor: Actor) -> Reply:
        """Every assignment with this person's stars, the recommended next one, and the envelope."""
        progress = await self.store.campaign_progress(actor.user_id)
        lines = journal.journal_lines(progress, await self._envelope_open(actor.user_id), _speaking.get().private)
        return Reply(private="\n".join(lines))

    @guarded
    async def journal_start(self, where: Where, actor: Actor, number: int | None = None) -> Reply:
        """Begin any assignment here (the recommended one, the lowest not yet won, by default)."""
        progress = await self.store.campaign_progress(actor.user_id)
        wanted = number if number is not None else campaign.recommended(progress.completed)
        problem = _assignment_problem(wanted)
        if problem:
            raise IllegalAction(problem)
        config = campaign.config_for(wanted)
        record = await self.store.create_lobby(
            guild_id=where.guild_id, channel_id=where.channel_id, kind="solo", host_id=actor.user_id,
            host_name=actor.name, config=config, assignment=wanted, language=_speaking.get().public,
        )
        return await self._start(record, actor)

    async def _journal_here(self, where: Where) -> tuple[GameRecord, GameState, int]:
        record, state = await self._playing_here(where)
        if record.assignment is None:
            raise _refusal("game.not_journal")
        return record, state, record.assignment

    @guarded
    async def journal_status(self, where: Where, actor: Actor) -> Reply:
        """How the running assignment's goals stand on the board now."""
        _, state, number = await self._journal_here(where)
        return Reply(private="\n".join(campaign.progress(number, state, _speaking.get().private).sentences()))

    @guarded
    async def journal_abandon(self, where: Where, actor: Actor) -> Reply:
        """Stop the assignment here without a result; it stays open to try again."""
        await self._journal_here(where)
        return await self.abandon(where, actor)

    # ------------------------------------------------------------------ the daily challenge

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

    # ------------------------------------------------------------------ looking

    @guarded
    async def board(self, where: Where, actor: Actor, seat: str | None = None) -> Reply:
        """Any seat's board (bots' included), privately; one's own board comes with the objective."""
        record, state = await self._playing_here(where)
        board = _board(record, _find_seat(record, state, actor, seat))
        own = record.seat_of(actor.user_id)
        mine = own is not None and _board(record, own) == board
        view = player_view(state, board) if mine else public_view(state)
        files = [await self.painter.draw(pictures.board_file, view, board, lang=_speaking.get().private)]
        if mine and view.seats[board].objective is not None:
            files.append(await self.painter.draw(pictures.objective_file, view, board, lang=_speaking.get().private))
        return Reply(private="\n".join(text.board_lines(view, board, _speaking.get().private)), private_files=files)

    @guarded
    async def field(self, where: Where, actor: Actor) -> Reply:
        _, state = await self._playing_here(where)
        view = public_view(state)
        picture = await self.painter.draw(pictures.field_file, view, lang=_speaking.get().private)
        return Reply(private="\n".join(text.field_lines(view, lang=_speaking.get().private)), private_files=[picture])

    @guarded
    async def objective(self, where: Where, actor: Actor) -> Reply:
        record, state = await self._playing_here(where)
        board = _board(record, _seat_or_refuse(record, actor))
        view = player_view(state, board)
        number = view.seats[board].objective
        if number is None:
            return Reply.refuse(_say("game.no_objectives"))
        picture = await self.painter.draw(pictures.objective_file, view, board, lang=_speaking.get().private)
        return Reply(private=text.objective_text(number, _speaking.get().private), private_files=[picture])

    @guarded
    async def score(self, where: Where, actor: Actor) -> Reply:
        _, state = await self._playing_here(where)
        view = public_view(state)
        lines = text.score_lines(view, view_scores(view), _speaking.get().private)
        return Reply(private="\n".join([_say("game.scores_so_far"), *lines]))

    @guarded
    async def game_log(self, where: Where, actor: Actor) -> Reply:
        record = await self._game_here(where)
        entries = await self.store.log_entries(record.id)
        if not entries:
            return Reply(private=_say("game.no_actions"))
        names = [s.name for s in record.seats]
        shown = [f"{e.version}. {names[e.seat]}: `{e.notation}`" for e in entries[-30:]]
        return Reply(private="\n".join(shown))

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

    # ------------------------------------------------------------------ finding one's games

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

    # ------------------------------------------------------------------ statistics and ratings

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

    # ------------------------------------------------------------------ history and replays

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

    # ------------------------------------------------------------------ turn clocks and absent players

    async def delivered(self, key: str) -> None:
        """An interaction posted this owed message: the deliverer must not post it again."""
        await self.store.mark_sent(key)

    async def undelivered(self, keys: list[str]) -> None:
        """An interaction could not post these owed messages: the deliverer posts them in the channel."""
        await self.store.release(keys)
        self.wake()

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
                fresh = self._clock_for(loaded.record, None, loaded.state)
                if isinstance(fresh, Clock):
                    await self.store.set_clock(game_id, fresh)
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

    # ------------------------------------------------------------------ languages

    async def languages(self, where: Where, actor: Actor) -> language.Languages:
        """The language of the actor's private answers and of this channel's public messages."""
        chosen, server_chosen = await self.store.chosen_languages(actor.user_id, where.guild_id)
        return language.resolve(chosen, actor.locale, server_chosen, where.guild_locale, in_dm=where.is_dm)

    @guarded
    async def help(self, where: Where, actor: Actor, topic: str = text.HELP_TOPICS[0]) -> Reply:
        """One page of the commands (`text.HELP_TOPICS`), in the actor's language (answered privately)."""
        return Reply(private=text.help_text((await self.languages(where, actor)).private, topic))

    @guarded
    async def set_language(self, where: Where, actor: Actor, choice: str, scope: str) -> Reply:
        """Choose the actor's language (`me`) or the server's (`server`, for its managers); `auto`
        follows Discord's locale again. Answered privately, in the language now chosen."""
        speaking = (await self.languages(where, actor)).private
        lang, scope = language.parse(choice, scope, speaking)
        if scope == "me":
            await self.store.set_language(actor.user_id, lang)
        elif where.guild_id is None:
            raise IllegalAction(tr(speaking, "language.server.dm"))
        elif not actor.can_manage_server:
            raise IllegalAction(tr(speaking, "language.server.manager"))
        else:
            await self.store.set_server_language(where.guild_id, lang)
        now = await self.languages(where, actor)
        if scope == "server" and where.guild_id is not None:
            await self.store.set_games_language(where.guild_id, now.public)
        spoken = now.private if scope == "me" else now.public
        return Reply(private=language.confirmation(spoken, scope, followed=lang is None))

    # ------------------------------------------------------------------ autocomplete

    async def state_here(self, where: Where) -> tuple[GameRecord, GameState] | None:
        """The running game in this channel, for autocomplete (None when there is none)."""
        record = await self.store.get_active_game(where.channel_id)
        if record is None or record.status != "active":
            return None
        return await self._playing(record.id)

    async def suggest(self, where: Where, actor: Actor, verb: str, typed: str = "") -> list[tuple[str, str]]:
        """(label, value) pairs for autocomplete: take slots, empty cells, usable skills, habitats."""
        found = await self.state_here(where)
        if found is None:
            return []
        lang = (await self.languages(where, actor)).private
        record, state = found
        seat = record.seat_of(actor.user_id)
        view = public_view(state)
        legal = [str(a) for a in legal_actions(state)] if seat == acting_player(state) else []
        out: list[tuple[str, str]] = []
        if verb == "take":
            slots = sorted({int(n.split()[1]) for n in legal if n.startswith("take ")})
            out = [(text.slot_label(view, s - 1, lang), str(s)) for s in slots]
        elif verb == "cell":
            board_seat = state.current if seat is None else _board(record, seat)
            out = [(c, c) for c in text.empty_cells(view, board_seat)]
        elif verb == "skill":
            usable = [int(n.split()[1]) for n in legal if n.startswith("skill ")]
            out = [(tr(lang, "game.all_exhausted") if n == 0 else text.skill_label(n, lang), str(n)) for n in usable]
        elif verb == "seat":
            out = [(s.name, str(i + 1)) for i, s in enumerate(record.seats)]
        elif verb == "habitat":
            out = text.habitat_choices(sorted({Habitat(n.split()[1]) for n in legal if n.startswith("wild ")}), lang)
        return _matching(out, typed, by_value=False)

    async def suggest_words(self, where: Where, actor: Actor, what: Wordlist, typed: str = "") -> list[tuple[str, str]]:
        """(label, value) pairs that need no game, named in the asker's language: every habitat, every
        rules topic, or every assignment of the journal."""
        lang = (await self.languages(where, actor)).private
        if what == "habitat":
            return _matching(text.habitat_choices(Habitat, lang), typed)
        return _matching(text.topic_choices(lang) if what == "topic" else journal.assignment_choices(lang), typed)

    @guarded
    async def rules(self, where: Where, actor: Actor, topic: str | None = None) -> Reply:
        """One rules topic (named in English or German), or the list of topics, in the asker's language."""
        return Reply(private=text.rules_text(topic, (await self.languages(where, actor)).private))


@dataclass(frozen=True, slots=True)
class _Turn:
    """A finished turn: the board that played it, the state after it, its public events and the
    cells where it placed cards (framed on the turn picture)."""

    board: int
    state: GameState
    events: list[Event]
    placed: tuple[int, ...] = ()


@dataclass(slots=True)
class _TurnNotes:
    """What the turn in progress has told and placed so far, for its one public message."""

    turn: int
    events: list[Event] = field(default_factory=list)
    placed: set[int] = field(default_factory=set)


def _placed(before: GameState, after: GameState, board: int) -> set[int]:
    """The cells of `board` that hold a new card after a move (placed, bought or moved there)."""
    return set(changed_cells(public_view(before), public_view(after), board))


def _turn_ended(before: GameState, after: GameState) -> bool:
    return after.turn != before.turn or after.phase == "over"


def _results(record: GameRecord, state: GameState) -> list[SeatResult]:
    """Each store seat's result, as the engine ranks its board: co-op partners share their one
    board's result, so an assignment's stars reach every partner's campaign."""
    boards = standings(state)
    played = [boards[_board(record, i)] for i in range(len(record.seats))]
    return [SeatResult(i, b.score, b.place, b.won, b.stars, stats.board_summary(state, _board(record, i)))
            for i, b in enumerate(played)]


def _bot_is_due(record: GameRecord, state: GameState) -> bool:
    """Whether a bot must decide now (a bot's seat, or an away person's): it should already have
    played, as a person would be waiting. An away person's seat is played only while some person
    at the table is still playing: once everyone is away the game waits (no burst of bot turns
    playing it to the end), and the first person to act takes it on again."""
    if state.phase == "over":
        return False
    seat = record.seats[acting_player(state)]
    return seat.bot_decides and (seat.is_bot or _anyone_active(record))


def _anyone_active(record: GameRecord) -> bool:
    """Whether some person at the table still plays their own seat (is not away)."""
    return any(not s.is_bot and not s.away for s in record.seats)


def _with_seat(record: GameRecord, position: int, *, away: bool) -> GameRecord:
    """The record with one person's seat away (or back, with their missed turns cleared)."""
    seat = record.seats[position]
    changed = replace(seat, away=away, missed=seat.missed if away else 0)
    return replace(record, seats=(*record.seats[:position], changed, *record.seats[position + 1:]))


def _bot_level(seat: SeatInfo) -> int:
    """The level a bot plays this seat at: its own for a bot's seat, normal for a person's."""
    return LEVELS.index("normal") if seat.bot_level is None else seat.bot_level


def _with_notices(reply: Reply, notices: list[str]) -> Reply:
    """The reply with public notices (a player is back) before its public part."""
    if not notices:
        return reply
    reply.public = "\n".join([*notices, *([reply.public] if reply.public is not None else [])])
    return reply


def _board(record: GameRecord, seat: int) -> int:
    """The engine seat (board) a store seat plays: co-op partners all play board 0."""
    return 0 if record.config.coop else seat


def _check_turn(record: GameRecord, state: GameState, seat: int) -> None:
    """Refuse anyone but the person who decides now, naming them."""
    decider = acting_player(state)
    if seat != decider:
        who = record.seats[decider].name
        raise _refusal("game.turn.coop" if record.config.coop else "game.turn.other", name=who)


def _bot_seat(record: GameRecord, level: Level) -> SeatInfo:
    count = sum(1 for s in record.seats if s.is_bot) + 1
    name = _announce("bot.name", count=count, level=_announce(f"value.level.{level}"))
    return SeatInfo.bot(LEVELS.index(level), name)


def _a_bot(level: Level) -> str:
    """"An easy bot", "A normal bot": the words for a bot of `level` starting a sentence."""
    return _announce(f"lobby.a_bot.{level}")


def _matching(pairs: list[tuple[str, str]], typed: str, *, by_value: bool = True) -> list[tuple[str, str]]:
    """The suggestions whose label (or value) holds what was typed, any case, as many as Discord shows."""
    wanted = typed.strip().casefold()
    return [(label[:100], value) for label, value in pairs
            if wanted in label.casefold() or (by_value and wanted in value)][:25]


def _assignment_problem(number: int) -> str | None:
    """Why `number` names no assignment of the journal, in the asker's language, or None."""
    if not 1 <= number <= campaign.LAST_ASSIGNMENT:
        return _say("new.assignment", number=number, last=campaign.LAST_ASSIGNMENT)
    return None


def _new_problem(
    where: Where, players: int, mode: Mode, assignment: int | None, opponent: Level | None, envelope: bool
) -> str | None:
    """Why these `/keystone new` options cannot make a game together, or None."""
    if not 1 <= players <= 4:
        return _say("new.players")
    if assignment is not None and (problem := _assignment_problem(assignment)):
        return problem
    if mode == "coop":
        if where.is_dm:
            return _say("new.coop.dm")
        if players != 2:
            return _say("new.coop.two")
        if opponent is not None:
            return _say("new.coop.opponent")
    if assignment is not None and (envelope or opponent is not None):
        lang = _speaking.get().private
        return _say("new.assignment.setup", envelope=option(lang, "keystone new", "envelope"),
                    opponent=option(lang, "keystone new", "opponent"))
    if opponent is not None and not where.is_dm and players < 2:
        return _say("new.opponent.players")
    return None


def _new_config(
    where: Where, players: int, rules: Ruleset, mode: Mode, assignment: int | None, opponent: Level | None,
    envelope: bool,
) -> tuple[Kind, GameConfig]:
    """The store kind and engine config `/keystone new` asks for (options already checked)."""
    expansions = [campaign.ENVELOPE] if envelope else []
    if mode == "coop":
        if assignment is not None:
            return "coop", campaign.config_for(assignment, coop=True)
        return "coop", GameConfig(players=players, rules=rules, coop=True, expansions=expansions)
    if where.is_dm:
        size = max(players, 2) if opponent is not None else 1
        kind: Kind = "competitive" if opponent is not None else "solo"
        return kind, GameConfig(players=size, rules=rules, expansions=expansions)
    return "competitive", GameConfig(players=players, rules=rules, expansions=expansions)


def _seat_or_refuse(record: GameRecord, actor: Actor) -> int:
    seat = record.seat_of(actor.user_id)
    if seat is None:
        raise _refusal("seat.not_playing")
    return seat


def _find_seat(record: GameRecord, state: GameState, actor: Actor, wanted: str | None) -> int:
    """The store seat asked for: a seat number (what autocomplete sends), a seat's name, or a mention."""
    if wanted is None:
        seat = record.seat_of(actor.user_id)
        return state.current if seat is None else seat
    typed = wanted.strip().lower().lstrip("@")
    if typed.isascii() and typed.isdigit() and len(typed) <= 3 and 1 <= int(typed) <= len(record.seats):
        return int(typed) - 1  # ASCII digits only: "²" is a digit to Python, but no number int() reads
    for i, s in enumerate(record.seats):
        if s.name.lower() == typed or str(s.user_id) == typed.strip("<>@!"):
            return i
    names = ", ".join(markdown.plain(s.name) for s in record.seats)
    raise _refusal("seat.unknown", wanted=markdown.plain(shorten(wanted.strip(), 40)), names=names)


def _winner_sentence(state: GameState, sheets_totals: list[int], ranks: list[int]) -> str:
    scores = ", ".join(f"{markdown.plain(s.name)} {t}" for s, t in zip(state.seats, sheets_totals, strict=True))
    winners = [state.seats[i].name for i, r in enumerate(ranks) if r == 1]
    if len(state.seats) == 1:
        return _announce("final.solo", scores=scores)
    if len(winners) == 1:
        return _announce("final.winner", scores=scores, winner=winners[0])
    return _announce("final.shared", scores=scores, winners=_announce("final.and").join(winners))
