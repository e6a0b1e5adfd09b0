"""The small base every concern's half of the `Store` stands on: the database and the clock.

Each concern (games, moves, clocks, results, campaign, daily, preferences, outbox) is a mixin over
`StoreBase`; `keystone.store.store.Store` mixes them all into the one store the service uses.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from keystone.store.backend import Database, Row
from keystone.store.rows import record_sql


class StoreBase:
    """The database, the clock and the columns of a game record, shared by every part of the store."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock
        self._record = record_sql(db.dialect)

    async def _rows(self, sql: str, params: Sequence[object]) -> list[Row]:
        async with self._db.connection() as db:
            return await db.fetch(sql, params)
