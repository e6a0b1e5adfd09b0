"""Exactly once from the database to Discord, in the service and the deliverer, on a real SQLite file
with time moved by hand from a real epoch: what a move, a turn run out or a reminder owes is kept
with it; two schedulers never both act on a deadline; a miss counts once per turn; a reminder whose
turn passed is dropped; a table where everyone is away waits; bot turns in a row are one post;
a lost clock is found again; Discord's failures are retried in order or given up with a reason."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from keystone.app import Actor, GameService, Reply, Where, clock, owed
from keystone.app.clock import DAY, HOUR
from keystone.app.delivery import LONGEST_RETRY, Deliverer, NotNow, Undeliverable, backoff
from keystone.app.owed import reply_of
from keystone.app.scheduler import Scheduler
from keystone.store import GameRecord, Store
from keystone.store.outbox import ANSWER_READABLE, HOLD
from tests.clock_helpers import T0, Time, deciding_here, game_here, posted, whole_turn

HERE = Where(channel_id=1184513463826616421, guild_id=1184513463826616000)
ANN, BOB = Actor(197038439483310086, "Ann-Kathrin Müller 🦊"), Actor(41771983423143937, "Дмитрий **Bold**")


class Courier:
    """Records what the deliverer posts; `failing` maps a channel to the failures it meets, in order."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, str, str]] = []
        self.failing: dict[int, list[Exception]] = {}
        self.answers: dict[str, str | None] = {}
        """What each interaction's original answer shows, by '<application id>/<token>'."""
        self.asked: list[str] = []

    async def to_channel(self, channel_id: int, reply: Reply, nonce: str) -> None:
        failures = self.failing.get(channel_id)
        if failures:
            raise failures.pop(0)
        self.sent.append((channel_id, reply.public or "", nonce))

    async def to_user(self, user_id: int, text: str, nonce: str) -> None:
        self.sent.append((user_id, text, nonce))

    async def shown_as_answer(self, answer: str, reply: Reply) -> bool:
        self.asked.append(answer)
        return self.answers.get(answer) == reply.public


@pytest.fixture
def time() -> Time:
    return Time(T0)


@pytest.fixture
async def service(tmp_path: Path, time: Time) -> AsyncIterator[GameService]:
    made = GameService(await Store.open(tmp_path / "k.db", clock=time), seeds=lambda: 7, clock=time)
    yield made
    await made.store.close()


async def start(service: GameService, bots: int = 0, people: tuple[Actor, ...] = (BOB,)) -> GameRecord:
    """Ann's channel game with `people` and `bots`, started and its start posted."""
    assert (await service.new(HERE, ANN, players=1 + len(people) + bots)).ok
    for actor in people:
        assert (await service.lobby(HERE, actor, "join")).ok
    for _ in range(bots):
        assert (await service.lobby(HERE, ANN, "bot")).ok
    assert (await posted(service, await service.lobby(HERE, ANN, "start"))).ok
    return await record(service)


async def record(service: GameService) -> GameRecord:
    return await game_here(service, HERE)


async def deciding(service: GameService) -> int:
    return await deciding_here(service, HERE)


async def play_turn(service: GameService, actor: Actor) -> Reply:
    return await whole_turn(service, HERE, actor)


async def test_a_move_and_what_it_owes_are_saved_together_and_the_interaction_marks_it_sent(
    service: GameService, time: Time
) -> None:
    await start(service)
    reply = await play_turn(service, ANN)
    assert len(reply.owed) == 1, "the turn's one public message is owed"
    courier = Courier()
    deliverer = Deliverer(service.store, courier)
    assert await deliverer.deliver() == 0, "held while the interaction answers with it"
    time.now += HOLD + 0.5
    assert await deliverer.deliver() == 1, "nobody posted it: the channel gets it"
    assert courier.sent[0][2] == reply.owed[0], "the key is the nonce"
    assert await service.store.outbox_counts() == {"sent": 2}


APP_ID, TOKEN = 1184513463826616320, "aW50ZXJhY3Rpb246MTE4NDUxMzQ2MzgyNjYxNjQ0ODp0b2tlbg"


async def test_an_answer_discord_showed_before_a_crash_is_not_posted_again(service: GameService, time: Time) -> None:
    await start(service)
    with owed.answering(APP_ID, TOKEN):
        reply = await play_turn(service, ANN)
    [key] = reply.owed
    # The process died after Discord showed the answer, before it was marked sent; a new one starts.
    time.now += 3.7
    assert await service.store.release_held(time.now) == 1
    courier = Courier()
    courier.answers[f"{APP_ID}/{TOKEN}"] = reply.public
    assert await Deliverer(service.store, courier).deliver() == 1
    assert courier.sent == [] and courier.asked == [f"{APP_ID}/{TOKEN}"], "read back, not posted again"
    assert await service.store.outbox_counts() == {"sent": 2}
    async with service.store._db.connection() as db:
        rows = await db.fetch("SELECT count(*) FROM outbox WHERE answer IS NOT NULL", ())
    assert rows[0][0] == 0, "the interaction's token is not kept once its message is settled"
    assert key not in [nonce for _, _, nonce in courier.sent]


