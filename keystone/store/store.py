"""The `Store`: games, their action logs, results and campaigns, in SQLite or PostgreSQL.

`Store.open` takes a file path (SQLite, write-ahead logging) or a `postgresql://` URL; both run
the same SQL through `backend` and give the same guarantees. A move is one INSERT into the
`move_commits` view, whose trigger checks the version and writes snapshot and log row together;
other writes are write transactions that queue behind each other (SQLite's BEGIN IMMEDIATE,
PostgreSQL's advisory lock), so a second process waits instead of failing half-way. Values only
ever reach SQL as parameters.

This module opens, checks and closes the database; the `Store`'s other calls live one module per
concern, each a mixin over `base.StoreBase` (the database and the clock): `games` (records,
lobbies, seats), `moves` (loading, the log, committing, finishing), `clocks` (pace, clocks,
pauses, away seats and votes), `results` (stats, results, ratings), `campaign` (the Field
Journal), `daily_games` (the daily challenge), `preferences` (reminders by direct message,
languages), `outbox` (what is owed to Discord), `reviews` (reviews of finished games, kept) and
`privacy` (forgetting a person or a server).
Their shared SQL is in `rows`.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import aiosqlite
import asyncpg

from keystone.store.backend import Connection, Database, PostgresDatabase, SqliteDatabase, is_url, shown
from keystone.store.campaign import Campaign
from keystone.store.clocks import Clocks
from keystone.store.daily_games import DailyGames
from keystone.store.errors import (
    DamagedDatabase,
    DatabaseUnreachable,
    ForeignServerDatabase,
    NewerSchema,
    ReadOnlyDatabase,
    SchemaError,
)
from keystone.store.games import Games
from keystone.store.health import Health
from keystone.store.identify import Found, identify
from keystone.store.migrate import APPLICATION_ID, latest, migrate
from keystone.store.moves import Moves
from keystone.store.outbox import Deliveries
from keystone.store.preferences import Preferences
from keystone.store.privacy import Privacy
from keystone.store.results import Results
from keystone.store.reviews import Reviews


async def use_write_ahead_log(db: aiosqlite.Connection, attempts: int = 200) -> str:
    """Switch to WAL and return the journal mode now in use.

    While another connection is making the same switch SQLite answers "locked" at once instead of
    waiting (the busy timeout does not apply), so two bots starting together would fail; retry.
    """
    for _ in range(attempts - 1):
        try:
            return await journal_mode(db, "WAL")
        except sqlite3.OperationalError as error:
            if "locked" not in str(error):
                raise
            await asyncio.sleep(0.05)
    return await journal_mode(db, "WAL")


async def journal_mode(db: aiosqlite.Connection, mode: str) -> str:
    rows = await db.execute_fetchall(f"PRAGMA journal_mode = {mode}")
    return str(next(iter(rows))[0])


async def claim(db: aiosqlite.Connection, found: Found) -> None:
    """Mark a new or adopted file as ours; for our own file, prove it can be written (then undo).

    A file SQLite could only open read-only would otherwise be accepted and fail at the first move.
    The id is set before write-ahead logging, so a new file's header holds it from the start.
    """
    if found is not Found.OURS:
        await db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        return
    await db.execute("BEGIN IMMEDIATE")
    try:
        await db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    finally:
        await db.execute("ROLLBACK")


async def open_sqlite(path: str | Path, durable: bool) -> SqliteDatabase:
    """The file, identified as ours (or new) before anything is written, in write-ahead logging."""
    found = await asyncio.to_thread(identify, path)
    try:
        db = await aiosqlite.connect(path, isolation_level=None)
    except sqlite3.Error as error:
        raise DamagedDatabase(str(path), str(error)) from error
    try:
        await db.execute("PRAGMA busy_timeout = 10000")
        await claim(db, found)
        mode = await use_write_ahead_log(db)
        if mode != "wal" and str(path) != ":memory:":
            raise SchemaError(f"The database could not switch to write-ahead logging (it uses {mode}).")
        await db.execute(f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}")
        await db.execute("PRAGMA foreign_keys = ON")
    except sqlite3.DatabaseError as error:
        await db.close()
        raise sqlite_refusal(path, error) from error
    except BaseException:
        await db.close()
        raise
    return SqliteDatabase(db)


def sqlite_refusal(path: str | Path, error: sqlite3.DatabaseError) -> SchemaError:
    if "readonly" in str(error):
        return ReadOnlyDatabase(str(path), "SQLite could only open it for reading")
    return DamagedDatabase(str(path), str(error))


UNREACHABLE = (OSError, asyncio.TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError)
"""What connecting to a server can raise: refused, unknown host, timeout, bad password, no such database."""


async def open_postgres(url: str, durable: bool) -> PostgresDatabase:
    """A pool on the server's database, once it is known to be ours (or empty) and not newer."""
    try:
        db = await PostgresDatabase.connect(url, durable=durable)
    except UNREACHABLE as error:
        raise DatabaseUnreachable(shown(url), _reason(error, url)) from None
    try:
        async with db.connection() as connection:
            await refuse_foreign_or_newer(connection, url)
    except BaseException:
        await db.close()
        raise
    return db


