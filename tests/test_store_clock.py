"""The store's turn clocks, on a real SQLite file: timing a turn, due work, reminders claimed once,
pause and resume, seats missed and away, notify settings, votes, and migrating older files."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import replace
from pathlib import Path

import aiosqlite
import pytest

from keystone.engine import GameConfig, dump_config, dump_state, new_game
from keystone.store import Clock, InvalidInput, SeatInfo, Store, WrongStatus, state_digest
from keystone.store.backend import SqliteDatabase
from keystone.store.migrate import latest, migrate
from tests.clock_helpers import T0, Time
from tests.store_helpers import play, start_game


def clock(turn: int = 0, seat: int = 0, start: float = T0, span: float = 100.0) -> Clock:
    return Clock(turn, seat, start, start + span / 2, start + span)


async def timed_game(store: Store, channel_id: int = 100) -> int:
    record = await start_game(store, channel_id)
    await store.set_pace(record.id, "daily")
    return record.id


async def test_a_clock_is_kept_with_the_game_and_replaced_per_turn(store_target: str) -> None:
    async with await Store.open(store_target, clock=Time(T0)) as store:
        game = await timed_game(store)
        await store.set_clock(game, clock())
        record = await store.get_game(game)
        assert record.pace == "daily" and record.paused_at is None and record.clock == clock()
        await store.set_clock(game, clock(turn=1, seat=1, start=T0 + 50.0))
        assert (await store.get_game(game)).clock == clock(turn=1, seat=1, start=T0 + 50.0)
        await store.set_clock(game, None)
        assert (await store.get_game(game)).clock is None


async def test_only_running_games_with_a_pace_are_timed(store_target: str) -> None:
    async with await Store.open(store_target, clock=Time(T0)) as store:
        untimed = await start_game(store, 100)
        await store.set_clock(untimed.id, clock())
        assert (await store.get_game(untimed.id)).clock is None
        lobby = await store.create_lobby(guild_id=9, channel_id=200, kind="competitive", host_id=1, host_name="Ada",
                                         config=GameConfig(), pace="live")
        assert lobby.pace == "live"
        with pytest.raises(InvalidInput, match="pace is one of"):
            await store.set_pace(lobby.id, "hourly")  # type: ignore[arg-type]
        with pytest.raises(InvalidInput, match="in that order"):
            await store.set_clock(lobby.id, Clock(0, 0, 10.0, 5.0, 20.0))


async def test_a_lost_clock_is_given_only_while_the_game_still_has_none_at_that_version(store_target: str) -> None:
    async with await Store.open(store_target, clock=Time(T0)) as store:
        game = await timed_game(store)
        version = (await store.get_game(game)).version
        kept = clock(turn=0, seat=0, start=T0 + 0.37)
        await store.set_clock(game, kept)  # another process timed it first
        assert not await store.time_lost_clock(game, version, clock(start=T0 + 9.81))
        assert (await store.get_game(game)).clock == kept, "the clock that was there stays"
        await store.set_clock(game, None)
        assert not await store.time_lost_clock(game, version - 1, clock(start=T0 + 9.81)), "it moved on since"
        assert await store.time_lost_clock(game, version, clock(start=T0 + 9.81))
        assert (await store.get_game(game)).clock == clock(start=T0 + 9.81)


async def test_the_clock_goes_when_the_game_ends(store_target: str) -> None:
    async with await Store.open(store_target, clock=Time(T0)) as store:
        game = await timed_game(store)
        await store.set_clock(game, clock())
        await store.abandon_game(game)
        assert (await store.get_game(game)).clock is None
        assert await store.due_clocks(10**9) == []


async def test_due_clocks_gives_deadlines_then_reminders_and_skips_what_is_not_due(store_target: str) -> None:
    async with await Store.open(store_target, clock=Time(T0)) as store:
        early, late, later = [await timed_game(store, c) for c in (100, 200, 300)]
        await store.set_clock(early, clock(start=T0))
        await store.set_clock(late, clock(start=T0 + 40.0))
        await store.set_clock(later, clock(start=T0 + 1000.0))
        assert await store.due_clocks(T0 + 49.0) == []
        assert await store.next_due() == T0 + 50.0
        due = await store.due_clocks(T0 + 95.0)
        assert [(d.game_id, d.clock.deadline) for d in due] == [(early, clock().deadline),
                                                                (late, clock(start=T0 + 40.0).deadline)]
        due = await store.due_clocks(T0 + 100.0)
        assert [(d.game_id, d.clock.deadline <= T0 + 100.0) for d in due] == [(early, True), (late, False)]
        assert len(await store.due_clocks(T0 + 100.0, limit=1)) == 2, "the limit holds for each kind"


async def test_a_reminder_is_claimed_once_even_across_a_reopen(store_target: str) -> None:
    async with await Store.open(store_target, clock=Time(T0)) as store:
        game = await timed_game(store)
        await store.set_clock(game, clock())
        [due] = await store.due_clocks(T0 + 60.0)
        assert await store.claim_reminder(game, due.clock.turn, due.clock.seat) is True
        assert await store.claim_reminder(game, due.clock.turn, due.clock.seat) is False
    async with await Store.open(store_target, clock=Time(T0)) as store:
        assert await store.due_clocks(T0 + 60.0) == []
        assert await store.claim_reminder(game, due.clock.turn, due.clock.seat) is False
        assert (await store.get_game(game)).clock == replace(clock(), reminded=True)
        await store.set_clock(game, clock(turn=1, seat=1, start=T0 + 70.0))
        assert await store.claim_reminder(game, due.clock.turn, due.clock.seat) is False, \
            "a claim names the turn it was due for"


async def test_pause_stops_due_work_and_resume_moves_the_times_on(store_target: str) -> None:
    time = Time(T0)
    async with await Store.open(store_target, clock=time) as store:
        game = await timed_game(store)
        await store.set_clock(game, clock())
        time.now = T0 + 20.0
        assert (await store.pause_clock(game)).paused_at == T0 + 20.0
        time.now = T0 + 30.0
        assert (await store.pause_clock(game)).paused_at == T0 + 20.0, "pausing twice keeps the first pause"
        assert await store.due_clocks(T0 + 4000.0) == [] and await store.next_due() is None
        time.now = T0 + 4000.0
        record = await store.resume_clock(game)
        assert record.paused_at is None
        assert record.clock is not None and record.clock.started_at == T0
        assert (record.clock.remind_at, record.clock.deadline) == pytest.approx((T0 + 4030.0, T0 + 4080.0), abs=1e-6)
        assert (await store.resume_clock(game)).clock == record.clock, "resuming a running clock changes nothing"


async def test_a_turn_that_starts_while_paused_gets_its_whole_time_on_resume(store_target: str) -> None:
    time = Time(T0)
    async with await Store.open(store_target, clock=time) as store:
        game = await timed_game(store)
        await store.pause_clock(game)
        await store.set_clock(game, clock(start=T0 + 200.0))
        time.now = T0 + 500.0
        resumed = (await store.resume_clock(game)).clock
        assert resumed is not None and resumed.started_at == T0 + 200.0
        assert (resumed.remind_at, resumed.deadline) == pytest.approx((T0 + 550.0, T0 + 600.0), abs=1e-6)


async def run_out(store: Store, game: int, turn: int, seat: int, time: Time) -> SeatInfo | None:
    """Time (turn, seat) from now, let its deadline pass and take it on."""
    await store.set_clock(game, clock(turn=turn, seat=seat, start=time.now))
    time.now += 100.25
    return await store.claim_deadline(game, turn, seat, away_after=2)


async def test_missed_turns_make_a_seat_away_and_coming_back_clears_both(store_target: str) -> None:
    time = Time(T0)
    async with await Store.open(store_target, clock=time) as store:
        game = await timed_game(store)
        first = await run_out(store, game, 1, 1, time)
        assert first is not None and (first.missed, first.away, first.bot_decides) == (1, False, False)
        second = await run_out(store, game, 3, 1, time)
        assert second is not None and (second.missed, second.away, second.bot_decides) == (2, True, True)
        back = await store.set_away(game, 1, False)
        assert (back.missed, back.away) == (0, False)
        assert (await store.set_away(game, 0, True)).away
        seats = (await store.get_game(game)).seats
        assert [(s.missed, s.away) for s in seats] == [(0, True), (0, False)]


async def test_a_deadline_is_taken_on_once_and_its_miss_counted_once_per_turn(store_target: str) -> None:
    time = Time(T0)
    async with await Store.open(store_target, clock=time) as store:
        game = await timed_game(store)
        await store.set_clock(game, clock(turn=4, seat=1, start=time.now))
        assert await store.claim_deadline(game, 4, 1, away_after=2) is None, "the deadline has not passed"
        time.now += 100.5
        [due] = await store.due_clocks(time.now)
        sitting = await store.claim_deadline(game, 4, 1, away_after=2)
        assert sitting is not None and sitting.missed == 1
        assert await store.claim_deadline(game, 4, 1, away_after=2) is None, "another scheduler holds it"
        assert await store.due_clocks(time.now) == [], "a held deadline is not due"
        assert await store.next_due() == pytest.approx(time.now + 60.0)
        time.now += 61.5  # the holder died before its stand-in moved: the deadline is due again
        assert [d.game_id for d in await store.due_clocks(time.now)] == [due.game_id]
        again = await store.claim_deadline(game, 4, 1, away_after=2)
        assert again is not None and (again.missed, again.away) == (1, False), "the same turn is not counted twice"
        assert await store.claim_deadline(game, 4, 0, away_after=2) is None, "another seat's clock is not this one"
        await store.pause_clock(game)
        time.now += 61.5
        assert await store.claim_deadline(game, 4, 1, away_after=2) is None, "a paused clock never runs out"


async def test_bots_and_ended_games_have_no_away_seats(store_target: str) -> None:
    time = Time(T0)
    async with await Store.open(store_target, clock=time) as store:
        state = new_game(GameConfig(players=2), 1, ["Ada", "Bot"])
        record = await store.create_game(guild_id=9, channel_id=5, kind="competitive", host_id=1,
                                         seats=[SeatInfo.human(1, "Ada"), SeatInfo.bot(1, "Bot")], state=state)
        with pytest.raises(InvalidInput, match="never away"):
            await store.set_away(record.id, 1, True)
        await store.abandon_game(record.id)
        with pytest.raises(WrongStatus):
            await store.set_away(record.id, 0, True)


async def test_away_and_missed_survive_moves_and_a_seat_handed_to_a_bot_starts_fresh(store_target: str) -> None:
    time = Time(T0)
    async with await Store.open(store_target, clock=time) as store:
        game = await timed_game(store)
        await store.set_away(game, 0, True)
        await play(store, game, 5, random.Random(2))
        assert (await store.get_game(game)).seats[0].away
        record = await store.replace_seat(game, 0, SeatInfo.bot(1, "Bot for Ada"))
        assert (record.seats[0].missed, record.seats[0].away) == (0, False)


async def test_notify_is_off_until_turned_on(store_target: str) -> None:
    async with await Store.open(store_target, clock=Time(T0)) as store:
        assert await store.notify(7) is False
        await store.set_notify(7, True)
        assert await store.notify(7) is True and await store.notify(8) is False
        await store.set_notify(7, False)
        assert await store.notify(7) is False


async def test_a_vote_counts_once_per_voter_and_turn(store_target: str) -> None:
    async with await Store.open(store_target, clock=Time(T0)) as store:
        game = await timed_game(store)
        assert await store.add_away_vote(game, 1, 4, 10) == 1
        assert await store.add_away_vote(game, 1, 4, 10) == 1
        assert await store.add_away_vote(game, 1, 4, 11) == 2
        assert await store.add_away_vote(game, 1, 5, 10) == 1, "a new turn starts a new vote"


async def test_a_version_three_file_is_migrated_and_its_game_keeps_playing(tmp_path: Path) -> None:
    path = tmp_path / "v3.db"
    state = new_game(GameConfig(), 21, ["Ada", "Brook"])
    snapshot = dump_state(state)
    async with aiosqlite.connect(path, isolation_level=None) as db:
        assert await migrate(SqliteDatabase(db), lambda: 1.0, target=3) == 3
        await db.execute(
            "INSERT INTO games (id, guild_id, channel_id, kind, ruleset, config, host_id, status, seed, names, "
            "snapshot, version, state_hash, created_at, updated_at) "
            "VALUES (5, 9, 100, 'competitive', ?, ?, 1, 'active', 21, ?, ?, 0, ?, 1, 1)",
            (state.config.rules, dump_config(state.config), '["Ada", "Brook"]', snapshot, state_digest(snapshot)),
        )
        await db.executemany("INSERT INTO seats VALUES (5, ?, ?, NULL, ?)", [(0, 1, "Ada"), (1, 2, "Brook")])
    async with await Store.open(path, clock=Time(T0)) as store:
        assert await store.schema_version() == latest()
        record = (await store.load_game(5, replay=True)).record
        assert (record.pace, record.clock, record.paused_at) == (None, None, None)
        assert [(s.name, s.missed, s.away) for s in record.seats] == [("Ada", 0, False), ("Brook", 0, False)]
        await play(store, 5, 3, random.Random(1))
        assert (await store.set_pace(5, "relaxed")).pace == "relaxed"
    with sqlite3.connect(path) as db:
        plan = " ".join(str(r) for r in db.execute(
            "EXPLAIN QUERY PLAN SELECT c.game_id FROM clocks c CROSS JOIN games g ON g.id = c.game_id "
            "WHERE g.status = 'active' AND g.paused_at IS NULL AND c.reminded = 0 AND c.remind_at <= 5 "
            "ORDER BY c.remind_at LIMIT 10"))
        assert "clocks_unsent_reminders" in plan
