"""`python -m keystone store prune` and `store check` on both databases: old ended games lose their
moves and delivered pictures while results, ratings, statistics and history stay; running games are
never touched; a pruned game's replay is one polite sentence; a corrupted move log row is found."""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from keystone.app import Actor, GameService, Where
from keystone.cli import store as store_cli
from keystone.engine import apply, legal_actions, new_game, parse_action
from keystone.store import Outgoing, Store
from keystone.store.backend import is_url
from keystone.store.copy import where
from tests.store_helpers import play, query, start_game

DAY = 86_400.0
GUILD = 1148192837465019203
CHANNELS = [1187654321098765400 + n for n in range(6)]
ZOE = Actor(1, "Zoë")
CUTOFF = (datetime.now(UTC) - timedelta(days=10)).date()
KEPT = ("SELECT game_id, position, user_id, score, place, won, finished_at FROM results ORDER BY game_id, position",
        "SELECT * FROM ratings ORDER BY player", "SELECT * FROM rating_changes ORDER BY game_id, position",
        "SELECT id, status, version, snapshot, state_hash FROM games ORDER BY id")
"""What a prune keeps exactly as it was (results' board summaries may be filled in first)."""


class Aged:
    """A clock the test sets: games end weeks ago, or an hour ago."""

    def __init__(self) -> None:
        self.now = time.time() - 40 * DAY

    def __call__(self) -> float:
        return self.now


def picture_post(game_id: int | None, channel: int) -> Outgoing:
    body = json.dumps({"text": f"**Zoë**’s board 🌲 `{game_id}`", "files": [
        ["board.png", secrets.token_urlsafe(3000), "Дмитрий’s board"]]}, ensure_ascii=False)
    return Outgoing(f"ks{secrets.token_hex(8)}", body, game_id=game_id, guild_id=GUILD, channel_id=channel)


async def sent(store: Store, post: Outgoing) -> None:
    await store.post([post])
    assert await store.mark_sent(post.key)


async def an_aged_database(target: str) -> dict[str, int]:
    """Weeks ago: a finished game, an abandoned one and a post of no game; an hour ago: a finished game;
    now: a running game. Each game with a delivered picture; the old finished one with one still owed."""
    clock = Aged()
    async with await Store.open(target, clock=clock) as store:
        old = await start_game(store, channel_id=CHANNELS[0], seed=secrets.randbelow(2**31))
        await play(store, old.id, 10_000, random.Random(old.id))
        await sent(store, picture_post(old.id, CHANNELS[0]))
        await store.post([picture_post(old.id, CHANNELS[0])])  # still owed: kept
        gone = await start_game(store, channel_id=CHANNELS[1], seed=secrets.randbelow(2**31))
        await play(store, gone.id, 3, random.Random(gone.id))
        await store.abandon_game(gone.id)
        await sent(store, picture_post(None, CHANNELS[2]))
        clock.now = time.time() - 3600
        recent = await start_game(store, channel_id=CHANNELS[3], seed=secrets.randbelow(2**31))
        await play(store, recent.id, 10_000, random.Random(recent.id))
        await sent(store, picture_post(recent.id, CHANNELS[3]))
        running = await start_game(store, channel_id=CHANNELS[4], seed=secrets.randbelow(2**31))
        await play(store, running.id, 6, random.Random(running.id))
        await sent(store, picture_post(running.id, CHANNELS[4]))
    return {"old": old.id, "gone": gone.id, "recent": recent.id, "running": running.id}


async def rows(target: str, sql: str) -> list[tuple[object, ...]]:
    async with await Store.open(target) as store:
        return await query(store, sql)


async def kept(target: str) -> list[list[tuple[object, ...]]]:
    return [await rows(target, sql) for sql in KEPT]


async def moves_of(target: str) -> dict[int, int]:
    found = await rows(target, "SELECT game_id, count(*) FROM actions GROUP BY game_id")
    return {int(str(g)): int(str(n)) for g, n in found}


async def posts(target: str) -> list[tuple[object, ...]]:
    return await rows(target, "SELECT game_id, sent_at IS NOT NULL FROM outbox ORDER BY id")


async def as_players_see_it(target: str, games: dict[str, int]) -> tuple[str, str, str]:
    """The replay of the pruned game, Zoë's stats and her history, through the service."""
    async with await Store.open(target) as store:
        service = GameService(store)
        here = Where(CHANNELS[5], GUILD)
        replay = await service.replay(here, ZOE, str(games["old"]))
        assert not replay.ok and not replay.files and not replay.private_files
        stats, history = await service.stats(here, ZOE), await service.history(ZOE)
    return replay.private or "", stats.private or "", history.private or ""


