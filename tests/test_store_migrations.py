"""Schema migrations: from an empty file, from the first schema, concurrently, and refusals."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from keystone.engine import GameConfig, dump_config, dump_state, new_game
from keystone.store import SchemaError, SeatResult, Store, state_digest
from keystone.store import migrate as migrate_module
from keystone.store.backend import IntegrityViolation, SqliteDatabase
from keystone.store.migrate import DIALECTS, Migration, latest, migrate, migrations
from tests.store_helpers import play, query, random_move, start_game


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as db:
        return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'index')")}


def test_migrations_are_numbered_and_split_into_statements() -> None:
    found = migrations()
    assert [m.number for m in found] == list(range(1, latest() + 1)) and latest() >= 2
    first = found[0].statements()
    assert any(s.startswith("CREATE TRIGGER") and s.rstrip().endswith("END;") for s in first)
    assert all(sqlite3.complete_statement(s) for m in found for s in m.statements())


def test_an_incomplete_migration_is_refused() -> None:
    with pytest.raises(SchemaError, match="incomplete"):
        Migration(9, "broken", "CREATE TABLE x (a INTEGER);\nCREATE TABLE y (").statements()


async def test_empty_file_is_migrated_to_the_latest_schema(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    store = await Store.open(path)
    assert await store.schema_version() == latest()
    await store.close()
    assert {"games", "seats", "actions", "campaign", "results", "games_one_open_per_channel"} <= tables(path)


async def first_schema_database(path: Path) -> tuple[int, list[str]]:
    """A database as the first version of the bot left it: schema 1 and a game in progress."""
    async with aiosqlite.connect(path, isolation_level=None) as db:
        assert await migrate(SqliteDatabase(db), lambda: 1.0, target=1) == 1
        config = GameConfig()
        state = new_game(config, 21, ["Ada", "Brook"])
        await db.execute(
            "INSERT INTO games (id, guild_id, channel_id, kind, ruleset, config, host_id, status, seed, names, "
            "created_at, updated_at) VALUES (5, 9, 100, 'competitive', ?, ?, 1, 'active', 21, ?, 1, 1)",
            (config.rules, dump_config(config), '["Ada", "Brook"]'),
        )
        await db.executemany("INSERT INTO seats VALUES (5, ?, ?, NULL, ?)", [(0, 1, "Ada"), (1, 2, "Brook")])
        rng, log = random.Random(4), []
        for version in range(1, 9):
            text, state = random_move(state, rng)
            log.append(text)
            await db.execute("INSERT INTO actions VALUES (5, ?, 0, ?, ?, 2)",
                             (version, text, state_digest(dump_state(state))))
        snapshot = dump_state(state)
        await db.execute("UPDATE games SET snapshot = ?, version = 8, state_hash = ? WHERE id = 5",
                         (snapshot, state_digest(snapshot)))
    return 5, log


async def test_first_schema_is_migrated_and_its_games_play_on(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    game_id, log = await first_schema_database(path)
    assert "results" not in tables(path)
    store = await Store.open(path)
    assert await store.schema_version() == latest()
    loaded = await store.load_game(game_id, replay=True)
    assert loaded.state.version == 8 and await store.log(game_id) == log
    text, new = random_move(loaded.state, random.Random(1))
    assert await store.commit_action(game_id, 8, loaded.state.current, text, new) == 9
    await store.finish_game(game_id, [SeatResult(0, 30, 2, False), SeatResult(1, 35, 1, True)])
    assert (await store.user_stats(2)).wins == 1
    await store.close()
    with sqlite3.connect(path) as db:
        versions = [r[0] for r in db.execute("SELECT version FROM schema_version ORDER BY version")]
        assert versions == list(range(1, latest() + 1))


async def test_reopening_applies_nothing_twice(tmp_path: Path) -> None:
    for _ in range(3):
        store = await Store.open(tmp_path / "k.db")
        await store.close()
    with sqlite3.connect(tmp_path / "k.db") as db:
        assert db.execute("SELECT count(*) FROM schema_version").fetchone()[0] == latest()


async def test_two_processes_opening_a_new_file_at_once_both_succeed(tmp_path: Path) -> None:
    # Many rounds: switching to write-ahead logging lost the race only now and then ("locked").
    for round_number in range(50):
        path = tmp_path / f"race{round_number}.db"
        stores = await asyncio.gather(*(Store.open(path) for _ in range(4)))
        assert [await s.schema_version() for s in stores] == [latest()] * 4
        for s in stores:
            await s.close()


def test_both_databases_have_the_same_numbered_migrations() -> None:
    series = {dialect: [(m.number, m.name) for m in migrations(dialect)] for dialect in DIALECTS}
    assert series["sqlite"] == series["postgresql"] and latest("postgresql") == latest()


async def test_two_processes_opening_a_new_server_database_at_once_all_succeed(postgres_url: str) -> None:
    stores = await asyncio.gather(*(Store.open(postgres_url) for _ in range(4)))
    try:
        assert [await s.schema_version() for s in stores] == [latest()] * 4
        assert await query(stores[0], "SELECT count(*) FROM schema_version") == [(latest(),)]
    finally:
        for s in stores:
            await s.close()


async def test_a_failing_migration_leaves_the_schema_as_it_was(
    store_target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    await (await Store.open(store_target)).close()
    broken = Migration(latest() + 1, "broken", "CREATE TABLE extra (a INTEGER);\nINSERT INTO nowhere VALUES (1);\n")
    known = {dialect: migrations(dialect) for dialect in DIALECTS}
    monkeypatch.setattr(migrate_module, "migrations", lambda dialect="sqlite": [*known[dialect], broken])
    with pytest.raises(SchemaError, match="nowhere"):
        await Store.open(store_target)
    monkeypatch.undo()
    async with await Store.open(store_target) as store:
        assert await store.schema_version() == latest()
        await query(store, "CREATE TABLE extra (a INTEGER)")  # the failed step left no table behind


async def test_a_database_from_a_newer_bot_is_refused(store_target: str) -> None:
    async with await Store.open(store_target) as store:
        await query(store, "INSERT INTO schema_version VALUES (99, 'future', 0)")
    with pytest.raises(SchemaError, match="newer version"):
        await Store.open(store_target)
    with pytest.raises(SchemaError, match="newer version"):
        await Store.check(store_target)


async def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are my notes, not a database " * 200)
    with pytest.raises(SchemaError, match="is not a database"):
        await Store.open(path)
    assert path.read_bytes().startswith(b"these are my notes")


async def test_log_rows_cannot_be_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    game_id, _ = await first_schema_database(path)
    with sqlite3.connect(path) as db:
        for sql in ("UPDATE actions SET notation = 'skip'", "DELETE FROM actions"):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                db.execute(sql)
        assert db.execute("SELECT count(*) FROM actions WHERE game_id = ?", (game_id,)).fetchone()[0] == 8



async def test_the_database_itself_keeps_the_log_append_only(store: Store) -> None:
    game = await start_game(store)
    await play(store, game.id, 4, random.Random(1))
    refused = ["UPDATE actions SET notation = 'skip'", "DELETE FROM actions"]
    if store.database.dialect.name == "postgresql":
        refused.append("TRUNCATE actions")
    for sql in refused:
        with pytest.raises(IntegrityViolation, match="append-only"):
            await query(store, sql)
    assert (await store.verify_game(game.id)).state.version == 4


async def test_a_server_database_holding_another_programs_tables_is_refused_untouched(
    postgres_schema_url: str,
) -> None:
    other = await asyncpg.connect(postgres_schema_url)
    try:
        await other.execute("CREATE TABLE notes (id integer, text text)")
        for attempt in (Store.open, Store.check):
            with pytest.raises(SchemaError, match="holds another program's tables, so it was left untouched"):
                await attempt(postgres_schema_url)
        tables = await other.fetch("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        assert [r[0] for r in tables] == ["notes"]
    finally:
        await other.close()
