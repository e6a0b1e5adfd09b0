"""`python -m keystone store copy`: every record moves from SQLite to PostgreSQL and back, ids kept,
checked by replay; a target that already holds records is refused and left as it was."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import pytest

from keystone.cli import store as store_cli
from keystone.engine import GameConfig, new_game
from keystone.store import Clock, Outgoing, SeatInfo, SeatResult, Store
from keystone.store.copy import TABLES, CopyRefused, copy_store
from tests.clock_helpers import T0
from tests.store_helpers import play, query, start_game

Dump = dict[str, list[tuple[object, ...]]]

HELD = Clock(4, 1, T0 - 90.5, T0 - 40.25, T0 - 0.125)
"""The running game's clock: its deadline passed and taken on (a real clock's times, to the last digit)."""


async def everything(target: str) -> Dump:
    """Every row of every table, in key order."""
    async with await Store.open(target) as store:
        return {t.name: await query(store, f"SELECT {', '.join(t.columns)} FROM {t.name} "
                                           f"ORDER BY {', '.join(t.columns)}") for t in TABLES}


async def a_busy_database(target: str) -> None:
    """Something in every table: finished, running, abandoned and daily games, a lobby, clocks
    (one held past its deadline), posts (sent and waiting), votes, a resignation, ratings, a campaign, settings (languages too) and the daily secret."""
    async with await Store.open(target) as store:
        finished = await start_game(store, channel_id=100, seed=2, players=3)
        await store.replace_seat(finished.id, 2, SeatInfo.bot(1, "Bot for Cyd"), resigned=True)
        await play(store, finished.id, 10_000, random.Random(2))
        running = await start_game(store, channel_id=200, seed=5)
        await store.set_pace(running.id, "daily")
        await play(store, running.id, 9, random.Random(5))
        await store.set_clock(running.id, HELD)
        assert await store.claim_deadline(running.id, 4, 1, away_after=3) is not None
        await store.post([Outgoing("ks5c1e0d9a", '{"text": "Zoë’s turn"}', game_id=running.id, guild_id=9,
                                   channel_id=200),
                          Outgoing("ks77f3b2c4", '{"text": "Дмитрий"}', game_id=running.id, user_id=8, held=True)])
        [waiting] = await store.waiting_posts()  # the held one waits for its interaction
        assert await store.mark_sent(waiting.key)
        await store.add_away_vote(running.id, 1, 4, 3)
        await store.abandon_game((await start_game(store, channel_id=300)).id)
        await store.create_lobby(guild_id=9, channel_id=400, kind="competitive", host_id=1, host_name="Ada",
                                 config=GameConfig())
        journal = await store.create_game(guild_id=None, channel_id=500, kind="solo", host_id=7,
                                          seats=[SeatInfo.human(7, "Gus")], state=new_game(GameConfig(players=1),
                                                                                          3, ["Gus"]),
                                          assignment=2)
        await store.finish_game(journal.id, [SeatResult(0, 61, 1, True, stars=2)])
        await store.daily_secret()
        await store.join_daily_board(9, 8)
        daily = await store.start_daily_game(day="2026-12-01", user_id=8, channel_id=600,
                                             state=new_game(GameConfig(players=1), 4, ["Hal"]))
        await play(store, daily.id, 5, random.Random(4))
        await store.set_notify(8, True)
        await store.set_language(8, "de")
        await store.set_server_language(9, "en")


def test_the_copy_names_every_table_and_column_of_the_schema(tmp_path: Path) -> None:
    asyncio.run(everything(str(tmp_path / "k.db")))  # creates the file at the latest schema
    with sqlite3.connect(tmp_path / "k.db") as db:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        schema = {t: tuple(r[1] for r in db.execute(f'PRAGMA table_info("{t}")')) for t in tables}
    db.close()
    assert set(schema) - {"schema_version"} == {t.name for t in TABLES}, "a new table must be copied too"
    for table in TABLES:
        assert set(table.columns) == set(schema[table.name]), table.name


async def test_both_databases_have_the_same_tables_and_columns(tmp_path: Path, postgres_url: str) -> None:
    async with await Store.open(postgres_url) as store:
        rows = await query(store, "SELECT table_name, column_name FROM information_schema.columns "
                                  "WHERE table_schema = 'public'")
    columns = {(str(t), str(c)) for t, c in rows}
    async with await Store.open(tmp_path / "k.db") as store:
        tables = [r[0] for r in await query(store, "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")]
        expected = {(str(t), str(c[1])) for t in tables for c in await query(store, f'PRAGMA table_info("{t}")')}
    assert columns == expected


def test_sqlite_to_postgresql_and_back_keeps_every_record_and_id(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source, back = str(tmp_path / "k.db"), str(tmp_path / "back.db")
    asyncio.run(a_busy_database(source))
    assert store_cli.main(["copy", source, postgres_url]) == 0
    said = capsys.readouterr().out
    assert said.startswith("Copied 6 games (") and "all 5 started games passed the replay audit" in said
    assert store_cli.main(["copy", postgres_url, back]) == 0
    dumps = [asyncio.run(everything(t)) for t in (source, postgres_url, back)]
    assert all(dumps[0][t.name] for t in TABLES), "the test database has something in every table"
    assert dumps[0] == dumps[1] == dumps[2]


async def test_a_copy_plays_on_with_new_ids_after_the_copied_ones(tmp_path: Path, postgres_url: str) -> None:
    source = str(tmp_path / "k.db")
    await a_busy_database(source)
    await copy_store(source, postgres_url)
    async with await Store.open(postgres_url) as store:
        running = await store.get_active_game(200)
        assert running is not None and running.clock == HELD
        await play(store, running.id, 3, random.Random(9))
        assert (await store.verify_game(running.id)).state.version == 12
        fresh = await start_game(store, channel_id=700)
        assert fresh.id == 7, "the id sequence moved past the copied games"


def test_a_target_with_records_is_refused_and_left_as_it_was(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = str(tmp_path / "k.db")
    asyncio.run(a_busy_database(source))
    async def one_setting() -> None:
        async with await Store.open(postgres_url) as store:
            await store.set_notify(5, True)
    asyncio.run(one_setting())
    before = asyncio.run(everything(postgres_url))
    secret_url = postgres_url.replace("keystone@", "keystone:hunter2@")
    assert store_cli.main(["copy", source, secret_url]) == 2
    err = capsys.readouterr().err
    assert "already holds games or other records; copy only into a new, empty database" in err
    assert "hunter2" not in err and err.count("\n") == 1
    assert asyncio.run(everything(postgres_url)) == before


async def test_a_missing_source_or_the_same_database_twice_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CopyRefused, match="no database at"):
        await copy_store(str(tmp_path / "nothing.db"), str(tmp_path / "k.db"))
    assert not (tmp_path / "k.db").exists()
    with pytest.raises(CopyRefused, match="same database"):
        await copy_store(str(tmp_path / "k.db"), str(tmp_path / "k.db"))
