"""The context every concern of the game service shares: the store, the painter, the clock, the
per-game locks and cache, and the languages of the service call running now; who asks (`Actor`) and
from where (`Where`); the words a call says (`_say`, `_announce`, `_refusal`); and `guarded`, which
makes a call answer every failure with a private sentence.

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
from typing import Concatenate, ParamSpec, TypeVar

from keystone.app import language, logs, markdown, pictures, text, threads
from keystone.app.painter import Painter
from keystone.app.replies import File, Reply
from keystone.engine import Event, GameState, IllegalAction, event_text, public_view
from keystone.i18n import Language, messages, tr
from keystone.i18n.commands import slash
from keystone.store import CorruptGame, GameNotFound, GameRecord, LoadedGame, StaleVersion, Store, StoreError

log = logging.getLogger(__name__)

P = ParamSpec("P")
S = TypeVar("S", bound="Context")
"""A service (any of its concerns) that a `guarded` call runs on."""

MOVED_ON = tr("en", "reply.moved_on")
"""The English start of a stale press's answer (tests look for it)."""


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
_speaking: ContextVar[language.Languages] = ContextVar(
    "speaking", default=language.Languages("en", "en"),  # noqa: B039 (a tuple: immutable)
)
"""The languages of the service call running now: its private answers' and its public messages'."""


@dataclass(slots=True)
class _TurnNotes:
    """What the turn in progress has told and placed so far, for its one public message."""

    turn: int
    events: list[Event] = field(default_factory=list)
    placed: set[int] = field(default_factory=set)


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
    method: Callable[Concatenate[S, P], Awaitable[Reply]],
) -> Callable[Concatenate[S, P], Awaitable[Reply]]:
    """Make a service call answer every failure with a private sentence instead of raising, and speak
    the languages of its `Where` and `Actor` while it runs."""

    @functools.wraps(method)
    async def call(self: S, /, *args: P.args, **kwargs: P.kwargs) -> Reply:
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


def _with_notices(reply: Reply, notices: list[str]) -> Reply:
    """The reply with public notices (a player is back) before its public part."""
    if not notices:
        return reply
    reply.public = "\n".join([*notices, *([reply.public] if reply.public is not None else [])])
    return reply


class Context:
    """What every concern of the service shares, made once by the composition root
    (`GameService`): the store, the painter, the clock, the per-game locks and caches, and how a
    call finds its game and its languages."""

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
        self.moved: Callable[[str, int], None] = lambda kind, count: None
        """Told the kind of game and how many moves each save wrote (the metrics count them)."""
        self.wake: Callable[[], None] = lambda: None
        self.due: Callable[[float], None] = lambda at: None
        """Told the time (Unix seconds) a clock just saved first falls due, so that the scheduler
        sleeps no longer than that (it may be sleeping until a later time, or its longest wait)."""
        """Called when messages are owed that no interaction will post (the scheduler's deliverer listens)."""

    @asynccontextmanager
    async def _locked(self, game_id: int) -> AsyncIterator[None]:
        """Serialise work on one game; a failure inside is charged to that game (see `_answer_failure`)."""
        request = _request.get()
        if request is not None:
            request.game_id = game_id
        logs.also(game=game_id)  # the interaction's lines (its answer's too) name the game
        with logs.about(game=game_id):  # the scheduler's as well (and its place, once `_load` read it)
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

    async def languages(self, where: Where, actor: Actor) -> language.Languages:
        """The language of the actor's private answers and of this channel's public messages."""
        chosen, server_chosen = await self.store.chosen_languages(actor.user_id, where.guild_id)
        return language.resolve(chosen, actor.locale, server_chosen, where.guild_locale, in_dm=where.is_dm)

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
        log.error("unexpected failure in game %s after %d saved move(s)", game_id, len(saved), exc_info=error,
                  extra={logs.FIELDS["game"]: game_id})  # its `about` ended with the lock
        if game_id is not None:
            self._cache.pop(game_id, None)
            self._retry.add(game_id)
        if not saved:
            return replace(Reply.refuse(_say("reply.apology")), failed=True)
        return replace(Reply.refuse(_say(f"reply.apology.saved.{'one' if len(saved) == 1 else 'other'}",
                                         count=len(saved))), failed=True)

    async def _game_here(self, where: Where, missing: str = "reply.no_game") -> GameRecord:
        """This channel's game (a lobby or a running one); refuses with `missing` when there is none."""
        record = await self.store.get_active_game(where.channel_id)
        if record is None:
            raise _refusal(missing)
        return record

    async def _load(self, game_id: int) -> LoadedGame:
        record = await self.store.get_game(game_id)
        if logs.current().get("game") == game_id:
            logs.also(guild=record.guild_id, channel=record.channel_id)
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

    async def _playing(self, game_id: int) -> tuple[GameRecord, GameState]:
        loaded = await self._load(game_id)
        if loaded.record.status != "active":
            raise _refusal("game.not_running")
        return loaded.record, loaded.state

    async def _playing_here(self, where: Where) -> tuple[GameRecord, GameState]:
        return await self._playing((await self._game_here(where)).id)
