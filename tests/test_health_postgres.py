"""/healthz when PostgreSQL stops answering: a real server, a real HTTP client. The bot's database is
dropped under it (as a server gone or a database removed looks to the bot): the answer turns 503
with one line that names the cause and never the password, and comes within the health check's
time limit."""

from __future__ import annotations

import time
import uuid

import aiohttp
import discord
import pytest

from cogs import health as health_module
from cogs.health import PING_TIMEOUT, HealthServer
from keystone.app.metrics import Metrics
from keystone.store import Store
from tests.postgres_fixtures import _admin

PASSWORD = "s3cret-Pässwort"


async def test_healthz_says_503_with_the_cause_when_postgresql_stops_answering(
    postgres_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = f"t_{uuid.uuid4().hex}"
    await _admin(postgres_server, f'CREATE DATABASE "{name}"')
    base = postgres_server.rsplit("/", 1)[0].replace("://keystone@", f"://keystone:{PASSWORD}@")
    store = await Store.open(f"{base}/{name}", clock=time.time)
    monkeypatch.setattr(health_module, "gateways", lambda client: {0: True})  # this test is about the database
    async def nothing_to_refresh() -> None:
        return None

    server = HealthServer(discord.Client(intents=discord.Intents.none()), Metrics(), refresh=nothing_to_refresh,
                          ping=store.ping, hidden=PASSWORD)
    port = await server.start("127.0.0.1", 0)
    url = f"http://127.0.0.1:{port}/healthz"
    try:
        async with aiohttp.ClientSession() as session:
            async with session.get(url) as answer:
                assert (answer.status, await answer.text()) == (200, "ok\n")
            await _admin(postgres_server, f'DROP DATABASE "{name}" WITH (FORCE)')
            began = time.monotonic()
            async with session.get(url) as answer:
                status, said = answer.status, await answer.text()
            took = time.monotonic() - began
    finally:
        await server.close()
        await store.close()
    assert status == 503 and said == f'database not answering: database "{name}" does not exist\n', said
    assert PASSWORD not in said and took < PING_TIMEOUT + 1
