"""What the store tells its operators: whether the database answers, how many games run, and each
failed database operation (told to a listener, the metrics, as it happens)."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import asyncpg

from keystone.store.backend import Closed, Connection, Database
from keystone.store.base import StoreBase
from keystone.store.shards import Shards, condition

DATABASE_ERRORS = (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError, OSError, asyncio.TimeoutError,
                   Closed)
"""What the database itself raises (not the store's refusals, such as a game that is not there)."""


class Watched:
    """A database that tells `on_error` of every operation the database failed, then raises it as before."""

    def __init__(self, db: Database, on_error: Callable[[BaseException], None]) -> None:
        self.inner = db
        self.dialect = db.dialect
        self._on_error = on_error

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[Connection]:
        try:
            async with self.inner.connection() as db:
                yield db
        except DATABASE_ERRORS as error:
            self._on_error(error)
            raise

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        try:
            async with self.inner.transaction() as db:
                yield db
        except DATABASE_ERRORS as error:
            self._on_error(error)
            raise

    async def close(self) -> None:
        await self.inner.close()


class Health(StoreBase):
    """The store's answers to the health check and the metrics."""

    def watch(self, on_error: Callable[[BaseException], None]) -> None:
        """Tell `on_error` of each database failure from now on."""
        self._db = Watched(self._db, on_error)

    async def ping(self) -> None:
        """Raise unless the database answers a trivial query."""
        await self._rows("SELECT 1", ())

    async def running_games(self, *, shards: Shards | None = None) -> dict[str, int]:
        """How many games are running, by kind (in the games `shards` own, if given)."""
        owned, params = condition(shards)
        rows = await self._rows(f"SELECT g.kind, count(*) FROM games g WHERE g.status = 'active'{owned} "
                                "GROUP BY g.kind", params)
        return {str(kind): int(count) for kind, count in rows}
