"""A graceful stop, with a real `python bot.py` process and a game in flight against the fake
Discord: on SIGTERM the move being answered is finished and its bot turn posted, a new interaction
hears that the bot is restarting, the process exits 0 well within 10 s, and the game goes on after
the restart; while a stop waits on Discord, a second signal ends the process at once."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

from keystone.app.language import client_words
from tests.discord_helpers import cheap_turn, public_of
from tests.fakediscord.server import FakeDiscord
from tests.stop_helpers import bot_py, take

CHANNEL_POSTS = r"/channels/\d+/messages"


async def test_sigterm_finishes_the_move_in_flight_and_exits_0_and_a_second_signal_at_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice, table = fake.user("alice"), fake.channel("table-1")
    async with bot_py(fake, tmp_path / "ks.db") as bot:
        lobby = await fake.slash(alice, table, "keystone new", {"opponent": "easy", "pace": "live"})
        await fake.click(alice, public_of(lobby), label="Start")
        await fake.quiet()
        before = len(fake.public_messages(table))
        fake.faults.add("500", path=CHANNEL_POSTS)  # the bot's turn waits a second on Discord, then goes
        await take(fake, table, alice)
        await fake.wait_for(lambda: fake.faults.injected)
        os.kill(bot.proc.pid, signal.SIGTERM)
        signalled = time.monotonic()
        await bot.until("SIGTERM received")
        refused = await fake.slash(alice, table, "keystone board")
        assert refused.is_ephemeral and refused.content == client_words("en-US", "ops.restarting")
        assert await bot.exit_code(timeout=15) == 0
        took = time.monotonic() - signalled
    assert took < 10, f"the stop took {took:.1f} s"
    told, answered = fake.public_messages(table)[before:]  # the move, and the bot's turn after it
    assert told.content.startswith("Alice took") and told.attachments
    assert "(easy) took" in answered.content and answered.attachments and answered.nonce
    said = [str(line["message"]) for line in bot.lines]
    assert "stopping: taking no new interactions, finishing 1 in flight" in said, said
    assert any(words.startswith("stopped in") for words in said) and fake.token not in json.dumps(bot.lines)
    assert fake.token not in json.dumps(bot.lines) and any("stopped in" in str(x["message"]) for x in bot.lines)

    async with bot_py(fake, tmp_path / "ks.db") as again:  # the game goes on after the restart
        await cheap_turn(fake, table, alice)
        fake.faults.add("500", path=CHANNEL_POSTS, times=5)  # a stop that would wait on Discord for 25 s
        taken = await take(fake, table, alice, wait=True)
        if any(c.get("label") == "End turn" for c in taken.message.actionable()):  # a Wild card was on offer
            await fake.click(alice, taken.message, label="End turn", wait="ack")
        await fake.wait_for(lambda: len(fake.faults.injected) > 1)
        os.kill(again.proc.pid, signal.SIGTERM)
        await again.until("SIGTERM received")
        signalled = time.monotonic()
        os.kill(again.proc.pid, signal.SIGINT)
        assert await again.exit_code(timeout=5) == 128 + signal.SIGINT
        assert time.monotonic() - signalled < 2
    assert [m.nonce for m in fake.public_messages(table)].count(answered.nonce) == 1, "posted once, never again"
