"""Opening games: `/keystone new` (a lobby in a channel; a game at once in a direct message, or an
assignment of the journal), and the lobby's join, leave, bot and start."""

from __future__ import annotations

from typing import Literal

from keystone.app import clock, ids, markdown
from keystone.app.context import Actor, Where, _announce, _say, _speaking, guarded
from keystone.app.journal_service import JournalService, _assignment_problem
from keystone.app.replies import Control, Option, Reply
from keystone.app.turns import hints_said
from keystone.cards import Ruleset
from keystone.engine import GameConfig, IllegalAction, campaign
from keystone.engine.bots import LEVELS, Level
from keystone.i18n.commands import option
from keystone.store import GameRecord, Kind, Pace, SeatInfo

Mode = Literal["competitive", "coop"]


class Lobby(JournalService):
    """A game's lobby, from its opening to its start."""

    @guarded
    async def new(
        self, where: Where, actor: Actor, players: int = 2, rules: Ruleset = "second-edition", *,
        mode: Mode = "competitive", assignment: int | None = None, opponent: Level | None = None,
        envelope: bool = False, pace: Pace | None = None, hints: bool | None = None,
    ) -> Reply:
        """Open a lobby in this channel; in a direct message start a solo game (or one against bots) at once.
        A channel game's turns run on a clock at `pace` (daily when not given); a DM game has none.
        `hints`: whether players may ask `/keystone hint` (None: wherever the game is not rated)."""
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
            pace=None if where.is_dm else pace or clock.DEFAULT_PACE, language=_speaking.get().public, hints=hints,
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

    def _lobby_reply(self, record: GameRecord, headline: str) -> Reply:
        names = ", ".join(markdown.plain(s.name) for s in record.seats) or _announce("lobby.nobody")
        body = _announce("lobby.seated", headline=headline, seated=len(record.seats), wanted=record.config.players,
                         names=names) + "\n" + hints_said(record)
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


def _bot_seat(record: GameRecord, level: Level) -> SeatInfo:
    count = sum(1 for s in record.seats if s.is_bot) + 1
    name = _announce("bot.name", count=count, level=_announce(f"value.level.{level}"))
    return SeatInfo.bot(LEVELS.index(level), name)


def _a_bot(level: Level) -> str:
    """"An easy bot", "A normal bot": the words for a bot of `level` starting a sentence."""
    return _announce(f"lobby.a_bot.{level}")


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