async def test_an_answer_discord_does_not_show_goes_to_the_channel(service: GameService, time: Time) -> None:
    await start(service)
    with owed.answering(APP_ID, TOKEN):
        first = await play_turn(service, ANN)
        second = await play_turn(service, BOB)
    time.now += 2.9
    await service.store.release_held(time.now)
    courier = Courier()
    courier.answers[f"{APP_ID}/{TOKEN}"] = "The game begins!"  # the token's answer is another message
    assert await Deliverer(service.store, courier).deliver() == 2
    assert [nonce for _, _, nonce in courier.sent] == [*first.owed, *second.owed]


async def test_an_answer_too_old_to_read_back_is_posted(service: GameService, time: Time) -> None:
    await start(service)
    with owed.answering(APP_ID, TOKEN):
        reply = await play_turn(service, ANN)
    time.now += ANSWER_READABLE + 0.8  # Discord no longer keeps the interaction's token
    courier = Courier()
    courier.answers[f"{APP_ID}/{TOKEN}"] = reply.public
    assert await Deliverer(service.store, courier).deliver() == 1
    assert courier.asked == [] and [nonce for _, _, nonce in courier.sent] == reply.owed


async def test_the_scheduler_keeps_no_interaction_with_what_it_owes(service: GameService, time: Time) -> None:
    await start(service)
    time.now = T0 + 12 * HOUR + 0.4
    with owed.answering(APP_ID, TOKEN):  # even inside a command's context, the scheduler's work is its own
        [reminder] = await service.due_work()
    courier = Courier()
    assert await Deliverer(service.store, courier).deliver() == 1 and courier.asked == []
    assert reminder.reply.mention == [ANN.user_id]


async def test_two_schedulers_never_both_play_a_turn_run_out_and_the_miss_counts_once(
    service: GameService, time: Time, tmp_path: Path
) -> None:
    await start(service)
    other = GameService(await Store.open(tmp_path / "k.db", clock=time), seeds=lambda: 7, clock=time)
    try:
        time.now = T0 + DAY + 0.75
        [due] = await service.store.due_clocks(time.now)
        first = await service._time_out(due)
        second = await other._time_out(due)
        assert first.public is not None and first.public.startswith("Time ran out for Ann")
        assert second.public is None, "the second scheduler finds the turn played"
        game = await record(service)
        assert game.seats[0].missed == 1 and not game.seats[0].away
        assert await deciding(service) == 1
        [waiting] = await service.store.waiting_posts()  # one message owed, by the one that played
        assert (reply_of(waiting.body).public or "").startswith("Time ran out for Ann")
    finally:
        await other.store.close()


async def test_a_stand_in_that_died_is_played_again_later_without_a_second_miss(
    service: GameService, time: Time
) -> None:
    game = await start(service)
    time.now = T0 + DAY + 0.3
    # A scheduler took the deadline on (and counted the miss), then died before its stand-in moved.
    taken = await service.store.claim_deadline(game.id, 0, 0, away_after=2)
    assert taken is not None and taken.missed == 1
    assert await service.due_work() == [], "held by the one that died, for a while"
    time.now += 60.5
    [post] = await service.due_work()
    assert (post.reply.public or "").startswith("Time ran out for Ann-Kathrin Müller 🦊, so a normal bot played")
    game = await record(service)
    assert (game.seats[0].missed, game.seats[0].away) == (1, False), "the same turn is not a second miss"


async def test_a_reminder_whose_turn_passed_before_it_went_out_is_dropped(service: GameService, time: Time) -> None:
    await start(service)
    time.now = T0 + 12 * HOUR + 0.4
    [reminder] = await service.due_work()
    assert reminder.reply.mention == [ANN.user_id]
    # Discord fails for now; meanwhile Ann plays her turn: her reminder must not reach her late.
    courier = Courier()
    courier.failing[HERE.channel_id] = [NotNow("502")]
    deliverer = Deliverer(service.store, courier)
    assert await deliverer.deliver() == 0
    game = await record(service)
    await posted(service, await play_turn(service, ANN))
    time.now += backoff(0, None) + 0.1
    assert await deliverer.deliver() == 0 and courier.sent == []
    assert await service.store.outbox_counts() == {"sent": 2, "given up": 1}, "the start, Ann's turn; the reminder"
    assert game.id == (await record(service)).id


