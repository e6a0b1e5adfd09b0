"""Logs a machine can read: with LOG_FORMAT=json every line is one JSON object, lines about a game
name its game, server and channel, and neither the token nor the database password appears, not
even in a traceback. A real game through real discord.py against the fake Discord."""

from __future__ import annotations

import base64
import io
import json
import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

import bot as entry
from keystone.app.logs import FIELDS, Ids, JsonFormatter, about, also, current
from keystone.settings import Settings
from tests.discord_helpers import cheap_turn, make_bot, public_of
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.server import FakeDiscord

TOKEN = base64.b64encode(b"1187654321098765432").decode().rstrip("=") + ".GqZ3xw.Jf8s-Ab_Q9yXl0OpKrT7uVw2nMcEdFgHiZ"
PASSWORD = "Pässwört-ЖЁ-密码-7f3a"
URL = f"postgresql://keystone:{PASSWORD}@db.example:5432/keystone"


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    """The root logger writes JSON lines at DEBUG into a buffer, as `bot.py` would with LOG_FORMAT=json."""
    stream = io.StringIO()
    root = logging.getLogger()
    level = root.level
    handler = entry.configure_logging(logging.DEBUG, TOKEN, stream, PASSWORD, form="json")
    yield stream
    root.removeHandler(handler)
    root.setLevel(level)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The fake Discord taking the realistic token, so it travels in every request the bot makes."""
    made = FakeDiscord(token=TOKEN)
    await made.start()
    yield made
    await made.close()


def test_the_setting_chooses_the_format() -> None:
    assert Settings(_env_file=None).log_format == "text"
    assert Settings(_env_file=None, log_format=" JSON ").log_format == "json"


def test_ids_hold_inside_about_and_end_with_it() -> None:
    also(game=40)  # outside any `about`: nothing
    assert current() == {}
    with about(game=41, channel=1577762949441781764):
        also(guild=1577762949437587458)
        assert current() == {"game": 41, "channel": 1577762949441781764, "guild": 1577762949437587458}
        with about(game=42, guild=None):
            assert current()["game"] == 42 and current()["guild"] == 1577762949437587458
        assert current()["game"] == 41
    assert current() == {}
    record = logging.LogRecord("k", logging.INFO, __file__, 1, "x", None, None)
    with about(game=7):
        Ids().filter(record)
    assert json.loads(JsonFormatter().format(record))["game_id"] == 7


async def test_a_game_logs_json_lines_with_its_ids_and_no_secret(
    fake: FakeDiscord, tmp_path: Path, json_log: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = BotRunner(fake)
    try:
        bot = await runner.start(make_bot(tmp_path / "ks.db"))
        alice, table = fake.user("alice"), fake.channel("table-1")
        lobby = await fake.slash(alice, table, "keystone new", {"opponent": "easy"})
        await fake.click(alice, public_of(lobby), label="Start")
        await fake.quiet()
        await cheap_turn(fake, table, alice)
        store = bot.service.store
        failing = store.get_game

        async def unreachable(game_id: int) -> object:  # the database fails, naming the secrets
            monkeypatch.setattr(store, "get_game", failing)
            raise ConnectionError(f"lost {URL} while the bot (Bot {TOKEN}) read game {game_id}")

        monkeypatch.setattr(store, "get_game", unreachable)
        answer = await fake.slash(alice, table, "endturn")
        assert answer.is_ephemeral and "Sorry" in answer.content, answer.content
        assert runner.take_error_logs(), "the failure was logged"
        await cheap_turn(fake, table, alice)
    finally:
        await runner.close()
    text = json_log.getvalue()
    lines = [json.loads(line) for line in text.splitlines()]  # every line is one JSON object
    assert len(lines) > 20 and all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    assert TOKEN not in text and PASSWORD not in text and entry.REDACTED in text
    [failure] = [line for line in lines if "exception" in line and "ConnectionError" in line["exception"]]
    assert entry.REDACTED in failure["exception"] and failure["level"] == "ERROR"
    game_id = failure["game_id"]
    about_game = [line for line in lines if line.get("game_id") == game_id]
    assert len(about_game) > 1, text[-3000:]
    assert {line.get("channel_id") for line in about_game} == {table.id}
    assert {line.get("guild_id") for line in about_game} == {fake.guild.id}
    assert set(FIELDS.values()) <= set(failure)
