"""The two databases the store runs on, behind one small interface: SQLite and PostgreSQL.

The store writes its SQL once, with `?` placeholders (`?1`, `?2` to repeat a value), in the
subset both dialects share. Where they differ, both variants sit here side by side:

- placeholders: PostgreSQL numbers them (`$1`); `translate` rewrites the SQL once per text.
- planner hints: SQLite's `CROSS JOIN ... ON` fixes the join order; PostgreSQL plans by itself
  and only knows `JOIN ... ON`, so `translate` drops the hint.
- JSON built inside a query: `json_group_array`/`json_array` against `json_agg`/`json_build_array`
  (see `Dialect`).
- writers: SQLite takes its write lock up front with BEGIN IMMEDIATE; PostgreSQL takes one
  transaction-scoped advisory lock, so writers queue exactly as on SQLite (a transaction reads,
  decides and writes with no other writer in between), while readers never wait.
- constraint failures: both become `IntegrityViolation`.

SQLite keeps its single connection guarded by an asyncio lock; PostgreSQL has a small pool, so
a process can run several reads at once.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol
from urllib.parse import urlsplit

import aiosqlite
import asyncpg

from keystone.store.errors import SchemaError, StoreError

Row = tuple[Any, ...]
URL_SCHEMES = ("postgresql://", "postgres://")
WRITER_LOCK = int.from_bytes(b"KsNAwrit", "big") - 2**63
"""The advisory lock every PostgreSQL write transaction holds (a signed 64-bit key)."""
POOL_SIZE = 4
CONNECT_TIMEOUT = 10.0
"""Seconds to wait for a server before saying it cannot be reached."""


class IntegrityViolation(Exception):
    """A constraint or trigger refused a write (either database); `foreign_key` says which kind."""

    def __init__(self, message: str, *, foreign_key: bool) -> None:
        super().__init__(message)
        self.foreign_key = foreign_key


class Closed(StoreError):
    def __init__(self) -> None:
        super().__init__("The game database is closed.")


@dataclass(frozen=True, slots=True)
class Dialect:
    """What differs in the SQL text itself."""

    name: str
    seat_list: str
    """A game's seats as one JSON array of arrays (`s` is `seats`)."""
    clock_array: str
    """A clock row as one JSON array (`c` is `clocks`)."""


SEAT_FIELDS = "s.position, s.user_id, s.bot_level, s.name, s.missed, s.away"
CLOCK_FIELDS = "c.turn, c.seat, c.started_at, c.remind_at, c.deadline, c.reminded"
EXACT_CLOCK_FIELDS = ("c.turn, c.seat, printf('%!.17g', c.started_at), printf('%!.17g', c.remind_at), "
                      "printf('%!.17g', c.deadline), c.reminded")
"""SQLite's JSON writes a REAL with 15 digits, which rounds a real clock (1764640851.2345679 is 17):
its times go as text with every digit, so a clock read back equals the one written."""
SQLITE = Dialect("sqlite", f"json_group_array(json_array({SEAT_FIELDS}))", f"json_array({EXACT_CLOCK_FIELDS})")
POSTGRESQL = Dialect(
    "postgresql",
    f"coalesce(json_agg(json_build_array({SEAT_FIELDS})), '[]'::json)",
    f"json_build_array({CLOCK_FIELDS})",
)


class Connection(Protocol):
    """One connection, inside a transaction or on its own (each statement then commits by itself)."""

    dialect: Dialect

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        """Run one statement; return how many rows it changed."""

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None: ...

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]: ...

    async def script(self, sql: str) -> None:
        """Run a whole migration file."""


class Database(Protocol):
    dialect: Dialect

    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """A write transaction (writers queue); committed at the end, rolled back on any exception."""

    def connection(self) -> AbstractAsyncContextManager[Connection]:
        """A connection for reads and single statements, each atomic on its own."""

    async def close(self) -> None: ...