async def test_when_everyone_is_away_the_game_waits_and_the_first_to_act_takes_it_on(
    service: GameService, time: Time
) -> None:
    await start(service, bots=1, people=())
    for misses in (1, 2):
        time.now += DAY + 0.5
        [post] = await service.due_work()
        assert (await record(service)).seats[0].missed == misses
    told = post.reply.public or ""
    assert "Everyone at this table is away now, so the game waits here" in told
    game = await record(service)
    assert game.seats[0].away and await deciding(service) == 0, "Ann's turn waits for her; no burst of bot turns"
    assert game.clock is None
    time.now += 30 * DAY
    assert await service.due_work() == [] and await service.play_due_bot_turns(everywhere=True) == []
    back = await service.back(HERE, ANN)
    assert back.public == "Ann-Kathrin Müller 🦊 is back and plays their own seat again."
    game = await record(service)
    assert not game.seats[0].away and game.clock is not None and game.clock.started_at == time.now


async def test_bot_turns_that_follow_one_another_are_told_in_one_post(service: GameService) -> None:
    await start(service, bots=3, people=())
    reply = await play_turn(service, ANN)
    assert len(reply.more) == 1, "Ann's turn, then the three bots' in one message"
    bots = reply.more[0]
    assert len(bots.files) == 3 and len((bots.public or "").splitlines()) >= 4, "a picture and a line a turn"
    assert bots.mention == [ANN.user_id] and len(reply.owed) == 2


async def test_a_running_game_whose_clock_was_lost_is_timed_again(service: GameService, time: Time) -> None:
    game = await start(service)
    await service.store.set_clock(game.id, None)  # as a crash between a move and its clock once left it
    time.now += 5.25
    assert await service.time_clockless() == 1
    game = await record(service)
    assert game.clock is not None and (game.clock.seat, game.clock.started_at) == (0, time.now)
    assert await service.time_clockless() == 0


async def test_a_clock_saved_while_the_lost_clock_check_waited_is_kept(service: GameService, time: Time) -> None:
    """The check for lost clocks lists a game whose turn is between two saves (a person's move, then
    the away seat's bot turn), waits for the game, and must find the clock the bot turn saved: timing
    it again would restart the turn and owe its reminder a second time."""
    game = await start(service)
    await service.store.set_clock(game.id, None)  # a bot decides for a moment
    time.now += 3.1
    async with service._locked(game.id):
        check = asyncio.create_task(service.time_clockless())
        await asyncio.sleep(0.05)  # the check has listed the game and waits for it
        saved = await record(service)
        assert saved.clock is None and not check.done()
        turn = clock.decider(saved, (await service.store.load_game(game.id)).state)
        assert turn is not None
        kept = clock.start(turn, "daily", time.now - 1.3)
        await service.store.set_clock(game.id, kept)  # the bot turn's save, with the next person's clock
    assert await check == 0, "nothing was lost by then"
    assert (await record(service)).clock == kept


async def test_the_deliverer_keeps_order_retries_with_backoff_and_gives_up_with_a_reason(
    service: GameService, time: Time, caplog: pytest.LogCaptureFixture
) -> None:
    await start(service)
    elsewhere = Where(channel_id=1184513463826617777, guild_id=HERE.guild_id)
    assert (await service.new(elsewhere, BOB, players=2)).ok
    assert (await service.lobby(elsewhere, ANN, "join")).ok
    assert (await service.lobby(elsewhere, BOB, "start")).ok  # never posted by an interaction
    await service.notify(ANN, True)
    time.now = T0 + 12 * HOUR + 0.6
    await service.due_work()  # Ann's reminders here and by DM; Bob's in the other channel
    courier = Courier()
    courier.failing[HERE.channel_id] = [NotNow("rate limited", retry_after=7.5), NotNow("500")]
    courier.failing[elsewhere.channel_id] = [Undeliverable("Discord refuses the bot in that channel (403)")]
    scheduler = Scheduler(service, courier)
    assert await scheduler.tick() == 2, "Ann's DM, and Bob's reminder past the other channel's refused start"
    assert "gave up message" in caplog.text and "(403)" in caplog.text
    assert await scheduler.wait() == pytest.approx(7.5), "Discord's retry_after is waited"
    time.now += 7.6
    assert await scheduler.deliverer.deliver() == 0
    time.now += backoff(1, None) + 0.1
    assert await scheduler.deliverer.deliver() == 1
    assert sorted((to, text.split(",")[0]) for to, text, _ in courier.sent) == sorted([
        (ANN.user_id, "Your Keystone turn is waiting in <#1184513463826616421>: 12 hours left. "
                      "[Jump to the game](https://discord.com/channels/1184513463826616000/1184513463826616421)"),
        (elsewhere.channel_id, f"<@{BOB.user_id}>"), (HERE.channel_id, f"<@{ANN.user_id}>")])
    assert len({nonce for _, _, nonce in courier.sent}) == 3
    assert backoff(30, None) == LONGEST_RETRY
