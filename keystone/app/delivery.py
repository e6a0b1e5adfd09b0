"""Delivering the outbox: each queue's messages (a channel's, a person's direct messages) in order,
each marked sent only once Discord accepted it, retried with backoff while Discord fails for now,
and given up only for a reason a person can read in the log, the rest of the queue going on.

No Discord here: a `Courier` (the cog layer's) posts one message and says how it failed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from keystone.app import logs
from keystone.app.owed import reply_of
from keystone.app.replies import Reply
from keystone.store import Shards, Store, Waiting

log = logging.getLogger(__name__)

FIRST_RETRY = 2.0
"""Seconds before the first retry of a message Discord failed; each retry waits twice as long..."""
LONGEST_RETRY = 600.0
"""...up to this."""
GIVE_UP_AFTER = 200
"""Failed tries after which a message is given up (with the longest wait, about a day and a half)."""


class Undeliverable(Exception):
    """Discord refused for good (the channel is gone, the bot may not post there, a person's DMs
    are closed): the sentence says why, for the log."""


class NotNow(Exception):
    """Discord failed for now (a 5xx, a rate limit, a dropped connection); `retry_after` is the wait
    Discord asked for, if it said one."""

    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.retry_after = retry_after


class Courier(Protocol):
    """Posts one owed message: a reply's public part in a channel, or its private text to a person.
    `nonce` is the same on every try of one message, so Discord keeps one copy however often it is
    sent. Raises `Undeliverable` or `NotNow`."""

    async def to_channel(self, channel_id: int, reply: Reply, nonce: str) -> None: ...

    async def to_user(self, user_id: int, text: str, nonce: str) -> None: ...

    async def shown_as_answer(self, answer: str, reply: Reply) -> bool:
        """Whether interaction `answer`'s original answer (read back from Discord) is this message:
        then it was posted before a crash could mark it sent. False when Discord no longer knows
        the interaction; raises `NotNow` when it cannot tell now."""
        ...


def backoff(attempts: int, asked: float | None) -> float:
    """Seconds to wait before the next try of a message that failed `attempts` times before."""
    wait = min(LONGEST_RETRY, FIRST_RETRY * float(2 ** min(attempts, 20)))
    return max(wait, asked or 0.0)


class Deliverer:
    """Call `deliver()` whenever messages may be owed; it returns how many Discord accepted."""

    def __init__(self, store: Store, courier: Courier, *, shards: Shards | None = None,
                 on_sent: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.courier = courier
        self.shards = shards
        self._on_sent = on_sent

    async def deliver(self) -> int:
        """Post every queue's due messages in order, until none is left that may be tried now."""
        sent = 0
        while True:
            heads = await self.store.waiting_posts(shards=self.shards)
            moved = False
            for head in heads:
                with logs.about(game=head.game_id, channel=head.channel_id):
                    outcome = await self._one(head)
                sent += outcome == "sent"
                moved = moved or outcome != "later"
            if not moved:
                return sent

    async def _one(self, head: Waiting) -> str:
        """Try one message; "sent", "dropped" (given up, or a reminder whose turn passed) or "later"."""
        if head.stale:
            await self.store.give_up(head.id, "its turn was over before it could be sent")
            return "dropped"
        reply = reply_of(head.body)
        try:
            if head.answer is not None and head.channel_id is not None \
                    and await self.courier.shown_as_answer(head.answer, reply):
                log.info("message %s of game %s was already its interaction's answer; not posted again",
                         head.id, head.game_id)
            elif head.channel_id is not None:
                await self.courier.to_channel(head.channel_id, reply, head.key)
            elif head.user_id is not None:
                await self.courier.to_user(head.user_id, reply.private or "", head.key)
        except Undeliverable as refusal:
            log.warning("gave up message %s of game %s: %s", head.id, head.game_id, refusal)
            await self.store.give_up(head.id, str(refusal))
            return "dropped"
        except Exception as failure:  # a failure nobody classified: tried again later, loudly
            if not isinstance(failure, NotNow):
                log.exception("message %s of game %s failed unexpectedly", head.id, head.game_id)
                failure = NotNow(repr(failure))
            if head.attempts + 1 >= GIVE_UP_AFTER:
                log.warning("gave up message %s of game %s after %d tries: %s", head.id, head.game_id,
                            head.attempts + 1, failure)
                await self.store.give_up(head.id, f"Discord failed {head.attempts + 1} times: {failure}")
                return "dropped"
            wait = backoff(head.attempts, failure.retry_after)
            log.info("message %s of game %s not sent (%s); trying again in %.0f s", head.id, head.game_id,
                     failure, wait)
            await self.store.postpone(head.id, wait)
            return "later"
        if await self.store.mark_sent(head.key) and self._on_sent is not None:
            self._on_sent(head.key)
        return "sent"
