"""The fake Discord fails like Discord (refusals, 5xx, rate limits, lost connections, nonces), and the
real discord.py client reacts to each failure as it would in production."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import aiohttp
import discord
import pytest

from tests.fakediscord import FakeChannel, FakeDiscord
from tests.fakediscord.faults import Faults, Injected
from tests.fakediscord.fixtures import BotRunner, quick_retries

GREETING = "Zoë räumt die Brücke 🌉 auf"


@pytest.fixture
async def bot(bot_runner: BotRunner) -> discord.Client:
    return await bot_runner.start(discord.Client(intents=discord.Intents.default()))


def text_channel(bot: discord.Client, channel: FakeChannel) -> discord.TextChannel:
    found = bot.get_channel(channel.id)
    assert isinstance(found, discord.TextChannel)
    return found


async def bot_sees(predicate: Callable[[], object]) -> None:
    """Poll the bot's own state (fake.wait_for wakes only when the bot calls the fake)."""
    async with asyncio.timeout(2):
        while not predicate():
            await asyncio.sleep(0.005)


def posts_to(fake: FakeDiscord, channel: FakeChannel) -> int:
    return fake.requests.count(("POST", f"/channels/{channel.id}/messages"))


def message_creates(fake: FakeDiscord, message_id: int) -> int:
    session = fake.active_session()
    assert session is not None
    return sum(f["t"] == "MESSAGE_CREATE" and f["d"]["id"] == str(message_id) for f in session.sent)


@pytest.mark.parametrize(("kind", "error", "code", "text"), [
    ("403", discord.Forbidden, 50013, "Missing Permissions"),
    ("404", discord.NotFound, 10003, "Unknown Channel"),
])
async def test_a_refusal_reaches_the_caller_at_once_and_only_the_next_send(
        fake_discord: FakeDiscord, bot: discord.Client, kind: str, error: type[discord.HTTPException],
        code: int, text: str) -> None:
    fake, general = fake_discord, fake_discord.channel("general")
    fake.faults.add(kind)
    with quick_retries() as pauses, pytest.raises(error) as refused:
        await text_channel(bot, general).send(GREETING)
    assert (refused.value.status, refused.value.code, refused.value.text) == (int(kind), code, text)
    assert pauses == [] and posts_to(fake, general) == 1 and fake.messages(general) == []
    assert fake.faults.injected == [Injected(kind, "POST", f"/channels/{general.id}/messages")]

    sent = await text_channel(bot, general).send(GREETING)
    assert [m.id for m in fake.messages(general)] == [sent.id] and fake.faults.pending == 0


@pytest.mark.parametrize("kind", ["500", "502"])
async def test_a_single_500_or_502_is_retried_by_discord_py_after_one_second(
        fake_discord: FakeDiscord, bot: discord.Client, kind: str) -> None:
    fake, general = fake_discord, fake_discord.channel("general")
    fake.faults.add(kind)
    with quick_retries() as pauses:
        sent = await text_channel(bot, general).send(GREETING)
    assert pauses == [1] and posts_to(fake, general) == 2
    [stored] = fake.messages(general)
    assert stored.id == sent.id and stored.content == GREETING


@pytest.mark.parametrize(("kind", "body"), [("500", "500: Internal Server Error"), ("502", "502 Bad Gateway")])
async def test_a_lasting_500_or_502_fails_after_five_tries(fake_discord: FakeDiscord, bot: discord.Client,
                                                           kind: str, body: str) -> None:
    fake, general = fake_discord, fake_discord.channel("general")
    fake.faults.add(kind, times=5)
    with quick_retries() as pauses, pytest.raises(discord.DiscordServerError) as failed:
        await text_channel(bot, general).send(GREETING)
    assert failed.value.status == int(kind) and body in str(failed.value)
    assert pauses == [1, 3, 5, 7, 9], "discord.py waits 1 + 2 * try seconds, even after the last"
    assert posts_to(fake, general) == 5 and fake.messages(general) == [] and fake.faults.pending == 0


