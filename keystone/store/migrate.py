"""Numbered schema migrations, applied in order at start-up, each in its own transaction.

Each database has its own series, `migrations/sqlite/NNNN_name.sql` and
`migrations/postgresql/NNNN_name.sql`: the same numbers with the same meaning, so a database of
either kind at version N holds the same tables. `schema_version` records which ones a database
has. A database written by a newer bot (a number this code does not know) is refused, not
guessed at. Every Keystone SQLite file carries `APPLICATION_ID` in its header (SQLite's
`application_id`), so the bot can tell its own files from other programs' before writing anything.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources

from keystone.store.backend import Connection, Database, sqlite_statements
from keystone.store.errors import NewerSchema, SchemaError

_NAME = re.compile(r"^(\d{4})_(\w+)\.sql$")
DIALECTS = ("sqlite", "postgresql")

APPLICATION_ID = int.from_bytes(b"KsNA", "big")  # "Keystone: North America", in the file header
SCHEMA_VERSION_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
)
"""SQLite's words; older files hold exactly this text, which adoption compares."""
SCHEMA_VERSION_TABLES = {
    "sqlite": SCHEMA_VERSION_TABLE,
    "postgresql": SCHEMA_VERSION_TABLE.replace("REAL", "DOUBLE PRECISION"),  # REAL is 4 bytes there
}


@dataclass(frozen=True, slots=True)
class Migration:
    number: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """Split a SQLite script into complete statements (trigger bodies stay whole)."""
        try:
            return sqlite_statements(self.sql)
        except SchemaError:
            raise SchemaError(f"Migration {self.number} ends with an incomplete statement.") from None


def migrations(dialect: str = "sqlite") -> list[Migration]:
    """One database's packaged migrations, checked to be numbered 1, 2, 3... without gaps."""
    folder = resources.files("keystone.store") / "migrations" / dialect
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.number)
    if [m.number for m in found] != list(range(1, len(found) + 1)):
        raise SchemaError("The schema migrations are not numbered 1, 2, 3... without gaps.")
    return found


def latest(dialect: str = "sqlite") -> int:
    return len(migrations(dialect))


def reference_schema(version: int) -> set[tuple[str, str, str]]:
    """(type, name, sql) of every object a SQLite database at `version` holds, built in memory.

    A file whose objects are exactly these was made by this bot, so it may be adopted even
    though it predates `APPLICATION_ID`.
    """
    db = sqlite3.connect(":memory:")
    try:
        db.execute(SCHEMA_VERSION_TABLE)
        for migration in migrations("sqlite")[:version]:
            for statement in migration.statements():
                db.execute(statement)
        return schema_objects(db)
    finally:
        db.close()


def schema_objects(db: sqlite3.Connection) -> set[tuple[str, str, str]]:
    rows = db.execute("SELECT type, name, coalesce(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    return {(str(t), str(n), str(q)) for t, n, q in rows}


async def current_version(db: Connection) -> int:
    rows = await db.fetch("SELECT coalesce(max(version), 0) FROM schema_version")
    return int(rows[0][0]) if rows else 0


async def migrate(db: Database, clock: Callable[[], float], target: int | None = None) -> int:
    """Bring the schema up to `target` (default: the latest) and return the version reached.

    Safe against a second process migrating at the same moment: each step runs as a write
    transaction (SQLite's write lock, PostgreSQL's advisory lock) and re-reads the version first.
    """
    known = migrations(db.dialect.name)
    goal = len(known) if target is None else target
    async with db.transaction() as step:
        await step.execute(SCHEMA_VERSION_TABLES[db.dialect.name])
        have = await current_version(step)
    if have > len(known):
        raise NewerSchema(have, len(known))
    for migration in known[:goal]:
        await _apply(db, migration, clock)
    async with db.connection() as reader:
        return await current_version(reader)


async def _apply(db: Database, migration: Migration, clock: Callable[[], float]) -> None:
    async with db.transaction() as step:
        if await current_version(step) >= migration.number:
            return
        try:
            await step.script(migration.sql)
        except SchemaError:
            raise SchemaError(f"Migration {migration.number} ends with an incomplete statement.") from None
        await step.execute(
            "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
            (migration.number, migration.name, clock()),
        )
