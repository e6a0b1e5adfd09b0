"""Moving house: copy every record from one store to another (SQLite to PostgreSQL, or back).

The source is checked first, writing nothing: a damaged file, another program's, or one with
nothing to copy (an empty file, a server database without tables, a database without records) is
refused with a sentence and left exactly as it was. The source is then read in one snapshot (one
read transaction), so a copy is always of one moment, and every row goes into the target inside
one write transaction. Before that transaction commits, PostgreSQL's id sequences are moved past
the copied ids, every started game in the target passes the full replay audit (`verify_game`, run
inside the transaction) and the source is checked not to have changed since the snapshot (a bot
still running on it). So the commit is the copy's completion: a copy that fails, is refused or is
killed at any moment leaves the target without a record, and the same command simply runs again.

A target that already holds records is refused, unless it holds exactly the source's records (an
earlier copy, possibly one made before copies were audited inside their transaction and stopped
before its audit): that copy is audited again and said to be complete, and nothing is written.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

import asyncpg

from keystone.store.audit import audit_game, started_games
from keystone.store.backend import Connection, Dialect, IntegrityViolation, Row, is_url, shown
from keystone.store.errors import (
    DamagedDatabase,
    DatabaseUnreachable,
    DatabaseUnusable,
    ForeignDatabase,
    ForeignServerDatabase,
    MissingFolder,
    NotADatabase,
    NotAFile,
    ReadOnlyDatabase,
    StoreError,
)
from keystone.store.identify import Found, identify
from keystone.store.store import Store, open_postgres

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    key: tuple[str, ...]
    """The primary key, which orders the rows read in batches."""
    rest: tuple[str, ...]

    @property
    def columns(self) -> tuple[str, ...]:
        return self.key + self.rest

    def select(self) -> str:
        """Every row, in key order, a batch at a time (`LIMIT ? OFFSET ?`)."""
        return (f"SELECT {', '.join(self.columns)} FROM {self.name} "
                f"ORDER BY {', '.join(self.key)} LIMIT ? OFFSET ?")


TABLES = (  # parents before the rows that refer to them
    Table("games", ("id",), ("guild_id", "channel_id", "kind", "assignment", "ruleset", "config", "host_id",
                             "status", "seed", "names", "snapshot", "version", "state_hash", "created_at",
                             "updated_at", "pace", "paused_at", "language", "hints", "hinted")),
    Table("seats", ("game_id", "position"), ("user_id", "bot_level", "name", "missed", "away", "missed_turn")),
    Table("actions", ("game_id", "version"), ("seat", "notation", "state_hash", "created_at")),
    Table("results", ("game_id", "position"), ("user_id", "score", "place", "won", "finished_at", "best_line",
                                               "best_line_points", "habitats")),
    Table("campaign", ("user_id", "assignment"), ("stars", "best_score", "attempts", "completed_at", "updated_at")),
    Table("ratings", ("player",), ("mu", "sigma", "games", "updated_at")),
    Table("rating_changes", ("game_id", "position"), ("player", "place", "mu_before", "sigma_before", "mu_after",
                                                      "sigma_after")),
    Table("resignations", ("game_id", "position"), ("user_id",)),
    Table("clocks", ("game_id",), ("turn", "seat", "started_at", "remind_at", "deadline", "reminded",
                                 "claimed_until")),
    Table("user_settings", ("user_id",), ("notify", "language")),
    Table("away_votes", ("game_id", "seat", "turn", "voter_id"), ()),
    Table("daily_secret", ("id",), ("secret", "created_at")),
    Table("daily_games", ("day", "user_id"), ("game_id", "score", "resigned", "finished_at")),
    Table("daily_servers", ("guild_id", "user_id"), ("joined_at",)),
    Table("server_settings", ("guild_id",), ("language",)),
    Table("server_departures", ("guild_id",), ("left_at",)),
    Table("outbox", ("id",), ("key", "queue", "game_id", "guild_id", "channel_id", "user_id", "body", "for_turn",
                              "created_at", "held_until", "attempts", "next_at", "sent_at", "gave_up", "answer")),
    Table("reviews", ("game_id", "seat"), ("body", "created_at")),
)
"""Every table but `schema_version`, which the target's own migrations write."""
BATCH = 500
RESET_IDS = tuple(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), coalesce(max(id), 0) + 1, false) "
                  f"FROM {table}" for table in ("games", "outbox"))
