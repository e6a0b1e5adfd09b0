"""Turn clocks in the service and the scheduler, on a real SQLite file, with time moved by hand:
reminders, turns run out, absent seats and coming back, the vote, pause, pace and notify."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from keystone.app import Actor, GameService, Reply, Where
from keystone.app.clock import DAY, HOUR, NO_CLOCK_IN_DM, NO_CLOCK_SOLO, NO_PACE, NOTIFY_ON
from keystone.app.delivery import Undeliverable
from keystone.app.replies import Post
from keystone.app.scheduler import Scheduler
from keystone.store import GameRecord, Store
from tests.clock_helpers import T0, Time, deciding_here, game_here, posted, whole_turn

HERE = Where(channel_id=10, guild_id=1)
DM = Where(channel_id=77)
ANN, BOB, CID = Actor(1, "Ann"), Actor(2, "Bob"), Actor(3, "Cid")
HOST_ONLY = "Only the player who opened the game or someone who manages this channel can set its clock."



@pytest.fixture
def time() -> Time:
    return Time()


@pytest.fixture
async def service(tmp_path: Path, time: Time) -> AsyncIterator[GameService]:
    made = GameService(await Store.open(tmp_path / "k.db", clock=time), seeds=lambda: 7, clock=time)
    yield made
    await made.store.close()


async def start(service: GameService, *people: Actor, **options: object) -> GameRecord:
    """A channel game between Ann and the others (Ann first), started at the service's clock."""
    assert (await service.new(HERE, ANN, players=1 + len(people), **options)).ok  # type: ignore[arg-type]
    for actor in people:
        assert (await service.lobby(HERE, actor, "join")).ok
    assert (await posted(service, await service.lobby(HERE, ANN, "start"))).ok
    return await record(service)


async def record(service: GameService) -> GameRecord:
    return await game_here(service, HERE)


async def deciding(service: GameService) -> int:
    return await deciding_here(service, HERE)


async def play_turn(service: GameService, actor: Actor) -> Reply:
    return await whole_turn(service, HERE, actor)


def texts(posts: list[Post]) -> list[str]:
    return [p.reply.public or p.reply.private or "" for p in posts]


async def test_the_reminder_falls_half_way_once_even_after_a_restart(
    service: GameService, time: Time, tmp_path: Path
) -> None:
    game = await start(service, BOB)
    assert game.pace == "daily" and game.clock is not None
    assert (game.clock.started_at, game.clock.remind_at, game.clock.deadline) == (T0, T0 + 12 * HOUR, T0 + DAY)
    time.now = T0 + 12 * HOUR - 1
    assert await service.due_work() == []
    time.now = T0 + 12 * HOUR
    [post] = await service.due_work()
    assert post.channel_id == HERE.channel_id and post.reply.mention == [ANN.user_id]
    assert post.reply.public is not None and post.reply.public.startswith("<@1>, a reminder: it is still your turn")
    assert "12 hours left" in post.reply.public and "(https://discord.com/channels/1/10)" in post.reply.public
    assert await service.due_work() == []
    await service.store.close()
    again = GameService(await Store.open(tmp_path / "k.db", clock=time), clock=time)
    try:
        time.now = T0 + 13 * HOUR
        assert await again.due_work() == [], "a reminder is never sent twice, restarts included"
    finally:
        await again.store.close()


async def test_only_people_who_opted_in_also_get_the_reminder_by_direct_message(
    service: GameService, time: Time
) -> None:
    reply = await service.notify(ANN, True)
    assert reply.public is None and reply.private == NOTIFY_ON
    await start(service, BOB)
    time.now = T0 + 12 * HOUR
    posts = await service.due_work()
    assert [(p.channel_id, p.user_id) for p in posts] == [(HERE.channel_id, None), (None, ANN.user_id)]
    assert posts[1].reply.public is None and posts[1].reply.private == (
        "Your Keystone turn is waiting in <#10>: 12 hours left. [Jump to the game](https://discord.com/channels/1/10)")
    await play_turn(service, ANN)
    time.now += 12 * HOUR
    assert [(p.channel_id, p.user_id) for p in await service.due_work()] == [(HERE.channel_id, None)], \
        "Bob did not opt in"


