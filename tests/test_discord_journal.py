"""End to end: the Field Journal in a direct message, with real discord.py against the fake Discord."""

from __future__ import annotations

from pathlib import Path

from cogs.bot import KeystoneBot
from keystone.app import Where
from keystone.engine.actions import EndTurn, Take
from tests.discord_helpers import make_bot, public_of, service_of
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.models import FakeChannel, FakeUser
from tests.fakediscord.server import FakeDiscord
from tests.journal_helpers import WINNING_SEED, take_greedy


async def play_assignment(fake: FakeDiscord, bot: KeystoneBot, user: FakeUser, dm: FakeChannel, number: int) -> str:
    """Play to the end with `/take` and `/endturn`, the moves chosen by the greedy taker."""
    service = service_of(bot)
    cache: dict[object, float] = {}
    for _ in range(100):
        found = await service.state_here(Where(channel_id=dm.id))
        assert found is not None
        action = take_greedy(number, found[1], cache)
        mark = fake.mark()
        if isinstance(action, Take):
            _, slot, cell = str(action).split()
            await fake.slash(user, dm, "take", {"card": slot, "cell": cell})
        else:
            assert isinstance(action, EndTurn)
            await fake.slash(user, dm, "endturn")
        await fake.quiet()
        for post in [m for m in fake.public_messages(dm) if m.id > mark]:
            assert len(post.attachments) == 1, "one picture per message"
            if "Assignment 1, First Light:" in post.content:
                return post.content
    raise AssertionError("the assignment did not end")


async def test_journal_list_start_play_and_progress_survives_a_restart(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "ks.db"
    bot = await bot_runner.start(make_bot(db))
    service_of(bot)._seeds = lambda: WINNING_SEED
    alice = fake.user("alice")
    dm = fake.dm_channel(alice)
    listed = await fake.slash(alice, dm, "journal list")
    assert listed.is_ephemeral and "Recommended next: assignment 1, First Light" in listed.content
    assert "` 1` First Light: \u2606\u2606\u2606 \u2190 recommended next" in listed.content
    assert "` 3`" in listed.content and "locked" not in listed.content
    skipped = public_of(await fake.slash(alice, dm, "journal start", {"number": 3}))
    assert "Assignment 3:" in skipped.content and "**Goals:**" in skipped.content, "any assignment may be played"
    assert "abandoned" in public_of(await fake.slash(alice, dm, "journal abandon")).content
    started = public_of(await fake.slash(alice, dm, "journal start"))
    assert "Assignment 1: First Light" in started.content and "**Goals:**" in started.content
    assert any(a.filename == "field.png" for a in started.attachments)
    status = await fake.slash(alice, dm, "journal status")
    assert status.is_ephemeral and "in progress" in status.content
    verdict = await play_assignment(fake, bot, alice, dm, 1)
    assert "complete with one star" in verdict and "Next recommended: assignment 2" in verdict
    await bot_runner.stop(bot)
    await bot_runner.start(make_bot(db))
    again = await fake.slash(alice, dm, "journal list")
    assert "` 1` First Light: \u2605\u2606\u2606" in again.content and "` 3`" in again.content
    line2 = next(line for line in again.content.splitlines() if line.startswith("` 2`"))
    assert line2.endswith("recommended next")
    second = public_of(await fake.slash(alice, dm, "journal start"))
    assert "Assignment 2:" in second.content
    stopped = await fake.slash(alice, dm, "journal abandon")
    assert not stopped.is_ephemeral and "abandoned" in stopped.content


async def test_journal_commands_without_an_assignment_are_refused(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    bob = fake.user("bob")
    dm = fake.dm_channel(bob)
    for command in ("journal status", "journal abandon"):
        refused = await fake.slash(bob, dm, command)
        assert refused.is_ephemeral and "no game" in refused.content
    envelope = await fake.slash(bob, dm, "keystone new", {"envelope": True})
    assert envelope.is_ephemeral and "sealed envelope" in envelope.content
    assert not fake.public_messages(dm)
