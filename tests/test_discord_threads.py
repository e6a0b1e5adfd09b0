"""End to end: `/keystone new thread:True` opens a game in its own public thread of the channel, so one
channel hosts many games; the thread is the game's place like a channel, and is archived when the
game ends. With real discord.py against the fake Discord."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from keystone.app import threads
from tests.discord_helpers import cheap_turn, make_bot, public_of
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.models import FakeChannel, FakeMessage, FakeUser
from tests.fakediscord.server import FakeDiscord

JUMP = re.compile(r"\[jump\]\(https://discord\.com/channels/(?P<where>@me|\d+)/(?P<channel>\d+)\)")


async def open_thread_game(fake: FakeDiscord, host: FakeUser, channel: FakeChannel,
                           options: dict[str, object] | None = None) -> tuple[FakeChannel, FakeMessage]:
    """`/keystone new thread:True` in `channel`: the new thread and its lobby message."""
    before = set(fake.threads(channel))
    answer = await fake.slash(host, channel, "keystone new", {"thread": True, **(options or {})})
    [thread] = [t for t in fake.threads(channel) if t not in before]
    assert public_of(answer).content == threads.opened_line(host.global_name or host.name, thread.id)
    assert public_of(answer).channel is channel
    lobby = await fake.wait_for_message(thread, lambda m: "Join" in str(m.components))
    return thread, lobby


@pytest.mark.slow
async def test_a_thread_game_is_played_to_the_score_sheet_and_the_thread_archived(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob = fake.user("alice"), fake.user("bob")
    general = fake.channel("general")
    thread, lobby = await open_thread_game(fake, alice, general)
    assert (thread.type, thread.name, thread.auto_archive_duration) == (11, "Keystone: Alice's game", 10080)
    assert lobby.content.startswith("Alice opened a lobby for 2 players")
    await fake.click(bob, lobby, label="Join")
    await fake.click(alice, lobby, label="Start")
    users = {alice.id: alice, bob.id: bob}
    last = fake.public_messages(thread)[-1]
    mover = alice
    for _ in range(200):
        if any("Final scores" in m.content for m in fake.public_messages(thread)):
            break
        last = await cheap_turn(fake, thread, mover, last)
        pinged = last.pinged_user_ids
        mover = users[next(iter(pinged))] if pinged else mover
    else:
        pytest.fail("the game did not end")
    await fake.wait_for(lambda: thread.archived or None, what="the finished game's thread to be archived")
    final, closing = fake.public_messages(thread)[-2:]
    assert "Final scores" in final.content and [a.filename for a in final.attachments] == ["scores.png"]
    assert closing.content == threads.CLOSING
    assert [m.type for m in fake.public_messages(general)] == [18, 20], "the channel holds only the pointers"
    again = await fake.slash(bob, general, "keystone new")
    assert not again.is_ephemeral, "the channel itself stayed free all along"


async def test_two_games_at_once_in_two_threads_of_one_channel(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob, carol, dave = (fake.user(n) for n in ("alice", "bob", "carol", "dave"))
    general = fake.channel("general")
    first, first_lobby = await open_thread_game(fake, alice, general)
    second, second_lobby = await open_thread_game(fake, carol, general, {"opponent": "easy"})
    assert first.id != second.id and second.name == "Keystone: Carol's game"
    await fake.click(bob, first_lobby, label="Join")
    await fake.click(alice, first_lobby, label="Start")
    await fake.slash(carol, second, "keystone start")
    await fake.quiet()

    wrong = await fake.slash(alice, second, "endturn")
    assert wrong.is_ephemeral and "not playing in this game" in wrong.content
    told = await cheap_turn(fake, first, alice)
    assert told.channel is first and f"<@{bob.id}>" in told.content
    cards = await fake.autocomplete(carol, second, "take", {"card": ""}, focused="card")
    assert cards, "autocomplete answers for the thread's own game"
    mine = await cheap_turn(fake, second, carol)
    assert mine.channel is second
    assert not [m for m in fake.public_messages(general) if m.type not in (18, 20)], "nothing spills into the channel"
    watched = await fake.slash(dave, first, "keystone board", {"seat": "1"})
    assert watched.is_ephemeral and "Alice" in watched.content


async def test_a_thread_is_refused_in_a_dm_inside_a_thread_and_without_permission(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice = fake.user("alice")
    general, table = fake.channel("general"), fake.channel("table-1")

    in_dm = await fake.slash(alice, fake.dm_channel(alice), "keystone new", {"thread": True})
    assert in_dm.is_ephemeral and in_dm.content == threads.NOT_IN_DM
    thread, _ = await open_thread_game(fake, alice, general)
    inside = await fake.slash(alice, thread, "keystone new", {"thread": True})
    assert inside.is_ephemeral and inside.content == threads.NOT_IN_THREAD

    table.bot_can_create_threads = False
    barred = await fake.slash(alice, table, "keystone new", {"thread": True})
    assert barred.is_ephemeral and barred.content == threads.missing_permissions(
        [threads.CREATE_PUBLIC_THREADS, threads.SEND_MESSAGES_IN_THREADS])
    assert "**Create Public Threads** and **Send Messages in Threads**" in barred.content

    bad = await fake.slash(alice, general, "keystone new", {"thread": True, "mode": "coop", "players": 3})
    assert bad.is_ephemeral and bad.content == "Co-op is played by two partners sharing one board."
    fake.guild.thread_limit = 1
    full = await fake.slash(alice, general, "keystone new", {"thread": True})
    assert full.is_ephemeral and full.content == threads.REFUSED

    assert fake.threads(general) == [thread] and fake.threads(table) == []
    assert all(m.is_ephemeral for m in fake.messages(table))
    here = await fake.slash(alice, table, "keystone new")
    assert not here.is_ephemeral, "without `thread` the channel itself still takes a game"


async def test_games_lists_two_channels_a_thread_and_a_dm_with_working_jump_links(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob = fake.user("alice"), fake.user("bob")
    general, table1, table2 = fake.channel("general"), fake.channel("table-1"), fake.channel("table-2")
    await fake.slash(alice, table1, "keystone new")
    await fake.slash(bob, table2, "keystone new", {"players": 3})
    await fake.slash(alice, table2, "keystone join")
    thread, lobby = await open_thread_game(fake, bob, general)
    await fake.click(alice, lobby, label="Join")
    await fake.click(bob, lobby, label="Start")
    dm = fake.dm_channel(alice)
    await fake.slash(alice, dm, "keystone new")
    await fake.quiet()

    listed = await fake.slash(alice, general, "keystone games")
    assert listed.is_ephemeral and listed.content.startswith("**Your games** (4; your turn in 1):")
    lines = listed.content.splitlines()[1:]
    places: list[FakeChannel] = []
    for line in lines:
        link = JUMP.search(line)
        assert link is not None, line
        place = fake.channels[int(link["channel"])]
        assert link["where"] == ("@me" if place.is_dm else str(fake.guild.id))
        assert any(m.author is fake.bot_user and not m.is_ephemeral for m in fake.messages(place)), \
            "the link leads to where the game is posted"
        places.append(place)
    assert places == [dm, thread, table2, table1]
    assert lines[1].startswith(f"\u2022 <#{thread.id}> · Bob, Alice · Bob to play · round 1")


async def test_abandoning_a_thread_game_or_emptying_its_lobby_archives_the_thread(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob = fake.user("alice"), fake.user("bob")
    general = fake.channel("general")
    running, lobby = await open_thread_game(fake, alice, general)
    await fake.click(bob, lobby, label="Join")
    await fake.click(alice, lobby, label="Start")
    assert not running.archived
    gone = await fake.slash(alice, running, "keystone abandon")
    assert "abandoned the game" in public_of(gone).content
    await fake.wait_for(lambda: running.archived or None, what="the abandoned game's thread to be archived")
    assert fake.public_messages(running)[-1].content == threads.CLOSING

    empty, lobby = await open_thread_game(fake, bob, general)
    await fake.click(bob, lobby, label="Leave")
    await fake.wait_for(lambda: empty.archived or None, what="the empty lobby's thread to be archived")
    assert "the lobby is closed" in lobby.content and not empty.locked
