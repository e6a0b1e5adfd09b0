"""Words on request: the language one (or a server) chooses, the help pages and the rules."""

from __future__ import annotations

from keystone.app import language, text
from keystone.app.context import Actor, Context, Where, guarded
from keystone.app.replies import Reply
from keystone.engine import IllegalAction
from keystone.i18n import tr


class Speech(Context):
    """The language the bot speaks, and what it says about itself and the game."""

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

    @guarded
    async def help(self, where: Where, actor: Actor, topic: str = text.HELP_TOPICS[0]) -> Reply:
        """One page of the commands (`text.HELP_TOPICS`), in the actor's language (answered privately)."""
        return Reply(private=text.help_text((await self.languages(where, actor)).private, topic))

    @guarded
    async def rules(self, where: Where, actor: Actor, topic: str | None = None) -> Reply:
        """One rules topic (named in English or German), or the list of topics, in the asker's language."""
        return Reply(private=text.rules_text(topic, (await self.languages(where, actor)).private))
