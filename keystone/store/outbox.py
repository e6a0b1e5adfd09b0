"""The outbox: what the bot owes Discord, kept in the database until Discord has accepted it.

A message is written in the same transaction as its cause (a move, a turn run out, a reminder),
so a crash can lose neither the one without the other. Messages wait in queues, one per channel
(and one per person's direct messages), and go out in the order they were written; a message an
interaction is answering with is held for a while, and falls to the channel if that answer never
arrives. The body is the application's own JSON: the store neither reads nor words it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from keystone.store import validate
from keystone.store.backend import Connection
from keystone.store.base import StoreBase
from keystone.store.errors import InvalidInput
from keystone.store.shards import Shards, condition

HOLD = 120.0
"""Seconds an interaction has to post the messages it answers with before the deliverer takes them."""
ANSWER_READABLE = 14 * 60.0
"""Seconds after which an interaction's original answer can no longer be read back (Discord keeps
its token for 15 minutes; a minute is left for the read itself)."""


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A message to write with its cause: public in `channel_id`, or to person `user_id` by direct
    message. `key` is the caller's unique name for it (it marks it sent, and is Discord's nonce);
    `for_turn` marks a reminder (dropped once its game's clock times another turn); `held` keeps it
    for the interaction that answers with it, and `answer` ('<application id>/<token>') names that
    interaction, whose original answer may be this message (read back before a take-over)."""

    key: str
    body: str
    game_id: int | None = None
    guild_id: int | None = None
    channel_id: int | None = None
    user_id: int | None = None
    for_turn: int | None = None
    held: bool = False
    answer: str | None = None

    @property
    def queue(self) -> str:
        return f"c{self.channel_id}" if self.channel_id is not None else f"u{self.user_id}"


@dataclass(frozen=True, slots=True)
class Waiting:
    """The first unsent message of a queue, due now. `stale`: a reminder whose turn has passed;
    `answer`: the interaction whose original answer may already show it (while still readable)."""

    id: int
    key: str
    game_id: int | None
    channel_id: int | None
    user_id: int | None
    body: str
    attempts: int
    stale: bool
    answer: str | None = None


WAITING = "o.sent_at IS NULL AND o.gave_up IS NULL"
HEAD = "o.id = (SELECT min(h.id) FROM outbox h WHERE h.queue = o.queue AND h.sent_at IS NULL AND h.gave_up IS NULL)"


async def write_posts(db: Connection, posts: Sequence[Outgoing], now: float) -> None:
    """Write `posts` inside the caller's transaction."""
    for post in posts:
        if (post.channel_id is None) == (post.user_id is None):
            raise InvalidInput("A message goes to a channel or to a person, not both.")
        if not 1 <= len(post.key) <= 25:
            raise InvalidInput("A message's key is 1 to 25 characters.")
        await db.execute(
            "INSERT INTO outbox (key, queue, game_id, guild_id, channel_id, user_id, body, for_turn, created_at, "
            "held_until, next_at, answer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (post.key, post.queue, post.game_id, post.guild_id, post.channel_id, post.user_id, post.body,
             post.for_turn, now, now + HOLD if post.held else None, now, post.answer if post.held else None),
        )


