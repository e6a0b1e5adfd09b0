"""Corruption is detected on load, and racing commits apply exactly once."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path

import pytest

from keystone.engine import GameConfig, GameState, apply, dump_state, is_over, legal_actions, parse_action
from keystone.engine.history import undone
from keystone.store import CorruptGame, SeatInfo, StaleVersion, Store, state_digest
from tests.store_helpers import play, query, random_move, results_for, start_game


async def played(tmp_path: Path, moves: int = 15) -> tuple[Store, int]:
    store = await Store.open(tmp_path / "k.db")
    game = await start_game(store, seed=6)
    await play(store, game.id, moves, random.Random(6))
    return store, game.id


def tamper(path: Path, *sql: str, params: tuple[object, ...] = ()) -> None:
    """Edit the file behind the store's back, as a disk fault or a careless hand would."""
    with sqlite3.connect(path) as db:
        db.execute("DROP TRIGGER IF EXISTS actions_no_update")
        db.execute("DROP TRIGGER IF EXISTS actions_no_delete")
        for statement in sql:
            db.execute(statement, params if "?" in statement else ())


def snapshot_of(path: Path, game_id: int) -> str:
    with sqlite3.connect(path) as db:
        return str(db.execute("SELECT snapshot FROM games WHERE id = ?", (game_id,)).fetchone()[0])


# --------------------------------------------------------------------------- corruption


async def test_a_flipped_byte_in_the_snapshot_is_detected(tmp_path: Path) -> None:
    store, game_id = await played(tmp_path)
    text = snapshot_of(tmp_path / "k.db", game_id)
    broken = text.replace('"synergy":', '"synergy":1', 1)
    tamper(tmp_path / "k.db", "UPDATE games SET snapshot = ?", params=(broken,))
    with pytest.raises(CorruptGame, match="checksum") as caught:
        await store.load_game(game_id)
    assert caught.value.game_id == game_id and "left untouched" in str(caught.value)
    assert snapshot_of(tmp_path / "k.db", game_id) == broken
    await store.close()


async def test_a_rehashed_forged_snapshot_still_disagrees_with_the_log(tmp_path: Path) -> None:
    store, game_id = await played(tmp_path)
    state = json.loads(snapshot_of(tmp_path / "k.db", game_id))
    state["seats"][0]["synergy"] += 20
    forged = json.dumps(state)
    tamper(tmp_path / "k.db", "UPDATE games SET snapshot = ?, state_hash = ?", params=(forged, state_digest(forged)))
    with pytest.raises(CorruptGame, match="last move"):
        await store.load_game(game_id)
    await store.close()


async def test_a_lost_log_row_is_detected(tmp_path: Path) -> None:
    store, game_id = await played(tmp_path)
    tamper(tmp_path / "k.db", "DELETE FROM actions WHERE version = 3")
    with pytest.raises(CorruptGame, match="log holds 14 moves"):
        await store.load_game(game_id)
    await store.close()


async def test_an_unreadable_snapshot_is_detected(tmp_path: Path) -> None:
    store, game_id = await played(tmp_path)
    junk = '{"seed": "not a state"}'
    tamper(
        tmp_path / "k.db",
        "UPDATE games SET snapshot = ?1, state_hash = ?2",
        "UPDATE actions SET state_hash = ?2 WHERE version = 15",
        params=(junk, state_digest(junk)),
    )
    with pytest.raises(CorruptGame, match="cannot be read"):
        await store.load_game(game_id)
    await store.close()


async def test_a_rewritten_move_is_found_by_the_replay_audit(tmp_path: Path) -> None:
    store, game_id = await played(tmp_path)
    log = await store.log(game_id)
    tamper(tmp_path / "k.db", "UPDATE actions SET notation = 'endturn' WHERE version = 1")
    assert (await store.load_game(game_id)).state.version == 15  # digests alone cannot see this
    with pytest.raises(CorruptGame, match="move 1 "):
        await store.verify_game(game_id)
    assert log[0] != "endturn"
    await store.close()


async def test_an_intact_game_passes_the_audit_at_every_length(store_target: str) -> None:
    store = await Store.open(store_target)
    game = await start_game(store, seed=12)
    rng = random.Random(12)
    for _ in range(6):
        state = await play(store, game.id, 7, rng)
        loaded = await store.verify_game(game.id)
        assert dump_state(loaded.state) == dump_state(state)
    await store.close()


async def test_a_rewritten_move_on_a_server_is_found_by_the_replay_audit(postgres_url: str) -> None:
    store = await Store.open(postgres_url)
    game = await start_game(store, seed=6)
    await play(store, game.id, 15, random.Random(6))
    await query(store, "ALTER TABLE actions DISABLE TRIGGER actions_no_update")  # the owner can, by hand
    await query(store, "UPDATE actions SET notation = 'endturn' WHERE version = 1")
    assert (await store.load_game(game.id)).state.version == 15
    with pytest.raises(CorruptGame, match="move 1 "):
        await store.verify_game(game.id)
    await store.close()


# --------------------------------------------------------------------------- concurrency


