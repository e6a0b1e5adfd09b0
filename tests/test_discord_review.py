"""End to end: after a game, `/review` through the real discord.py client against the fake Discord:
private to the player, the costliest turns in pictures, a polite refusal for anyone else."""

from __future__ import annotations

from pathlib import Path

import pytest

from keystone.app import Where
from keystone.app.review import Reviews
from keystone.i18n import tr
from keystone.store import Store
from tests.discord_helpers import make_bot
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.server import FakeDiscord
from tests.test_app_review import BUDGET, SAMPLES, finished_game


@pytest.mark.slow
async def test_a_player_reviews_their_finished_game_privately(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    monkeypatch.setattr(Reviews, "review_samples", SAMPLES)
    monkeypatch.setattr(Reviews, "review_budget", BUDGET)
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    channel = fake.channel("table-1")
    async with await Store.open(tmp_path / "ks.db") as store:
        record = await finished_game(store, users=(alice.id, bob.id), where=Where(channel.id, channel.guild_id))
    await bot_runner.start(make_bot(tmp_path / "ks.db"))

    offered = await fake.autocomplete(alice, channel, "review", {"game": ""})
    assert [c["value"] for c in offered] == [str(record.id)]
    shown = await fake.slash(alice, channel, "review", {"game": str(record.id)})
    assert shown.is_ephemeral and not fake.public_messages(channel)
    assert shown.content.startswith(f"**Review of game {record.id}** (only you see it)")
    pictures = [a for m in shown.messages for a in m.attachments]
    assert 1 <= len(pictures) <= 3 and all(p.description and p.filename.startswith("review-") for p in pictures)
    await fake.quiet()
    listed = [m for m in shown.messages if m.content.startswith(f"**Each of your decisions in game {record.id}**")]
    assert listed and all(m.is_ephemeral for m in shown.messages), "every decision, privately, after the summary"

    stranger = await fake.slash(carol, channel, "review", {"game": str(record.id)})
    assert stranger.is_ephemeral and stranger.content == tr("en", "review.not_yours", number=record.id)
