"""Which shard owns a game: Discord's rule, in Python and in SQL, kept side by side.

Discord sends a server's events to shard `(guild_id >> 22) % shard_count` and direct messages to
shard 0; a game belongs to the shard that receives its channel's events, so a game without a
server (a direct message) belongs to shard 0. The SQL spells the shift as a division, which
SQLite and PostgreSQL both understand, so the store can filter before any LIMIT.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

SHIFT = 22
"""A snowflake's low bits (worker, process, increment); what is left is its time, which picks the shard."""
SHARD_OF_GAME = f"(coalesce(g.guild_id, 0) / {1 << SHIFT}) % ?"
"""The shard of the game `g` (the shard count is the parameter); a null server counts as shard 0's."""


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that receives this server's events; None (a direct message) is shard 0's."""
    return ((guild_id or 0) >> SHIFT) % shard_count


@dataclass(frozen=True)
class Shards:
    """The shards one process serves: `ids` among `count` (every process must agree on `count`)."""

    ids: frozenset[int]
    count: int

    @classmethod
    def of(cls, ids: Iterable[int] | None, count: int) -> Shards:
        """These shards of `count` (None: all of them)."""
        return cls(frozenset(range(count) if ids is None else ids), count)

    def owns(self, guild_id: int | None) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    def where(self) -> tuple[str, tuple[int, ...]]:
        """An SQL condition on the game `g` that keeps only these shards' games, and its parameters."""
        ids = sorted(self.ids)
        return f"{SHARD_OF_GAME} IN ({', '.join('?' for _ in ids)})", (self.count, *ids)


def condition(shards: Shards | None) -> tuple[str, tuple[int, ...]]:
    """The text to append to a WHERE clause on the game `g` ("AND ..."), and its parameters;
    nothing when this process serves every game (no sharding)."""
    if shards is None:
        return "", ()
    sql, params = shards.where()
    return f" AND {sql}", params