async def test_a_turn_that_runs_out_is_played_by_a_normal_bot_and_the_next_is_timed(
    service: GameService, time: Time
) -> None:
    await start(service, BOB)
    time.now = T0 + DAY
    [post] = await service.due_work()
    assert post.reply.public is not None
    assert post.reply.public.startswith("Time ran out for Ann, so a normal bot played this turn for them.")
    assert post.reply.mention == [BOB.user_id] and post.reply.files, "the turn is told as any turn, with its picture"
    game = await record(service)
    assert await deciding(service) == 1 and game.seats[0].missed == 1 and not game.seats[0].away
    assert game.clock is not None and (game.clock.seat, game.clock.started_at) == (1, T0 + DAY)
    assert await service.due_work() == []


async def test_after_downtime_an_overdue_turn_is_played_without_a_late_reminder(
    service: GameService, time: Time
) -> None:
    await start(service, BOB)
    time.now = T0 + 3 * DAY
    assert [t.split(",")[0] for t in texts(await service.due_work())] == ["Time ran out for Ann"]


async def test_two_turns_missed_hand_the_seat_over_until_its_player_acts(service: GameService, time: Time) -> None:
    await start(service, BOB)
    time.now = T0 + DAY
    await service.due_work()
    await play_turn(service, BOB)
    time.now += DAY
    [post] = await service.due_work()
    assert post.reply.public is not None and post.reply.public.startswith(
        "Time ran out for Ann again (2 turns in a row), so a normal bot plays their seat until they come back "
        "with `/keystone back`")
    game = await record(service)
    assert game.seats[0].away and game.seats[0].bot_decides
    reply = await play_turn(service, BOB)
    assert len(reply.more) == 1 and reply.mention == [], "the bot plays Ann's turn at once, and nobody is pinged"
    assert await deciding(service) == 1 and (await record(service)).clock is not None
    back = await service.act(HERE, ANN, "endturn")
    assert back.public == "Ann is back and plays their own seat again."
    assert back.private is not None and "Bob's turn" in back.private, "the move itself is still refused"
    game = await record(service)
    assert (game.seats[0].missed, game.seats[0].away) == (0, False)
    await play_turn(service, BOB)
    assert await deciding(service) == 0, "Ann decides her own turn again"


async def test_keystone_back_and_a_players_own_move_clear_missed_turns(service: GameService, time: Time) -> None:
    await start(service, BOB)
    refused = await service.back(HERE, ANN)
    assert refused.public is None and refused.private == "You are not away: your seat is yours, and no bot plays it."
    time.now = T0 + DAY
    await service.due_work()
    await play_turn(service, BOB)
    await play_turn(service, ANN)
    assert (await record(service)).seats[0].missed == 0, "a turn played resets the count"
    await service.store.set_away((await record(service)).id, 0, True)
    reply = await service.back(HERE, ANN)
    assert reply.public == "Ann is back and plays their own seat again." and not (await record(service)).seats[0].away


async def test_the_vote_is_refused_with_reasons_and_passes_with_a_majority_of_the_others(
    service: GameService, time: Time
) -> None:
    await start(service, BOB, CID)
    early = await service.vote_away(HERE, BOB, "Ann")
    assert early.public is None and early.private == (
        "You can vote once half of Ann's time for this turn has gone, in 12 hours.")
    time.now = T0 + 12 * HOUR
    assert (await service.vote_away(HERE, ANN, "1")).private == (
        "You cannot vote on your own seat; to hand it to a bot for good, use `/keystone resign`.")
    assert (await service.vote_away(HERE, BOB, "Cid")).private == (
        "You can only vote while it is Cid's turn; it is Ann's turn now.")
    assert (await service.vote_away(HERE, Actor(9, "Dee"), "Ann")).private == (
        "You are not playing in this game; you can watch, and join the next one.")
    assert (await service.pause_clock(HERE, ANN)).ok
    assert (await service.vote_away(HERE, BOB, "Ann")).private == (
        "The clock is paused, so there is no vote until the host resumes it.")
    assert (await service.resume_clock(HERE, ANN)).ok
    first = await service.vote_away(HERE, BOB, "Ann")
    assert first.public == "Bob votes to hand Ann's seat to a bot until they come back: 1 of the 2 votes needed."
    assert (await service.vote_away(HERE, BOB, "Ann")).public is not None and not (await record(service)).seats[0].away
    passed = await service.vote_away(HERE, CID, "Ann")
    assert passed.public is not None and passed.public.startswith(
        "The others voted, so a normal bot plays Ann's seat until they come back")
    assert (await record(service)).seats[0].away and await deciding(service) == 1
    assert (await service.vote_away(HERE, BOB, "Ann")).private == (
        "A bot already plays Ann's seat until they come back.")


