"""End to end: what must stay private stays private, even when the service is slow to answer."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

from keystone.store import Store
from tests.discord_helpers import make_bot, public_of, service_of
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.models import FakeChannel, FakeUser
from tests.fakediscord.server import FakeDiscord

DEFER_AFTER = 0.05
SLOW = 0.15
"""The service answers after this long: past DEFER_AFTER even on a busy machine (it sleeps at least this
long), so every answer is deferred first."""


def slow_down(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every game lookup wait, as a busy database would."""
    for name in ("get_game", "get_active_game"):
        real = getattr(store, name)

        async def slowed(*args: Any, _real: Any = real, **kwargs: Any) -> Any:
            await asyncio.sleep(SLOW)
            return await _real(*args, **kwargs)

        monkeypatch.setattr(store, name, slowed)


async def slow_game(fake: FakeDiscord, bot_runner: BotRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                    ) -> tuple[FakeChannel, FakeUser, FakeUser]:
    """Alice and Bob in a started game whose service answers slowly from now on."""
    bot = await bot_runner.start(make_bot(tmp_path / "ks.db"))
    # The bot loads its cogs as fresh modules, so patch the one it runs.
    monkeypatch.setattr(sys.modules["cogs.common"], "DEFER_AFTER", DEFER_AFTER)
    slow_down(service_of(bot).store, monkeypatch)
    alice, bob = fake.user("alice"), fake.user("bob")
    channel = fake.channel("table-1")
    lobby = await fake.slash(alice, channel, "keystone new", {"players": 2})
    joined = await fake.click(bob, lobby.message, label="Join")
    assert joined.deferred, "the lobby answer was meant to be slow"
    assert "Seated (2/2)" in lobby.message.content, "a slow Join still updates the lobby message"
    await fake.click(alice, lobby.message, label="Start")
    await fake.quiet()
    return channel, alice, bob


async def test_slow_private_answers_are_never_posted_in_the_channel(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    channel, alice, bob = await slow_game(fake, bot_runner, tmp_path, monkeypatch)
    before = len(fake.public_messages(channel))

    objective = await fake.slash(alice, channel, "keystone objective")
    await fake.quiet()
    assert objective.deferred
    assert [m.is_ephemeral for m in objective.messages if not m.deleted] == [True]
    assert "secret objective" in objective.content

    for command in ("keystone board", "keystone field", "keystone score", "keystone log"):
        looked = await fake.slash(alice, channel, command)
        await fake.quiet()
        assert all(m.is_ephemeral for m in looked.messages if not m.deleted), command

    refused = await fake.slash(bob, channel, "take", {"card": "6", "cell": "A1"})
    await fake.quiet()
    shown = [m for m in refused.messages if not m.deleted]
    assert refused.deferred and len(shown) == 1 and shown[0].is_ephemeral
    assert "Alice's turn" in shown[0].content
    assert len(fake.public_messages(channel)) == before, "nothing private reached the channel"

    played = await fake.slash(alice, channel, "take", {"card": "6", "cell": "A1"})
    await fake.quiet()
    assert played.deferred and "Alice" in public_of(played).content


async def test_a_slow_refused_button_press_is_answered_privately(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    channel, alice, bob = await slow_game(fake, bot_runner, tmp_path, monkeypatch)
    turn = fake.public_messages(channel)[-1]
    before = len(fake.public_messages(channel))
    carol = fake.user("carol")
    pressed = await fake.click(carol, turn, custom_id=next(
        str(c["custom_id"]) for c in turn.actionable() if c.get("type") in (2, 3)))
    await fake.quiet()
    assert pressed.deferred
    assert [m.is_ephemeral for m in pressed.messages] == [True]
    assert "not playing" in pressed.content
    assert len(fake.public_messages(channel)) == before


async def test_strange_numbers_get_a_sentence_not_an_apology(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """"²", "①" and a 4,301-digit number used to reach the catch-all "something went wrong"."""
    fake = fake_discord
    channel, alice, bob = await slow_game(fake, bot_runner, tmp_path, monkeypatch)
    for token in ("²", "①", "9" * 4301):
        refused = await fake.slash(alice, channel, "skill", {"token": token})
        await fake.quiet()
        assert refused.is_ephemeral and "is not a skill token number" in refused.content, token
    taken = await fake.slash(alice, channel, "take", {"card": "①", "cell": "A1"})
    await fake.quiet()
    assert taken.is_ephemeral and "is not a Field slot number" in taken.content