def is_url(target: object) -> bool:
    """Whether a KEYSTONE_DB value names a PostgreSQL server rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(URL_SCHEMES)


def shown(url: str) -> str:
    """A server URL fit for messages and logs: user, host, port and database, never the password."""
    parts = urlsplit(url)
    user = f"{parts.username}@" if parts.username else ""
    host = parts.hostname or "localhost"
    port = f":{parts.port}" if parts.port else ""
    return f"postgresql://{user}{host}{port}{parts.path}"


# ---------------------------------------------------------------------- SQLite


class SqliteConnection:
    dialect = SQLITE

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.raw = db

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        try:
            cursor = await self.raw.execute(sql, params)
        except sqlite3.IntegrityError as error:
            raise IntegrityViolation(str(error), foreign_key="FOREIGN KEY" in str(error)) from error
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        try:
            await self.raw.executemany(sql, rows)
        except sqlite3.IntegrityError as error:
            raise IntegrityViolation(str(error), foreign_key="FOREIGN KEY" in str(error)) from error

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        try:
            return [tuple(r) for r in await self.raw.execute_fetchall(sql, params)]
        except sqlite3.IntegrityError as error:
            raise IntegrityViolation(str(error), foreign_key="FOREIGN KEY" in str(error)) from error

    async def script(self, sql: str) -> None:
        for statement in sqlite_statements(sql):
            await self.execute(statement)


def sqlite_statements(sql: str) -> list[str]:
    """Split a SQLite script into complete statements (trigger bodies stay whole)."""
    statements: list[str] = []
    pending = ""
    for line in sql.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if any(ln.strip() and not ln.strip().startswith("--") for ln in pending.splitlines()):
        raise SchemaError("A migration ends with an incomplete statement.")
    return statements


class SqliteDatabase:
    """One aiosqlite connection (autocommit mode) and the asyncio lock that keeps statements apart."""

    dialect = SQLITE

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db: SqliteConnection | None = SqliteConnection(db)
        self._lock = asyncio.Lock()

    def _open(self) -> SqliteConnection:
        if self._db is None:
            raise Closed()
        return self._db

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[Connection]:
        async with self._lock:
            yield self._open()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """BEGIN IMMEDIATE: the write lock is taken up front, so another process waits (busy
        timeout) instead of failing half-way through."""
        async with self._lock:
            db = self._open()
            await db.raw.execute("BEGIN IMMEDIATE")
            try:
                yield db
                await db.raw.execute("COMMIT")
            except BaseException:
                if db.raw.in_transaction:
                    await db.raw.execute("ROLLBACK")
                raise

    async def close(self) -> None:
        async with self._lock:
            db, self._db = self._db, None
            if db is not None:
                await db.raw.close()


# ---------------------------------------------------------------------- PostgreSQL


@lru_cache(maxsize=512)
def translate(sql: str) -> str:
    """The store's SQL in PostgreSQL's words: `?` and `?N` become `$N`; `CROSS JOIN` (SQLite's
    join-order hint, always written with ON) becomes `JOIN`."""
    counter = 0

    def number(match: re.Match[str]) -> str:
        nonlocal counter
        if match[1]:
            return f"${match[1]}"
        counter += 1
        return f"${counter}"

    return re.sub(r"\?(\d*)", number, sql).replace(" CROSS JOIN ", " JOIN ")


def _violation(error: asyncpg.IntegrityConstraintViolationError) -> IntegrityViolation:
    return IntegrityViolation(str(error), foreign_key=isinstance(error, asyncpg.ForeignKeyViolationError))


class PostgresConnection:
    dialect = POSTGRESQL

    def __init__(self, db: asyncpg.pool.PoolConnectionProxy[asyncpg.Record]) -> None:
        self.raw = db

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        try:
            status = await self.raw.execute(translate(sql), *params)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise _violation(error) from error
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        try:
            await self.raw.executemany(translate(sql), [tuple(r) for r in rows])
        except asyncpg.IntegrityConstraintViolationError as error:
            raise _violation(error) from error

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        try:
            return [tuple(r) for r in await self.raw.fetch(translate(sql), *params)]
        except asyncpg.IntegrityConstraintViolationError as error:
            raise _violation(error) from error

    async def script(self, sql: str) -> None:
        """A whole file in one round trip (PL/pgSQL bodies keep their semicolons)."""
        try:
            await self.raw.execute(sql)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise _violation(error) from error


class PostgresDatabase:
    """A small asyncpg pool: reads run side by side; write transactions queue on one advisory lock."""

    dialect = POSTGRESQL

    def __init__(self, pool: asyncpg.Pool[asyncpg.Record]) -> None:
        self._pool: asyncpg.Pool[asyncpg.Record] | None = pool

    @classmethod
    async def connect(cls, url: str, *, durable: bool = True) -> PostgresDatabase:
        """`durable=False` lets a commit return before the server has flushed it (the server may
        lose the last moments on a crash, never consistency), as SQLite's NORMAL sync does."""
        settings = {} if durable else {"synchronous_commit": "off"}
        pool = await asyncpg.create_pool(url, min_size=1, max_size=POOL_SIZE, server_settings=settings,
                                         timeout=CONNECT_TIMEOUT)
        return cls(pool)

    def _open(self) -> asyncpg.Pool[asyncpg.Record]:
        if self._pool is None:
            raise Closed()
        return self._pool

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[Connection]:
        async with self._open().acquire() as db:
            yield PostgresConnection(db)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        async with self._open().acquire() as db, db.transaction():
            await db.execute("SELECT pg_advisory_xact_lock($1)", WRITER_LOCK)
            yield PostgresConnection(db)

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()
