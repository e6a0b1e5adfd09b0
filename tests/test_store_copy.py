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
from tests.processes import ctrl_c_reaches_it
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
    (one held past its deadline), posts (sent and waiting), a review, votes, a resignation, ratings, a campaign, settings (languages too) and the daily secret."""
    async with await Store.open(target) as store:
        finished = await start_game(store, channel_id=100, seed=2, players=3)
        await store.replace_seat(finished.id, 2, SeatInfo.bot(1, "Bot for Cyd"), resigned=True)
        await play(store, finished.id, 10_000, random.Random(2))
        await store.keep_review(finished.id, 0, '{"format": 1, "decisions": []}')
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
        await store.server_left(880_412_555_120_496_641)


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


# --------------------------------------------------------------------------- damaged, busy, empty, killed

ROOT = Path(__file__).resolve().parent.parent


def refused_copy(source: str, target: str, capsys: pytest.CaptureFixture[str]) -> str:
    """The copy's one sentence (and status 2): no traceback, nothing on standard output."""
    assert store_cli.main(["copy", source, target]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.endswith(".\n"), err
    return err


def holds_nothing(dump: Dump) -> bool:
    return not any(dump.values())


def damage(path: Path, how: str) -> None:
    """What a failing disk or a crashed editor leaves: a page of the move log overwritten, or a
    player's name cut in the middle of a letter."""
    with sqlite3.connect(path) as db:
        if how == "text":
            db.execute("UPDATE seats SET name = CAST(X'5A6FC3' AS TEXT) WHERE name = 'Ada'")  # "Zo" + half an "ë"
        page_size, root = db.execute("PRAGMA page_size").fetchone()[0], db.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'actions'").fetchone()[0]
    db.close()
    if how == "page":
        with path.open("r+b") as file:
            file.seek((root - 1) * page_size + 8)
            file.write(b"\xff" * (page_size - 8))


@pytest.mark.parametrize("how", ["page", "text"])
def test_a_damaged_source_is_one_sentence_and_no_target_is_made(
    tmp_path: Path, how: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = tmp_path / "keystone-Zoë.db", tmp_path / "новая.db"
    asyncio.run(a_busy_database(str(source)))
    damage(source, how)
    err = refused_copy(str(source), str(target), capsys)
    assert err.startswith(f"The database {source} to copy from is damaged (") and "KEYSTONE_DB" not in err
    assert err.endswith("), so nothing was copied: restore it from a backup and copy that.\n")
    assert not target.exists(), "no target file is left behind"


async def write_meanwhile(source: str) -> None:
    """What a bot still running on the source does: a new game, and moves in the running one."""
    async with await Store.open(source) as bot:
        fresh = await start_game(bot, channel_id=900, seed=11)
        await play(bot, fresh.id, 6, random.Random(11))
        running = await bot.get_active_game(200)
        assert running is not None
        await play(bot, running.id, 2, random.Random(12))


@pytest.mark.parametrize("direction", ["sqlite-to-postgresql", "postgresql-to-sqlite"])
def test_a_source_written_during_the_copy_is_one_sentence_and_the_target_stays_empty(
    tmp_path: Path, postgres_url: str, direction: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from keystone.store import backend

    file = str(tmp_path / "k.db")
    source, target = (file, postgres_url) if direction.startswith("sqlite") else (postgres_url, file)
    asyncio.run(a_busy_database(source))
    writer = backend.PostgresConnection if target == postgres_url else backend.SqliteConnection
    insert = writer.executemany
    written: list[str] = []

    async def busy_insert(self: object, sql: str, rows: object) -> None:
        await insert(self, sql, rows)  # type: ignore[arg-type]
        if sql.startswith("INSERT INTO games") and not written:
            written.append(sql)
            await write_meanwhile(source)

    monkeypatch.setattr(writer, "executemany", busy_insert)
    err = refused_copy(source, target, capsys)
    assert written, "the bot wrote while the games were being copied"
    assert "changed while it was being copied (is the bot still running on it?)" in err
    assert err.endswith("stop the bot and run the same command again.\n")
    monkeypatch.undo()
    assert holds_nothing(asyncio.run(everything(target)))
    assert len(asyncio.run(everything(source))["games"]) == 7, "the source keeps what the bot wrote"


def test_an_empty_source_file_is_refused_and_left_exactly_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty, target = tmp_path / "пусто.db", tmp_path / "target.db"
    empty.touch()
    before = (empty.read_bytes(), empty.stat().st_mtime_ns)
    err = refused_copy(str(empty), str(target), capsys)
    assert err == f"There is nothing to copy: {empty} is an empty file, which was left as it was.\n"
    assert (empty.read_bytes(), empty.stat().st_mtime_ns) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["пусто.db"], "no journal beside it, no target made"
    schema_only = tmp_path / "schema-only.db"
    asyncio.run(everything(str(schema_only)))  # the bot started once and stopped: tables, no records
    kept = schema_only.read_bytes()
    assert refused_copy(str(schema_only), str(target), capsys) == (
        f"There is nothing to copy: {schema_only} holds no games or other records, and it was left as it was.\n")
    assert schema_only.read_bytes() == kept and not target.exists()


def test_an_empty_postgresql_source_is_refused_and_gets_no_tables(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "target.db"
    err = refused_copy(postgres_url, str(target), capsys)
    assert err.startswith("There is nothing to copy: postgresql://") and "holds no tables" in err
    async def tables() -> list[object]:
        import asyncpg

        connection = await asyncpg.connect(postgres_url)
        try:
            return list(await connection.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'"))
        finally:
            await connection.close()
    assert asyncio.run(tables()) == [] and not target.exists()


KILLED_IN_THE_AUDIT = """
import os, signal, sys
from keystone.cli import store
from keystone.store.store import Store

async def killed(self, game_id):
    os.kill(os.getpid(), signal.SIGKILL)

Store.verify_game = killed
sys.exit(store.main(["copy", sys.argv[1], sys.argv[2]]))
"""


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_copy_killed_before_its_check_leaves_no_records_and_the_same_command_then_copies(
    tmp_path: Path, postgres_url: str, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import subprocess
    import sys

    source = str(tmp_path / "k.db")
    target = postgres_url if kind == "postgresql" else str(tmp_path / "copy.db")
    asyncio.run(a_busy_database(source))
    killed = subprocess.run([sys.executable, "-c", KILLED_IN_THE_AUDIT, source, target], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert killed.returncode == -9, killed.stderr
    assert holds_nothing(asyncio.run(everything(target))), "the copy counts only once it has been checked"
    assert store_cli.main(["copy", source, target]) == 0
    assert capsys.readouterr().out.startswith("Copied 6 games (")
    assert asyncio.run(everything(target)) == asyncio.run(everything(source))


def test_the_same_copy_run_again_checks_the_copy_already_there_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = str(tmp_path / "k.db"), str(tmp_path / "copy.db")
    asyncio.run(a_busy_database(source))
    assert store_cli.main(["copy", source, target]) == 0
    capsys.readouterr()
    before = asyncio.run(everything(target))
    assert store_cli.main(["copy", source, target]) == 0
    assert capsys.readouterr().out == (
        f"Nothing copied: {target} already holds every record of {source}, as a complete copy does; checked "
        "it again: all 5 started games pass the replay audit.\n")
    assert asyncio.run(everything(target)) == before


def test_a_game_that_fails_the_audit_leaves_the_target_without_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = tmp_path / "k.db", tmp_path / "copy.db"
    asyncio.run(a_busy_database(str(source)))
    with sqlite3.connect(source) as db:
        db.execute("UPDATE games SET state_hash = 'f00d' WHERE channel_id = 200")
    db.close()
    err = refused_copy(str(source), str(target), capsys)
    assert err == (f"Game 2 of {source} fails the replay audit (its saved state does not match its checksum), so "
                   f"nothing was written to {target}; restore {source} from a backup and copy that.\n")
    assert not target.exists() or holds_nothing(asyncio.run(everything(str(target))))


STOPPED_IN_THE_AUDIT = """
import asyncio, os, signal, sys
from keystone.cli import store
from keystone.store.store import Store

async def stopped(self, game_id):
    os.kill(os.getpid(), signal.SIGINT)
    await asyncio.sleep(30)

Store.verify_game = stopped
sys.exit(store.main(["copy", sys.argv[1], sys.argv[2]]))
"""


def test_a_copy_stopped_with_ctrl_c_says_so_and_leaves_no_target(tmp_path: Path) -> None:
    import subprocess
    import sys

    source, target = tmp_path / "k.db", tmp_path / "Kopie für Zoë.db"
    asyncio.run(a_busy_database(str(source)))
    stopped = subprocess.run([sys.executable, "-c", STOPPED_IN_THE_AUDIT, str(source), str(target)], cwd=ROOT,
                             preexec_fn=ctrl_c_reaches_it,
                             capture_output=True, text=True, timeout=120)
    assert (stopped.returncode, stopped.stdout) == (130, "")
    assert stopped.stderr == (f"The copy was stopped before it was complete, so it wrote no record to {target}; "
                              "run the same command again.\n")
    assert not target.exists(), "the file the copy made is gone again"