"""PostgreSQL only: the next new game's (and post's) id follows the copied ones (SQLite takes max(id) + 1 by itself)."""
FAILURES = (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError, OSError, IntegrityViolation)
"""What a database can raise part-way through a copy (a damaged page, a lost connection, a refused row)."""


class CopyRefused(StoreError):
    """The copy was not made, so the target holds no record of it (the sentence says why and what to do)."""


@dataclass(frozen=True, slots=True)
class Copied:
    rows: dict[str, int]
    audited: int
    """Started games that passed the replay audit in the target."""
    already: bool = False
    """The target already held exactly the source's records (an earlier copy): checked, nothing written."""


def where(target: str) -> str:
    return shown(target) if is_url(target) else target


def _same_database(source: str, target: str) -> bool:
    if is_url(source) or is_url(target):
        return where(source) == where(target)
    return os.path.realpath(source) == os.path.realpath(target)


async def copy_store(source: str, target: str) -> Copied:
    """Copy everything from `source` into the empty `target` (paths or `postgresql://` URLs) and check it;
    `CopyRefused` (one sentence) when the copy is not made, and then the target holds none of it."""
    if _same_database(source, target):
        raise CopyRefused("The source and the target are the same database; name two different ones.")
    if not is_url(source) and not Path(source).is_file():
        raise CopyRefused(f"There is no database at {source} to copy from.")
    await _check_source(source)
    made = not is_url(target) and not os.path.lexists(target)
    try:
        return await _copy(source, target)
    except BaseException:
        if made:
            _remove(Path(target))
        raise


async def _copy(source: str, target: str) -> Copied:
    async with _opened(source, "from") as origin:
        counts = {table.name: await _read(source, _count(origin, table.name)) for table in TABLES}
        if not any(counts.values()):
            raise CopyRefused(f"There is nothing to copy: {where(source)} holds no games or other records, "
                              "and it was left as it was.")
        async with _opened(target, "into") as copy:
            held = {table.name: await _write(target, _count(copy, table.name)) for table in TABLES}
            if any(held.values()):
                if held == counts and await _same_rows(origin, copy, source, target):
                    return Copied(counts, await _audit(copy, source, target), already=True)
                raise CopyRefused(f"The database {where(target)} already holds games or other records; copy "
                                  "only into a new, empty database, so nothing there is mixed up or lost.")
            return await _copy_and_check(origin, copy, source, target)


# --------------------------------------------------------------------------- checking the source first


