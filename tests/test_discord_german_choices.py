"""End to end: autocomplete speaks the language of the person typing (their Discord client's locale)."""

from __future__ import annotations

from pathlib import Path

from keystone.engine import campaign
from keystone.i18n.commands import option
from tests.discord_helpers import make_bot
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.server import FakeDiscord


async def test_rules_topics_and_assignments_are_suggested_in_the_typers_language(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob, general = fake.user("alice"), fake.user("bob"), fake.channel("general")
    bob.locale = "de"
    topic = option("de", "keystone rules", "topic")
    german = await fake.autocomplete(bob, general, "keystone regeln", {topic: "öko"})
    assert [(c["name"], c["value"]) for c in german] == [("Ökosysteme", "ecosystems")]
    english = await fake.autocomplete(alice, general, "keystone rules", {"topic": "eco"})
    assert [(c["name"], c["value"]) for c in english] == [("ecosystems", "ecosystems")]
    answer = await fake.slash(bob, general, "keystone regeln", {topic: "ecosystems"})
    assert answer.is_ephemeral and answer.content.startswith("**Ökosysteme**")

    number = option("de", "journal start", "number")
    offered = await fake.autocomplete(bob, general, "tagebuch starten", {number: "1"})
    assert offered[0] == {"name": f"1 - {campaign.assignment(1).title_de}", "value": 1}
    first = await fake.autocomplete(alice, general, "journal start", {"number": "1"})
    assert first[0] == {"name": f"1 - {campaign.assignment(1).title}", "value": 1}
