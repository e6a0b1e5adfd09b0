"""Backups of the bot's database while it runs.

SQLite: the online backup API copies the file page by page from one read transaction of the
source, so the copy is of one moment even while the bot keeps writing (in write-ahead logging a
reader never blocks a writer, and holding the snapshot keeps later commits from restarting the
copy). It is written beside the target under a temporary name, checked (`PRAGMA integrity_check`,
then opened as a store at the current schema) and only then given the target's name, which must
not exist yet: a backup that fails or is stopped leaves no file behind, and never replaces one.

PostgreSQL: the server's own `pg_dump` makes a consistent dump while the bot runs; `postgres_commands`
spells out the dump and the restore for a database, without its password.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from shlex import quote
from urllib.parse import parse_qsl, urlencode, urlsplit

from keystone.store.backend import is_url, shown
from keystone.store.errors import DatabaseUnusable, StoreError
from keystone.store.identify import Found, identify
from keystone.store.migrate import latest
from keystone.store.store import Store

STEP_PAGES = 256
"""Pages copied per step (1 MB at SQLite's usual 4 KB pages), between which others may use the file."""
PAUSE = 0.002
"""Seconds between steps."""
BUSY_MS = 10_000


class BackupRefused(StoreError):
    """No backup was made (the sentence says why and what to do); no file was left behind."""


@dataclass(frozen=True, slots=True)
class BackedUp:
    path: str
    size: int
    games: int
    schema: int
    seconds: float
    steps: int
    """How many steps the copy took (each one short, so writers were never held up for long)."""


async def backup_sqlite(source: str, target: str) -> BackedUp:
    """Copy the SQLite database `source` into the new file `target`, checked; `BackupRefused` otherwise."""
    started = time.monotonic()
    _refuse_target(target)
    try:
        found = await asyncio.to_thread(identify, source)
    except DatabaseUnusable as error:
        raise BackupRefused(f"No backup was made: {error}") from None
    if found is Found.NEW:
        raise BackupRefused(f"No backup was made: there is no database at {source} (the file is missing or empty).")
    final = Path(target)
    partial = final.with_name(f".{final.name}.{secrets.token_hex(4)}.partial")
    try:
        steps = await asyncio.to_thread(_copy_pages, source, partial)
        games, schema = await _verify(partial, target)
        _give_name(partial, final)
    finally:
        _remove(partial)
    return BackedUp(target, final.stat().st_size, games, schema, time.monotonic() - started, steps)


def _refuse_target(target: str) -> None:
    folder = Path(target).absolute().parent
    if os.path.lexists(target):
        raise BackupRefused(f"No backup was made: {target} already exists, and a backup never replaces a file; "
                            "name a new one.")
    if not folder.is_dir():
        raise BackupRefused(f"No backup was made: the folder {folder} does not exist; create it or name a file "
                            "in a folder that exists.")


def _copy_pages(source: str, partial: Path) -> int:
    """The online backup, a few pages at a time, from one read transaction of the source."""
    steps = 0

    def step(status: int, remaining: int, total: int) -> None:
        nonlocal steps
        steps += 1

    origin = sqlite3.connect(source, isolation_level=None)
    try:
        origin.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        origin.execute("BEGIN")
        origin.execute("SELECT count(*) FROM sqlite_master").fetchall()  # the snapshot starts at the first read
        copy = sqlite3.connect(partial, isolation_level=None)
        try:
            origin.backup(copy, pages=STEP_PAGES, progress=step, sleep=PAUSE)
        finally:
            copy.close()
        origin.execute("ROLLBACK")
    except sqlite3.Error as error:
        raise BackupRefused(f"No backup was made: reading {source} failed ({error}); run the same command "
                            "again, and `store check` if it fails again.") from None
    finally:
        origin.close()
    return steps


async def _verify(partial: Path, target: str) -> tuple[int, int]:
    """(games, schema version) of the copy, once SQLite finds every page sound and the store opens it."""
    rows = await asyncio.to_thread(_integrity, partial)
    if rows != ["ok"]:
        raise BackupRefused(f"No backup was made: the copy for {target} failed SQLite's integrity check "
                            f"({'; '.join(rows[:3])}); run `store check` on the database itself.")
    try:
        async with await Store.open(partial) as store:
            schema = await store.schema_version()
            async with store.database.connection() as db:
                games = int((await db.fetch("SELECT count(*) FROM games"))[0][0])
    except StoreError as error:
        raise BackupRefused(f"No backup was made: the copy for {target} does not open as the bot's database "
                            f"({error})") from None
    if schema != latest("sqlite"):
        raise BackupRefused(f"No backup was made: the copy for {target} is at schema version {schema}, not "
                            f"{latest('sqlite')}.")
    return games, schema


def _integrity(path: Path) -> list[str]:
    db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    try:
        return [str(r[0]) for r in db.execute("PRAGMA integrity_check")]
    finally:
        db.close()


def _give_name(partial: Path, final: Path) -> None:
    """The checked copy takes the target's name, which must still be free (a link never replaces a file)."""
    try:
        os.link(partial, final)
    except FileExistsError:
        raise BackupRefused(f"No backup was made: {final} appeared while the backup was being made, and a "
                            "backup never replaces a file; name a new one.") from None


def _remove(partial: Path) -> None:
    for made in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm"), Path(f"{partial}-journal")):
        made.unlink(missing_ok=True)


LIBPQ_PARAMETERS = frozenset({
    "sslmode", "sslcert", "sslkey", "sslrootcert", "sslcrl", "sslpassword", "connect_timeout", "application_name",
    "options", "target_session_attrs", "passfile", "channel_binding", "gssencmode", "krbsrvname",
})
"""URL parameters pg_dump understands as well (others in KEYSTONE_DB are the bot's driver's own)."""


def postgres_commands(url: str, file: str) -> tuple[str, str]:
    """The `pg_dump` that backs up this server database into `file`, and the `pg_restore` that puts it
    back (over the same database, with the bot stopped); the password is left out (pg_dump asks for it,
    or reads PGPASSWORD or ~/.pgpass). A `search_path` in the URL (the bot's tables in one schema)
    becomes `--schema`."""
    if not is_url(url):
        raise ValueError("a postgresql:// URL is needed")
    given = parse_qsl(urlsplit(url).query, keep_blank_values=True)
    kept = [(k, v) for k, v in given if k in LIBPQ_PARAMETERS and k != "sslpassword"]
    schemas = "".join(f" --schema={quote(v)}" for k, v in given if k == "search_path")
    target = quote(shown(url) + (f"?{urlencode(kept)}" if kept else ""))
    dump = f"pg_dump --format=custom{schemas} --file={quote(file)} --dbname={target}"
    restore = (f"pg_restore --clean --if-exists --no-owner --exit-on-error --single-transaction{schemas} "
               f"--dbname={target} {quote(file)}")
    return dump, restore