async def test_a_503_is_not_retried(fake_discord: FakeDiscord, bot: discord.Client) -> None:
    fake, general = fake_discord, fake_discord.channel("general")
    fake.faults.add("503")
    with quick_retries() as pauses, pytest.raises(discord.DiscordServerError) as failed:
        await text_channel(bot, general).send(GREETING)
    assert failed.value.status == 503 and "upstream connect error" in failed.value.text
    assert pauses == [] and posts_to(fake, general) == 1 and fake.messages(general) == []


async def test_discord_py_waits_out_a_rate_limit_and_then_sends(fake_discord: FakeDiscord, bot: discord.Client,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    fake, general = fake_discord, fake_discord.channel("general")
    fake.faults.retry_after = 0.15
    fake.faults.add("429")
    loop = asyncio.get_running_loop()
    started = loop.time()
    with caplog.at_level(logging.WARNING, logger="discord.http"):
        sent = await text_channel(bot, general).send(GREETING)
    assert loop.time() - started >= 0.15
    assert [m.id for m in fake.messages(general)] == [sent.id] and posts_to(fake, general) == 2
    assert "responded with 429. Retrying in 0.15 seconds" in caplog.text


async def test_five_rate_limits_in_a_row_fail_with_http_exception(fake_discord: FakeDiscord,
                                                                  bot: discord.Client) -> None:
    fake, general = fake_discord, fake_discord.channel("table-1")
    fake.faults.retry_after = 0.05
    fake.faults.add("429", times=5)
    with quick_retries(scale=1.0) as pauses, pytest.raises(discord.HTTPException) as failed:
        await text_channel(bot, general).send(GREETING)
    assert type(failed.value) is discord.HTTPException and failed.value.status == 429
    assert pauses == [0.05] * 5 and posts_to(fake, general) == 5 and fake.messages(general) == []


async def test_a_rate_limit_longer_than_max_ratelimit_timeout_raises_rate_limited(
        fake_discord: FakeDiscord, bot: discord.Client) -> None:
    fake, general = fake_discord, fake_discord.channel("general")
    bot.http.max_ratelimit_timeout = 30.0  # discord.Client(max_ratelimit_timeout=...) allows 30 s at least
    fake.faults.retry_after = 45.0
    fake.faults.add("429")
    with quick_retries() as pauses, pytest.raises(discord.RateLimited) as limited:
        await text_channel(bot, general).send(GREETING)
    assert limited.value.retry_after == 45.0 and pauses == [] and fake.messages(general) == []


async def test_a_429_carries_what_discord_sends(fake_discord: FakeDiscord) -> None:
    fake, general = fake_discord, fake_discord.channel("general")
    fake.faults.add("429")
    url = f"{fake.base_url}/channels/{general.id}/messages"
    async with aiohttp.ClientSession() as http, http.post(
            url, json={"content": GREETING}, headers={"Authorization": f"Bot {fake.token}"}) as resp:
        body = await resp.json()
    assert resp.status == 429 and resp.headers["Content-Type"] == "application/json"
    assert body == {"message": "You are being rate limited.", "retry_after": 0.2, "global": False}
    assert resp.headers["Via"] == "1.1 google" and resp.headers["X-RateLimit-Scope"] == "user"
    assert resp.headers["X-RateLimit-Remaining"] == "0" and resp.headers["Retry-After"] == "1"
    assert float(resp.headers["X-RateLimit-Reset-After"]) == 0.2 and float(resp.headers["X-RateLimit-Reset"]) > 0
    assert len(resp.headers["X-RateLimit-Bucket"]) == 32 and int(resp.headers["X-RateLimit-Limit"]) > 0
    assert fake.messages(general) == []


async def test_a_dropped_connection_closes_without_an_answer(fake_discord: FakeDiscord) -> None:
    fake, general = fake_discord, fake_discord.channel("general")
    fake.faults.add("drop")
    fake.faults.add("drop-after")
    url = f"{fake.base_url}/channels/{general.id}/messages"
    auth = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession() as http:
        for _ in range(2):
            with pytest.raises(aiohttp.ServerDisconnectedError):
                await http.post(url, json={"content": GREETING}, headers=auth)
        async with http.post(url, json={"content": "dritter Versuch 🎯"}, headers=auth) as resp:
            assert resp.status == 200
    assert [m.content for m in fake.messages(general)] == [GREETING, "dritter Versuch 🎯"], \
        "a drop creates nothing; a drop-after creates the message"
    assert [f.kind for f in fake.faults.injected] == ["drop", "drop-after"]


async def test_discord_py_does_not_retry_a_dropped_post(fake_discord: FakeDiscord, bot: discord.Client) -> None:
    fake, general = fake_discord, fake_discord.channel("general")
    fake.faults.add("drop")
    with quick_retries() as pauses, pytest.raises(aiohttp.ServerDisconnectedError):
        await text_channel(bot, general).send(GREETING)
    assert pauses == [] and posts_to(fake, general) == 1 and fake.messages(general) == []
    sent = await text_channel(bot, general).send(GREETING)
    assert [m.id for m in fake.messages(general)] == [sent.id]


async def test_aiohttp_itself_retries_a_dropped_get_once(fake_discord: FakeDiscord, bot: discord.Client) -> None:
    fake, general = fake_discord, fake_discord.channel("general")
    sent = await text_channel(bot, general).send(GREETING)
    path = rf"/channels/{general.id}/messages/\d+"
    fake.faults.add("drop", method="GET", path=path)
    fetched = await text_channel(bot, general).fetch_message(sent.id)
    assert fetched.content == GREETING and len(fake.faults.injected) == 1
    fake.faults.add("drop", method="GET", path=path, times=2)
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await text_channel(bot, general).fetch_message(sent.id)
    assert fake.requests.count(("GET", f"/channels/{general.id}/messages/{sent.id}")) == 4


async def test_a_retry_after_drop_after_with_the_same_nonce_returns_the_same_message(
        fake_discord: FakeDiscord, bot: discord.Client) -> None:
    fake, general = fake_discord, fake_discord.channel("general")
    fake.faults.add("drop-after")
    nonce = "zug-7-zoë-🌉"
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await text_channel(bot, general).send(GREETING, nonce=nonce)
    [stored] = fake.messages(general)
    assert stored.nonce == nonce
    await bot_sees(lambda: any(m.id == stored.id for m in bot.cached_messages))  # its MESSAGE_CREATE

    again = await text_channel(bot, general).send(GREETING, nonce=nonce)
    assert again.id == stored.id and again.nonce == nonce
    assert fake.messages(general) == [stored] and posts_to(fake, general) == 2
    await fake.quiet()
    assert message_creates(fake, stored.id) == 1


async def test_a_retry_after_drop_after_without_our_nonce_posts_twice(fake_discord: FakeDiscord,
                                                                       bot: discord.Client) -> None:
    fake, general = fake_discord, fake_discord.channel("general")
    fake.faults.add("drop-after")
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await text_channel(bot, general).send(GREETING)  # discord.py picks a random nonce each call
    again = await text_channel(bot, general).send(GREETING)
    first, second = fake.messages(general)
    assert second.id == again.id != first.id and first.nonce != second.nonce


async def test_a_nonce_is_remembered_per_channel_for_a_while(fake_discord: FakeDiscord,
                                                             bot: discord.Client) -> None:
    fake, general = fake_discord, fake_discord.channel("general")
    table = await fake.add_text_channel(fake.guild, "tisch-für-zwei")
    await bot_sees(lambda: bot.get_channel(table.id))
    first = await text_channel(bot, general).send("eins", nonce=1234567890123456789)
    repeated = await text_channel(bot, general).send("zwei", nonce=1234567890123456789)
    elsewhere = await text_channel(bot, table).send("drei", nonce=1234567890123456789)
    assert repeated.id == first.id and repeated.content == "eins" and elsewhere.id != first.id
    fake.nonce_window = 0.05
    await asyncio.sleep(0.06)
    later = await text_channel(bot, general).send("vier", nonce=1234567890123456789)
    assert later.id != first.id
    assert [m.content for m in fake.messages(general)] == ["eins", "vier"]


async def test_a_nonce_of_a_deleted_message_is_not_found(fake_discord: FakeDiscord, bot: discord.Client) -> None:
    fake, general = fake_discord, fake_discord.channel("general")
    sent = await text_channel(bot, general).send(GREETING, nonce="weg")
    await sent.delete()
    with pytest.raises(discord.NotFound) as gone:
        await text_channel(bot, general).send(GREETING, nonce="weg")
    assert gone.value.code == 10008 and fake.public_messages(general) == []


async def test_a_nonce_over_25_characters_is_an_invalid_form_body(fake_discord: FakeDiscord,
                                                                  bot: discord.Client) -> None:
    fake, general = fake_discord, fake_discord.channel("general")
    ok = await text_channel(bot, general).send(GREETING, nonce="ä" * 25)
    with pytest.raises(discord.HTTPException) as refused:
        await text_channel(bot, general).send(GREETING, nonce="ä" * 26)
    assert refused.value.status == 400 and refused.value.code == 50035
    assert [m.id for m in fake.messages(general)] == [ok.id]
    [(route, problems)] = fake.rejections
    assert route == f"POST /channels/{general.id}/messages" and "nonce" in problems[0]


async def test_faults_pick_their_requests_by_method_and_path(fake_discord: FakeDiscord,
                                                             bot: discord.Client) -> None:
    fake, general, table = fake_discord, fake_discord.channel("general"), fake_discord.channel("table-2")
    fake.faults.add("404", path=rf"/channels/{table.id}/messages", times=2)
    sent = await text_channel(bot, general).send(GREETING)
    assert (await text_channel(bot, general).fetch_message(sent.id)).id == sent.id
    with pytest.raises(discord.NotFound):
        await text_channel(bot, table).send(GREETING)
    assert fake.faults.pending == 1
    fake.faults.clear()
    await text_channel(bot, table).send(GREETING)
    fake.faults.add("403", method=None, path=r".*", times=1)
    with pytest.raises(discord.Forbidden):
        await text_channel(bot, general).fetch_message(sent.id)
    assert [(f.kind, f.method) for f in fake.faults.injected] == [("404", "POST"), ("403", "GET")]
    with pytest.raises(ValueError, match="unknown fault kind"):
        fake.faults.add("418")


async def test_random_faults_repeat_with_their_seed(fake_discord: FakeDiscord, bot: discord.Client) -> None:
    fake, general = fake_discord, fake_discord.channel("general")
    kinds = ("403", "404", "503", "drop")
    fake.faults.random(0.4, kinds=kinds, seed=2024)
    expected: dict[str, type[Exception]] = {"403": discord.Forbidden, "404": discord.NotFound,
                                            "503": discord.DiscordServerError, "drop": aiohttp.ClientError}
    failures: list[type[Exception]] = []
    for n in range(20):
        try:
            await text_channel(bot, general).send(f"Nachricht {n} ✉️")
        except (discord.HTTPException, aiohttp.ClientError) as exc:
            failures.append(type(exc))
    injected = fake.faults.injected
    assert 0 < len(injected) < 20 and len(failures) == len(injected)
    assert all(issubclass(got, expected[f.kind]) for got, f in zip(failures, injected, strict=True))
    assert len(fake.messages(general)) == 20 - len(failures)

    replay = Faults()
    replay.random(0.4, kinds=kinds, seed=2024)
    path = f"/channels/{general.id}/messages"
    assert [k for k in (replay.take("POST", path) for _ in range(20)) if k] == [f.kind for f in injected]
    sample = Faults()
    sample.random(0.25, kinds=kinds, seed=1, method=None, path=".*")
    hits = [sample.take("GET", "/gateway/bot") for _ in range(1000)]
    assert 200 <= sum(h is not None for h in hits) <= 300 and set(hits) == {None, *kinds}
