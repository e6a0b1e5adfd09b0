"""`python -m keystone store backup`: a checked copy of the SQLite file made while another process
(`tests/backup_writer.py`) keeps committing moves, restored and played on; PostgreSQL's pg_dump and
pg_restore as printed, run and restored."""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import shlex
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from keystone.app import Actor, GameService, Where
from keystone.cli import store as store_cli
from keystone.engine import legal_actions
from keystone.store import Outgoing, Store
from keystone.store.audit import audit_all
from keystone.store.backup import STEP_PAGES, postgres_commands
from tests.store_helpers import random_move, start_game

ROOT = Path(__file__).resolve().parent.parent
GUILD = 1148192837465019203
WRITERS_GAMES = 2
PEOPLE = {1: "Zoë", 2: "Дмитрий"}
"""The seats of the games `start_game` makes (user ids 1 and 2), by the names the service knows them by."""


async def a_running_database(db: str) -> None:
    """Running games and enough delivered pictures (random, as pictures compress) to take many backup steps."""
    async with await Store.open(db) as store:
        for n in range(WRITERS_GAMES):
            await start_game(store, channel_id=1187654321098765400 + n, seed=secrets.randbelow(2**31))
        for n in range(12):
            body = json.dumps({"text": f"**Zoë**’s board 🌲 {n}", "files": [
                ["board.png", secrets.token_urlsafe(300_000), "Zoë’s board"]]}, ensure_ascii=False)
            await store.post([Outgoing(f"ks{secrets.token_hex(8)}", body, guild_id=GUILD,
                                       channel_id=1187654321098765400)])


def moves_between(db: str, start: float, end: float) -> int:
    with sqlite3.connect(db) as connection:
        found = connection.execute("SELECT count(*) FROM actions WHERE created_at BETWEEN ? AND ?",
                                   (start, end)).fetchone()[0]
    connection.close()
    return int(found)


async def every_game_audited(db: str) -> list[str | None]:
    async with await Store.open(db) as store:
        return [audited.problem async for audited in audit_all(store)]


async def every_running_game_moves_on(db: str) -> int:
    """Through the service, as players would: each running game's player to move makes a legal move."""
    moved = 0
    async with await Store.open(db) as store:
        service = GameService(store)
        for record in await store.list_games("active"):
            state = (await store.load_game(record.id)).state
            person = record.seats[state.current]
            assert person.user_id is not None
            reply = await service.act(Where(record.channel_id, record.guild_id),
                                      Actor(person.user_id, PEOPLE[person.user_id]), str(legal_actions(state)[0]))
            assert reply.ok, reply.private
            assert (await store.get_game(record.id)).version == record.version + 1
            moved += 1
    return moved


def test_a_backup_made_while_another_process_commits_moves_is_whole_and_the_bot_plays_on_from_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    db, backup, stop = str(tmp_path / "keystone.db"), tmp_path / "backups" / "keystone-2026-12-02.db", tmp_path / "stop"
    backup.parent.mkdir()
    asyncio.run(a_running_database(db))
    writer = subprocess.Popen([sys.executable, "-m", "tests.backup_writer", db, str(stop)], cwd=ROOT)
    try:
        deadline = time.time() + 30
        while moves_between(db, 0, time.time() + 1) < 5 and time.time() < deadline:
            time.sleep(0.05)
        start = time.time()
        status = store_cli.main(["backup", str(backup), "--db", db])
        end = time.time()
        time.sleep(0.2)
    finally:
        stop.touch()
        writer.wait(timeout=30)
    said = capsys.readouterr()
    assert status == 0, said.err
    assert writer.returncode == 0
    assert moves_between(db, start, end) > 0, "the other process committed moves while the backup ran"
    assert f"{WRITERS_GAMES} games" in said.out and "integrity check" in said.out
    assert backup.stat().st_size > 3 * STEP_PAGES * 4096, "the copy took several steps"
    assert not [p.name for p in backup.parent.iterdir() if p != backup], "no partial file is left beside it"
    assert moves_between(str(backup), 0, end + 1) < moves_between(db, 0, time.time() + 1)

    audited = asyncio.run(every_game_audited(str(backup)))
    assert len(audited) == WRITERS_GAMES and audited == [None] * WRITERS_GAMES

    restored = tmp_path / "restored" / "keystone.db"
    restored.parent.mkdir()
    shutil.copyfile(backup, restored)
    assert asyncio.run(every_running_game_moves_on(str(restored))) == WRITERS_GAMES


