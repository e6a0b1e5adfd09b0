"""End to end through the real discord.py client: two people finish a game, then see it in
`/keystone stats` (private, in the server and in a DM) and `/keystone leaderboard` (public,
refused in a DM)."""

from __future__ import annotations

from pathlib import Path

from tests.discord_helpers import cheap_turn, make_bot, public_of, service_of
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.server import FakeDiscord


async def test_two_players_finish_a_game_and_see_it_in_stats_and_on_the_leaderboard(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    channel = fake.channel("table-1")
    nothing = await fake.slash(alice, channel, "keystone stats")
    assert nothing.is_ephemeral and "You have not finished a game yet." in nothing.content
    empty = await fake.slash(alice, channel, "keystone leaderboard")
    assert empty.is_ephemeral and "Nobody has finished a rated game in this server yet" in empty.content

    lobby = await fake.slash(alice, channel, "keystone new")
    await fake.click(bob, lobby.message, label="Join")
    last = public_of(await fake.click(alice, lobby.message, label="Start"))
    record = await service_of(bot).store.get_active_game(channel.id)
    assert record is not None
    order = {alice.id: alice, bob.id: bob}
    for seat in (0, 1, 0, 1):
        last = await cheap_turn(fake, channel, order[record.seats[seat].user_id or 0], last)
    over = public_of(await fake.slash(alice, channel, "keystone resign"))
    assert "Bob wins" in over.content

    mine = await fake.slash(bob, channel, "keystone stats")
    assert mine.is_ephemeral and "**Your Keystone record**" in mine.content
    assert "Competitive: 1 game, 1 win" in mine.content and "after 1 rated game." in mine.content
    theirs = await fake.slash(carol, channel, "keystone stats", {"user": alice})
    assert theirs.is_ephemeral and "Competitive: 1 game, 0 wins" in theirs.content
    assert "Favourite habitat:" in theirs.content
    in_dm = await fake.slash(alice, fake.dm_channel(alice), "keystone stats")
    assert in_dm.is_ephemeral and "Competitive: 1 game, 0 wins" in in_dm.content

    board = await fake.slash(carol, channel, "keystone leaderboard")
    assert not board.is_ephemeral and board.message.pinged_user_ids == set()
    lines = board.content.splitlines()
    assert lines[1].startswith(f"1. <@{bob.id}>: ") and lines[2].startswith(f"2. <@{alice.id}>: ")
    refused = await fake.slash(alice, fake.dm_channel(alice), "keystone leaderboard")
    assert refused.is_ephemeral and "belongs to a server" in refused.content
