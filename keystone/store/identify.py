"""Decide, without writing anything, whether a path may be used as the bot's database.

A file is only written once it is known to be ours: new (missing or empty), carrying our
`APPLICATION_ID`, or an older Keystone database from before that id (its objects are exactly
what our migrations create), which is then adopted. Anything else is refused with a sentence and
left byte for byte as it was: it is read through an immutable, read-only SQLite connection, so
not even a journal file is created beside it.
"""

from __future__ import annotations

import json
import os
import sqlite3
from enum import Enum
from pathlib import Path

from keystone.store.errors import (
    DamagedDatabase,
    ForeignDatabase,
    MissingFolder,
    NewerSchema,
    NotADatabase,
    NotAFile,
    ReadOnlyDatabase,
)
from keystone.store.migrate import APPLICATION_ID, latest, reference_schema, schema_objects

SQLITE_MAGIC = b"SQLite format 3\x00"
HEADER_SIZE = 100
JSON_COLUMNS = {("games", "config"), ("games", "names"), ("games", "snapshot")}


class Found(Enum):
    NEW = "new"      # missing or empty: ours to create
    OURS = "ours"    # carries our application id
    ADOPT = "adopt"  # a Keystone database from before the application id


def identify(path: str | Path, *, thorough: bool = False) -> Found:
    """What the file at `path` is, or a `DatabaseUnusable` saying why it cannot be used.

    `thorough` also reads every page and every stored text (slower; for start-up).
    """
    if str(path) == ":memory:":
        return Found.NEW
    file = Path(os.path.abspath(path))
    where = str(file)
    if not file.parent.is_dir():
        raise MissingFolder(where, str(file.parent))
    if file.is_dir():
        raise NotAFile(where)
    if not file.exists() or file.stat().st_size == 0:
        check_writable(file)
        return Found.NEW
    check_header(file)
    found = inspect_contents(file, thorough)
    check_writable(file)
    return found


def check_header(file: Path) -> None:
    """Refuse a file that is not SQLite at all before SQLite ever opens it."""
    try:
        with file.open("rb") as handle:
            header = handle.read(HEADER_SIZE)
    except PermissionError:
        raise ReadOnlyDatabase(str(file), "this user may not even read it") from None
    except OSError as error:
        raise DamagedDatabase(str(file), error.strerror or "it cannot be read") from None
    if not header.startswith(SQLITE_MAGIC):
        raise NotADatabase(str(file))
    if len(header) < HEADER_SIZE:
        raise DamagedDatabase(str(file), "it is cut short")


def read_only_uri(file: Path) -> str:
    """Immutable unless a write-ahead log exists, whose committed pages must be read too."""
    has_log = Path(f"{file}-wal").exists()
    return f"{file.as_uri()}?mode=ro" + ("" if has_log else "&immutable=1")


def inspect_contents(file: Path, thorough: bool) -> Found:
    try:
        db = sqlite3.connect(read_only_uri(file), uri=True)
    except sqlite3.Error as error:
        raise DamagedDatabase(str(file), str(error)) from None
    try:
        return classify(db, file, thorough)
    except sqlite3.DatabaseError as error:
        raise DamagedDatabase(str(file), str(error)) from None
    finally:
        db.close()


def classify(db: sqlite3.Connection, file: Path, thorough: bool) -> Found:
    application_id = db.execute("PRAGMA application_id").fetchone()[0]
    if application_id not in (0, APPLICATION_ID):
        raise ForeignDatabase(str(file))
    if thorough:
        problem = db.execute("PRAGMA quick_check(1)").fetchone()[0]
        if problem != "ok":
            raise DamagedDatabase(str(file), f"SQLite reports: {problem}")
    version = recorded_version(db)
    if application_id == 0 and (version is None or schema_objects(db) != reference_schema(version)):
        raise ForeignDatabase(str(file))
    if version is not None and version > latest():
        raise NewerSchema(version, latest())
    if thorough:
        check_text(db, file)
    return Found.OURS if application_id == APPLICATION_ID else Found.ADOPT


def recorded_version(db: sqlite3.Connection) -> int | None:
    """The schema version our `schema_version` table records, or None when the table is absent."""
    if not db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").fetchone():
        return None
    row = db.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
    return int(row[0]) if isinstance(row[0], int) else -1


def check_text(db: sqlite3.Connection, file: Path) -> None:
    """Every stored text must be UTF-8 (and JSON where the store keeps JSON), or loading it fails later."""
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                       "AND name NOT LIKE 'sqlite_%'")]
    for table in tables:
        columns = [r[1] for r in db.execute(f'PRAGMA table_info("{table}")') if str(r[2]).upper() == "TEXT"]
        for column in columns:
            query = f'SELECT typeof("{column}"), CAST("{column}" AS BLOB) FROM "{table}"'
            for number, (kind, raw) in enumerate(db.execute(query), start=1):
                if kind != "null" and not readable(raw, kind, (table, column) in JSON_COLUMNS):
                    raise DamagedDatabase(str(file), f"row {number} of the {table} table holds an unreadable "
                                                     f"{column}")


def readable(raw: bytes, kind: str, is_json: bool) -> bool:
    if kind != "text":
        return False
    try:
        text = raw.decode("utf-8")
        if is_json:
            json.loads(text)
    except ValueError:
        return False
    return True


def check_writable(file: Path) -> None:
    """Refuse a file or folder the bot cannot write (permissions, an immutable flag, a read-only disk).

    SQLite would otherwise open such a file read-only without a word, and every move would fail.
    """
    folder = file.parent
    if file.exists() and not os.access(file, os.W_OK):
        raise ReadOnlyDatabase(str(file), "the file is read-only")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ReadOnlyDatabase(str(file), f"its folder {folder} is read-only, so the write-ahead log "
                                          "cannot be made beside it")
    for side in (Path(f"{file}-wal"), Path(f"{file}-shm")):
        if side.exists() and not os.access(side, os.W_OK):
            raise ReadOnlyDatabase(str(file), f"{side.name} beside it is read-only")
