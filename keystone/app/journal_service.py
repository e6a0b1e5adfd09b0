"""The Field Journal's calls: the assignments with one's stars, starting one, how its goals stand,
and abandoning it. What they say is worded in `keystone.app.journal`."""

from __future__ import annotations

from keystone.app import journal
from keystone.app.context import Actor, Where, _refusal, _say, _speaking, guarded
from keystone.app.replies import Reply
from keystone.app.turns import Turns
from keystone.engine import GameState, IllegalAction, campaign
from keystone.store import GameRecord


class JournalService(Turns):
    """The campaign of assignments, played solo or as partners."""

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


def _assignment_problem(number: int) -> str | None:
    """Why `number` names no assignment of the journal, in the asker's language, or None."""
    if not 1 <= number <= campaign.LAST_ASSIGNMENT:
        return _say("new.assignment", number=number, last=campaign.LAST_ASSIGNMENT)
    return None
