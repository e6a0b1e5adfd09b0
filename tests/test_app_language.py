"""Which language an answer is in: the resolution rule on its own, then through the service with a
real SQLite file (the user's and the server's choices, `/keystone language` and `/keystone help`)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from keystone.app import Actor, GameService, Where
from keystone.app.language import Languages, resolve
from keystone.app.text import HELP_TOPICS, help_text
from keystone.store import Store

SERVER = Where(channel_id=10, guild_id=1, guild_locale="en-US")
GERMAN_SERVER = Where(channel_id=20, guild_id=2, guild_locale="de")
DM = Where(channel_id=77)
GRETA = Actor(1, "Greta", locale="de")
ANN = Actor(2, "Ann", locale="en-GB")
BOSS = Actor(3, "Boss", can_manage_server=True, locale="en-US")


@pytest.mark.parametrize(
    ("chosen", "locale", "server_chosen", "server_locale", "in_dm", "expected"),
    [
        (None, "de", None, "en-US", False, ("de", "en")),       # each follows its own Discord locale
        (None, "en-US", None, "de", False, ("en", "de")),
        ("en", "de", "de", "en-US", False, ("en", "de")),       # a stored choice beats the locale
        (None, None, None, None, False, ("en", "en")),          # nothing known: English
        (None, "fr", None, "pt-BR", False, ("en", "en")),       # a language the bot does not speak: English
        (None, "de", "en", "en-US", True, ("de", "de")),        # a direct message: public is private
        ("en", "de", None, None, True, ("en", "en")),
    ],
)
def test_private_follows_the_person_and_public_the_server(
    chosen: str | None, locale: str | None, server_chosen: str | None, server_locale: str | None, in_dm: bool,
    expected: tuple[str, str],
) -> None:
    assert resolve(chosen, locale, server_chosen, server_locale, in_dm=in_dm) == expected  # type: ignore[arg-type]


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    made = GameService(await Store.open(tmp_path / "k.db"))
    yield made
    await made.store.close()


async def test_help_is_in_the_askers_language_and_lists_every_command_in_both(service: GameService) -> None:
    for topic in HELP_TOPICS:
        german, english = await service.help(SERVER, GRETA, topic), await service.help(GERMAN_SERVER, ANN, topic)
        assert german.public is None and german.private == help_text("de", topic)
        assert english.private is not None and english.private.startswith("**Keystone commands: ")
        assert german.private is not None and german.private.startswith("**Keystone-Befehle: ")
        commands = english.private.split("`")[1::2]
        assert len(commands) > 10 and len(commands) == len(german.private.split("`")[1::2]), "as many in each"
    assert (await service.help(SERVER, GRETA)).private == help_text("de", "basics")
    assert help_text("de").endswith("`/keystone hilfe thema:Weitere`.")
    assert help_text("en", "more").endswith("`/keystone help topic:basics`.")


async def test_a_person_chooses_their_language_and_goes_back_to_discords(service: GameService) -> None:
    chosen = await service.set_language(SERVER, GRETA, "en", "me")
    assert chosen.public is None and chosen.private == "The bot now speaks English to you in private answers."
    assert await service.languages(SERVER, GRETA) == Languages("en", "en")
    assert await service.languages(GERMAN_SERVER, GRETA) == Languages("en", "de"), "the server keeps its own"
    back = await service.set_language(SERVER, GRETA, "auto", "me")
    assert back.private == "Der Bot folgt in privaten Antworten wieder deiner Discord-Sprache: Deutsch."
    assert await service.languages(DM, GRETA) == Languages("de", "de")


async def test_a_server_manager_chooses_the_servers_language(service: GameService) -> None:
    chosen = await service.set_language(SERVER, BOSS, "de", "server")
    assert chosen.private == "Der Bot spricht in den öffentlichen Nachrichten dieses Servers jetzt Deutsch."
    assert await service.languages(SERVER, ANN) == Languages("en", "de")
    back = await service.set_language(SERVER, BOSS, "auto", "server")
    assert back.private == "The bot follows this server's Discord language again in public messages: English."
    assert await service.languages(SERVER, ANN) == Languages("en", "en")


@pytest.mark.parametrize(
    ("where", "actor", "choice", "whose", "refusal"),
    [
        (SERVER, GRETA, "de", "server", "Nur wer diesen Server verwalten darf, kann seine Sprache wählen;"),
        (DM, BOSS, "de", "server", "A direct message has no server; choose `for: me`"),
        (SERVER, GRETA, "fr", "me", "Der Bot spricht English, Deutsch; wähle eine davon"),
        (SERVER, ANN, "de", "everyone", "A language is chosen `for: me`"),
    ],
)
async def test_a_choice_that_cannot_be_made_is_refused_politely_and_changes_nothing(
    service: GameService, where: Where, actor: Actor, choice: str, whose: str, refusal: str
) -> None:
    before = await service.languages(where, actor)
    reply = await service.set_language(where, actor, choice, whose)
    assert reply.public is None and reply.private is not None and reply.private.startswith(refusal)
    assert await service.languages(where, actor) == before
    assert await service.store.chosen_languages(actor.user_id, where.guild_id) == (None, None)


def test_help_names_each_command_as_its_readers_client_shows_it() -> None:
    """A German client shows `/keystone neu`, so German help must say that, not `/keystone new`."""
    from keystone.i18n import COMMANDS as DOMAIN
    from keystone.i18n import catalogue
    from keystone.i18n.commands import slash

    for lang in ("en", "de"):
        shown = {slash(lang, key[: -len(".name")].replace(".", " ")) for key in catalogue(lang, DOMAIN)
                 if key.endswith(".name") and not key.startswith("choice.")}
        named = set(re.findall(r"`(/[^` ]+(?: [^` :\[]+)?)", "".join(help_text(lang, t) for t in HELP_TOPICS)))
        assert named and named <= shown | {c.split()[0] for c in shown}, sorted(named - shown)


def test_help_names_every_command_a_player_can_type() -> None:
    """A command missing from help is one nobody finds: each top-level command (and `/keystone`,
    `/journal`) appears in each language's help as that language's client shows it."""
    import importlib
    import pkgutil

    import discord
    from discord.ext import commands

    import cogs
    from keystone.i18n.commands import slash

    top = set()
    for found in pkgutil.iter_modules(cogs.__path__):
        for value in vars(importlib.import_module(f"cogs.{found.name}")).values():
            if isinstance(value, type) and issubclass(value, commands.Cog) and value is not commands.Cog:
                top |= {c.name for c in value.__cog_app_commands__ if isinstance(c, discord.app_commands.Command
                                                                                  | discord.app_commands.Group)}
    assert {"take", "learn", "review", "keystone", "journal"} <= top
    for lang in ("en", "de"):
        pages = "".join(help_text(lang, topic) for topic in HELP_TOPICS)
        missing = sorted(name for name in top if f"`{slash(lang, name)}" not in pages)
        assert not missing, f"{lang} help does not name {missing}"