class Deliveries(StoreBase):
    """The outbox's half of the store (mixed into `Store`; `StoreBase` gives it the database and clock)."""

    async def post(self, posts: Sequence[Outgoing]) -> None:
        """Owe these messages, with no other cause to write them with."""
        async with self._db.transaction() as db:
            await write_posts(db, posts, self._clock())

    async def waiting_posts(self, limit: int = 50, *, shards: Shards | None = None) -> list[Waiting]:
        """The head of every queue that may be tried now (not held by an interaction, not backing
        off), oldest first; with `shards`, only queues of the games those shards own."""
        limit = validate.integer(limit, "limit", 1, 10_000)
        owned, params = condition(shards)
        now = self._clock()
        games = f" AND EXISTS (SELECT 1 FROM games g WHERE g.id = o.game_id{owned})" if owned else ""
        async with self._db.connection() as db:
            rows = await db.fetch(
                "SELECT o.id, o.key, o.game_id, o.channel_id, o.user_id, o.body, o.attempts, "
                "CASE WHEN o.for_turn IS NULL THEN 0 WHEN EXISTS (SELECT 1 FROM clocks c WHERE c.game_id = o.game_id "
                "AND c.turn = o.for_turn) THEN 0 ELSE 1 END, CASE WHEN o.created_at > ? THEN o.answer END "
                f"FROM outbox o WHERE {WAITING} AND {HEAD} AND (o.held_until IS NULL OR o.held_until <= ?) "
                f"AND o.next_at <= ?{games} ORDER BY o.id LIMIT ?",
                (now - ANSWER_READABLE, now, now, *params, limit),
            )
        return [Waiting(r[0], r[1], r[2], r[3], r[4], r[5], int(r[6]), bool(r[7]), r[8]) for r in rows]

    async def next_post_at(self, *, shards: Shards | None = None) -> float | None:
        """When the earliest waiting queue head may next be tried (None: nothing waits)."""
        owned, params = condition(shards)
        games = f" AND EXISTS (SELECT 1 FROM games g WHERE g.id = o.game_id{owned})" if owned else ""
        async with self._db.connection() as db:
            rows = await db.fetch(
                "SELECT min(CASE WHEN o.held_until IS NOT NULL AND o.held_until > o.next_at THEN o.held_until "
                f"ELSE o.next_at END) FROM outbox o WHERE {WAITING} AND {HEAD}{games}",
                params,
            )
        return None if rows[0][0] is None else float(rows[0][0])

    async def mark_sent(self, key: str) -> bool:
        """Discord accepted this message: it is never sent again (its pictures are not kept).
        False if it was already marked (the deliverer and an interaction raced)."""
        async with self._db.connection() as db:
            changed = await db.execute(
                "UPDATE outbox SET sent_at = ?, body = '', answer = NULL WHERE key = ? AND sent_at IS NULL",
                (self._clock(), key),
            )
        return changed == 1

    async def release(self, keys: Sequence[str]) -> None:
        """The interaction could not post these: the deliverer takes them to the channel now."""
        async with self._db.transaction() as db:
            for key in keys:
                await db.execute("UPDATE outbox SET held_until = NULL WHERE key = ? AND sent_at IS NULL", (key,))

    async def release_held(self, before: float, *, shards: Shards | None = None) -> int:
        """At start-up: messages held for interactions of a process that has stopped (held before
        `before`; with `shards`, of those shards' games) go to the deliverer now. Returns how many."""
        owned, params = condition(shards)
        games = f" AND EXISTS (SELECT 1 FROM games g WHERE g.id = outbox.game_id{owned})" if owned else ""
        async with self._db.transaction() as db:
            return await db.execute(
                "UPDATE outbox SET held_until = NULL WHERE sent_at IS NULL AND gave_up IS NULL "
                f"AND held_until IS NOT NULL AND created_at < ?{games}",
                (before, *params),
            )

    async def postpone(self, post_id: int, delay: float) -> None:
        """Discord failed for now (a 5xx, a rate limit, a dropped connection): try again after `delay` seconds."""
        async with self._db.connection() as db:
            await db.execute(
                "UPDATE outbox SET attempts = attempts + 1, next_at = ?, held_until = NULL "
                "WHERE id = ? AND sent_at IS NULL",
                (self._clock() + max(0.0, delay), validate.ident(post_id, "message")),
            )

    async def give_up(self, post_id: int, reason: str) -> None:
        """This message can never be sent (the channel is gone, no permission): the queue goes on without it."""
        async with self._db.connection() as db:
            await db.execute(
                "UPDATE outbox SET gave_up = ?, body = '', held_until = NULL, answer = NULL "
                "WHERE id = ? AND sent_at IS NULL",
                (reason[:500], validate.ident(post_id, "message")),
            )

    async def outbox_counts(self) -> dict[str, int]:
        """How many messages are waiting, sent and given up (for checks and reports)."""
        async with self._db.connection() as db:
            rows = await db.fetch(
                "SELECT CASE WHEN sent_at IS NOT NULL THEN 'sent' WHEN gave_up IS NOT NULL THEN 'given up' "
                "ELSE 'waiting' END, count(*) FROM outbox GROUP BY 1", (),
            )
        return {str(r[0]): int(r[1]) for r in rows}