def test_prune_removes_old_ended_games_moves_and_pictures_and_keeps_everything_players_read(
    store_target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture,
) -> None:
    games = asyncio.run(an_aged_database(store_target))
    before, moves, outbox = asyncio.run(kept(store_target)), asyncio.run(moves_of(store_target)), \
        asyncio.run(posts(store_target))
    day = CUTOFF.isoformat()

    assert store_cli.main(["prune", "--finished-before", day, "--db", store_target]) == 0
    dry = capsys.readouterr().out
    assert dry.startswith("Would remove the move logs of 2 games") and "add --yes" in dry
    assert f"({moves[games['old']] + moves[games['gone']]} moves)" in dry and "and 2 delivered posts" in dry
    assert asyncio.run(moves_of(store_target)) == moves and asyncio.run(posts(store_target)) == outbox

    assert store_cli.main(["prune", "--finished-before", day, "--yes", "--db", store_target]) == 0
    done = capsys.readouterr().out
    assert done.startswith("Removed" + dry.removeprefix("Would remove").split(" from ")[0])
    assert asyncio.run(moves_of(store_target)) == {g: n for g, n in moves.items()
                                                   if g in (games["recent"], games["running"])}
    assert asyncio.run(posts(store_target)) == [p for p in outbox if p[1] == 0 or p[0] in
                                                (games["recent"], games["running"])]
    assert asyncio.run(kept(store_target)) == before
    assert asyncio.run(rows(store_target, "SELECT DISTINCT game_id FROM results WHERE best_line IS NULL")) == [
        (games["recent"],)], "statistics summarised the pruned game's boards before its moves went"

    replay, stats, history = asyncio.run(as_players_see_it(store_target, games))
    assert f"Game {games['old']} ended a while ago" in replay and "can no longer be replayed" in replay
    assert "2 games" in stats and f"#{games['old']}" in history
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]

    assert store_cli.main(["prune", "--finished-before", day, "--yes", "--db", store_target]) == 0
    assert capsys.readouterr().out.startswith("Removed the move logs of 0 games (0 moves)")
    assert store_cli.main(["check", "--db", store_target]) == 0
    assert capsys.readouterr().out == (f"Checked 4 started games in {where(store_target)}: 4 reach "
                                       "their saved state (2 of them pruned: only their final state could be "
                                       "checked), 0 do not.\n")
    assert store_cli.main(["copy", store_target, str(tmp_path / "moved.db")]) == 0, capsys.readouterr().err


async def corrupt_second_move(target: str, game_id: int) -> str:
    """Rewrite the log row of move 2 behind the store's back: another move that was legal there."""
    async with await Store.open(target) as store:
        record = await store.get_game(game_id)
        log = await store.log(game_id)
        assert record.seed is not None
        state = new_game(record.config, record.seed, [s.name for s in record.seats])
        state, _ = apply(state, parse_action(log[0]))
        other = next(str(a) for a in legal_actions(state) if str(a) != log[1])
        lift = ("ALTER TABLE actions DISABLE TRIGGER actions_no_update" if is_url(target)
                else "DROP TRIGGER actions_no_update")
        async with store.database.connection() as db:
            await db.execute(lift)
            await db.execute("UPDATE actions SET notation = ? WHERE game_id = ? AND version = 2", (other, game_id))
        return other


def test_check_replays_every_game_and_names_the_one_whose_log_was_corrupted(
    store_target: str, capsys: pytest.CaptureFixture[str],
) -> None:
    games = asyncio.run(an_aged_database(store_target))
    assert store_cli.main(["check", "--db", store_target]) == 0
    assert capsys.readouterr().out.endswith(": 4 reach their saved state, 0 do not.\n")

    other = asyncio.run(corrupt_second_move(store_target, games["running"]))
    assert store_cli.main(["check", "--db", store_target]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [f"Game {games['running']} (active): replaying it differs from the record at move 2 ({other}).",
                   f"Checked 4 started games in {where(store_target)}: 3 reach their saved state, "
                   "1 does not."]


def test_a_bad_or_future_date_and_a_missing_database_are_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    db = str(tmp_path / "k.db")
    asyncio.run(an_aged_database(db))
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).date().isoformat()
    for given in ("2026-11-31", "1.11.2026", tomorrow):
        assert store_cli.main(["prune", "--finished-before", given, "--yes", "--db", db]) == 2
        said = capsys.readouterr()
        assert said.err.count("\n") == 1 and given in said.err and not said.out
    assert store_cli.main(["check", "--db", str(tmp_path / "elsewhere.db")]) == 2
    assert "no database at" in capsys.readouterr().err and not (tmp_path / "elsewhere.db").exists()
    assert len(asyncio.run(moves_of(db))) == 4
