"""End to end: two people finish a game, then find it in `/keystone history` and watch its replay,
with the real discord.py client against the fake Discord."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from keystone.app import history as words
from tests.discord_helpers import cheap_turn, make_bot, public_of
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.server import FakeDiscord
from tests.render_helpers import frame_count


@pytest.mark.slow
async def test_two_players_finish_a_game_and_find_it_in_history_and_replay(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    channel, lounge = fake.channel("table-1"), fake.channel("general")
    lobby = await fake.slash(alice, channel, "keystone new", {"players": 2})
    await fake.click(bob, lobby.message, label="Join")
    last = public_of(await fake.click(alice, lobby.message, label="Start"))
    assert (await fake.slash(alice, lounge, "keystone history")).content == words.EMPTY
    users = {alice.id: alice, bob.id: bob}
    mover = alice
    offered = await fake.autocomplete(alice, channel, "keystone replay", {"game": ""})
    assert offered == [], "a running game is not offered"
    for _ in range(200):
        if "Final scores" in last.content:
            break
        last = await cheap_turn(fake, channel, mover, last)
        mover = users[next(iter(last.pinged_user_ids))] if last.pinged_user_ids else mover
    else:
        pytest.fail("the game did not end")

    for person in (alice, bob):
        listed = await fake.slash(person, lounge, "keystone history")
        assert listed.is_ephemeral
        lines = listed.content.splitlines()
        assert lines[0] == words.TITLE and len(lines) == 2
        assert f" · <#{channel.id}> · competitive · Alice, Bob · " in lines[1] and " of 2 · game " in lines[1]
    number = lines[1].rsplit("game ", 1)[1]

    choices = await fake.autocomplete(bob, lounge, "keystone replay", {"game": ""})
    assert [c["value"] for c in choices] == [number]
    assert choices[0]["name"].startswith(f"Game {number} · ") and "Alice, Bob" in choices[0]["name"]

    before = len(fake.public_messages(channel))
    shown = await fake.slash(bob, channel, "keystone replay", {"game": number})
    posted = public_of(shown)
    assert posted.content.startswith(f"Game {number} turn by turn (Alice, Bob)")
    [picture] = posted.attachments
    assert picture.filename == f"replay-{number}.gif" and picture.description
    assert frame_count(picture.data) > 10 and Image.open(io.BytesIO(picture.data)).width == 800 and len(picture.data) < 4 * 1024 * 1024
    assert len(fake.public_messages(channel)) == before + 1

    private = await fake.slash(alice, lounge, "keystone replay", {"game": number})
    assert private.is_ephemeral and not fake.public_messages(lounge)
    assert [a.data for m in private.messages for a in m.attachments] == [picture.data]

    stranger = await fake.slash(carol, lounge, "keystone replay", {"game": number})
    assert stranger.is_ephemeral and stranger.content == words.NOT_YOURS.format(number=number)
    watcher = await fake.slash(carol, channel, "keystone replay", {"game": number})
    assert not watcher.is_ephemeral, "the game's own channel saw every turn; anyone there may watch it again"
    assert "`/keystone history`" in (await fake.slash(carol, lounge, "keystone help", {"topic": "more"})).content