async def test_a_person_who_is_away_has_no_vote(service: GameService, time: Time) -> None:
    game = await start(service, BOB, CID)
    await service.store.set_away(game.id, 2, True)
    time.now = T0 + 12 * HOUR + 0.5
    refused = await service.vote_away(HERE, CID, "Ann")
    assert refused.public is None and refused.private == (
        "You are away yourself (a bot plays your seat), so your vote would not count: come back with "
        "`/keystone back` first.")
    first = await service.vote_away(HERE, BOB, "Ann")
    assert (first.public or "").startswith("The others voted, so a normal bot plays Ann's seat"), \
        "Bob alone is more than half of the people still playing"
    assert (await record(service)).seats[0].away


async def test_pause_stops_the_clock_and_resume_gives_back_the_time_left(service: GameService, time: Time) -> None:
    await start(service, BOB)
    time.now = T0 + HOUR
    assert (await service.pause_clock(HERE, BOB)).private == HOST_ONLY
    paused = await service.pause_clock(HERE, ANN)
    assert paused.public is not None and paused.public.startswith("Ann paused the clock")
    assert "clock paused" in (await service.games(HERE, ANN)).private  # type: ignore[operator]
    time.now = T0 + 3 * DAY
    assert await service.due_work() == [], "a paused clock sends nothing and times nothing out"
    await play_turn(service, ANN)  # moves may still be made
    time.now = T0 + 4 * DAY
    resumed = await service.resume_clock(HERE, Actor(5, "Mod", can_manage=True))
    assert resumed.public == "Mod started the clock again: 24 hours left."
    game = await record(service)
    assert game.clock is not None and game.clock.deadline == T0 + 5 * DAY, "Bob's turn began while paused"
    assert (await service.resume_clock(HERE, ANN)).private == "The clock is running; `/keystone clock pause` stops it."


async def test_a_pace_change_restarts_the_turn_from_now(service: GameService, time: Time) -> None:
    await start(service, BOB, pace="relaxed")
    assert (await record(service)).clock.deadline == T0 + 3 * DAY  # type: ignore[union-attr]
    time.now = T0 + 2 * DAY
    assert (await service.set_pace(HERE, BOB, "live")).private == HOST_ONLY
    reply = await service.set_pace(HERE, ANN, "live")
    assert reply.public == "Ann set the pace to live (10 minutes a turn). This turn has 10 minutes from now."
    game = await record(service)
    assert game.pace == "live" and game.clock is not None and game.clock.deadline == time.now + 600
    line = next(line for line in (await service.games(HERE, BOB)).private.splitlines() if "<#10>" in line)  # type: ignore[union-attr]
    assert "· Ann to play · round 1 · 10 minutes left ·" in line


async def test_direct_message_games_have_no_clock(service: GameService, time: Time) -> None:
    assert (await service.new(DM, ANN, pace="live")).private == NO_CLOCK_IN_DM
    assert (await service.new(DM, ANN)).ok
    found = await service.state_here(DM)
    assert found is not None and found[0].pace is None and found[0].clock is None
    assert (await service.pause_clock(DM, ANN)).private == NO_CLOCK_IN_DM
    time.now = T0 + 30 * DAY
    assert await service.due_work() == []
    assert (await service.new(HERE, ANN, players=1, assignment=1, pace="live")).private == NO_CLOCK_SOLO
    await service.store.set_pace((await start(service, BOB)).id, None)
    assert (await service.pause_clock(HERE, ANN)).private == NO_PACE
    assert (await service.vote_away(HERE, BOB, "Ann")).private == NO_PACE


