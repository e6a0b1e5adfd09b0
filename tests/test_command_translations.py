"""The slash commands in German: every command, option and choice has German words Discord accepts, the
English ones stay the cogs' own, and a German client runs `/keystone neu` by its German name."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.app_commands import TranslationContext, TranslationContextTypes
from discord.app_commands import TranslationContextLocation as Location
from discord.ext import commands

from cogs.journal import JournalCog
from cogs.keystone import KeystoneCog
from cogs.translator import PARAMS, CommandTranslator, key_of, words
from keystone.app import ids
from keystone.i18n import COMMANDS as DOMAIN
from keystone.i18n import catalogue
from keystone.i18n.commands import option, slash
from tests.discord_helpers import make_bot
from tests.fakediscord import limits
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.harness import HarnessError
from tests.fakediscord.models import JSON, shown_name
from tests.fakediscord.server import FakeDiscord

GERMAN = discord.Locale.german.value


class Recorder(app_commands.Translator):
    """Notes the key and English words of every string discord.py asks about, and translates nothing."""

    def __init__(self) -> None:
        self.english: dict[str, set[str]] = {}

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: TranslationContextTypes) -> str | None:
        key = key_of(context, string)
        assert key is not None, f"no key for {string.message!r} ({context.location})"
        self.english.setdefault(key, set()).add(string.message)
        return None


async def command_payloads(translator: app_commands.Translator) -> list[JSON]:
    """What the bot sends Discord when it syncs its commands with this translator (no connection needed)."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    for cog in (KeystoneCog, JournalCog):
        await bot.add_cog(cog(bot, None))  # type: ignore[arg-type]  # the service is not used to describe commands
    return [await command.get_translated_payload(bot.tree, translator) for command in bot.tree.get_commands()]


def walk(items: list[JSON], path: str = "") -> Iterator[tuple[str, JSON]]:
    """Every command, group, subcommand, option and choice of a command payload, with its English path."""
    for item in items:
        here = f"{path} {item['name']}".strip()
        yield here, item
        yield from ((f"{here} = {c['value']}", c) for c in item.get("choices") or [])
        yield from walk(item.get("options") or [], here)


async def test_every_command_option_and_choice_has_german_words_that_discord_accepts() -> None:
    payload = await command_payloads(CommandTranslator())
    assert limits.check_commands(payload) == []
    untranslated = [path for path, item in walk(payload)
                    if GERMAN not in (item.get("name_localizations") or {})
                    or ("value" not in item and GERMAN not in (item.get("description_localizations") or {}))]
    assert untranslated == []
    other_locales = {locale for _, item in walk(payload)
                     for field in ("name_localizations", "description_localizations")
                     for locale in item.get(field) or {}} - {GERMAN}
    assert other_locales == set()
    [keystone] = [c for c in payload if c["name"] == "keystone"]
    assert [shown_name(o, GERMAN) for o in keystone["options"]][:3] == ["neu", "beitreten", "verlassen"]


async def test_the_english_catalogue_holds_exactly_the_cogs_english_words() -> None:
    """So a changed English description shows here, and its German is looked at again."""
    recorder = Recorder()
    await command_payloads(recorder)
    assert {key: len(said) for key, said in recorder.english.items() if len(said) > 1} == {}, "one key, two texts"
    english = {key: text.format(**PARAMS) for key, text in catalogue("en", DOMAIN).items()}
    assert {key: said.pop() for key, said in recorder.english.items()} == english


def context(location: Location, data: Any) -> TranslationContextTypes:
    return TranslationContext(location, data)  # type: ignore[call-overload, no-any-return]


async def test_keys_follow_the_english_path_and_a_missing_german_entry_stays_english(
        caplog: pytest.LogCaptureFixture) -> None:
    cog = KeystoneCog(commands.Bot(command_prefix="!", intents=discord.Intents.none()), None)  # type: ignore[arg-type]
    pace = next(c for c in cog.keystone.walk_commands() if c.qualified_name == "keystone clock pace")
    assert isinstance(pace, app_commands.Command)
    assert key_of(context(Location.command_description, pace)) == "keystone.clock.pace.description"
    assert key_of(context(Location.group_name, cog.keystone)) == "keystone.name"
    assert key_of(context(Location.parameter_name, pace.parameters[0])) == "keystone.clock.pace.pace.name"
    assert key_of(context(Location.choice_name, app_commands.Choice(name="Hard", value="hard"))) == "choice.hard"
    assert key_of(context(Location.other, "anything")) is None
    assert words(discord.Locale.german, "journal.start.number.description") == f"Welches Szenario, 1 bis {PARAMS['last']}"
    translator = CommandTranslator()
    unknown: app_commands.Command[Any, ..., None] = app_commands.Command(name="fly", description="Fly away", callback=_fly)
    asked = app_commands.locale_str("fly")
    with caplog.at_level(logging.WARNING, logger="cogs.translator"):
        assert await translator.translate(asked, discord.Locale.german, context(Location.command_name, unknown)) is None
    assert "fly.name" in caplog.text
    assert await translator.translate(asked, discord.Locale.french, context(Location.command_name, pace)) is None
    assert await translator.translate(asked, discord.Locale.german, context(Location.command_name, pace)) == "tempo"


