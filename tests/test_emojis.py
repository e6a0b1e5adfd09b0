"""The game's icons as the bot's application emojis: uploaded once at start-up, shown in text
messages, and never a reason for start-up to fail (messages fall back to words)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from cogs.bot import ICONS, ensure_emojis
from keystone.app import text
from keystone.data import load_catalog
from keystone.engine import GameConfig, new_game, public_view
from keystone.engine.words import ICON_FILES, ICON_LABELS
from tests.discord_helpers import make_bot
from tests.fakediscord import limits
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.server import FakeDiscord


def uploads(fake: FakeDiscord) -> int:
    return sum(1 for method, path in fake.requests if method == "POST" and path.endswith("/emojis"))


async def test_start_up_uploads_each_icon_once_and_a_restart_reuses_them(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await bot_runner.start(make_bot(tmp_path / "ks.db"))
    stored = {e["name"]: e["id"] for e in fake.application_emojis}
    assert set(stored) == set(ICON_FILES) and uploads(fake) == len(ICON_FILES)
    first = dict(bot.icon_emojis)
    assert first == {name: f"<:{name}:{stored[name]}>" for name in ICON_FILES}
    forest = fake.emoji_images[stored["forest"]]
    assert forest == (ICONS / "habitat-forest.png").read_bytes()
    await bot_runner.stop(bot)

    again = await bot_runner.start(make_bot(tmp_path / "ks.db"))
    assert uploads(fake) == len(ICON_FILES)  # nothing uploaded twice
    assert again.icon_emojis == first


async def test_the_field_message_shows_habitats_and_seasons_as_emojis(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob = fake.user("alice"), fake.user("bob")
    channel = fake.channel("table-1")
    lobby = await fake.slash(alice, channel, "keystone new", {"players": 2})
    await fake.click(bob, lobby.message, label="Join")
    await fake.click(alice, lobby.message, label="Start")
    field = await fake.slash(bob, channel, "keystone field")
    slot_lines = [line for line in field.content.splitlines() if line[:1].isdigit()]
    assert len(slot_lines) == 6
    assert all(bot.icon_emojis[h] in line or "empty" in line for line in slot_lines
               for h in ("forest", "desert", "wetland", "arctic") if ICON_LABELS[h] in line)
    assert sum(line.count("<:") for line in slot_lines) >= 12  # each card: a habitat and a season at least
    assert len(field.content) <= 2000


def test_without_emojis_a_field_line_names_the_icons_in_words() -> None:
    view = public_view(new_game(GameConfig(), 1, ["Ana", "Ben"]))
    card = view.field[0]
    assert card is not None
    text.use_emojis({})
    line = text.field_line(view, 0)
    assert "<:" not in line
    first = load_catalog().card(card.card)
    assert all(ICON_LABELS[h.value] in line for h in first.habitats)
    assert first.season is not None and ICON_LABELS[first.season.value] in line
    some = {"forest": "<:forest:1>"}  # a season emoji missing: words for every icon, never a mix
    assert "<:" not in text.field_line(view, 0, some)


async def test_a_refused_upload_is_a_warning_and_leaves_the_icon_in_words(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    bot = await bot_runner.start(make_bot(tmp_path / "ks.db"))
    with caplog.at_level(logging.WARNING, logger="cogs.bot"):
        got = await ensure_emojis(bot, names={"x": "habitat-forest", "moon": "no-such-drawing",
                                             "forest": "habitat-forest"})
    assert got == {"forest": bot.icon_emojis["forest"]}
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("x emoji" in w for w in warned) and any("moon emoji" in w for w in warned)
    assert "x" not in {e["name"] for e in fake_discord.application_emojis}


async def test_start_up_goes_on_when_discord_refuses_every_upload(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake_discord.application_emojis = [{"id": str(n), "name": f"other_{n}"} for n in range(limits.APPLICATION_EMOJIS_MAX)]
    with caplog.at_level(logging.WARNING, logger="cogs.bot"):
        bot = await bot_runner.start(make_bot(tmp_path / "ks.db"))
    assert bot.icon_emojis == {} and bot.is_ready()
    warned = [r.getMessage() for r in caplog.records if r.name == "cogs.bot" and r.levelno == logging.WARNING]
    assert len(warned) == len(ICON_FILES) and "Maximum number of emojis" in warned[0]
    view = public_view(new_game(GameConfig(), 1, ["Ana", "Ben"]))
    assert "<:" not in "\n".join(text.field_lines(view))


def test_the_fake_refuses_what_discord_refuses() -> None:
    png = "data:image/png;base64,iVBORw0KGgo="
    assert limits.check_emoji({"name": "forest", "image": png}, set()) == []
    assert limits.check_emoji({"name": "f", "image": png}, set())
    assert limits.check_emoji({"name": "has-dash", "image": png}, set())
    assert limits.check_emoji({"name": "x" * 33, "image": png}, set())
    assert limits.check_emoji({"name": "forest", "image": png}, {"forest"})
    assert limits.check_emoji({"name": "forest", "image": "not a data uri"}, set())
    big = "data:image/png;base64," + "A" * (4 * (limits.EMOJI_IMAGE_MAX // 3 + 2))
    assert limits.check_emoji({"name": "forest", "image": big}, set())


async def test_two_processes_uploading_at_once_both_end_with_every_emoji(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    bot = await bot_runner.start(make_bot(tmp_path / "ks.db"))
    names = {"lake": "habitat-wetland", "dune": "habitat-desert"}
    with caplog.at_level(logging.WARNING, logger="cogs.bot"):
        both = await asyncio.gather(ensure_emojis(bot, names=names), ensure_emojis(bot, names=names))
    assert "ALREADY_TAKEN" in caplog.text, "both listed before either uploaded, so one upload was refused"
    stored = {e["name"]: e["id"] for e in fake_discord.application_emojis if e["name"] in names}
    assert both[0] == both[1] == {name: f"<:{name}:{stored[name]}>" for name in names}
