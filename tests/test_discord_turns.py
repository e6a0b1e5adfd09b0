"""End to end: one public message per turn, alt text on every picture, private steps with pictures."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from tests.discord_helpers import make_bot, play_three_with_a_bot
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.server import FakeDiscord


@pytest.mark.slow
async def test_a_three_player_game_with_a_bot_posts_one_message_and_one_picture_per_turn(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await bot_runner.start(make_bot(tmp_path / "ks.db"))
    channel = fake.channel("table-1")
    tally = await play_three_with_a_bot(fake, bot, channel, seed=0)
    messages, pictures, _ = tally.per_turn()
    assert tally.turns >= 9, tally.summary()
    assert (messages, pictures) == (1.0, 1.0), tally.summary()
    assert all(m.attachments[0].filename == "turn.png" for m in tally.turn_messages)
    assert all(len(m.pinged_user_ids) <= 1 for m in tally.turn_messages)
    assert any("Bot 1" in m.content for m in tally.turn_messages), "the bot's turns are told too"
    assert tally.all_attachments and all(a.description for a in tally.all_attachments)
    assert all(a.description for a in fake.uploads), "private pictures and edits carry alt text too"
    assert tally.draw_pictures >= 1, "a drawing skill shows the drawn cards as a picture"
    sizes = {a.filename: Image.open(io.BytesIO(a.data)).size for a in fake.uploads}
    inline = {name: min(550 / w, 350 / h) for name, (w, h) in sizes.items()}
    assert sizes and min(inline.values()) >= 0.5, f"every picture shows inline at half its size or more: {sizes}"
    assert all(w / h >= 1.45 for w, h in sizes.values()), f"landscape, as Discord's inline box is: {sizes}"
    alice = fake.user("alice")
    seats = await fake.autocomplete(alice, channel, "keystone board", {"seat": ""})
    assert seats == [], "the game is over: no seats to offer"


async def test_any_seat_board_bots_included_is_offered_and_shown(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob = fake.user("alice"), fake.user("bob")
    channel = fake.channel("table-1")
    lobby = await fake.slash(alice, channel, "keystone new", {"players": 3})
    await fake.click(bob, lobby.message, label="Join")
    await fake.click(alice, lobby.message, label="Add bot")
    await fake.click(alice, lobby.message, label="Start")
    seats = await fake.autocomplete(alice, channel, "keystone board", {"seat": ""})
    assert [(s["name"], s["value"]) for s in seats] == [("Alice", "1"), ("Bob", "2"), ("Bot 1 (normal)", "3")]
    shown = await fake.slash(alice, channel, "keystone board", {"seat": "3"})
    assert shown.is_ephemeral and "Bot 1 (normal)'s board" in shown.content
    assert [a.filename for a in shown.message.attachments] == ["board.png"]
    own = await fake.slash(alice, channel, "keystone board")
    assert [a.filename for a in own.message.attachments] == ["board.png", "objective.png"]
    assert all(a.description for a in own.message.attachments)
    unknown = await fake.slash(alice, channel, "keystone board", {"seat": "Zed"})
    assert unknown.is_ephemeral and unknown.content.startswith("There is no seat 'Zed' in this game")
    objective = await fake.slash(bob, channel, "keystone objective")
    assert objective.is_ephemeral and [a.filename for a in objective.message.attachments] == ["objective.png"]