async def test_a_deadline_read_before_a_move_plays_nothing(service: GameService, time: Time) -> None:
    await start(service, BOB)
    time.now = T0 + DAY
    [due] = await service.store.due_clocks(time.now)
    await play_turn(service, ANN)  # Ann moves just in time, before the scheduler takes the game's lock
    assert (await service._time_out(due)).public is None
    game = await record(service)
    assert game.seats[0].missed == 0 and await deciding(service) == 1 and game.clock is not None
    assert game.clock.seat == 1


class Outbox:
    """Records what the scheduler posts; channel 666 is gone."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, int, str]] = []

    async def to_channel(self, channel_id: int, reply: Reply, nonce: str) -> None:
        if channel_id == 666:
            raise Undeliverable("channel 666 is gone")
        self.sent.append(("channel", channel_id, reply.public or ""))

    async def to_user(self, user_id: int, text: str, nonce: str) -> None:
        self.sent.append(("user", user_id, text))

    async def shown_as_answer(self, answer: str, reply: Reply) -> bool:
        return False  # no interaction answers here


async def test_a_scheduler_tick_posts_due_work_and_survives_a_failing_post(
    service: GameService, time: Time, caplog: pytest.LogCaptureFixture
) -> None:
    outbox = Outbox()
    scheduler = Scheduler(service, outbox)
    await service.notify(ANN, True)
    await start(service, BOB)
    assert await scheduler.tick() == 0 and await scheduler.wait() == 30.0
    time.now = T0 + 12 * HOUR - 10
    assert await scheduler.wait() == 10.0, "it wakes for the next reminder"
    time.now = T0 + 12 * HOUR
    assert await scheduler.tick() == 2
    assert [(kind, to) for kind, to, _ in outbox.sent] == [("channel", 10), ("user", ANN.user_id)]
    broken = Where(channel_id=666, guild_id=1)
    assert (await service.new(broken, CID)).ok and (await service.lobby(broken, BOB, "join")).ok
    assert (await service.lobby(broken, CID, "start")).ok, "its start is never posted: the outbox keeps it"
    time.now += DAY
    with caplog.at_level(logging.WARNING):
        assert await scheduler.tick() == 1, "channel 10's turn run out; channel 666 gets nothing"
    assert caplog.text.count("channel 666 is gone") == 2, "its start and its turn run out are given up, told"
    assert outbox.sent[-1][2].startswith("Time ran out for Ann")
    assert await service.store.outbox_counts() == {"sent": 4, "given up": 2}, "the start, reminder, DM, turn"


async def test_in_co_op_the_clock_times_the_partner_who_decides(service: GameService, time: Time) -> None:
    game = await start(service, BOB, mode="coop")
    assert game.clock is not None and game.clock.seat == 0
    time.now = T0 + HOUR
    await play_turn(service, ANN)
    game = await record(service)
    assert game.clock is not None and (game.clock.seat, game.clock.started_at) == (1, T0 + HOUR)
    time.now = T0 + HOUR + DAY
    [post] = await service.due_work()
    assert (post.reply.public or "").startswith("Time ran out for Bob, so a normal bot played this turn for them.")
    assert await deciding(service) == 0


@pytest.mark.parametrize("typed", ["²", "٣", "1" * 5000, "0", "-1", "Zoë **#** `x`"])
async def test_an_odd_seat_is_refused_with_a_sentence_for_board_and_away(
    service: GameService, time: Time, typed: str, caplog: pytest.LogCaptureFixture
) -> None:
    """"²" and "٣" are digits to Python but no number int() reads; 5,000 digits are past what int()
    converts: each used to end in the generic apology with a traceback."""
    await start(service, BOB, CID)
    time.now = T0 + 12 * HOUR + 0.5
    for reply in (await service.board(HERE, BOB, typed), await service.vote_away(HERE, BOB, typed)):
        assert reply.public is None and (reply.private or "").startswith("There is no seat ")
        assert "the seats are Ann, Bob, Cid" in (reply.private or "") and len(reply.private or "") < 200
    assert "Traceback" not in caplog.text and not (await record(service)).seats[0].away
