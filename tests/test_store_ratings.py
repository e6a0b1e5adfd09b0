"""Ratings and board summaries in the store (real SQLite files): updated in the transaction that
finishes a game, stable under replay, and only for competitive games of 2 to 4 seats."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import aiosqlite
import pytest

from keystone.engine import GameConfig, dump_config, dump_state, new_game
from keystone.store import (
    BoardSummary,
    GameRecord,
    InvalidInput,
    PlayerRating,
    SeatInfo,
    SeatResult,
    Store,
    WrongStatus,
    state_digest,
)
from keystone.store.backend import IntegrityViolation, SqliteDatabase
from keystone.store.migrate import migrate
from keystone.store.ratings import rating_places
from tests.store_helpers import NAMES, query, start_game

FRESH = PlayerRating("user:0", 25.0, 25 / 3, 1)


def finished(places: Sequence[int]) -> list[SeatResult]:
    """Results with these places (1 first), scores falling with the place."""
    return [SeatResult(i, 100 - 10 * p, p, p == 1) for i, p in enumerate(places)]


async def rating(store: Store, user_id: int) -> PlayerRating:
    found = await store.user_rating(user_id)
    assert found is not None, f"user {user_id} has no rating"
    return found


async def ratings_table(store: Store) -> list[tuple[object, ...]]:
    return await query(store, "SELECT player, mu, sigma, games FROM ratings ORDER BY player")


async def game_with(store: Store, seats: list[SeatInfo], channel: int, guild: int | None = 9,
                    kind: str = "competitive") -> GameRecord:
    config = GameConfig(players=len(seats), coop=kind == "coop")
    state = new_game(config, channel, [s.name for s in seats][: config.boards])
    return await store.create_game(guild_id=guild, channel_id=channel, kind=kind,  # type: ignore[arg-type]
                                   host_id=1, seats=seats, state=state)


async def test_a_win_raises_and_a_loss_lowers(store: Store) -> None:
    game = await start_game(store)
    await store.finish_game(game.id, finished([1, 2]))
    winner, loser = await rating(store, 1), await rating(store, 2)
    assert winner.mu > FRESH.mu > loser.mu
    assert winner.shown > FRESH.shown > loser.shown and FRESH.shown == 1000
    assert winner.games == loser.games == 1
    assert await store.user_rating(3) is None


async def test_a_tie_between_equals_moves_neither_and_makes_both_surer(store: Store) -> None:
    game = await start_game(store)
    await store.finish_game(game.id, finished([1, 1]))
    first, second = await rating(store, 1), await rating(store, 2)
    assert first.mu == second.mu == pytest.approx(FRESH.mu)
    assert first.sigma == second.sigma < FRESH.sigma and first.shown > FRESH.shown


async def test_replaying_the_same_results_in_order_from_scratch_gives_the_same_ratings(
    tmp_path: Path, postgres_url: str
) -> None:
    """Once on SQLite, once on PostgreSQL: the two databases rate alike."""
    rng = random.Random(17)
    games = []
    for _ in range(12):
        players = rng.randint(2, 4)
        people = rng.sample(range(1, 6), players)
        games.append((people, [rng.randint(1, players) for _ in range(players)]))
    tables = []
    for target in (str(tmp_path / "first.db"), postgres_url):
        async with await Store.open(target, clock=lambda: 1.0) as store:
            for channel, (people, places) in enumerate(games, start=100):
                seats = [SeatInfo.human(p, NAMES[i]) for i, p in enumerate(people)]
                record = await game_with(store, seats, channel)
                await store.finish_game(record.id, finished(places))
            tables.append(await ratings_table(store))
    assert tables[0] == tables[1] and len(tables[0]) == 5
    assert sum(int(str(row[3])) for row in tables[0]) == sum(len(people) for people, _ in games)


async def test_a_game_finishes_once_so_it_is_rated_once(store: Store) -> None:
    game = await start_game(store)
    with pytest.raises(InvalidInput):
        await store.finish_game(game.id, [SeatResult(0, 50, 1, True)])
    assert await ratings_table(store) == [], "refused results rate nobody"
    await store.finish_game(game.id, finished([2, 1]))
    with pytest.raises(WrongStatus):
        await store.finish_game(game.id, finished([1, 2]))
    assert [(await rating(store, u)).games for u in (1, 2)] == [1, 1]
    assert await query(store, "SELECT count(*) FROM rating_changes") == [(2,)]


async def test_a_failure_while_rating_undoes_the_whole_finish(store: Store) -> None:
    game = await start_game(store)
    await query(  # a stray row that makes the rating step fail half-way
        store, "INSERT INTO rating_changes VALUES (?, 1, 'user:9', 1, 25, 8, 25, 8)", (game.id,)
    )
    with pytest.raises(IntegrityViolation):
        await store.finish_game(game.id, finished([1, 2]))
    assert (await store.get_game(game.id)).status == "active"
    assert await store.player_results(1) == [] and await ratings_table(store) == []


async def test_a_resigner_whose_seat_a_bot_finished_is_rated_last_and_the_bot_is_not(store: Store) -> None:
    game = await start_game(store, players=3)
    await store.replace_seat(game.id, 1, SeatInfo.bot(1, "Bot for Brook"), resigned=True)
    await store.finish_game(game.id, finished([2, 1, 3]))  # the bot in Brook's seat came first
    rows = await query(store, "SELECT position, player, place FROM rating_changes ORDER BY position")
    assert rows == [(0, "user:1", 1), (1, "user:2", 3), (2, "user:3", 2)]
    assert (await rating(store, 2)).mu < FRESH.mu < (await rating(store, 1)).mu
    assert [r[0] for r in await ratings_table(store)] == ["user:1", "user:2", "user:3"]
    assert await store.player_results(2) == [], "the result itself is the seat's as it ended: the bot's"


def test_rating_places_put_resigners_last_together_and_keep_the_others_order() -> None:
    assert rating_places([2, 1, 3], {1}) == [1, 3, 2]
    assert rating_places([1, 1, 3, 4], {0, 3}) == [3, 1, 2, 3]
    assert rating_places([1, 1], set()) == [1, 1]


async def test_each_bot_level_is_one_player_even_in_two_seats(store: Store) -> None:
    seats = [SeatInfo.human(1, "Ada"), SeatInfo.bot(1, "Bot 1 (normal)"), SeatInfo.bot(1, "Bot 2 (normal)"),
             SeatInfo.bot(2, "Bot 3 (hard)")]
    record = await game_with(store, seats, 100)
    await store.finish_game(record.id, finished([4, 1, 3, 2]))
    table = {str(r[0]): r for r in await ratings_table(store)}
    assert set(table) == {"user:1", "bot:1", "bot:2"} and table["bot:1"][3] == 1
    assert float(str(table["user:1"][1])) < FRESH.mu < float(str(table["bot:2"][1]))


async def test_solo_coop_and_journal_games_are_not_rated(store: Store) -> None:
    solo = await game_with(store, [SeatInfo.human(1, "Ada")], 100, guild=None, kind="solo")
    await store.finish_game(solo.id, [SeatResult(0, 40, 1, True)])
    coop = await game_with(store, [SeatInfo.human(1, "Ada"), SeatInfo.human(2, "Brook")], 101, kind="coop")
    await store.finish_game(coop.id, [SeatResult(0, 40, 1, True), SeatResult(1, 40, 1, True)])
    assert await ratings_table(store) == []
    assert len(await store.player_results(1)) == 2


async def test_the_server_board_holds_who_played_rated_games_there_best_first(store: Store) -> None:
    here = await game_with(store, [SeatInfo.human(1, "Ada"), SeatInfo.bot(2, "Bot 1 (hard)")], 100, guild=9)
    await store.finish_game(here.id, finished([2, 1]))
    elsewhere = await game_with(store, [SeatInfo.human(3, "Cyd"), SeatInfo.human(1, "Ada")], 101, guild=8)
    await store.finish_game(elsewhere.id, finished([2, 1]))
    board = await store.server_ratings(9)
    assert [r.player for r in board] == ["bot:2", "user:1"]
    assert board[1].games == 2, "a rating is one per person, wherever they played"
    assert [r.player for r in await store.server_ratings(8)] == ["user:1", "user:3"]
    assert await store.server_ratings(7) == []


async def test_a_summary_is_kept_with_the_result_and_old_results_are_filled_once(store: Store) -> None:
    summary = BoardSummary("Row B", 24, {"forest": 5, "desert": 0, "wetland": 2, "arctic": 1})
    game = await start_game(store)
    await store.finish_game(game.id, [SeatResult(0, 60, 1, True, summary=summary), SeatResult(1, 50, 2, False)])
    mine, theirs = (await store.player_results(1))[0], (await store.player_results(2))[0]
    assert mine.summary == summary and mine.kind == "competitive" and mine.won
    assert theirs.summary is None
    other = BoardSummary("Column 4", 9, {"forest": 1})
    await store.fill_summaries(game.id, {0: other, 1: other})
    assert (await store.player_results(1))[0].summary == summary, "a kept summary is never replaced"
    assert (await store.player_results(2))[0].summary == other


@pytest.mark.parametrize("summary", [
    BoardSummary("Row E", 3, {}), BoardSummary("Row A", -1, {}), BoardSummary("Row A", 3, {"ocean": 1}),
    BoardSummary("Row A", 3, {"forest": 17}),
])
async def test_a_bad_summary_is_refused_and_finishes_nothing(store: Store, summary: BoardSummary) -> None:
    game = await start_game(store)
    with pytest.raises(InvalidInput):
        await store.finish_game(game.id, [SeatResult(0, 60, 1, True, summary=summary), SeatResult(1, 5, 2, False)])
    assert (await store.get_game(game.id)).status == "active" and await store.player_results(1) == []


async def test_a_finished_game_from_before_ratings_keeps_its_results_unrated(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    async with aiosqlite.connect(path, isolation_level=None) as db:
        assert await migrate(SqliteDatabase(db), lambda: 1.0, target=3) == 3
        config = GameConfig()
        snapshot = dump_state(new_game(config, 21, ["Ada", "Brook"]))
        await db.execute(
            "INSERT INTO games (id, guild_id, channel_id, kind, ruleset, config, host_id, status, seed, names, "
            "snapshot, version, state_hash, created_at, updated_at) "
            "VALUES (5, 9, 100, 'competitive', ?, ?, 1, 'finished', 21, ?, ?, 0, ?, 1, 1)",
            (config.rules, dump_config(config), '["Ada", "Brook"]', snapshot, state_digest(snapshot)),
        )
        await db.executemany("INSERT INTO seats VALUES (5, ?, ?, NULL, ?)", [(0, 1, "Ada"), (1, 2, "Brook")])
        await db.executemany("INSERT INTO results VALUES (5, ?, ?, ?, ?, ?, 1)", [(0, 1, 40, 1, 1), (1, 2, 30, 2, 0)])
    async with await Store.open(path) as store:
        old = await store.player_results(1)
        assert [(r.game_id, r.score, r.won, r.summary) for r in old] == [(5, 40, True, None)]
        assert await store.user_rating(1) is None
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM ratings").fetchone() == (0,)
