"""Numbered schema migrations, applied in order at start-up, each in its own transaction.

Files are `migrations/NNNN_name.sql`; `schema_version` records which ones a database has. A
database written by a newer bot (a number this code does not know) is refused, not guessed at.
Every Keystone database carries `APPLICATION_ID` in its header (SQLite's `application_id`), so
the bot can tell its own files from other programs' before writing anything.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources

import aiosqlite

from keystone.store.errors import NewerSchema, SchemaError

_NAME = re.compile(r"^(\d{4})_(\w+)\.sql$")

APPLICATION_ID = int.from_bytes(b"KsNA", "big")  # "Keystone: North America", in the file header
SCHEMA_VERSION_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
)


@dataclass(frozen=True, slots=True)
class Migration:
    number: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """Split the script into complete statements (trigger bodies stay whole)."""
        statements: list[str] = []
        pending = ""
        for line in self.sql.splitlines(keepends=True):
            pending += line
            if sqlite3.complete_statement(pending):
                statements.append(pending.strip())
                pending = ""
        if any(ln.strip() and not ln.strip().startswith("--") for ln in pending.splitlines()):
            raise SchemaError(f"Migration {self.number} ends with an incomplete statement.")
        return statements


def migrations() -> list[Migration]:
    """The packaged migrations, checked to be numbered 1, 2, 3... without gaps."""
    folder = resources.files("keystone.store") / "migrations"
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.number)
    if [m.number for m in found] != list(range(1, len(found) + 1)):
        raise SchemaError("The schema migrations are not numbered 1, 2, 3... without gaps.")
    return found


def latest() -> int:
    return len(migrations())


def reference_schema(version: int) -> set[tuple[str, str, str]]:
    """(type, name, sql) of every object a database at `version` holds, built in memory.

    A file whose objects are exactly these was made by this bot, so it may be adopted even
    though it predates `APPLICATION_ID`.
    """
    db = sqlite3.connect(":memory:")
    try:
        db.execute(SCHEMA_VERSION_TABLE)
        for migration in migrations()[:version]:
            for statement in migration.statements():
                db.execute(statement)
        return schema_objects(db)
    finally:
        db.close()


def schema_objects(db: sqlite3.Connection) -> set[tuple[str, str, str]]:
    rows = db.execute("SELECT type, name, coalesce(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    return {(str(t), str(n), str(q)) for t, n, q in rows}


async def current_version(db: aiosqlite.Connection) -> int:
    cursor = await db.execute("SELECT coalesce(max(version), 0) FROM schema_version")
    row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def migrate(db: aiosqlite.Connection, clock: Callable[[], float], target: int | None = None) -> int:
    """Bring the schema up to `target` (default: the latest) and return the version reached.

    `db` must be in autocommit mode (isolation_level=None). Safe against a second process
    migrating at the same moment: each step re-reads the version under the write lock.
    """
    known = migrations()
    goal = len(known) if target is None else target
    await db.execute(SCHEMA_VERSION_TABLE)
    have = await current_version(db)
    if have > len(known):
        raise NewerSchema(have, len(known))
    for migration in known[:goal]:
        await _apply(db, migration, clock)
    return await current_version(db)


async def _apply(db: aiosqlite.Connection, migration: Migration, clock: Callable[[], float]) -> None:
    await db.execute("BEGIN IMMEDIATE")
    try:
        if await current_version(db) >= migration.number:
            await db.execute("ROLLBACK")
            return
        for statement in migration.statements():
            await db.execute(statement)
        await db.execute(
            "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
            (migration.number, migration.name, clock()),
        )
        await db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            await db.execute("ROLLBACK")
        raise