def test_a_backup_never_replaces_a_file_and_a_missing_database_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    db, backup = str(tmp_path / "k.db"), tmp_path / "Sicherung (Zoë).db"
    asyncio.run(a_running_database(db))
    backup.write_bytes(b"yesterday's backup")
    assert store_cli.main(["backup", str(backup), "--db", db]) == 2
    said = capsys.readouterr()
    assert said.err.count("\n") == 1 and "already exists" in said.err and not said.out
    assert backup.read_bytes() == b"yesterday's backup"

    assert store_cli.main(["backup", str(tmp_path / "new.db"), "--db", str(tmp_path / "nowhere.db")]) == 2
    assert "no database at" in capsys.readouterr().err
    assert not (tmp_path / "new.db").exists() and not (tmp_path / "nowhere.db").exists()


def test_the_database_is_the_bots_own_unless_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    db = str(tmp_path / "bot.db")
    asyncio.run(a_running_database(db))
    monkeypatch.setenv("KEYSTONE_DB", db)
    assert store_cli.main(["backup", str(tmp_path / "copy.db")]) == 0
    assert f"Backed up {db} to" in capsys.readouterr().out


def test_on_postgresql_the_commands_are_printed_without_the_password(capsys: pytest.CaptureFixture[str]) -> None:
    url = "postgresql://keystone:s3cr%C3%A9t-Zo%C3%AB@db.example.org:6543/keystone?sslmode=require&password=p4ss"
    assert store_cli.main(["backup", "keystone 2026-12-02.dump", "--db", url]) == 2
    said = capsys.readouterr()
    assert "s3cr" not in said.out + said.err and "p4ss" not in said.out + said.err
    assert said.err.count("\n") == 1 and "No backup was made" in said.err
    dump, restore = postgres_commands(url, "keystone 2026-12-02.dump")
    assert dump in said.out and restore in said.out
    assert shlex.split(dump) == ["pg_dump", "--format=custom", "--file=keystone 2026-12-02.dump",
                                 "--dbname=postgresql://keystone@db.example.org:6543/keystone?sslmode=require"]


async def _version(url: str, game_id: int) -> int:
    async with await Store.open(url) as store:
        return (await store.get_game(game_id)).version


async def _game_and_moves(url: str) -> int:
    async with await Store.open(url) as store:
        record = await start_game(store, channel_id=1187654321098765499, seed=secrets.randbelow(2**31))
        rng = random.Random(record.id)
        for _ in range(4):
            state = (await store.load_game(record.id)).state
            text, new = random_move(state, rng)
            await store.commit_action(record.id, state.version, state.current, text, new)
        return record.id


def test_the_printed_pg_dump_and_pg_restore_back_up_and_restore_a_postgresql_database(
    postgres_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("PostgreSQL's pg_dump and pg_restore are not installed here")
    game_id = asyncio.run(_game_and_moves(postgres_url))
    file = str(tmp_path / "Sicherung 2026-12-02.dump")
    assert store_cli.main(["backup", file, "--db", postgres_url]) == 2
    dump, restore = (line.strip() for line in capsys.readouterr().out.splitlines() if line.startswith("  "))
    subprocess.run(shlex.split(dump), check=True, env={**os.environ, "PGCONNECT_TIMEOUT": "10"})
    asyncio.run(every_running_game_moves_on(postgres_url))  # the game moves on after the backup
    assert asyncio.run(_version(postgres_url, game_id)) == 5
    subprocess.run(shlex.split(restore), check=True, capture_output=True)
    assert asyncio.run(_version(postgres_url, game_id)) == 4
    assert asyncio.run(every_game_audited(postgres_url)) == [None]
    assert asyncio.run(every_running_game_moves_on(postgres_url)) == 1
