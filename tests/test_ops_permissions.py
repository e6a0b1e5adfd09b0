"""The bot's permissions, in one list: `python bot.py --invite` asks for exactly them, the check at
start-up and on joining a server warns where a channel lacks one (real discord.py against the fake
Discord), and the README names exactly them."""

from __future__ import annotations

import asyncio
import base64
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import discord
import pytest

import bot as entry
from cogs.bot import create_bot
from cogs.permissions import PERMISSIONS, application_id, invite_url
from keystone.app.permissions import NEEDED, SCOPES, labels
from keystone.settings import Settings
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.models import (
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
)
from tests.fakediscord.server import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent
APP_ID = 1187654321098765432
TOKEN = base64.b64encode(str(APP_ID).encode()).decode().rstrip("=") + ".GqZ3xw.Jf8s-Ab_Q9yXl0OpKrT7uVw2nMcEdFgHiZ"
BOLD = re.compile(r"\*\*([^*]+)\*\*")


def test_the_token_names_its_application_without_asking_discord() -> None:
    assert application_id(TOKEN) == APP_ID
    assert application_id("MTE4NzY1NDMyMTA5ODc2NTQzMg") == APP_ID  # a first part alone, unpadded
    for bad in ("", "not a token", "fake.bot.token", "%%%.x.y", base64.b64encode(b"12ab").decode() + ".x.y"):
        assert application_id(bad) is None


def test_the_invite_asks_for_exactly_the_needed_permissions_and_both_scopes() -> None:
    query = parse_qs(urlsplit(invite_url(APP_ID)).query)
    assert query["client_id"] == [str(APP_ID)]
    assert query["scope"] == [" ".join(SCOPES)] and set(SCOPES) == {"bot", "applications.commands"}
    granted = discord.Permissions(int(query["permissions"][0]))
    assert all(getattr(granted, name) for name in NEEDED) and granted == PERMISSIONS
    assert granted.value == VIEW_CHANNEL | SEND_MESSAGES | ATTACH_FILES | CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS


@pytest.fixture
def root_handlers() -> Iterator[None]:
    """Takes away the log handlers `bot.main` adds to the root logger (they write to a captured stream)."""
    root = logging.getLogger()
    before, level = list(root.handlers), root.level
    yield
    for handler in [h for h in root.handlers if h not in before]:
        root.removeHandler(handler)
    root.setLevel(level)


@pytest.mark.usefixtures("root_handlers")
def test_bot_py_invite_prints_the_link_or_one_sentence(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    assert entry.main(["--invite"], env_file=None) == 0
    out, err = capsys.readouterr()
    assert out.strip() == invite_url(APP_ID) and TOKEN not in out + err
    monkeypatch.delenv("DISCORD_TOKEN")
    assert entry.main(["--invite"], env_file=None) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "DISCORD_TOKEN" in err and err.rstrip().endswith("again.")
    monkeypatch.setenv("DISCORD_TOKEN", "fake.bot.token")
    assert entry.main(["--invite"], env_file=None) == 2
    assert "does not look like a bot token" in capsys.readouterr().err


def test_the_readme_names_exactly_the_needed_permissions_and_uses_the_invite() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Playing on Discord", 1)[1].split("\n## ", 1)[0]
    [playing] = [p for p in section.split("\n\n") if p.startswith("Invite the bot")]
    assert {" ".join(name.split()) for name in BOLD.findall(playing)} == set(labels(NEEDED)), playing
    setup = readme.split("## Set up on a fresh machine", 1)[1].split("\n## ", 1)[0]
    assert "python bot.py --invite" in setup


def deny(fake: FakeDiscord, bits: int) -> list[dict[str, object]]:
    """A channel overwrite that takes `bits` from the bot, as Discord sends it."""
    return [{"id": str(fake.bot_user.id), "type": 1, "allow": "0", "deny": str(bits)}]


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "cogs.permissions" and r.levelno == logging.WARNING]


async def test_a_channel_lacking_attach_files_is_named_once_and_so_is_a_server_joined_later(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_discord
    table = fake.channel("table-1")
    table.overwrites = deny(fake, ATTACH_FILES)
    caplog.set_level(logging.WARNING, logger="cogs.permissions")
    chosen = Settings(_env_file=None, keystone_db=str(tmp_path / "ks.db"), keystone_render_workers=0)
    bot = await bot_runner.start(create_bot(chosen, extensions=["cogs.permissions"]))
    [said] = warnings_of(caplog)
    assert f"server {fake.guild.id} (Keystone Lodge): the bot lacks Attach Files in #table-1 ({table.id});" in said
    assert "general" not in said and "table-2" not in said and "Threads" not in said
    bot.dispatch("ready")  # a new session (after a lost connection) says nothing new
    await fake.quiet()
    assert len(warnings_of(caplog)) == 1

    # A server joined while running: its every channel lacks Create Public Threads (the role lacks it).
    joined = fake._new_guild("Ёлка 🌲 **игра**", owner=fake.user("alice"))
    tables = [fake._new_text_channel(joined, name) for name in ("spieltisch-ä", "游戏")]
    for channel in tables:
        channel.overwrites = [{"id": str(joined.id), "type": 0, "allow": "0", "deny": str(CREATE_PUBLIC_THREADS)}]
    for session in fake.sessions_for(joined.id):
        await session.send("GUILD_CREATE", fake._guild_create(joined, session))
    for _ in range(500):  # a log line is no change the fake's `wait_for` would wake for
        if len(warnings_of(caplog)) == 2:
            break
        await asyncio.sleep(0.01)
    said = warnings_of(caplog)[1]
    assert said.startswith(f"server {joined.id} (Ёлка 🌲 **игра**): the bot lacks Create Public Threads in every "
                           "channel it can see (2)")
    [record] = [r for r in caplog.records if r.getMessage() == said]
    assert getattr(record, "guild_id", None) is None  # the JSON formatter's filter adds it; see test_ops_logs
