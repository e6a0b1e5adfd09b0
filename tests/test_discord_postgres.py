"""End to end on PostgreSQL: the real bot, with every cog, plays a whole game against the fake Discord
server with its games on a PostgreSQL server, and is restarted in the middle, exactly as on SQLite."""

from __future__ import annotations

import pytest

from keystone.store import Store
from tests.discord_helpers import cheap_turn, make_bot, public_of
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.server import FakeDiscord
from tests.test_discord_game import open_game


@pytest.mark.slow
async def test_a_whole_game_on_postgresql_survives_a_restart(
    fake_discord: FakeDiscord, bot_runner: BotRunner, postgres_url: str
) -> None:
    fake = fake_discord
    first = await bot_runner.start(make_bot(postgres_url))
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    channel = fake.channel("table-1")
    last = public_of(await open_game(fake, channel, alice, bob))
    mover = alice
    for turn in range(200):
        if "Final scores" in last.content:
            break
        if turn == 6:  # the restarted bot reads the running game back from the server
            await bot_runner.stop(first)
            await bot_runner.start(make_bot(postgres_url))
        last = await cheap_turn(fake, channel, mover, last)
        pinged = last.pinged_user_ids
        mover = users[next(iter(pinged))] if pinged else mover
    else:
        pytest.fail("the game did not end")
    assert "wins" in last.content or "share first place" in last.content
    assert any(a.filename == "scores.png" for a in last.attachments)
    async with await Store.open(postgres_url) as store:
        [game] = await store.list_games("finished")
        assert (await store.verify_game(game.id)).record.status == "finished"
        assert {r.game_id for r in await store.player_results(alice.id)} == {game.id}
