"""End to end: /metrics and /healthz scraped through a real HTTP client while a game is played on
the fake Discord server, then with the database closed and the gateway gone."""

from __future__ import annotations

from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from tests.discord_helpers import cheap_turn, make_bot, public_of
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.server import FakeDiscord
from tests.test_discord_game import open_game

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


async def scrape(session: aiohttp.ClientSession, url: str) -> Samples:
    async with session.get(url + "/metrics") as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain")
        text = await response.text()
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


async def health(session: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    async with session.get(url + "/healthz") as response:
        return response.status, await response.text()


async def test_metrics_and_health_follow_a_game_the_database_and_the_gateway(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await bot_runner.start(make_bot(tmp_path / "mé trics.db", keystone_metrics_port=0))
    assert bot.health is not None and bot.health.port
    assert bot.metrics is not None
    bot.metrics.refresh_every = 0.0  # the database's counts are read at every scrape
    url = f"http://127.0.0.1:{bot.health.port}"
    alice, bob, carol = [await fake.add_user(name) for name in ("Ålice 🦫", "Борис", "**碳**")]
    channel = fake.channel("table-1")
    async with aiohttp.ClientSession() as session:
        before = await scrape(session, url)
        assert value(before, "keystone_games_running", kind="competitive") == 0
        assert value(before, "keystone_shard_connected", shard="0") == 1

        last = public_of(await open_game(fake, channel, alice, bob))
        users, mover, turns = {alice.id: alice, bob.id: bob}, alice, 3
        for _ in range(turns):
            last = await cheap_turn(fake, channel, mover, last)
            mover = users[next(iter(last.pinged_user_ids), mover.id)]
        refused = await fake.slash(carol, channel, "take", {"card": "6", "cell": "A1"})
        assert refused.is_ephemeral

        after = await scrape(session, url)
        assert value(after, "keystone_interactions_total", command="keystone new", outcome="answered") == 1
        assert value(after, "keystone_interactions_total", command="take", outcome="answered") >= turns
        assert value(after, "keystone_interactions_total", command="take", outcome="refused") == 1
        assert value(after, "keystone_interactions_total", command="ks:lobby", outcome="answered") == 2
        assert value(after, "keystone_answer_seconds_count", command="take") == sum(
            value(after, "keystone_interactions_total", command="take", outcome=o)
            for o in ("answered", "refused", "failed"))
        assert value(after, "keystone_moves_applied_total", kind="competitive") >= turns
        assert value(after, "keystone_games_running", kind="competitive") == 1
        assert value(after, "keystone_picture_seconds_count", picture="turn_file") >= turns
        assert value(after, "keystone_picture_seconds_sum", picture="turn_file") > 0
        assert value(after, "keystone_posts", state="waiting") == 0
        assert value(after, "keystone_database_errors_total", kind="Closed") == 0
        assert await health(session, url) == (200, "ok\n")

        bot_runner.fail_on_error_logs = False  # from here the bot is meant to fail
        assert bot.store is not None
        await bot.store.close()
        status, reason = await health(session, url)
        assert (status, reason) == (503, "database not answering: The game database is closed.\n")
        assert value(await scrape(session, url), "keystone_database_errors_total", kind="Closed") >= 1

        await fake.close()  # the gateway goes away and does not come back
        status, reason = await health(session, url)
        assert (status, reason) == (503, "gateway disconnected\n")
        assert value(await scrape(session, url), "keystone_shard_connected", shard="0") == 0
