"""End to end: co-op on one shared board, bot opponents by level, and resigning to a bot."""

from __future__ import annotations

from pathlib import Path

from keystone.app import Where
from tests.discord_helpers import cheap_turn, make_bot, public_of, service_of
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.models import FakeChannel, FakeMessage, FakeUser
from tests.fakediscord.server import FakeDiscord


def has_button(message: FakeMessage, label: str) -> bool:
    return any(c.get("label") == label for c in message.actionable())



async def open_table(fake: FakeDiscord, channel: FakeChannel, host: FakeUser, guests: list[FakeUser],
                     options: dict[str, object], opened: str = "a lobby") -> FakeMessage:
    lobby = await fake.slash(host, channel, "keystone new", options)
    assert not lobby.is_ephemeral and opened in lobby.content, lobby.content
    for guest in guests:
        await fake.click(guest, lobby.message, label="Join")
    started = public_of(await fake.click(host, lobby.message, label="Start"))
    await fake.quiet()  # the host's private objective follows the public start
    return started


async def test_coop_partners_alternate_on_one_board_and_the_wrong_partner_is_refused(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob = fake.user("alice"), fake.user("bob")
    channel = fake.channel("table-1")
    last = await open_table(fake, channel, alice, [bob], {"mode": "coop"}, "a co-op lobby")
    assert last.pinged_user_ids == {alice.id} and "shared board" in last.content
    partners = [alice, bob]
    for turn in range(4):
        mover, other = partners[turn % 2], partners[(turn + 1) % 2]
        refused = await fake.slash(other, channel, "take", {"card": "6", "cell": "A1"})
        assert refused.is_ephemeral and f"{mover.name} decides this turn".lower() in refused.content.lower()
        last = await cheap_turn(fake, channel, mover, last)
        assert last.pinged_user_ids == {other.id}, "the turn message mentions the next partner"
    found = await service_of(bot).state_here(Where(channel_id=channel.id, guild_id=fake.guild.id))
    assert found is not None
    record, state = found
    assert len(state.seats) == 1 and sum(p is not None for p in state.seats[0].board) == 4
    assert [s.name for s in record.seats] == ["Alice", "Bob"]


async def test_any_coop_assignment_may_be_played_by_exactly_two_partners(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob = fake.user("alice"), fake.user("bob")
    channel = fake.channel("table-2")
    three = await fake.slash(alice, channel, "keystone new", {"mode": "coop", "players": 3})
    assert three.is_ephemeral and "two partners" in three.content
    last = await open_table(fake, channel, alice, [bob], {"mode": "coop", "assignment": 4}, "assignment 4")
    assert "**Assignment 4:" in last.content and "(co-op)" in last.content and "**Goals:**" in last.content


async def test_bot_opponent_of_the_chosen_level_plays_its_turns(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice = fake.user("alice")
    channel = fake.channel("table-1")
    last = await open_table(fake, channel, alice, [], {"opponent": "easy"}, "An easy bot takes a seat")
    assert alice.id in last.pinged_user_ids
    for _ in range(2):
        last = await cheap_turn(fake, channel, alice, last)
        assert "Bot 1 (easy)" in last.content and alice.id in last.pinged_user_ids, "the bot played and handed back"
    record = await service_of(bot).store.get_active_game(channel.id)
    assert record is not None and record.seats[1].bot_level == 0
    log = await fake.slash(alice, channel, "keystone log")
    assert log.content.count("Bot 1 (easy):") >= 2


async def test_resign_in_a_three_player_game_hands_the_seat_to_a_bot(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    channel = fake.channel("table-2")
    last = await open_table(fake, channel, alice, [bob, carol], {"players": 3})
    resigned = public_of(await fake.slash(bob, channel, "keystone resign"))
    assert "Bob resigned" in resigned.content and "bot plays on" in resigned.content
    refused = await fake.slash(bob, channel, "take", {"card": "6", "cell": "A1"})
    assert refused.is_ephemeral and "not playing" in refused.content
    last = await cheap_turn(fake, channel, alice, last)
    assert last.pinged_user_ids == {carol.id}, "the bot took bob's turn and handed on to carol"
    log = await fake.slash(carol, channel, "keystone log")
    assert "Bot for Bob:" in log.content


async def test_the_lobby_select_seats_a_bot_of_the_chosen_level(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob = fake.user("alice"), fake.user("bob")
    channel = fake.channel("table-1")
    lobby = await fake.slash(alice, channel, "keystone new", {"players": 3})
    level_menu = next(c["custom_id"] for c in lobby.message.actionable() if c.get("type") == 3)
    refused = await fake.select(bob, lobby.message, level_menu, ["hard"])
    assert refused.is_ephemeral and "Only the player" in refused.content
    chosen = await fake.select(alice, lobby.message, level_menu, ["hard"])
    assert "A hard bot joined" in chosen.message.content and "Bot 1 (hard)" in chosen.message.content
    record = await service_of(bot).store.get_active_game(channel.id)
    assert record is not None and [s.bot_level for s in record.seats] == [None, 2]
