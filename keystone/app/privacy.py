"""Forgetting a person (`/keystone forget-me`) or a server (`/keystone forget-server`), each after a
confirmation button, and a server 30 days after the bot was removed from it (the scheduler asks).

The store forgets in one transaction (`keystone.store.privacy`; what is kept and why is in
PRIVACY.md). Here: who may ask, the button that confirms (its custom id carries who asked, what and
when, so someone else's or a stale press is refused), the per-game locks held meanwhile, and the
message each running game's channel is owed when a bot takes a forgotten person's seat.
"""

from __future__ import annotations

import logging
from contextlib import AsyncExitStack

from keystone.app import ids, markdown
from keystone.app.context import Actor, Where, _announce, _say, _scheduler_work, _speaking, guarded
from keystone.app.replies import Control, Reply
from keystone.app.timing import Timing
from keystone.engine import public_view
from keystone.i18n import LANGUAGES, tr
from keystone.store import Labels, Shards

log = logging.getLogger(__name__)

CONFIRM_TIME = 600
"""Seconds a confirmation button stays valid: a press later must ask again."""
FORGET_AFTER = 30 * 86400.0
"""Seconds after the bot was removed from a server before its data is forgotten."""


def forget_labels() -> Labels:
    """What a forgotten person is called in each language, as a seat and as the bot in their seat."""
    former: dict[str, str] = {lang: tr(lang, "privacy.former_player") for lang in LANGUAGES}
    bot: dict[str, str] = {lang: tr(lang, "game.bot_for", name=tr(lang, "privacy.former_player")) for lang in LANGUAGES}
    return Labels(former, bot,
                  lambda name: (name, markdown.plain(name)))


class Privacy(Timing):
    """Forgetting people and servers."""

    @guarded
    async def ask_forget_me(self, actor: Actor) -> Reply:
        """What forgetting deletes and keeps, and the button that does it (answered privately)."""
        custom_id = ids.forget_id("me", actor.user_id, actor.user_id, int(self.clock()))
        return Reply(private=_say("privacy.me.ask"),
                     private_controls=[Control(custom_id, _say("privacy.me.button"), "danger")])

    @guarded
    async def forget_me(self, actor: Actor, asker: int, asked_at: int) -> Reply:
        """The confirmation was pressed: forget the presser, if it is their own fresh button."""
        problem = self._press_problem(actor, asker, asked_at)
        if problem is not None:
            return Reply.refuse(problem)
        game_ids = await self.store.games_of_person(actor.user_id)
        async with AsyncExitStack() as held:
            for game_id in game_ids:
                await held.enter_async_context(self._locked(game_id))
            forgotten = await self.store.forget_person(actor.user_id, forget_labels())
            self._drop_cached(game_ids)
        speaking = _speaking.get()
        for game_id in forgotten.handed_to_bot:
            await self._bot_takes_over(game_id)
        _speaking.set(speaking)  # each game spoke its channel's language; the answer is the asker's
        log.info("forgot a person (%d game(s); %d running handed to a bot)", forgotten.games,
                 len(forgotten.handed_to_bot))
        return Reply(private=_say("privacy.me.done"))

    async def _bot_takes_over(self, game_id: int) -> None:
        """Tell a running game's channel that a bot plays on in a forgotten person's seat, and let it
        play if its turn is due; owed through the outbox, as the scheduler's messages are."""
        try:
            with _scheduler_work():
                async with self._locked(game_id):
                    record, state = await self._playing(game_id)
                    await self._speak_for_game(record)
                    headline = _announce("privacy.seat_to_bot")
                    if await self._play_bots(record, state, headline):
                        return
                    reply = Reply()
                    lines = [headline]
                    self._hand_over(record, state, public_view(state), lines, reply)
                    reply.public = "\n".join(lines)
                    await self.store.post(self._owed(record, [reply]))
            self.wake()
        except Exception:
            log.exception("could not hand game %s to a bot after forgetting a player", game_id)
            self._retry.add(game_id)

    @guarded
    async def ask_forget_server(self, where: Where, actor: Actor) -> Reply:
        """For a server manager in the server: what forgetting it does, and the button that does it."""
        problem = _server_problem(where, actor)
        if problem is not None:
            return Reply.refuse(problem)
        assert where.guild_id is not None
        custom_id = ids.forget_id("server", actor.user_id, where.guild_id, int(self.clock()))
        return Reply(private=_say("privacy.server.ask"),
                     private_controls=[Control(custom_id, _say("privacy.server.button"), "danger")])

    @guarded
    async def forget_server(self, where: Where, actor: Actor, asker: int, guild_id: int, asked_at: int) -> Reply:
        """The confirmation was pressed: forget this server, if the presser asked, still manages it,
        and the button is fresh and of this server."""
        problem = self._press_problem(actor, asker, asked_at) or _server_problem(where, actor)
        if problem is None and where.guild_id != guild_id:
            problem = _say("privacy.other_server")
        if problem is not None:
            return Reply.refuse(problem)
        ended = await self._forget_server(guild_id)
        return Reply(private=_say(f"privacy.server.done.{'one' if ended == 1 else 'other'}", count=ended))

    async def _forget_server(self, guild_id: int) -> int:
        running = [r.id for r in await self.store.list_games("active") if r.guild_id == guild_id]
        async with AsyncExitStack() as held:
            for game_id in running:
                await held.enter_async_context(self._locked(game_id))
            ended = await self.store.forget_server(guild_id)
            self._drop_cached(running)
        log.info("forgot a server (%d open game(s) ended)", ended)
        return ended

    async def server_left(self, guild_id: int) -> None:
        """The bot was removed from a server: its data is forgotten `FORGET_AFTER` from now."""
        await self.store.server_left(guild_id)

    async def server_back(self, guild_id: int) -> None:
        """The bot is in the server again: nothing of it will be forgotten."""
        await self.store.server_back(guild_id)

    async def servers_present(self, present: set[int], *, shards: Shards | None = None) -> int:
        """At start-up: every known server (of `shards`, if given) the bot is no longer in was left
        while it was offline, so it counts as left from now; returns how many."""
        gone = [g for g in await self.store.known_servers() - present if shards is None or shards.owns(g)]
        for guild_id in gone:
            await self.store.server_left(guild_id)
        return len(gone)

    async def forget_departed(self, *, shards: Shards | None = None) -> int:
        """Forget every server the bot left `FORGET_AFTER` ago or more (those `shards` own, if given);
        returns how many were forgotten."""
        gone = await self.store.departed_servers(self.clock() - FORGET_AFTER)
        forgotten = 0
        for guild_id in gone:
            if shards is None or shards.owns(guild_id):
                await self._forget_server(guild_id)
                forgotten += 1
        return forgotten

    def _drop_cached(self, game_ids: list[int]) -> None:
        """Forget what this process holds of these games in memory (states, turn notes, replays)."""
        gone = set(game_ids)
        for game_id in gone:
            self._cache.pop(game_id, None)
            self._turn_notes.pop(game_id, None)
        for key in [k for k in self._replays if k[0] in gone]:
            del self._replays[key]

    def _press_problem(self, actor: Actor, asker: int, asked_at: int) -> str | None:
        """Why this press of a confirmation button is refused (someone else's, or too old), or None."""
        if actor.user_id != asker:
            return _say("privacy.not_yours")
        if not 0 <= self.clock() - asked_at <= CONFIRM_TIME:
            return _say("privacy.expired")
        return None


def _server_problem(where: Where, actor: Actor) -> str | None:
    if where.guild_id is None:
        return _say("privacy.server.in_dm")
    if not actor.can_manage_server:
        return _say("privacy.server.denied")
    return None
