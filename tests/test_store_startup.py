"""The database file at start-up: ours or not, damaged, read-only. Refusals write nothing at all."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from keystone.store import SchemaError, Store
from keystone.store import store as store_module
from keystone.store.errors import (
    DamagedDatabase,
    DatabaseUnusable,
    ForeignDatabase,
    MissingFolder,
    NotADatabase,
    NotAFile,
    ReadOnlyDatabase,
)
from keystone.store.identify import Found
from keystone.store.migrate import APPLICATION_ID, latest
from tests.store_helpers import play, start_game
from tests.test_store_migrations import first_schema_database


def snapshot_of(folder: Path) -> dict[str, bytes]:
    """Every file in the folder with its bytes: a refusal must leave this exactly as it was."""
    return {p.name: p.read_bytes() if p.is_file() else b"(folder)" for p in sorted(folder.iterdir())}


def application_id(path: Path) -> int:
    return int.from_bytes(path.read_bytes()[68:72], "big")


async def keystone_database(path: Path) -> Path:
    store = await Store.open(path)
    game = await start_game(store)
    await play(store, game.id, 6, random.Random(2))
    await store.close()
    return path


def other_program_database(path: Path, journal: str = "delete") -> Path:
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA journal_mode = {journal}")
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        db.execute("INSERT INTO notes (text) VALUES ('buy milk')")
    db.close()
    return path


async def refused(path: Path, kind: type[DatabaseUnusable]) -> str:
    """Both `Store.open` and `Store.check` refuse with `kind`, and nothing in the folder changes."""
    before = snapshot_of(path.parent) if path.parent.is_dir() else None
    for attempt in (Store.open, Store.check):
        with pytest.raises(kind) as caught:
            await attempt(path)
        assert (snapshot_of(path.parent) if path.parent.is_dir() else None) == before
    sentence = str(caught.value)
    assert "\n" not in sentence and sentence.endswith(".") and str(path.parent) in sentence
    return sentence


# ---------------------------------------------------------------------- ours, new and adopted


async def test_a_new_database_is_marked_as_ours_from_its_first_write(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    await (await Store.open(path)).close()
    assert application_id(path) == APPLICATION_ID
    empty = tmp_path / "empty.db"
    empty.touch()
    await (await Store.open(empty)).close()
    assert application_id(empty) == APPLICATION_ID
    await Store.check(path)


async def test_an_older_keystone_database_is_adopted_and_its_games_kept(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    game_id, log = await first_schema_database(path)
    assert application_id(path) == 0
    await Store.check(path)
    store = await Store.open(path)
    assert await store.schema_version() == latest() and await store.log(game_id) == log
    await store.close()
    assert application_id(path) == APPLICATION_ID


async def test_a_foreign_file_with_our_table_names_is_not_adopted(tmp_path: Path) -> None:
    path = tmp_path / "lookalike.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                   "applied_at REAL NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (1, 'initial', 0)")
        db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT)")
    db.close()
    await refused(path, ForeignDatabase)


# ---------------------------------------------------------------------- other programs' files


@pytest.mark.parametrize("journal", ["delete", "wal"])
async def test_another_programs_database_is_left_untouched(tmp_path: Path, journal: str) -> None:
    path = other_program_database(tmp_path / "notes.db", journal)
    sentence = await refused(path, ForeignDatabase)
    assert "another program's database" in sentence and "left untouched" in sentence
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"]  # no -wal, no -shm
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == journal
        assert {r[0] for r in db.execute("SELECT name FROM sqlite_master")} == {"notes"}
    db.close()


async def test_a_database_with_another_application_id_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    await (await Store.open(path)).close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA application_id = 1234")
    db.close()
    await refused(path, ForeignDatabase)


# ---------------------------------------------------------------------- damaged files


@pytest.mark.parametrize("content", [os.urandom(4096), b"my shopping list\n" * 300, b"SQLite format 3\x00\x10"])
async def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "k.db"
    path.write_bytes(content)
    sentence = await refused(path, NotADatabase if len(content) > 100 else DamagedDatabase)
    assert "restore it from a backup or point KEYSTONE_DB at another file" in sentence


@pytest.mark.parametrize("damage", ["truncated", "garbage pages"])
async def test_a_damaged_keystone_database_is_refused(tmp_path: Path, damage: str) -> None:
    good = (await keystone_database(tmp_path / "good.db")).read_bytes()
    path = tmp_path / "k.db"
    if damage == "truncated":
        path.write_bytes(good[: len(good) // 2 + 7])
    else:
        noise = bytes((b * 37 + 11) % 256 for b in range(len(good) - 4096))
        path.write_bytes(good[:4096] + noise)
    (tmp_path / "good.db").unlink()
    sentence = await refused(path, DamagedDatabase)
    assert "is damaged" in sentence and "restore it from a backup" in sentence


@pytest.mark.parametrize("column", ["config", "snapshot", "names"])
async def test_stored_text_that_is_not_utf8_is_found_at_start_up(tmp_path: Path, column: str) -> None:
    path = await keystone_database(tmp_path / "k.db")
    with sqlite3.connect(path) as db:
        db.execute(f"UPDATE games SET {column} = CAST(x'7b22ff22' AS TEXT)")  # {"\xff"
    db.close()
    before = snapshot_of(tmp_path)
    with pytest.raises(DamagedDatabase, match=f"row 1 of the games table holds an unreadable {column}"):
        await Store.check(path)
    assert snapshot_of(tmp_path) == before


async def test_json_stored_as_bytes_is_found_at_start_up(tmp_path: Path) -> None:
    path = await keystone_database(tmp_path / "k.db")
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET config = x'ff7b7d'")
    db.close()
    with pytest.raises(DamagedDatabase, match="unreadable config"):
        await Store.check(path)


async def test_a_database_from_a_newer_bot_is_refused_at_start_up(tmp_path: Path) -> None:
    path = await keystone_database(tmp_path / "k.db")
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO schema_version VALUES (99, 'future', 0)")
    db.close()
    with pytest.raises(SchemaError, match="newer version"):
        await Store.check(path)


# ---------------------------------------------------------------------- the path itself


async def test_a_missing_folder_is_named(tmp_path: Path) -> None:
    sentence = await refused(tmp_path / "no" / "such" / "k.db", MissingFolder)
    assert sentence == (f"The folder {tmp_path}/no/such for KEYSTONE_DB does not exist; "
                        "create it or point KEYSTONE_DB elsewhere.")


async def test_a_folder_is_not_a_database(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    sentence = await refused(tmp_path / "games", NotAFile)
    assert f"{tmp_path}/games/keystone.db" in sentence


# ---------------------------------------------------------------------- read-only files and folders
# The tests run as root, for whom file modes do not stop writes; the immutable flag (chattr +i)
# stops even root, so it stands for every way a file can be read-only.


def chattr(flag: str, *paths: Path) -> None:
    subprocess.run(["chattr", flag, *map(str, paths)], check=True, capture_output=True)


@pytest.fixture
def immutable(tmp_path: Path) -> Iterator[list[Path]]:
    """Paths appended to the list are made immutable, and made mutable again afterwards."""
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not installed, so a read-only file cannot be made here")
    probe = tmp_path / "probe"
    probe.touch()
    try:
        chattr("+i", probe)
    except subprocess.CalledProcessError:
        pytest.skip("this file system does not support the immutable flag")
    chattr("-i", probe)
    probe.unlink()
    paths: list[Path] = []
    yield paths
    for path in reversed(paths):
        chattr("-i", path)


async def test_a_read_only_database_is_refused_before_the_first_move(tmp_path: Path,
                                                                     immutable: list[Path]) -> None:
    path = await keystone_database(tmp_path / "k.db")
    immutable.append(path)
    chattr("+i", path)
    sentence = await refused(path, ReadOnlyDatabase)
    assert "cannot be written (the file is read-only)" in sentence


async def test_a_read_only_folder_is_refused(tmp_path: Path, immutable: list[Path]) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    path = await keystone_database(folder / "k.db")
    immutable.append(folder)
    chattr("+i", folder)
    sentence = await refused(path, ReadOnlyDatabase)
    assert "write-ahead log" in sentence
    await refused(folder / "new.db", ReadOnlyDatabase)


async def test_a_file_sqlite_can_only_read_is_refused_even_past_the_permission_check(
    tmp_path: Path, immutable: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second line of defence: SQLite silently opens an unwritable file read-only; `open` notices.

    (Reading a write-ahead-log database makes SQLite leave an empty -wal and -shm beside it; the
    permission check above, which reads nothing through SQLite, is what keeps the folder as it was.)
    """
    path = await keystone_database(tmp_path / "k.db")
    immutable.append(path)
    chattr("+i", path)
    monkeypatch.setattr(store_module, "identify", lambda _path: Found.OURS)
    before = path.read_bytes()
    with pytest.raises(ReadOnlyDatabase, match="could only open it for reading"):
        await Store.open(path)
    assert path.read_bytes() == before
