"""End to end: two bot processes' worth of shards (two sharded bots, shard 0 and shard 1 of two) on
one fake Discord and one database; each answers and times only the games of its own shards, and
the direct-message game belongs to shard 0."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord

from cogs.bot import ShardedKeystoneBot
from keystone.app.clock import HOUR
from tests.clock_helpers import Time
from tests.discord_helpers import make_bot, public_of
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.server import FakeDiscord


async def test_each_shards_bot_serves_only_its_own_games(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake, time = fake_discord, Time(2_000_000_000.0)
    alice, bob = fake.user("alice"), fake.user("bob")
    guilds = [await fake.add_guild(f"Lodge {shard}", owner=alice, shard=(shard, 2)) for shard in (0, 1)]
    tables = [await fake.add_text_channel(guild, "table") for guild in guilds]
    for guild in guilds:
        await fake.add_member(guild, bob)
    bots = [await bot_runner.start(make_bot(tmp_path / "ks.db", clock=time, keystone_shard_count=2,
                                            keystone_shards=str(shard)))
            for shard in (0, 1)]
    assert all(isinstance(bot, ShardedKeystoneBot) for bot in bots)
    assert [[g.id for g in bot.guilds if g.id in (guilds[0].id, guilds[1].id)] for bot in bots] == \
        [[guilds[0].id], [guilds[1].id]], "each shard receives only its own server"
    assert len(fake.command_syncs) == 1, "only the bot holding shard 0 syncs the commands"
    answered: list[list[int]] = [[], []]
    for bot, channels in zip(bots, answered, strict=True):
        async def seen(interaction: discord.Interaction[Any], channels: list[int] = channels) -> None:
            channels.append(interaction.channel_id or 0)
        bot.add_listener(seen, "on_interaction")

    for table in tables:
        lobby = await fake.slash(alice, table, "keystone new", {"players": 2, "pace": "daily"})
        await fake.click(bob, lobby.message, label="Join")
        await fake.click(alice, lobby.message, label="Start")
    dm = fake.dm_channel(alice)
    solo = await fake.slash(alice, dm, "keystone new")
    assert any(a.filename == "field.png" for a in public_of(solo).attachments)
    await fake.quiet()
    assert answered == [[tables[0].id] * 3 + [dm.id], [tables[1].id] * 3], "each game's clicks reach its own shard"
    running = [await bots[1].service.store.get_active_game(table.id) for table in tables]
    assert [game.status if game else None for game in running] == ["active", "active"]

    time.now += 12 * HOUR
    mark = fake.mark()
    schedulers = [bot.scheduler for bot in bots if bot.scheduler is not None]
    assert [await scheduler.tick() for scheduler in schedulers] == [1, 1], "each reminds in its own server"
    assert [await scheduler.tick() for scheduler in schedulers] == [0, 0]
    for table in tables:
        reminders = [m for m in fake.public_messages(table) if m.id > mark and "a reminder" in m.content]
        assert len(reminders) == 1, "each game is reminded once"