async def check_postgres(url: str) -> None:
    """Connect and read the schema version, as `open` does, writing nothing."""
    await (await open_postgres(url, durable=True)).close()


async def refuse_foreign_or_newer(db: Connection, url: str) -> None:
    """Tables in the connection's schema but no `schema_version`: another program's; refused."""
    tables = {r[0] for r in await db.fetch("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}
    if not tables:
        return
    if "schema_version" not in tables:
        raise ForeignServerDatabase(shown(url))
    version = (await db.fetch("SELECT coalesce(max(version), 0) FROM schema_version"))[0][0]
    if version > latest("postgresql"):
        raise NewerSchema(version, latest("postgresql"))


def _reason(error: BaseException, url: str) -> str:
    """Why a server could not be used, in a few words, never with the URL's password."""
    if isinstance(error, asyncio.TimeoutError):
        reason = "it did not answer in time"
    elif isinstance(error, OSError):
        reason = f"the connection failed: {error.strerror or error}"
    else:
        reason = " ".join(str(error).split()) or type(error).__name__
    password = urlsplit(url).password
    return reason.replace(password, "[redacted]") if password else reason


class Store(Games, Moves, Clocks, Results, Campaign, DailyGames, Preferences, Deliveries, Reviews,
            Privacy, Health):
    """Persistence for the bot. Create with `await Store.open(target)`; finish with `await close()`.

    Each concern's calls are in its own mixin (see this module's docstring); this class opens and closes."""

    # ------------------------------------------------------------------ opening and closing

    @classmethod
    async def open(
        cls,
        target: str | Path,
        *,
        durable: bool = True,
        clock: Callable[[], float] = time.time,
    ) -> Store:
        """Open (creating if needed) and migrate the database: a SQLite file, or a PostgreSQL
        server's database given as a `postgresql://` URL.

        `durable=True` makes every commit survive power loss; `False` only protects against the
        process dying, which is faster. Raises `SchemaError` (a `DatabaseUnusable` naming the
        file or server) for a file that is missing its folder, damaged, read-only, another
        program's, a server that cannot be reached, or a database written by a newer bot; such a
        database is refused before anything is written.
        """
        db = await (open_postgres(str(target), durable) if is_url(target) else open_sqlite(target, durable))
        try:
            await migrate(db, clock)
        except sqlite3.DatabaseError as error:
            await db.close()
            raise sqlite_refusal(target, error) from error
        except asyncpg.PostgresError as error:
            await db.close()
            raise SchemaError(f"The PostgreSQL database {shown(str(target))} could not be brought up to date "
                              f"({' '.join(str(error).split())}); nothing was changed.") from error
        except BaseException:
            await db.close()
            raise
        return cls(db, clock)

    @staticmethod
    async def check(target: str | Path) -> None:
        """Raise what `open` would, and `DamagedDatabase` for any unreadable page or stored text.

        Writes nothing (not even a journal beside a file), so it is safe to run at start-up
        before anything else; it reads a whole SQLite file, so it is slower than `open`. For a
        server it proves the server answers and holds no newer or foreign schema.
        """
        if is_url(target):
            await check_postgres(str(target))
        else:
            await asyncio.to_thread(identify, target, thorough=True)

    @property
    def database(self) -> Database:
        """The connection itself, for the store's own tools (copying between databases)."""
        return self._db

    async def close(self) -> None:
        """Close the connection (SQLite checkpoints its write-ahead log on the last close)."""
        await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def schema_version(self) -> int:
        rows = await self._rows("SELECT coalesce(max(version), 0) FROM schema_version", ())
        return int(rows[0][0])
