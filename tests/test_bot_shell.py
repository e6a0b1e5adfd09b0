"""bot.py, the settings and the KeystoneBot shell: no-token help, redaction, cog loading, command sync."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import discord
import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

import bot as entry
import cogs
from cogs.bot import APOLOGY, KeystoneBot, apply_overrides
from keystone.settings import DEFAULT_DATABASE, Settings, describe_error, load_settings
from keystone.store import Store
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import BotRunner
from tests.processes import ctrl_c_reaches_it

ROOT = Path(__file__).resolve().parent.parent
SETTING_NAMES = ("DISCORD_TOKEN", "KEYSTONE_DB", "DEV_GUILD_ID", "LOG_LEVEL", "DISCORD_API_BASE_URL",
                 "DISCORD_GATEWAY_URL", "KEYSTONE_RENDER_WORKERS")
TOKEN_CHARS = st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
EXAMPLE_EXTENSION = "tests.fakediscord.example_extension"
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (DEBUG|INFO|WARNING) ")


@pytest.fixture(autouse=True)
def no_settings_in_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in SETTING_NAMES:
        monkeypatch.delenv(name, raising=False)


def child_env(**settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SETTING_NAMES}
    env["PYTHONPATH"] = str(ROOT)
    return {**env, **settings}


def settings(**values: object) -> Settings:
    """Settings for a bot started in this process: its games are kept in memory only, its pictures
    drawn in threads (tests/test_painter.py starts the worker processes)."""
    return Settings(_env_file=None, **{"keystone_db": ":memory:", "keystone_render_workers": 0,
                                       **values})  # type: ignore[arg-type]


# ------------------------------------------------------------------ settings


def test_env_file_is_read_and_environment_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=from-file\nDEV_GUILD_ID=123\nLOG_LEVEL=debug\nKEYSTONE_DB=games.db\n")
    monkeypatch.setenv("DEV_GUILD_ID", "456")
    loaded = load_settings(env_file)
    assert loaded.token() == "from-file"
    assert (loaded.dev_guild_id, loaded.log_level, loaded.database) == (456, "DEBUG", "games.db")
    assert "from-file" not in repr(loaded)


def test_blank_values_count_as_unset(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=\nDEV_GUILD_ID=\nDISCORD_API_BASE_URL= \n")
    loaded = load_settings(env_file)
    assert loaded.token() is None and loaded.dev_guild_id is None and loaded.discord_api_base_url is None
    assert loaded.keystone_db == "./keystone.db" and loaded.log_level == "INFO"


@pytest.mark.parametrize(("name", "value"), [
    ("DEV_GUILD_ID", "my server"), ("DEV_GUILD_ID", "-5"), ("LOG_LEVEL", "LOUD"),
    ("DISCORD_API_BASE_URL", "discord.com/api"), ("DISCORD_GATEWAY_URL", "http://127.0.0.1/gateway"),
    ("KEYSTONE_RENDER_WORKERS", "-1"), ("KEYSTONE_RENDER_WORKERS", "two"),
])
def test_bad_settings_are_named_in_a_sentence(name: str, value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError) as caught:
        load_settings(None)
    sentence = describe_error(caught.value)
    assert name in sentence and sentence.endswith(".") and "\n" not in sentence


def test_env_example_states_the_defaults_the_code_uses() -> None:
    assert load_settings(ROOT / ".env.example") == Settings(_env_file=None)
    assert Settings(_env_file=None).keystone_db == DEFAULT_DATABASE


def test_a_bad_server_id_says_where_to_find_the_right_one(monkeypatch: pytest.MonkeyPatch) -> None:
    for value in ("my server", "-5"):
        monkeypatch.setenv("DEV_GUILD_ID", value)
        with pytest.raises(ValidationError) as caught:
            load_settings(None)
        assert describe_error(caught.value) == (
            "DEV_GUILD_ID should be the numeric id of your test server "
            "(right-click the server with Developer Mode on, then Copy Server ID).")


def test_whitespace_alone_counts_as_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DISCORD_TOKEN", "DEV_GUILD_ID", "DISCORD_GATEWAY_URL"):
        monkeypatch.setenv(name, "   ")
    loaded = load_settings(None)
    assert loaded.token() is None and loaded.dev_guild_id is None and loaded.discord_gateway_url is None


def test_main_reports_bad_settings_without_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / ".env").write_text("LOG_LEVEL=chatty\n")
    assert entry.main([], env_file=tmp_path / ".env") == 2
    err = capsys.readouterr().err
    assert "LOG_LEVEL" in err and "Traceback" not in err


def test_url_overrides_point_discord_py_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Route, "BASE", Route.BASE)
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", DiscordWebSocket.DEFAULT_GATEWAY)
    apply_overrides(settings(discord_api_base_url="http://127.0.0.1:9/api/v10/",
                             discord_gateway_url="ws://127.0.0.1:9/gateway"))
    assert Route("GET", "/users/@me").url == "http://127.0.0.1:9/api/v10/users/@me"
    gateway = DiscordWebSocket.DEFAULT_GATEWAY
    assert gateway == yarl.URL("ws://127.0.0.1:9/gateway")


# ------------------------------------------------------------------ bot.py


def test_without_a_token_bot_py_explains_and_exits_2(tmp_path: Path) -> None:
    script = tmp_path / "bot.py"
    shutil.copy(ROOT / "bot.py", script)
    done = subprocess.run([sys.executable, str(script)], env=child_env(), cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    paragraph = done.stderr.strip()
    assert "\n\n" not in paragraph
    for needle in ("Reset Token", "DISCORD_TOKEN=", ".env", "python bot.py --invite", "python bot.py --local"):
        assert needle in paragraph


def test_local_mode_hands_its_arguments_to_the_terminal_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert entry.main(["--local", "--help"]) == 0
    assert "python -m keystone play" in capsys.readouterr().out


# ------------------------------------------------------------------ redaction


def redacted_output(token: str, log: logging.Logger) -> str:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(message)s"))
    handler.addFilter(entry.RedactingFilter(token))
    log.addHandler(handler)
    log.propagate = False
    try:
        log.warning("connecting with %s", token)
        log.warning(f"inline {token} text")
        try:
            raise RuntimeError(f"bad token {token}")
        except RuntimeError:
            log.exception("failed")
        log.warning("stack", stack_info=True, extra={"token": token})
    finally:
        log.removeHandler(handler)
    return stream.getvalue()


def test_the_token_never_reaches_the_log() -> None:
    token = "MTIzNDU2Nzg5.secret-token_value"
    output = redacted_output(token, logging.getLogger("test.redaction.fixed"))
    assert token not in output
    assert output.count(entry.REDACTED) >= 3
    assert "RuntimeError" in output


@given(st.text(TOKEN_CHARS, min_size=20, max_size=80), st.text(max_size=40), st.text(max_size=40))
def test_redaction_holds_for_any_token_and_surrounding_text(token: str, before: str, after: str) -> None:
    record = logging.LogRecord("t", logging.INFO, __file__, 1, "%s" + token + "%s", (before, after), None)
    entry.RedactingFilter(token).filter(record)
    assert token not in record.getMessage()


def test_configure_logging_redacts_through_the_root_handler() -> None:
    token = "root.handler.token-abcdefghijklmnop"
    loaded = settings(keystone_db="postgresql://keystone:db-pass-hunter2@db.example:5432/keystone")
    stream = io.StringIO()
    root = logging.getLogger()
    old_level = root.level
    handler = entry.configure_logging(logging.DEBUG, token, stream, loaded.database_password())
    try:
        logging.getLogger("discord.http").debug("Authorization: Bot %s", token)
        logging.getLogger("keystone").info("connecting to %s", loaded.database)
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
    assert token not in stream.getvalue() and entry.REDACTED in stream.getvalue()
    assert "db-pass-hunter2" not in stream.getvalue() and "keystone:[redacted]@db.example" in stream.getvalue()


# ------------------------------------------------------------------ KeystoneBot against the fake


async def test_bot_loads_extensions_and_syncs_to_the_dev_guild(fake_discord: FakeDiscord,
                                                                bot_runner: BotRunner) -> None:
    guild = fake_discord.guild
    bot = await bot_runner.start(KeystoneBot(settings(dev_guild_id=guild.id), extensions=[EXAMPLE_EXTENSION]))
    assert [gid for gid, _ in fake_discord.command_syncs] == [guild.id]
    assert {c["name"] for c in fake_discord.guild_commands[guild.id]} == {"probe", "boom", "staff"}
    assert fake_discord.global_commands == []
    result = await fake_discord.slash(fake_discord.user("bob"), fake_discord.channel("general"), "probe")
    assert result.content == "probe ok"
    assert not (bot.intents.members or bot.intents.presences or bot.intents.message_content)


async def test_without_a_dev_guild_commands_sync_globally(fake_discord: FakeDiscord,
                                                          bot_runner: BotRunner) -> None:
    await bot_runner.start(KeystoneBot(settings(), extensions=[EXAMPLE_EXTENSION]))
    assert [gid for gid, _ in fake_discord.command_syncs] == [None]
    assert {c["name"] for c in fake_discord.global_commands} == {"probe", "boom", "staff"}


def test_default_extensions_come_from_the_cogs_package() -> None:
    assert KeystoneBot(settings()).extensions_to_load == tuple(cogs.EXTENSIONS)


async def test_a_failing_command_gets_a_private_apology(fake_discord: FakeDiscord,
                                                         bot_runner: BotRunner) -> None:
    await bot_runner.start(KeystoneBot(settings(), extensions=[EXAMPLE_EXTENSION]))
    general = fake_discord.channel("general")
    result = await fake_discord.slash(fake_discord.user("carol"), general, "boom")
    assert result.is_ephemeral and result.content == APOLOGY
    assert fake_discord.public_messages(general) == []
    [record] = bot_runner.take_error_logs()
    assert record.exc_info is not None and "boom on purpose" in str(record.exc_info[1])


async def test_a_failed_check_explains_privately(fake_discord: FakeDiscord, bot_runner: BotRunner) -> None:
    await bot_runner.start(KeystoneBot(settings(), extensions=[EXAMPLE_EXTENSION]))
    general = fake_discord.channel("general")
    refused = await fake_discord.slash(fake_discord.user("bob"), general, "staff")
    assert refused.is_ephemeral and "Manage Server" in refused.content
    allowed = await fake_discord.slash(fake_discord.user("alice"), general, "staff")
    assert allowed.content == "staff ok"


async def read_until(proc: asyncio.subprocess.Process, marker: bytes) -> bytes:
    """Stderr lines up to and including the one holding `marker` (fails if the process ends first)."""
    assert proc.stderr is not None
    seen = b""
    while marker not in seen:
        line = await proc.stderr.readline()
        assert line, f"bot.py ended before logging {marker!r}:\n{seen.decode()[-2000:]}"
        seen += line
    return seen


async def test_bot_py_runs_against_a_discord_compatible_server(
    fake_discord: FakeDiscord, tmp_path: Path, store_target: str
) -> None:
    """On either database: a file, or a PostgreSQL URL."""
    env = child_env(DISCORD_TOKEN=fake_discord.token, DISCORD_API_BASE_URL=fake_discord.base_url,
                    DISCORD_GATEWAY_URL=fake_discord.gateway_url, DEV_GUILD_ID=str(fake_discord.guild.id),
                    KEYSTONE_DB=store_target, LOG_LEVEL="DEBUG", KEYSTONE_RENDER_WORKERS="1")
    proc = await asyncio.create_subprocess_exec(sys.executable, str(ROOT / "bot.py"), cwd=tmp_path, env=env,
                                                preexec_fn=ctrl_c_reaches_it,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                                                start_new_session=True)
    try:
        early = await asyncio.wait_for(read_until(proc, b"has connected to Gateway"), timeout=30)
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl+C reaches the picture worker too
        _, rest = await asyncio.wait_for(proc.communicate(), timeout=30)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    log = (early + rest).decode()
    assert proc.returncode == 0, log[-2000:]
    assert [gid for gid, _ in fake_discord.command_syncs] == [fake_discord.guild.id]
    assert "Synced" in log and "DEBUG" in log
    assert "Drawing pictures in 1 worker process" in log and "Traceback" not in log, log[-2000:]
    assert fake_discord.token not in log
    assert fake_discord.unknown_routes == []


async def test_bot_py_explains_a_rejected_token(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    env = child_env(DISCORD_TOKEN="not-the-right-token", DISCORD_API_BASE_URL=fake_discord.base_url,
                    DISCORD_GATEWAY_URL=fake_discord.gateway_url, KEYSTONE_DB=str(tmp_path / "k.db"))
    proc = await asyncio.create_subprocess_exec(sys.executable, str(ROOT / "bot.py"), cwd=tmp_path, env=env,
                                                preexec_fn=ctrl_c_reaches_it,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    _, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    assert proc.returncode == 2
    assert "did not accept DISCORD_TOKEN" in err.decode()
    assert "not-the-right-token" not in err.decode()


def test_discord_is_only_imported_by_the_discord_side() -> None:
    assert discord.__version__.startswith("2.")
    source = (ROOT / "keystone" / "settings.py").read_text()
    assert "import discord" not in source


# ------------------------------------------------------------------ start-up failures: one sentence, exit 2


def closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def only_sentence(stderr: str) -> str:
    """The one line that is not a log record; fails on a traceback or on more than one sentence."""
    assert "Traceback" not in stderr
    lines = [ln for ln in stderr.splitlines() if ln.strip() and not LOG_LINE.match(ln)]
    assert len(lines) == 1, stderr[-3000:]
    return lines[0]


def run_bot_py(tmp_path: Path, **settings: str) -> tuple[int, str]:
    done = subprocess.run([sys.executable, str(ROOT / "bot.py")], env=child_env(**settings), cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.stdout == ""
    return done.returncode, done.stderr


SECRET = "MTIzNDU2Nzg5MDEy.start-up-secret_token"


@pytest.mark.parametrize(("base_url", "problem"), [
    ("http://keystone-bot.invalid/api/v10", "name lookup failed"),
    (None, "connection refused"),
])
def test_an_unreachable_discord_is_one_sentence(tmp_path: Path, base_url: str | None, problem: str) -> None:
    url = base_url or f"http://127.0.0.1:{closed_port()}/api/v10"
    code, err = run_bot_py(tmp_path, DISCORD_TOKEN=SECRET, DISCORD_API_BASE_URL=url,
                           KEYSTONE_DB=str(tmp_path / "k.db"))
    assert code == 2 and SECRET not in err
    assert only_sentence(err) == (f"Cannot reach Discord at {url} ({problem}): check the network, "
                                  "or DISCORD_API_BASE_URL in .env.")
    assert not (tmp_path / "k.db").exists()


async def test_an_unreachable_gateway_is_one_sentence(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    gateway = f"ws://127.0.0.1:{closed_port()}/gateway"
    env = child_env(DISCORD_TOKEN=fake_discord.token, DISCORD_API_BASE_URL=fake_discord.base_url,
                    DISCORD_GATEWAY_URL=gateway, KEYSTONE_DB=str(tmp_path / "k.db"))
    proc = await asyncio.create_subprocess_exec(sys.executable, str(ROOT / "bot.py"), cwd=tmp_path, env=env,
                                                preexec_fn=ctrl_c_reaches_it,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        _, err = await asyncio.wait_for(proc.communicate(), timeout=60)  # before: retried for ever
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode == 2
    assert fake_discord.token not in err.decode()
    assert only_sentence(err.decode()) == (f"Cannot reach Discord at {gateway} (connection refused): "
                                           "check the network, or DISCORD_GATEWAY_URL in .env.")


def test_an_unreachable_database_server_is_one_sentence_without_its_password(tmp_path: Path) -> None:
    port = closed_port()
    code, err = run_bot_py(tmp_path, DISCORD_TOKEN=SECRET, KEYSTONE_DB=f"postgresql://keystone:hunter2@127.0.0.1:{port}/games",
                           DISCORD_API_BASE_URL=f"http://127.0.0.1:{closed_port()}")
    assert code == 2 and SECRET not in err and "hunter2" not in err
    sentence = only_sentence(err)
    assert sentence.startswith(f"The PostgreSQL database postgresql://keystone@127.0.0.1:{port}/games for "
                               "KEYSTONE_DB cannot be used (the connection failed: "), sentence
    assert sentence.endswith("check that the server runs and that the URL, user and password are right, "
                             "or point KEYSTONE_DB elsewhere.")


def test_a_missing_database_folder_is_one_sentence_before_connecting(tmp_path: Path) -> None:
    path = tmp_path / "no" / "such" / "k.db"
    code, err = run_bot_py(tmp_path, DISCORD_TOKEN=SECRET, KEYSTONE_DB=str(path),
                           DISCORD_API_BASE_URL=f"http://127.0.0.1:{closed_port()}")
    assert code == 2 and SECRET not in err
    assert err.strip() == (f"The folder {path.parent} for KEYSTONE_DB does not exist; "
                           "create it or point KEYSTONE_DB elsewhere.")


def damaged(path: Path) -> None:
    path.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 40)


def foreign(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    db.close()


def not_utf8(path: Path) -> None:
    async def make() -> None:
        await (await Store.open(path)).close()
    asyncio.run(make())
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO games (channel_id, kind, ruleset, config, host_id, status, created_at, updated_at) "
                   "VALUES (1, 'solo', 'second-edition', CAST(x'ff' AS TEXT), 1, 'lobby', 0, 0)")
    db.close()


@pytest.mark.parametrize(("make", "needle"), [
    (lambda p: p.write_bytes(os.urandom(3000)), "is not a database"),
    (lambda p: p.write_text("KEYSTONE_DB is not this file\n" * 50), "is not a database"),
    (damaged, "is damaged"),
    (foreign, "another program's database"),
    (not_utf8, "is damaged"),
])
def test_a_bad_database_file_is_one_sentence_and_left_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    make: Callable[[Path], None], needle: str,
) -> None:
    path = tmp_path / "k.db"
    make(path)
    before = sorted((p.name, p.read_bytes()) for p in tmp_path.iterdir())
    monkeypatch.setenv("DISCORD_TOKEN", SECRET)
    monkeypatch.setenv("KEYSTONE_DB", str(path))
    monkeypatch.setenv("DISCORD_API_BASE_URL", f"http://127.0.0.1:{closed_port()}")
    assert entry.main([], env_file=None) == 2
    err = capsys.readouterr().err
    assert only_sentence(err).startswith("The ") and str(path) in err and needle in err
    assert sorted((p.name, p.read_bytes()) for p in tmp_path.iterdir()) == before
