"""Shared pieces of the end-to-end Discord tests: a bot on a database, and reading its replies."""

from __future__ import annotations

from pathlib import Path

from cogs import EXTENSIONS
from cogs.bot import KeystoneBot
from keystone.app import GameService
from keystone.settings import Settings
from tests.fakediscord.harness import InteractionResult
from tests.fakediscord.models import FakeMessage


def make_bot(db: Path) -> KeystoneBot:
    """The real bot with every cog, storing its games in `db`."""
    settings = Settings(_env_file=None, keystone_db=str(db))
    return KeystoneBot(settings, extensions=list(EXTENSIONS))


def service_of(bot: KeystoneBot) -> GameService:
    return bot.service


def public_of(result: InteractionResult) -> FakeMessage:
    found = [m for m in result.messages if not m.is_ephemeral]
    assert found, f"no public message: {[m.content for m in result.messages]}"
    return found[0]
