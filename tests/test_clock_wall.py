"""End to end on the wall clock: the real `bot.py` process against the fake Discord, with
KEYSTONE_CLOCK_SCALE making a `live` turn last 2.4 s instead of 10 minutes. Nobody plays: each turn
gets its half-way reminder, then runs out and is played by a stand-in bot; after two turns run out
each, everyone is away and the game waits (no clock, no burst of bot turns) until someone comes back.
Nothing moves time by hand: the scheduler's own sleeps, the database's clocks and real time.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from keystone.store import Store
from tests.fakediscord.models import FakeChannel, FakeMessage, FakeUser
from tests.fakediscord.server import FakeDiscord
from tests.outbox_helpers import (
    EVERYONE_AWAY,
    BotProcess,
    audit,
    bot_environment,
    driven_moves,
    fetch,
    open_game,
    prepare_database,
    slash_of,
    turn_seconds,
)

pytestmark = pytest.mark.slow

SCALE = 0.004
TURN = turn_seconds(SCALE)  # 2.4 s a turn, the reminder at 1.2 s
ALICE = "Zoë Ångström 🦊"
BOB = "Bjørn Ødegård 🐻"
SLACK = 3.0
"""Seconds a message may come later than its time (a busy machine running the suite on every core)."""


async def start_bot(fake: FakeDiscord, tmp_path: Path, scale: float) -> tuple[BotProcess, str]:
    database = str(tmp_path / "k.db")
    await prepare_database(database)
    bot = BotProcess(fake, bot_environment(fake, database, scale=scale), tmp_path)
    await bot.start()
    return bot, database


async def until(check: Callable[[], Awaitable[bool]], *, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < deadline, f"timed out after {timeout}s waiting for {what}"
        await asyncio.sleep(0.05)


def named(fake: FakeDiscord) -> tuple[FakeUser, FakeUser, FakeChannel]:
    alice, bob = fake.user("alice"), fake.user("bob")
    alice.global_name, bob.global_name = ALICE, BOB
    return alice, bob, fake.channel("table-1")


async def test_turns_run_out_on_the_wall_clock_and_a_table_of_absentees_waits(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice, bob, table = named(fake)
    name = {alice.id: ALICE, bob.id: BOB}
    bot, database = await start_bot(fake, tmp_path, SCALE)
    try:
        # The game starts while the bot is getting ready, so the scheduler's first tick finds its clock.
        await until(_true(bot.connected), timeout=30, what="the bot to connect")
        begun = await open_game(fake, alice, bob, table)
        started = time.monotonic()
        [first_id] = begun.pinged_user_ids
        first, second = (alice, bob) if first_id == alice.id else (bob, alice)
        await bot.wait_ready()

        async def next_message(after: FakeMessage) -> FakeMessage:
            return await fake.wait_for_message(table, lambda m: not m.is_ephemeral, after=after,
                                               timeout=TURN + SLACK)

        # nobody plays: a reminder, then the turn runs out; twice each
        seen: list[FakeMessage] = []
        last = begun
        for person, again in ((first, False), (second, False), (first, True), (second, True)):
            reminder = await next_message(last)
            assert reminder.content.startswith(f"<@{person.id}>, a reminder: it is still your turn here, "
                                               "less than a minute left."), reminder.content
            assert reminder.pinged_user_ids == {person.id} and not reminder.attachments
            if not seen:
                assert time.monotonic() - started >= TURN / 2 - 0.3, "the reminder falls half-way through the turn"
            told = await next_message(reminder)
            headline = (f"Time ran out for {name[person.id]} again (2 turns in a row), so a normal bot plays their "
                        "seat until they come back" if again
                        else f"Time ran out for {name[person.id]}, so a normal bot played this turn for them.")
            assert told.content.startswith(headline), told.content
            assert told.attachments and told.attachments[0].content_type == "image/png", "the stand-in's turn picture"
            seen += [reminder, told]
            last = told
        assert time.monotonic() - started < 4 * TURN + 2 * SLACK
        assert [m.pinged_user_ids for m in seen[1::2]] == [{second.id}, {first.id}, {second.id}, set()]
        assert EVERYONE_AWAY in seen[-1].content and EVERYONE_AWAY not in seen[-3].content

        async with await Store.open(database) as store:
            running = await store.get_active_game(table.id)
            assert running is not None
            record = await store.get_game(running.id)
            assert record.clock is None, "the clock stops"
            assert [(s.name, s.missed, s.away) for s in record.seats] == [
                (name[s.user_id or 0], 2, True) for s in record.seats]
            assert await fetch(store, "SELECT missed_turn FROM seats WHERE game_id = ? ORDER BY missed_turn",
                               (record.id,)) == [(2,), (3,)], "each miss counted for its own turn (0 to 3)"

            # everyone is away: nothing happens, however long it waits
            public = len(fake.public_messages(table))
            await asyncio.sleep(TURN)
            assert len(fake.public_messages(table)) == public, "no bot turns and no reminders while everyone is away"
            assert (await store.get_game(record.id)).version == record.version
            assert await fetch(store, "SELECT count(*) FROM clocks WHERE game_id = ?", (record.id,)) == [(0,)]

            # Alice comes back and plays: her move is told, Bob's seat is played at once, her turn is timed
            back = await fake.slash(alice, table, "keystone back", timeout=10)
            said = [m.content for m in back.messages if not m.is_ephemeral]
            assert said and said[0].startswith(f"{ALICE} is back and plays their own seat again."), said
            mine = record.seat_of(alice.id)
            await until(lambda: _timing(store, record.id, mine), timeout=10, what="a clock on Alice's turn")
            move = driven_moves((await store.load_game(record.id)).state)[0]
            command, options = slash_of(move)
            mark = fake.mark()
            played = await fake.slash(alice, table, command, options, timeout=10)
            answered = [m for m in played.messages if not m.is_ephemeral]
            assert answered and answered[0].content.startswith(ALICE), [m.content for m in played.messages]
            bobs = await fake.wait_for_message(table, lambda m: m.pinged_user_ids == {alice.id}, after=mark,
                                               timeout=10)
            assert bobs.content.startswith(BOB) and bobs.attachments, "Bob is still away: a bot played his seat at once"
            await until(lambda: _timing(store, record.id, mine), timeout=10, what="a clock on Alice's next turn")
            timed = (await store.get_game(record.id)).clock
            assert timed is not None and timed.deadline - timed.started_at == pytest.approx(TURN)
            paused = await fake.slash(alice, table, "keystone clock pause", timeout=10)
            assert any(m.content.startswith(f"{ALICE} paused the clock") for m in paused.messages)

            await until(lambda: _drained(store), timeout=10, what="every owed message sent")
            figures = await audit(store, fake)
        assert figures.owed >= 12 and figures.delivered == figures.owed and figures.clean, figures.problems
        assert figures.reminders >= 4 and figures.timeouts == 4
        assert figures.wrong_reminders == figures.repeated_reminders == 0
        assert bot.errors() == [], bot.errors()
    finally:
        await bot.kill()
        bot.close()


async def test_a_game_started_on_an_idle_bot_gets_its_reminder_in_time(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice, bob, table = named(fake)
    bot, _ = await start_bot(fake, tmp_path, SCALE)
    try:
        await bot.wait_ready()
        await asyncio.sleep(0.5)  # the scheduler's first tick: nothing is due, it sleeps its longest wait
        begun = await open_game(fake, alice, bob, table)
        reminder = await fake.wait_for_message(table, lambda m: "a reminder" in m.content, after=begun,
                                               timeout=TURN)
        assert reminder.pinged_user_ids == begun.pinged_user_ids, "the reminder goes to the person deciding"
    finally:
        await bot.kill()
        bot.close()


def _true(check: Callable[[], bool]) -> Callable[[], Awaitable[bool]]:
    async def checked() -> bool:
        return check()
    return checked


async def _timing(store: Store, game_id: int, seat: int | None) -> bool:
    record = await store.get_game(game_id)
    return record.clock is not None and record.clock.seat == seat


async def _drained(store: Store) -> bool:
    return await fetch(store, "SELECT count(*) FROM outbox WHERE sent_at IS NULL AND gave_up IS NULL") == [(0,)]
