"""The store's daily challenge: the secret, one game per person per day, results written with the
finishing move, and a server's board of the day."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from keystone.engine import GameConfig, apply, is_over, new_game
from keystone.engine.actions import Resign
from keystone.store import ChannelBusy, DailyTaken, InvalidInput, SeatResult, Store
from tests.store_helpers import play, query, random_move, results_for, start_game

DAY = "2026-12-01"
SOLO = GameConfig(players=1)


async def start_daily(store: Store, user_id: int, channel_id: int, day: str = DAY, seed: int = 7) -> int:
    state = new_game(SOLO, seed, [f"Player {user_id}"])
    record = await store.start_daily_game(day=day, user_id=user_id, channel_id=channel_id, state=state)
    return record.id


async def test_the_secret_is_made_once_and_kept(store_target: str, tmp_path: Path) -> None:
    async with await Store.open(store_target) as store:
        first = await store.daily_secret()
        assert len(first) >= 32 and await store.daily_secret() == first
    async with await Store.open(store_target) as store:
        assert await store.daily_secret() == first
    async with await Store.open(tmp_path / "other.db") as store:
        assert await store.daily_secret() != first, "each database makes its own secret at random"


async def test_a_daily_game_is_a_running_solo_game_linked_to_its_day(store: Store) -> None:
    game_id = await start_daily(store, 5, 500)
    record = await store.get_game(game_id)
    assert record.kind == "solo" and record.status == "active" and record.guild_id is None
    assert record.seats[0].user_id == 5 and record.assignment is None
    mine = await store.daily_game(DAY, 5)
    assert mine is not None and mine.game_id == game_id and mine.is_open and not mine.scored
    assert mine.channel_id == 500 and mine.name == "Player 5"
    assert await store.daily_of_game(game_id) == mine
    assert await store.daily_game("2026-12-02", 5) is None


async def test_one_attempt_per_person_per_day_and_a_refusal_writes_nothing(store: Store) -> None:
    first = await start_daily(store, 5, 500)
    await store.abandon_game(first)
    with pytest.raises(DailyTaken, match="already have a daily challenge for 2026-12-01"):
        await start_daily(store, 5, 500)
    assert await store.get_active_game(500) is None, "the refused game was not created"
    await start_daily(store, 5, 500, day="2026-12-02")
    await start_daily(store, 6, 600)
    assert await query(store, "SELECT count(*) FROM games") == [(3,)]


async def test_a_busy_direct_message_refuses_the_daily_and_writes_nothing(store: Store) -> None:
    await start_game(store, channel_id=500)
    with pytest.raises(ChannelBusy):
        await start_daily(store, 5, 500)
    assert await store.daily_game(DAY, 5) is None


async def test_bad_daily_input_is_refused(store: Store) -> None:
    state = new_game(SOLO, 1, ["Ada"])
    with pytest.raises(InvalidInput, match="YYYY-MM-DD"):
        await store.start_daily_game(day="1 Dec", user_id=5, channel_id=500, state=state)
    with pytest.raises(InvalidInput):
        await store.start_daily_game(day=DAY, user_id=5, channel_id=500, state=new_game(GameConfig(players=2), 1,
                                                                                         ["Ada", "Bo"]))
    with pytest.raises(InvalidInput, match="YYYY-MM-DD"):
        await store.daily_board(9, "'; DROP TABLE games; --")


async def test_the_finishing_move_writes_the_daily_result(store: Store) -> None:
    game_id = await start_daily(store, 5, 500)
    state = await play(store, game_id, 10_000, random.Random(3))
    assert is_over(state)
    mine = await store.daily_game(DAY, 5)
    assert mine is not None and not mine.is_open and mine.score == results_for(state)[0].score
    assert not mine.resigned and mine.finished_at is not None


async def test_a_refused_finish_writes_no_daily_result(store: Store) -> None:
    game_id = await start_daily(store, 6, 600)
    rng = random.Random(3)
    state = (await store.load_game(game_id)).state
    while True:
        move, new = random_move(state, rng)
        if is_over(new):
            break
        await store.commit_action(game_id, state.version, 0, move, new)
        state = new
    with pytest.raises(InvalidInput):
        await store.commit_action(game_id, state.version, 0, move, new, results=[SeatResult(3, 1, 1, True)])
    mine = await store.daily_game(DAY, 6)
    assert mine is not None and mine.is_open and mine.score is None
    await store.commit_action(game_id, state.version, 0, move, new, results=results_for(new))
    mine = await store.daily_game(DAY, 6)
    assert mine is not None and mine.score == results_for(new)[0].score


async def test_board_lists_the_servers_players_best_first(store: Store) -> None:
    for user in (1, 2, 3, 4, 5):
        await store.join_daily_board(9, user)
    await store.join_daily_board(9, 1)  # joining twice changes nothing
    await store.join_daily_board(8, 6)  # another server's player
    scores = {1: 40, 2: 71, 3: 55, 6: 99}
    for user, score in scores.items():
        game_id = await start_daily(store, user, 100 + user)
        await store.finish_game(game_id, [SeatResult(0, score, 1, True)])
    resigned = await start_daily(store, 4, 104)
    state = new_game(SOLO, 7, ["Player 4"])
    over, _ = apply(state, Resign(0))
    await store.commit_action(resigned, 0, 0, str(Resign(0)), over, results=[SeatResult(0, 80, 1, False)])
    await start_daily(store, 5, 105)  # still playing
    board = await store.daily_board(9, DAY)
    assert [(g.user_id, g.score, g.resigned) for g in board.results] == [
        (2, 71, False), (3, 55, False), (1, 40, False), (4, 80, True)]
    assert board.playing == 1
    assert await store.plays_daily_for(9, 1) and not await store.plays_daily_for(9, 6)
    assert (await store.daily_board(9, "2026-11-30")).results == ()
