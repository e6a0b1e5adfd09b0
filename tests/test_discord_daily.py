"""End to end: the daily challenge asked for in a server channel, played in a direct message, and
the server's board of the day, with real discord.py against the fake Discord."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from cogs.bot import KeystoneBot
from keystone.app import Where
from keystone.app.bots import simple_action
from keystone.app.daily import DMS_CLOSED, seed_for
from keystone.engine.actions import EndTurn, Take
from tests.discord_helpers import make_bot, service_of
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.models import FakeChannel, FakeMessage, FakeUser
from tests.fakediscord.server import FakeDiscord

NOON = datetime(2026, 12, 1, 12, tzinfo=UTC).timestamp()


async def play_daily(fake: FakeDiscord, bot: KeystoneBot, user: FakeUser, dm: FakeChannel) -> FakeMessage:
    """Play the direct message's game to its end with `/take` and `/endturn`; the final message."""
    service = service_of(bot)
    for _ in range(200):
        found = await service.state_here(Where(channel_id=dm.id))
        if found is None:
            break
        action = simple_action(found[1])
        if isinstance(action, Take):
            _, slot, cell = str(action).split()
            result = await fake.slash(user, dm, "take", {"card": slot, "cell": cell})
        else:
            assert isinstance(action, EndTurn), f"a plain game only takes cards and ends turns, not {action}"
            result = await fake.slash(user, dm, "endturn")
        assert not result.is_ephemeral or "Sorry" not in result.content
        await fake.quiet()
    else:
        raise AssertionError("the daily game did not end")
    return next(m for m in reversed(fake.public_messages(dm)) if "Final score" in m.content)


async def test_a_daily_from_a_server_played_in_a_dm_reaches_the_board_without_spoilers(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await bot_runner.start(make_bot(tmp_path / "ks.db", clock=lambda: NOON))
    alice, bob = fake.user("alice"), fake.user("bob")
    general = fake.channel("general")

    asked = await fake.slash(alice, general, "keystone daily")
    await fake.quiet()
    dm = fake.dm_channel(alice)
    assert asked.is_ephemeral and asked.content.startswith("Your daily challenge of 2026-12-01 has begun")
    assert f"https://discord.com/channels/@me/{dm.id}" in asked.content
    assert not fake.public_messages(general), "nothing about the daily is posted in the channel"
    first = fake.public_messages(dm)[0]
    assert "**Daily challenge of 2026-12-01**" in first.content and "Your secret objective" in first.content
    assert {a.filename for a in first.attachments} >= {"field.png"} and first.actionable()

    refused = await fake.slash(bob, general, "keystone daily", {"show": "board"})
    assert refused.is_ephemeral and refused.content.startswith("No spoilers")
    again = await fake.slash(alice, general, "keystone daily")
    await fake.quiet()
    assert "still running in our direct messages" in again.content
    assert "goes on from here" in fake.public_messages(dm)[-1].content
    assert (await fake.slash(alice, general, "keystone daily", {"show": "board"})).content.startswith("Finish")

    final = await play_daily(fake, bot, alice, dm)
    assert "result for the daily challenge of 2026-12-01 is saved" in final.content
    mine = await service_of(bot).store.daily_game("2026-12-01", alice.id)
    assert mine is not None and mine.score is not None
    board = await fake.slash(alice, general, "keystone daily", {"show": "board"})
    assert board.is_ephemeral and f"1. **{mine.name}**: {mine.score} points" in board.content

    await fake.slash(bob, general, "keystone daily")
    await fake.quiet()
    assert "**Daily challenge of 2026-12-01**" in fake.public_messages(fake.dm_channel(bob))[0].content
    still = await fake.slash(bob, general, "keystone daily", {"show": "board"})
    assert still.is_ephemeral and still.content.startswith("Finish your daily challenge of 2026-12-01 first")
    done = await fake.slash(alice, fake.dm_channel(alice), "keystone daily")
    assert done.is_ephemeral and f"you scored {mine.score} points" in done.content
    await play_daily(fake, bot, bob, fake.dm_channel(bob))
    theirs = await service_of(bot).store.daily_game("2026-12-01", bob.id)
    assert theirs is not None and theirs.score is not None
    both = await fake.slash(bob, general, "keystone daily", {"show": "board"})
    assert both.is_ephemeral and f"{mine.name}: {mine.score} points" in both.content
    assert f"**{theirs.name}**: {theirs.score} points" in both.content, "after finishing, the board opens"

    secret = await service_of(bot).store.daily_secret()
    seen = "\n".join(m.content for m in fake.all_messages.values())
    assert secret.hex() not in seen and str(seed_for(secret, "2026-12-01")) not in seen


async def test_closed_direct_messages_are_said_politely_and_the_game_waits(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db", clock=lambda: NOON))
    carol = fake.user("carol")
    carol.dms_open = False
    asked = await fake.slash(carol, fake.channel("general"), "keystone daily")
    assert asked.is_ephemeral and asked.content == DMS_CLOSED
    dm = fake.dm_channel(carol)
    assert not fake.public_messages(dm)
    resumed = await fake.slash(carol, dm, "keystone daily")
    assert not resumed.is_ephemeral and "goes on from here" in resumed.content, "asked in the DM, it answers there"
