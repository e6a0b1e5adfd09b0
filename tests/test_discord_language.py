"""End to end: the language of answers through the real discord.py client and the fake Discord, each
person's client locale and the server's locale sent with every interaction as Discord sends them;
autocomplete speaks the language of the person typing."""

from __future__ import annotations

from pathlib import Path

import pytest

from keystone.engine import campaign
from keystone.i18n.commands import option
from tests.discord_helpers import make_bot
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.models import FakeChannel, FakeUser
from tests.fakediscord.server import FakeDiscord

Table = tuple[FakeDiscord, FakeUser, FakeUser, FakeChannel]


@pytest.fixture
async def table(fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path) -> Table:
    """The bot running, English Alice and German Bob (his Discord client speaks German) in #general."""
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    bob = fake_discord.user("bob")
    bob.locale = "de"
    return fake_discord, fake_discord.user("alice"), bob, fake_discord.channel("general")


async def test_help_follows_each_persons_language_and_keystone_language_overrides_it(
    table: Table,
) -> None:
    fake, alice, bob, general = table
    german, english = await fake.slash(bob, general, "keystone hilfe"), await fake.slash(alice, general, "keystone help")
    assert german.is_ephemeral and german.content.startswith("**Keystone-Befehle: Spielen**")
    assert english.is_ephemeral and english.content.startswith("**Keystone commands: playing**")
    more = await fake.slash(bob, general, "keystone hilfe", {"thema": "more"})
    assert more.content.startswith("**Keystone-Befehle: Weitere**") and "`/keystone sprache`" in more.content

    chosen = await fake.slash(bob, general, "keystone sprache", {"sprache": "en"})
    assert chosen.is_ephemeral and chosen.content == "The bot now speaks English to you in private answers."
    assert (await fake.slash(bob, general, "keystone hilfe")).content.startswith("**Keystone commands: playing**")

    refused = await fake.slash(bob, general, "keystone sprache", {"sprache": "de", "für": "server"})
    assert refused.is_ephemeral and refused.content.startswith("Only someone who can manage this server")
    fake.guild.locale = "de"
    server = await fake.slash(alice, general, "keystone language", {"language": "auto", "for": "server"})
    assert server.is_ephemeral and server.content == (
        "Der Bot folgt in öffentlichen Nachrichten wieder der Discord-Sprache dieses Servers: Deutsch.")
    assert (await fake.slash(alice, general, "keystone help")).content.startswith("**Keystone commands: playing**"), (
        "a private answer follows the person, not the server")


async def test_rules_topics_and_assignments_are_suggested_in_the_typers_language(
    table: Table,
) -> None:
    fake, alice, bob, general = table
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
