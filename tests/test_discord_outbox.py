"""End to end, through the real discord.py client and a fake Discord that fails like Discord: what an
interaction cannot post reaches the channel through the outbox, once; a post whose answer was lost
is retried with its nonce and Discord keeps one copy; a channel the bot may no longer post in is
given up with a reason while the rest goes on."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from keystone.app.clock import HOUR
from keystone.app.delivery import FIRST_RETRY
from tests.clock_helpers import T0, Time
from tests.discord_helpers import cheap_turn, make_bot
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.models import FakeChannel, FakeUser
from tests.fakediscord.server import FakeDiscord

CHANNEL_POSTS = r"/channels/\d+/messages"
CALLBACKS = r"/interactions/\d+/[^/]+/callback"


async def open_game(fake: FakeDiscord, channel: FakeChannel, host: FakeUser, *, bots: int = 0,
                    guest: FakeUser | None = None) -> None:
    lobby = await fake.slash(host, channel, "keystone new", {"players": 1 + bots + (guest is not None),
                                                             "pace": "daily"})
    if guest is not None:
        await fake.click(guest, lobby.message, label="Join")
    for _ in range(bots):
        await fake.click(host, lobby.message, label="Add bot")
    await fake.click(host, lobby.message, label="Start")
    await fake.quiet()


@pytest.mark.parametrize("fault", ["drop", "drop-after"])
async def test_bot_turns_an_interaction_could_not_post_reach_the_channel_once(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path, fault: str
) -> None:
    fake = fake_discord
    bot = await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, table = fake.user("alice"), fake.channel("table-1")
    await open_game(fake, table, alice, bots=2)
    mark = fake.mark()
    # The bots' turns follow Alice's answer as a channel post with its nonce; the connection drops
    # under it, before Discord made it or after (then the outbox's post with that nonce finds it).
    fake.faults.add(fault, path=CHANNEL_POSTS)
    await cheap_turn(fake, table, alice)
    told = await fake.wait_for_message(table, lambda m: m.nonce is not None and bool(m.attachments), after=mark)
    assert len(told.attachments) == 2, "the two bots' turns, one picture each, in one message"
    assert told.pinged_user_ids == {alice.id}
    await fake.quiet()
    public = [m for m in fake.public_messages(table) if m.id > mark]
    assert len(public) == 2, "Alice's turn as the interaction's answer, the bots' through the outbox, once each"
    assert bot.store is not None
    for _ in range(200):  # Discord answers the outbox's post with the first copy: no new message to wait for
        if await bot.store.outbox_counts() == {"sent": 3}:
            break
        await asyncio.sleep(0.05)
    assert await bot.store.outbox_counts() == {"sent": 3}, "the start too"
    assert [kind for kind, _, _ in fake.faults.injected] == [fault]


async def test_a_post_whose_answer_was_lost_is_retried_and_discord_keeps_one_copy(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake, time = fake_discord, Time(T0)
    bot = await bot_runner.start(make_bot(tmp_path / "ks.db", clock=time))
    assert bot.scheduler is not None and bot.store is not None
    await bot.scheduler.stop()  # the test ticks it by hand
    alice, bob, table = fake.user("alice"), fake.user("bob"), fake.channel("table-1")
    await open_game(fake, table, alice, guest=bob)
    time.now += 12 * HOUR + 0.25
    mark = fake.mark()
    fake.faults.add("drop-after", path=CHANNEL_POSTS)  # Discord made the reminder; its answer never came
    assert await bot.scheduler.tick() == 0
    assert len([m for m in fake.public_messages(table) if m.id > mark]) == 1
    time.now += FIRST_RETRY + 0.5
    assert await bot.scheduler.tick() == 1, "the retry is accepted"
    reminders = [m for m in fake.public_messages(table) if m.id > mark]
    assert len(reminders) == 1 and reminders[0].content.startswith(f"<@{alice.id}>, a reminder")
    assert [kind for kind, _, _ in fake.faults.injected] == ["drop-after"]


async def test_a_channel_the_bot_may_no_longer_post_in_is_given_up_with_a_reason(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake, time = fake_discord, Time(T0)
    bot = await bot_runner.start(make_bot(tmp_path / "ks.db", clock=time))
    assert bot.scheduler is not None and bot.store is not None
    await bot.scheduler.stop()  # the test ticks it by hand
    alice, bob = fake.user("alice"), fake.user("bob")
    closed, open_table = fake.channel("table-1"), fake.channel("table-2")
    await open_game(fake, closed, alice, guest=bob)
    await open_game(fake, open_table, bob, guest=alice)
    closed.bot_can_send = False
    time.now += 12 * HOUR + 0.5
    mark = fake.mark()
    with caplog.at_level(logging.WARNING):
        assert await bot.scheduler.tick() == 1, "table-2's reminder goes out; table-1's cannot"
    assert "gave up message" in caplog.text and "403" in caplog.text
    assert [m.content.split(",")[0] for m in fake.public_messages(open_table) if m.id > mark] == [f"<@{bob.id}>"]
    counts = await bot.store.outbox_counts()
    assert counts["given up"] == 1 and "waiting" not in counts


async def test_an_answer_discord_took_before_the_connection_dropped_is_not_posted_again(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob, table = fake.user("alice"), fake.user("bob"), fake.channel("table-1")
    await open_game(fake, table, alice, guest=bob)
    assert bot.store is not None
    game = await bot.store.get_active_game(table.id)
    assert game is not None
    first = alice if (await bot.store.load_game(game.id)).state.current == game.seat_of(alice.id) else bob
    cards = await fake.autocomplete(first, table, "take", {"card": ""}, focused="card")
    cells = await fake.autocomplete(first, table, "take", {"card": cards[-1]["value"], "cell": ""}, focused="cell")
    mark = fake.mark()
    fake.faults.add("drop-after", path=CALLBACKS)  # Discord showed the turn; the bot never heard so
    await fake.slash(first, table, "take", {"card": cards[-1]["value"], "cell": cells[0]["value"]})
    assert bot.scheduler is not None
    await bot.scheduler.tick()
    await fake.quiet()
    public = [m for m in fake.public_messages(table) if m.id > mark]
    assert len(public) == 1, [m.content[:60] for m in public]
    [told] = public
    assert told.nonce is None, "shown as the interaction's answer, not posted again in the channel"
    assert [kind for kind, _, _ in fake.faults.injected] == ["drop-after"]
    assert await bot.store.outbox_counts() == {"sent": 2}, "the start and the turn, each marked sent once"