async def candidates(state: GameState, count: int) -> list[tuple[str, GameState]]:
    """`count` successor states (moves may repeat when few are legal), as racing clicks would send."""
    actions = legal_actions(state)
    return [(str(a), apply(state, a)[0]) for a in (actions[i % len(actions)] for i in range(count))]


async def test_racing_clicks_on_one_state_apply_once(store_target: str) -> None:
    store = await Store.open(store_target)
    game = await start_game(store)
    state = await play(store, game.id, 5, random.Random(1))
    moves = await candidates(state, 40)
    outcomes = await asyncio.gather(
        *(store.commit_action(game.id, state.version, state.current, text, new) for text, new in moves),
        return_exceptions=True,
    )
    winners = [o for o in outcomes if o == state.version + 1]
    assert len(winners) == 1
    assert all(isinstance(o, StaleVersion) for o in outcomes if o not in winners)
    assert len(await store.log(game.id)) == state.version + 1
    await store.verify_game(game.id)
    await store.close()


async def test_many_players_racing_through_a_game_commit_every_move_exactly_once(store_target: str) -> None:
    store = await Store.open(store_target, durable=False)
    game = await start_game(store, seed=3)
    wins: list[tuple[int, str]] = []
    """(version, move) per successful commit; on a pool, commits may return out of order."""
    stale = 0

    async def player(number: int) -> None:
        nonlocal stale
        rng = random.Random(number)
        while True:
            state = (await store.load_game(game.id)).state
            if is_over(state):
                return
            text, new = random_move(state, rng)
            await asyncio.sleep(0)  # let the others read the same version
            try:
                await store.commit_action(game.id, state.version, state.current, text, new,
                                          results=results_for(new) if is_over(new) else None)
                wins.append((new.version, text))
            except StaleVersion:
                stale += 1

    await asyncio.gather(*(player(n) for n in range(12)))
    final = await store.verify_game(game.id)
    assert is_over(final.state) and final.record.status == "finished"
    assert await store.log(game.id) == [text for _, text in sorted(wins)]
    assert sorted(v for v, _ in wins) == list(range(1, final.state.version + 1))
    assert stale > 0
    await store.close()


async def test_two_stores_racing_on_one_database_apply_once(store_target: str) -> None:
    first = await Store.open(store_target)
    second = await Store.open(store_target)
    game = await start_game(first)
    state = (await second.load_game(game.id)).state
    moves = await candidates(state, 20)
    outcomes = await asyncio.gather(
        *((first if i % 2 else second).commit_action(game.id, 0, 0, text, new) for i, (text, new) in enumerate(moves)),
        return_exceptions=True,
    )
    assert outcomes.count(1) == 1
    assert sum(isinstance(o, StaleVersion) for o in outcomes) == len(moves) - 1
    assert (await first.verify_game(game.id)).state.version == 1
    await first.close()
    await second.close()


async def test_three_stores_filling_one_lobby_at_once_seat_everyone_once(store_target: str) -> None:
    """Each join reads the lobby and writes its seats back: writers must queue, or a seat is lost."""
    stores = [await Store.open(store_target) for _ in range(3)]
    try:
        lobby = await stores[0].create_lobby(guild_id=9, channel_id=100, kind="competitive", host_id=1,
                                             host_name="Ada", config=GameConfig(players=4))
        await asyncio.gather(*(s.join_lobby(lobby.id, SeatInfo.human(10 + i, f"P{i}")) for i, s in enumerate(stores)))
        seats = (await stores[1].get_game(lobby.id)).seats
        assert sorted(s.user_id or 0 for s in seats) == [1, 10, 11, 12]
    finally:
        for s in stores:
            await s.close()


async def test_an_undo_is_logged_and_the_replay_audit_restores_the_same_state(store_target: str) -> None:
    store = await Store.open(store_target)
    game = await start_game(store, seed=3)
    start = (await store.load_game(game.id)).state
    skill = f"skill {start.skills[0].number}"
    used, _ = apply(start, parse_action(skill))
    await store.commit_action(game.id, 0, 0, skill, used)
    back = undone(start, used)
    await store.commit_action(game.id, 1, 0, "UNDO ", back)
    assert await store.log(game.id) == [skill, "undo"]
    loaded = await store.verify_game(game.id)
    assert dump_state(loaded.state) == dump_state(back) and loaded.state.version == 2
    await store.close()


async def test_an_undo_the_rules_refuse_is_found_by_the_replay_audit(store_target: str) -> None:
    store = await Store.open(store_target)
    game = await start_game(store, seed=3)
    start = (await store.load_game(game.id)).state
    take = legal_actions(start)[0]  # a take that ends the turn: synergy is too short for a Wild
    passed, _ = apply(start, take)
    assert passed.turn == 1
    await store.commit_action(game.id, 0, 0, str(take), passed)
    await store.commit_action(game.id, 1, 0, "undo", undone(start, passed))
    with pytest.raises(CorruptGame, match=r"move 2 \(undo\) is not legal"):
        await store.verify_game(game.id)
    await store.close()
