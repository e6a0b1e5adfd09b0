"""End to end: `/keystone games` lists one's games across channels and a direct message,
with real discord.py against the fake Discord."""

from __future__ import annotations

from pathlib import Path

from keystone.app.listing import EMPTY, NO_SERVER
from tests.discord_helpers import make_bot, public_of
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.server import FakeDiscord


async def test_games_lists_my_games_everywhere_and_the_servers_games(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    general, table1, table2 = fake.channel("general"), fake.channel("table-1"), fake.channel("table-2")
    server = fake.guild.id
    lobby = await fake.slash(alice, table1, "keystone new", {"players": 2})
    await fake.click(bob, lobby.message, label="Join")
    await fake.click(alice, lobby.message, label="Start")
    assert "Seated (1/3)" in public_of(await fake.slash(alice, table2, "keystone new", {"players": 3})).content
    await fake.slash(bob, table2, "keystone join")
    dm = fake.dm_channel(alice)
    assert "The game begins!" in public_of(await fake.slash(alice, dm, "keystone new")).content
    await fake.quiet()

    mine = await fake.slash(alice, general, "keystone games")
    assert mine.is_ephemeral and mine.content.startswith("**Your games** (3; your turn in 2):")
    lines = mine.content.splitlines()[1:]
    assert lines[0].startswith("\u27a4 direct message · Alice · **your turn** · round 1")
    assert lines[0].endswith(f"[jump](https://discord.com/channels/@me/{dm.id})")
    assert lines[1].startswith(f"\u27a4 <#{table1.id}> · Alice, Bob · **your turn** · round 1")
    assert lines[1].endswith(f"[jump](https://discord.com/channels/{server}/{table1.id})")
    assert lines[2] == (f"\u2022 <#{table2.id}> · Alice, Bob · lobby, waiting for 1 more · "
                        f"[jump](https://discord.com/channels/{server}/{table2.id})")

    theirs = (await fake.slash(bob, general, "keystone games")).content.splitlines()
    assert theirs[0] == "**Your games** (2):" and "direct message" not in "\n".join(theirs)
    assert f"<#{table1.id}> · Alice, Bob · Alice to play · round 1" in theirs[2]

    nothing = await fake.slash(carol, general, "keystone games")
    assert nothing.is_ephemeral and nothing.content == EMPTY["mine"]
    listed = await fake.slash(carol, general, "keystone games", {"scope": "server"})
    assert listed.is_ephemeral and listed.content.startswith("**Games in this server** (2):")
    assert [line.split(" · ")[0] for line in listed.content.splitlines()[1:]] == [
        f"\u2022 <#{table2.id}>", f"\u2022 <#{table1.id}>"]

    refused = await fake.slash(alice, dm, "keystone games", {"scope": "server"})
    assert refused.is_ephemeral and refused.content == NO_SERVER
    assert not fake.public_messages(general), "the list is private"
    assert "`/keystone games`" in (await fake.slash(carol, general, "keystone help", {"topic": "more"})).content
