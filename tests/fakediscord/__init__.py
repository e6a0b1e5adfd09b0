"""A fake Discord (REST + gateway) that the real discord.py client connects to, for end-to-end tests."""

from .faults import Faults, Injected
from .harness import BotCrashed, BotTimeout, HarnessError, InteractionResult
from .models import FakeAttachment, FakeChannel, FakeGuild, FakeInteraction, FakeMember, FakeMessage, FakeUser
from .server import FakeDiscord

__all__ = [
    "BotCrashed",
    "BotTimeout",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeMessage",
    "FakeUser",
    "Faults",
    "HarnessError",
    "Injected",
    "InteractionResult",
]
