"""End to end: turn clocks through the real discord.py client and the fake Discord, time moved by
hand: the half-way reminder in the channel and by direct message, and a turn run out played by a bot."""

from __future__ import annotations

from pathlib import Path

from keystone.app.clock import HOUR
from tests.clock_helpers import T0, Time
from tests.discord_helpers import make_bot, public_of
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.server import FakeDiscord


async def test_a_reminder_and_its_direct_message_arrive_and_a_late_turn_is_played_by_a_bot(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake, time = fake_discord, Time(T0)
    bot = await bot_runner.start(make_bot(tmp_path / "ks.db", clock=time))
    assert bot.scheduler is not None
    alice, bob = fake.user("alice"), fake.user("bob")
    table, general = fake.channel("table-1"), fake.channel("general")
    opted = await fake.slash(alice, general, "keystone notify", {"on": True})
    assert opted.is_ephemeral and "direct message" in opted.content
    lobby = await fake.slash(alice, table, "keystone new", {"players": 2, "pace": "daily"})
    assert "Pace: daily (24 hours a turn)." in public_of(lobby).content
    await fake.click(bob, lobby.message, label="Join")
    await fake.click(alice, lobby.message, label="Start")
    await fake.quiet()

    time.now += 12 * HOUR
    mark = fake.mark()
    assert await bot.scheduler.tick() == 2
    reminder = await fake.wait_for_message(table, lambda m: "a reminder" in m.content, after=mark)
    assert reminder.content.startswith(f"<@{alice.id}>, a reminder: it is still your turn here, 12 hours left.")
    assert reminder.pinged_user_ids == {alice.id}
    assert f"(https://discord.com/channels/{fake.guild.id}/{table.id})" in reminder.content
    dm = await fake.wait_for_message(fake.dm_channel(alice), lambda m: "turn is waiting" in m.content, after=mark)
    assert dm.content.startswith(f"Your Keystone turn is waiting in <#{table.id}>: 12 hours left.")
    assert not [m for m in fake.messages(fake.dm_channel(bob)) if m.id > mark], "Bob did not ask for DMs"
    assert await bot.scheduler.tick() == 0, "nothing is sent twice"

    time.now += 12 * HOUR
    mark = fake.mark()
    assert await bot.scheduler.tick() == 1
    told = await fake.wait_for_message(table, lambda m: "Time ran out" in m.content, after=mark)
    assert told.content.startswith("Time ran out for Alice, so a normal bot played this turn for them.")
    assert told.attachments and told.pinged_user_ids == {bob.id}, "the turn is told with its picture, Bob is next"
    listed = await fake.slash(bob, general, "keystone games")
    assert "**your turn** · round 1 · 24 hours left ·" in listed.content

    early = await fake.slash(alice, table, "keystone away", {"seat": "2"})
    assert early.is_ephemeral and "once half of Bob's time" in early.content

    await fake.slash(bob, general, "keystone notify", {"on": True})
    bob.dms_open = False
    time.now += 12 * HOUR
    mark = fake.mark()
    assert await bot.scheduler.tick() == 1, "the channel's reminder; Discord refuses the direct message"
    await fake.wait_for_message(table, lambda m: m.content.startswith(f"<@{bob.id}>, a reminder"), after=mark)
    assert bot.store is not None and (await bot.store.outbox_counts())["given up"] == 1
    await fake.quiet()  # the direct message is refused by Discord: a warning, not a failure
    voted = await fake.slash(alice, table, "keystone away", {"seat": "2"})
    assert public_of(voted).content.startswith("The others voted, so a normal bot plays Bob's seat")
    await fake.quiet()
    assert fake.public_messages(table)[-1].pinged_user_ids == {alice.id}, "the bot played Bob's turn at once"
    paused = await fake.slash(alice, table, "keystone clock pause")
    assert public_of(paused).content.startswith("Alice paused the clock")
