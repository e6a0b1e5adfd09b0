"""Crash test of "exactly once from the database to Discord": the real `bot.py` process is killed
(SIGKILL to it and its picture worker) at the points that matter and restarted on the same database,
on SQLite and on PostgreSQL, against the fake Discord and the wall clock (KEYSTONE_CLOCK_SCALE
makes a `live` turn 1.5 s):

1. right after a move was committed, while Discord holds the interaction's answer: the restarted
   bot takes the message over and posts it in the channel;
2. during a stand-in turn, right after the missed turn was counted (the picture worker is stopped,
   so the stand-in waits for its picture; the clock is held by the dead scheduler): the restarted
   bot plays the turn and counts the miss once;
3. during a post that Discord accepted but whose answer the bot never read: the restarted bot posts
   it again with the same nonce, and Discord keeps one copy.

Then the table plays itself out (everyone times out twice and is away) and everything is checked:
every owed message shown exactly once, no running game without a clock, misses counted once per
turn and matching the "Time ran out" messages, reminders only to the person deciding.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import pytest

from keystone.store import LoadedGame, Pace, Store
from tests.fakediscord.models import FakeChannel, FakeUser
from tests.outbox_helpers import (
    CALLBACK,
    EVERYONE_AWAY,
    TIMED_OUT,
    BotProcess,
    HoldingDiscord,
    audit,
    bot_environment,
    clock_row,
    clockless,
    driven_moves,
    execute,
    fetch,
    lines_matching,
    open_game,
    owed_rows,
    prepare_database,
    seat_misses,
    settle,
    slash_of,
)

pytestmark = pytest.mark.slow

SCALE = 0.0025  # a live turn: 1.5 s
T = TypeVar("T")


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "k.db")
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
async def fake() -> AsyncIterator[HoldingDiscord]:
    server = HoldingDiscord()
    await server.start()
    try:
        yield server
    finally:
        for held in server.holds:
            held.release(run=False)
        await server.close()


async def until(check: Callable[[], Awaitable[T]], *, timeout: float, what: str) -> T:
    deadline = time.monotonic() + timeout
    while True:
        value = await check()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out after {timeout}s waiting for {what}"
        await asyncio.sleep(0.02)


async def test_killed_at_every_point_that_matters_the_bot_owes_each_message_once(
    fake: HoldingDiscord, database: str, tmp_path: Path
) -> None:
    alice, bob = fake.user("alice"), fake.user("bob")
    alice.global_name, bob.global_name = "Åsa Nyström", "Bob 🎲 Okonkwo-Müller"
    table = fake.channel("table-1")
    await prepare_database(database)
    bot = BotProcess(fake, bot_environment(fake, database, scale=SCALE, workers=1), tmp_path)
    store = await Store.open(database)
    try:
        # run 1: the game starts; its first player moves, and Discord holds the answer: killed
        loaded, person, (command, options) = await _first_move(bot, fake, store, table, alice, bob, "live")
        game = loaded.record.id
        other = next(i for i, s in enumerate(loaded.record.seats) if s.user_id != person.id)
        answer = fake.hold(CALLBACK)
        await fake.slash(person, table, command, options, wait=False)
        await answer.wait_caught(10)
        told = await until(lambda: _owed_after(store, game, loaded.state.version), timeout=10,
                           what="the move committed with its message")
        await bot.kill()
        answer.release(run=False)
        [(key, held_until, sent_at)] = told
        assert held_until is not None and sent_at is None, "held for the interaction that never answered"
        assert await clockless(store) == [], "the next turn's clock was saved with the move"
        assert (await store.get_game(game)).clock is not None

        # run 2: the next player's turn runs out; the stand-in waits for its picture: killed after the miss counted
        await bot.start()
        await bot.wait_for_line("Drawing pictures in", timeout=30)
        assert bot.freeze_pictures(), "the picture worker's pid is logged"
        claimed = await until(lambda: _claimed(store, game), timeout=15, what="the deadline claimed")
        await bot.kill()
        assert claimed is not None
        turn = claimed[0]
        assert [(m[2], m[3]) for m in await seat_misses(store, game) if m[0] == other] == [(1, turn)]
        assert not [r for r in await owed_rows(store) if TIMED_OUT.match(r.text)], "the stand-in never finished"
        [row] = [r for r in await owed_rows(store) if r.key == key]
        assert row.held_until is None and row.sent_at is None, "taken over from the dead run, not yet posted"
        assert await clockless(store) == []
        # the dead scheduler's hold on the clock lasts 60 s of real time: let it lapse now
        await execute(store, "UPDATE clocks SET claimed_until = ? WHERE game_id = ?", (time.time() - 1, game))

        # run 3: the turn is played at last (the miss not counted again); Discord takes the first
        # post but the bot dies before hearing so
        post = fake.hold(rf"/channels/{table.id}/messages", after=True)
        await bot.start()
        try:
            await post.wait_caught(20)
        except TimeoutError:
            raise AssertionError(f"run 3 posted nothing: clock {await clock_row(store, game)} at {time.time()}, "
                                 f"seats {await seat_misses(store, game)}, outbox {await owed_rows(store)}, "
                                 "log:\n" + "\n".join(bot.run_lines())) from None
        await until(lambda: _told_run_out(store, game), timeout=10, what="the stand-in's message owed")
        await bot.kill()
        post.release(run=False)
        [held] = [m for m in fake.public_messages(table) if m.nonce]
        [(_, missed, missed_turn, _)] = [m[1:] for m in await seat_misses(store, game) if m[0] == other]
        assert (missed, missed_turn) == (1, turn), "the miss was counted once"
        assert [r.sent_at for r in await owed_rows(store) if r.key == held.nonce] == [None]

        # run 4: it posts again with the same nonce (Discord answers with the first copy), and the table
        # plays itself out: everyone misses two turns in a row and the game waits
        await bot.start()
        assert await settle(store, 20), "every message sent and the game waiting for its absent players"
        await bot.kill()
        assert [m.id for m in fake.public_messages(table) if m.nonce == held.nonce] == [held.id]
        shown = [m.content[:70] for m in fake.public_messages(table)]
        assert EVERYONE_AWAY in fake.public_messages(table)[-1].content, "\n".join(shown)
        figures = await audit(store, fake)
        assert figures.clean, "\n".join(figures.problems)
        assert figures.owed == figures.delivered, "\n".join(figures.problems)
        assert figures.timeouts == 4 and figures.misses == 4, "two misses each, each counted once"
        assert await clockless(store) == []
        assert [(m[2], m[4]) for m in await seat_misses(store, game)] == [(2, True), (2, True)]
        assert bot.errors() == [], "\n".join(bot.errors())
        assert len([ln for ln in bot.lines if "go to their channels" in ln]) >= 1, "run 2 took the message over"
    finally:
        await bot.kill()
        bot.close()
        await store.close()


async def test_killed_after_discord_showed_the_answer_it_is_read_back_not_posted_again(
    fake: HoldingDiscord, database: str, tmp_path: Path
) -> None:
    alice, bob = fake.user("alice"), fake.user("bob")
    alice.global_name, bob.global_name = "Zoë Ђорђевић", "李小龍 **bold**"
    table = fake.channel("table-2")
    await prepare_database(database)
    bot = BotProcess(fake, bot_environment(fake, database, scale=SCALE, workers=0), tmp_path)
    store = await Store.open(database)
    try:
        loaded, mover, (command, options) = await _first_move(bot, fake, store, table, alice, bob, "daily")
        running = loaded.record
        answer = fake.hold(CALLBACK, after=True)  # Discord shows the answer; the bot never hears so
        await fake.slash(mover, table, command, options, wait=False)
        await answer.wait_caught(10)
        [owed] = await until(lambda: _owed_after(store, running.id, loaded.state.version), timeout=10,
                             what="the move committed with its message")
        await bot.kill()
        answer.release(run=False)
        [row] = [r for r in await owed_rows(store) if r.key == owed[0]]
        assert row.sent_at is None and row.text, "Discord shows it, but the bot died before marking it sent"
        assert [m.content for m in fake.public_messages(table)].count(row.text[:2000]) == 1

        await bot.start()
        assert await until(lambda: _sent(store, row.key), timeout=30, what="the message marked sent")
        await bot.kill()
        assert [m.content for m in fake.public_messages(table)].count(row.text[:2000]) == 1, "shown once"
        assert lines_matching(bot.lines, "already its interaction's answer"), "read back, not posted"
        figures = await audit(store, fake)
        assert figures.clean and figures.owed == figures.delivered, "\n".join(figures.problems)
        assert bot.errors() == [], "\n".join(bot.errors())
    finally:
        await bot.kill()
        bot.close()
        await store.close()


async def _first_move(bot: BotProcess, fake: HoldingDiscord, store: Store, table: FakeChannel, alice: FakeUser,
                      bob: FakeUser, pace: Pace) -> tuple[LoadedGame, FakeUser, tuple[str, dict[str, str]]]:
    """Start the bot and a game of `alice` and `bob` at `table`: the game, who moves first, and the
    slash command of their first move."""
    await bot.start()
    await until(_now(bot.connected), timeout=30, what="the bot to connect")
    await open_game(fake, alice, bob, table, pace=pace)
    running = await store.get_active_game(table.id)
    assert running is not None
    loaded = await store.load_game(running.id)
    mover = alice if loaded.record.seats[loaded.state.current].user_id == alice.id else bob
    return loaded, mover, slash_of(driven_moves(loaded.state)[0])


async def _sent(store: Store, key: str) -> bool:
    return any(r.sent_at is not None for r in await owed_rows(store) if r.key == key)


def _now(check: Callable[[], bool]) -> Callable[[], Awaitable[bool]]:
    async def checked() -> bool:
        return check()
    return checked


async def _owed_after(store: Store, game: int, version: int) -> list[tuple[str, float | None, float | None]]:
    """The messages owed with the game's first move, once it is saved."""
    if (await store.get_game(game)).version <= version:
        return []
    rows = await owed_rows(store)
    return [(r.key, r.held_until, r.sent_at) for r in rows if r.game_id == game and r.files and
            not r.text.startswith("The game begins")]


async def _claimed(store: Store, game: int) -> tuple[int, int] | None:
    """(turn, seat) of the game's clock, once a scheduler holds its passed deadline."""
    timed = await clock_row(store, game)
    if timed is None or timed[4] is None:
        return None
    return timed[0], timed[1]


async def _told_run_out(store: Store, game: int) -> bool:
    rows = await fetch(store, "SELECT a.text FROM outbox o JOIN outbox_audit a ON a.key = o.key WHERE o.game_id = ?",
                       (game,))
    return any(TIMED_OUT.match(str(r[0])) for r in rows)