def test_texts_name_a_command_as_the_clients_language_shows_it() -> None:
    assert slash("de", "keystone new") == "/keystone neu"
    assert slash("de", "keystone clock pace") == "/keystone uhr tempo"
    assert slash("en", "keystone clock pace") == "/keystone clock pace"
    assert [slash("de", top) for top in ("take", "skill", "wild", "endturn", "undo", "journal start")] == [
        "/ansiedeln", "/forschen", "/wildnis", "/zugende", "/rückgängig", "/tagebuch starten"]
    assert option("de", "keystone new", "mode") == "modus"
    assert option("en", "take", "cell") == "cell"


async def _fly(interaction: discord.Interaction[Any]) -> None:
    """A command the catalogue does not know."""


def command_json(name: str, options: list[JSON], **localized: dict[str, str]) -> JSON:
    return {"name": name, "type": 1, "description": "d", "options": options, **localized}


def option_json(name: str, **localized: Any) -> JSON:
    return {"name": name, "type": 3, "description": "d", **localized}


@pytest.mark.parametrize(("commands_", "problem"), [
    ([command_json("new", [], name_localizations={"deutsch": "neu"})], "not a Discord locale"),
    ([command_json("new", [], name_localizations={"de": "Neu"})], "lowercase"),
    ([command_json("new", [], name_localizations={"de": "neues spiel"})], "lowercase"),
    ([command_json("new", [], name_localizations={"de": "n" * 33})], "lowercase"),
    ([command_json("new", [], description_localizations={"de": "x" * 101})], "1 to 100"),
    ([command_json("take", [option_json("card"), option_json("cell", name_localizations={"de": "card"})])], "another one's name"),
    ([command_json("take", [option_json("card", name_localizations={"de": "feld"}),
                       option_json("cell", name_localizations={"de": "feld"})])], "more than one option in de"),
    ([command_json("take", []), command_json("wild", [], name_localizations={"de": "take"})], "another one's name"),
    ([command_json("x", [option_json("rules", choices=[{"name": "Second", "value": "2", "name_localizations": {"de": ""}}])])],
     "1 to 100"),
])
def test_the_fake_refuses_localizations_discord_refuses(commands_: list[JSON], problem: str) -> None:
    assert any(problem in found for found in limits.check_commands(commands_)), limits.check_commands(commands_)


def test_the_fake_accepts_german_letters_and_a_name_the_same_as_its_own_default() -> None:
    good = [command_json("undo", [option_json("thread", name_localizations={"de": "thread"}),
                             option_json("token", name_localizations={"de": "plättchen"}, choices=[
                                 {"name": "Hard", "value": "hard", "name_localizations": {"de": "Schwer"}}])],
                    name_localizations={"de": "rückgängig"}, description_localizations={"de": "Zurücknehmen"})]
    assert limits.check_commands(good) == []


async def test_a_german_client_opens_a_lobby_with_keystone_neu(fake_discord: FakeDiscord, bot_runner: BotRunner,
                                                               tmp_path: Path) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    [synced] = [c for c in fake.global_commands if c["name"] == "keystone"]
    assert shown_name(synced, GERMAN) == "keystone"
    assert [shown_name(o, GERMAN) for o in synced["options"] if o["name"] == "new"] == ["neu"]
    alice, general = fake.user("alice"), fake.channel("general")
    alice.locale = GERMAN
    with pytest.raises(HarnessError, match="neu"):
        await fake.slash(alice, general, "keystone new")  # a German client shows (and takes) only the German name
    lobby = await fake.slash(alice, general, "keystone neu", {"spieler": 3, "regeln": "first-edition"})
    assert lobby.record.data["options"] == [{"type": 1, "name": "new", "options": [
        {"type": 4, "name": "players", "value": 3}, {"type": 3, "name": "rules", "value": "first-edition"}]}]
    session = fake.active_session()
    assert session is not None
    [sent] = [f["d"] for f in session.sent if f["t"] == "INTERACTION_CREATE" and f["d"]["id"] == str(lobby.id)]
    assert (sent["locale"], sent["guild_locale"]) == (GERMAN, "en-US")
    assert not lobby.is_ephemeral and "1/3" in lobby.content
    assert any(ids.LOBBY.fullmatch(custom_id) for custom_id in lobby.message.custom_ids)
