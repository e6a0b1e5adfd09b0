"""End to end: `/learn` in a direct message with real discord.py against the fake Discord: the first
two steps by their buttons, a restart, and the lesson resumed where it stood; in a server channel it
answers privately and opens nothing."""

from __future__ import annotations

from pathlib import Path

from keystone.i18n import tr
from tests.discord_helpers import make_bot, public_of
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.server import FakeDiscord


async def test_learn_by_buttons_then_resumed_after_a_restart(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "ks.db"
    bot = await bot_runner.start(make_bot(db))
    alice = fake.user("alice")
    dm = fake.dm_channel(alice)
    table = fake.channel("table-1")
    elsewhere = await fake.slash(alice, table, "learn")
    assert elsewhere.is_ephemeral and "/learn" in elsewhere.content and not fake.public_messages(table)

    step = public_of(await fake.slash(alice, dm, "learn"))
    assert "**Step 1:**" in step.content and [a.filename for a in step.attachments] == ["turn.png"]
    for number in (2, 3):
        (button,) = step.buttons
        step = public_of(await fake.click(alice, step, button["custom_id"]))
        assert f"**Step {number}:**" in step.content and step.attachments
    pending = step.buttons[0]["custom_id"]

    await bot_runner.stop(bot)
    await bot_runner.start(make_bot(db))
    resumed = public_of(await fake.slash(alice, dm, "learn"))
    assert resumed.content.startswith(tr("en", "learn.resumed")) and "**Step 3:**" in resumed.content
    assert resumed.buttons[0]["custom_id"] == pending
    after = public_of(await fake.click(alice, step, pending))
    assert "**Step 4:**" in after.content
