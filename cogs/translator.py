"""The slash commands in the client's language: German names, descriptions and choice names for German clients.

discord.py asks a `Translator` for every command, group, option and choice in every Discord locale while
it syncs; what it answers goes to Discord as `name_localizations` and `description_localizations`, and a
German client then shows `/keystone neu`. Discord still sends the English (default) names in the
interaction, so the cogs stay as they are and English is exactly what the cogs say.

The words live in the `commands` catalogue, keyed by the English path: `keystone.new.name`,
`keystone.new.description`, `keystone.new.players.description`, and `choice.<value>` for a choice (a
choice's value means the same wherever it is offered). A choice whose words must fit the option it
completes names its own key (`locale_str("This server", key="choice.server.for")`): German reads
"bereich: Dieser Server" but "für: diesen Server". The English catalogue holds the cogs' own words,
so a test sees when one of them changed and its German may be stale; `keystone.i18n.commands` reads the
same names for texts that name a command.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Location
from discord.app_commands import TranslationContextTypes

from keystone.engine.campaign import LAST_ASSIGNMENT
from keystone.i18n import COMMANDS as DOMAIN
from keystone.i18n import DEFAULT, catalogue, language

log = logging.getLogger(__name__)

PARAMS = {"last": LAST_ASSIGNMENT}
"""What the catalogue's placeholders stand for (the cogs write these numbers into their English)."""
NAMES = frozenset({Location.command_name, Location.group_name, Location.parameter_name})


def key_of(context: TranslationContextTypes, string: app_commands.locale_str | None = None) -> str | None:
    """The catalogue key of the string discord.py asks about, or None for one that is not a command's."""
    data = context.data
    if isinstance(data, app_commands.Choice):
        named = string.extras.get("key") if string is not None else None
        return str(named) if named else f"choice.{data.value}"
    if isinstance(data, app_commands.Parameter):
        path = f"{data.command.qualified_name} {data.display_name}"
    elif isinstance(data, app_commands.Command | app_commands.Group | app_commands.ContextMenu):
        path = data.qualified_name
    else:
        return None
    part = "name" if context.location in NAMES else "description"
    return f"{path.replace(' ', '.')}.{part}"


def words(locale: discord.Locale, key: str) -> str | None:
    """The text of `key` in the bot's language for `locale`, placeholders filled; None if the catalogue lacks it."""
    text = catalogue(language(locale.value), DOMAIN).get(key)
    return None if text is None else text.format(**PARAMS)


class CommandTranslator(app_commands.Translator):
    """German for German clients; None (Discord shows the English default) for every other locale.

    A key missing from the German catalogue is logged and left English, so the bot still starts;
    the tests fail on it before it ships."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: TranslationContextTypes) -> str | None:
        if language(locale.value) == DEFAULT:
            return None
        key = key_of(context, string)
        if key is None:
            return None
        text = words(locale, key)
        if text is None:
            log.warning("No %s words for %s (%r); Discord shows it in English", locale.value, key, string.message)
        return text