async def _check_source(source: str) -> None:
    """Refuse, writing nothing, a source that is damaged, not ours, or holds nothing at all."""
    if is_url(source):
        try:
            db = await open_postgres(source, durable=True)
        except DatabaseUnusable as error:
            raise _refusal(error, source, "from") from None
        try:
            async with db.connection() as connection:
                tables = await connection.fetch("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        finally:
            await db.close()
        if not tables:
            raise CopyRefused(f"There is nothing to copy: {where(source)} holds no tables (no bot ever used it), "
                              "and it was left as it was.")
        return
    try:
        found = await asyncio.to_thread(identify, source, thorough=True)
    except DatabaseUnusable as error:
        raise _refusal(error, source, "from") from None
    if found is Found.NEW:
        raise CopyRefused(f"There is nothing to copy: {source} is an empty file, which was left as it was.")


def _refusal(error: DatabaseUnusable, given: str, side: str) -> CopyRefused:
    """The store's refusal of a database, said for a copy in one sentence: which side it is, and what
    to do instead (the store's own sentences speak of KEYSTONE_DB, the bot's setting, which a copy
    does not use)."""
    name = where(given)
    role = "to copy from" if side == "from" else "to copy into"
    instead = ("restore it from a backup and copy that" if side == "from"
               else "name a new file or an empty database instead")
    if isinstance(error, DamagedDatabase) and "locked" in error.reason:
        return CopyRefused(f"The database {name} {role} stayed locked by another program (is the bot still "
                           "running on it?), so nothing was copied: stop the bot and run the same command again.")
    if isinstance(error, DamagedDatabase):
        return CopyRefused(f"The database {name} {role} is damaged ({error.reason}), so nothing was copied: "
                           f"{instead}.")
    if isinstance(error, NotADatabase):
        return CopyRefused(f"The file {name} {role} is not a database (another kind of file, or one damaged "
                           f"beyond reading), so nothing was copied: {instead}.")
    if isinstance(error, ForeignDatabase | ForeignServerDatabase):
        return CopyRefused(f"The database {name} {role} is another program's, so it was left untouched and "
                           "nothing was copied.")
    if isinstance(error, ReadOnlyDatabase):
        return CopyRefused(f"The database {name} {role} cannot be written ({error.reason}) and the copy opens it "
                           "for writing, so nothing was copied: make it writable for this user.")
    if isinstance(error, DatabaseUnreachable):
        return CopyRefused(f"The PostgreSQL database {name} {role} cannot be used ({error.reason}), so nothing was "
                           "copied: check that the server runs and that the URL, user and password are right.")
    if isinstance(error, MissingFolder):
        return CopyRefused(f"The folder of {name} does not exist, so nothing was copied: create it or name a file "
                           "in a folder that exists.")
    if isinstance(error, NotAFile):
        return CopyRefused(f"{name} is a folder, not a database file, so nothing was copied: name a file in it "
                           "instead.")
    return CopyRefused(str(error))


@asynccontextmanager
async def _opened(given: str, side: str) -> AsyncIterator[Store]:
    try:
        store = await Store.open(given)
    except DatabaseUnusable as error:
        raise _refusal(error, given, side) from None
    try:
        yield store
    finally:
        await store.close()


def _remove(file: Path) -> None:
    """A target file this copy made, removed again when the copy was not made."""
    for made in (file, Path(f"{file}-wal"), Path(f"{file}-shm"), Path(f"{file}-journal")):
        made.unlink(missing_ok=True)


async def _read(source: str, work: Awaitable[T]) -> T:
    """A read of the source; a failure part-way is said in a sentence (nothing is written yet, or the
    target's transaction is rolled back with it)."""
    try:
        return await work
    except FAILURES as error:
        raise CopyRefused(f"The database {where(source)} to copy from could not be read ({_reason(error, source)}); "
                          "so nothing was copied: if it is damaged, restore it from a backup and copy that.") from None


async def _write(target: str, work: Awaitable[T]) -> T:
    try:
        return await work
    except IntegrityViolation as error:
        raise CopyRefused(f"The database {where(target)} refused a copied record ({_reason(error, target)}), so "
                          "the source holds a record no bot could have written and nothing was copied: restore "
                          "the source from a backup and copy that.") from None
    except FAILURES as error:
        raise CopyRefused(f"Writing to {where(target)} failed ({_reason(error, target)}), so nothing was "
                          "copied: run the same command again once it can be written.") from None


def _reason(error: BaseException, given: str) -> str:
    """Why a database failed, in a few words, never with a server's password."""
    reason = " ".join(str(error).split()) or type(error).__name__
    secret = urlsplit(given).password if is_url(given) else None
    return reason.replace(secret, "[redacted]") if secret else reason


async def _count(store: Store, table: str) -> int:
    async with store.database.connection() as db:
        return await count(db, table)


async def count(db: Connection, table: str) -> int:
    return int((await db.fetch(f"SELECT count(*) FROM {table}"))[0][0])


# --------------------------------------------------------------------------- the copy itself


async def _copy_and_check(origin: Store, copy: Store, source: str, target: str) -> Copied:
    """Every row, read from one snapshot of the source, written and audited in one transaction of the target."""
    async with copy.database.transaction() as writer:
        async with _snapshot(origin, source) as snapshot:
            rows = {table.name: await _copy_table(snapshot, writer, table, source, target) for table in TABLES}
        if await _read(source, snapshot.changed()):
            raise CopyRefused(f"The database {where(source)} changed while it was being copied (is the bot still "
                              f"running on it?), so nothing was written to {where(target)}: stop the bot and run "
                              "the same command again.")
        if writer.dialect.name == "postgresql":
            for reset in RESET_IDS:
                await _write(target, writer.fetch(reset))
        audited = await _audit(Store(_Within(writer), time.time), source, target, written=False)
    return Copied(rows, audited)


async def _copy_table(snapshot: _Snapshot, writer: Connection, table: Table, source: str, target: str) -> int:
    marks = ", ".join("?" for _ in table.columns)
    insert = f"INSERT INTO {table.name} ({', '.join(table.columns)}) VALUES ({marks})"
    copied = 0
    while True:
        batch = await _read(source, snapshot.db.fetch(table.select(), (BATCH, copied)))
        if not batch:
            return copied
        await _write(target, writer.executemany(insert, batch))
        copied += len(batch)


async def _audit(copy: Store, source: str, target: str, *, written: bool = True) -> int:
    """Every started game in `copy` replayed from its seed and log (a pruned one: its final state
    checked); the number audited."""
    started = await _write(target, started_games(copy))
    for game_id, _, pruned in started:
        reason = await audit_game(copy, game_id, pruned)
        if reason is not None:
            if written:
                raise CopyRefused(f"Game {game_id} fails the replay audit ({reason}) in {where(target)}, which "
                                  f"holds an earlier copy of {where(source)} and was left as it is; the game is the "
                                  f"same in {where(source)}, so restore that from a backup and copy it into a new, "
                                  "empty database.") from None
            raise CopyRefused(f"Game {game_id} of {where(source)} fails the replay audit ({reason}), so nothing "
                              f"was written to {where(target)}; restore {where(source)} from a backup and copy "
                              "that.") from None
    return len(started)


class _Within:
    """The target's open write transaction as a `Database`, so the store's own audit reads the rows
    the transaction wrote before it commits."""

    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        self.dialect: Dialect = connection.dialect

    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        return self._here()

    def connection(self) -> AbstractAsyncContextManager[Connection]:
        return self._here()

    @asynccontextmanager
    async def _here(self) -> AsyncIterator[Connection]:
        yield self._connection

    async def close(self) -> None:
        """The transaction belongs to the copy, which ends it."""


class _Snapshot:
    """One read transaction of the source (`db`), and whether anyone has written to the source since."""

    def __init__(self, origin: Store, db: Connection, stamp: object) -> None:
        self.origin, self.db, self.stamp = origin, db, stamp

    async def changed(self) -> bool:
        """Asked once the read transaction has ended."""
        async with self.origin.database.connection() as now:
            if now.dialect.name == "sqlite":
                return bool((await now.fetch("PRAGMA data_version"))[0][0] != self.stamp)
            return await _digest(now) != self.stamp


@asynccontextmanager
async def _snapshot(origin: Store, source: str) -> AsyncIterator[_Snapshot]:
    """SQLite: a deferred read transaction (the write-ahead log keeps its snapshot), stamped with
    `PRAGMA data_version`, which moves once another connection commits. PostgreSQL: a read-only
    REPEATABLE READ transaction, stamped with a digest of every table read inside it."""
    async with origin.database.connection() as db:
        raw = cast(Any, db).raw
        if db.dialect.name == "sqlite":
            await _read(source, raw.execute("BEGIN"))
            try:
                await _read(source, db.fetch("SELECT count(*) FROM games"))  # the snapshot starts at the first read
                stamp = (await _read(source, db.fetch("PRAGMA data_version")))[0][0]
                yield _Snapshot(origin, db, stamp)
            finally:
                await raw.execute("ROLLBACK")
            return
        transaction = raw.transaction(isolation="repeatable_read", readonly=True)
        await _read(source, transaction.start())
        try:
            yield _Snapshot(origin, db, await _read(source, _digest(db)))
        finally:
            await transaction.rollback()


async def _digest(db: Connection) -> list[Row]:
    """PostgreSQL: each table's row count and the MD5 of its rows in key order, computed by the server."""
    digests: list[Row] = []
    for table in TABLES:
        digests += await db.fetch(f"SELECT count(*), md5(coalesce(string_agg(md5(CAST(t AS text)), '' ORDER BY "
                                  f"{', '.join(table.key)}), '')) FROM {table.name} t")
    return digests


# --------------------------------------------------------------------------- an earlier copy


async def _same_rows(origin: Store, copy: Store, source: str, target: str) -> bool:
    """Whether the target holds exactly the source's rows (compared as sets, since the two databases
    may sort text differently)."""
    for table in TABLES:
        if await _read(source, _fingerprints(origin, table)) != await _write(target, _fingerprints(copy, table)):
            return False
    return True


async def _fingerprints(store: Store, table: Table) -> list[bytes]:
    found: list[bytes] = []
    async with store.database.connection() as db:
        while batch := await db.fetch(table.select(), (BATCH, len(found))):
            found += [hashlib.blake2b(repr(tuple(_plain(v) for v in row)).encode()).digest() for row in batch]
    return sorted(found)


def _plain(value: object) -> object:
    """A value as both databases give it back: a flag as a number, a whole REAL as a whole number."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, memoryview):
        return bytes(value)
    return value
