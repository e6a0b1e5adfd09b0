"""Every word a player reads, in each language the bot speaks: English (the default) and German.

Words live in gettext catalogues (`locale/<language>/LC_MESSAGES/<domain>.po`), read with Babel,
one message per key. The messages are every domain but `commands` (the slash commands' own names),
one file per area (game words, events, replies, pictures, rules ...), so areas grow apart; a key
belongs to one domain only: `tr("de", "habitat.forest")` is "Wald". A message's placeholders are Python
format fields (`{name}`); every key exists in every language with the same placeholders (a test
checks). Counts take a key's `.one` or `.other` form (`trn`). Numbers and dates inside a sentence
are written as the language writes them (`decimal`, `day_text`, through Babel): "61.4" and
"2026-12-01" in English, "61,4" and "1.12.2026" in German. This module imports nothing of the game,
so the engine's words, the pictures, the messages and the command line can all use it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from datetime import date
from pathlib import Path
from types import MappingProxyType
from typing import Literal, get_args

from babel.dates import format_date
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

Language = Literal["en", "de"]
LANGUAGES: tuple[Language, ...] = get_args(Language)
DEFAULT: Language = "en"
LANGUAGE_NAMES: Mapping[Language, str] = MappingProxyType({"en": "English", "de": "Deutsch"})
"""Each language in its own words, as a player choosing it would look for it."""
LOCALE = Path(__file__).resolve().parent / "locale"
DOMAIN = "keystone"
COMMANDS = "commands"
"""The slash commands' names and descriptions (see `keystone.i18n.commands`), apart from the messages."""


class UnknownLanguage(ValueError):
    """A language the bot does not speak."""


def language(code: str | None) -> Language:
    """The bot's language for a Discord locale or a language code ("de", "de-DE", "en-GB", None):
    German for any German locale, else English."""
    if code is not None and code.strip().lower().split("-")[0].split("_")[0] == "de":
        return "de"
    return DEFAULT


def checked(code: object) -> Language:
    """A language code the bot speaks, exactly ("en" or "de"); raises `UnknownLanguage` otherwise.
    The one check: the store and `/keystone language` each say the refusal their own way."""
    for lang in LANGUAGES:
        if code == lang:
            return lang
    raise UnknownLanguage(f"The bot speaks {', '.join(LANGUAGE_NAMES.values())}; {code!r} is not one of them.")


def catalogue_path(lang: Language, domain: str = DOMAIN) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"


@functools.cache
def catalogue(lang: Language, domain: str = DOMAIN) -> Mapping[str, str]:
    """Every message of one language: key -> text (read once)."""
    with catalogue_path(lang, domain).open("rb") as source:
        read = read_po(source, locale=lang, domain=domain)
    return MappingProxyType({str(m.id): str(m.string) for m in read if m.id and isinstance(m.id, str)})


def domains() -> tuple[str, ...]:
    """The message domains: every catalogue of the default language but the commands'."""
    found = sorted(p.stem for p in (LOCALE / DEFAULT / "LC_MESSAGES").glob("*.po"))
    return tuple(d for d in found if d != COMMANDS)


@functools.cache
def messages(lang: Language) -> Mapping[str, str]:
    """Every message of one language, from all its message domains: key -> text."""
    merged: dict[str, str] = {}
    for domain in domains():
        merged.update(catalogue(lang, domain))
    return MappingProxyType(merged)


def tr(lang: Language, key: str, /, **params: object) -> str:
    """The message `key` in `lang`, its placeholders filled from `params`."""
    return messages(lang)[key].format(**params)


def trn(lang: Language, key: str, count: int, /, **params: object) -> str:
    """The message `key.one` for a count of 1, else `key.other`; `{count}` is filled too."""
    return tr(lang, f"{key}.{'one' if count == 1 else 'other'}", count=count, **params)


def decimal(lang: Language, value: float, places: int = 0) -> str:
    """A number as `lang` writes it in a sentence, with exactly `places` decimals and no grouping:
    `decimal("de", 61.44, 1)` is "61,4", `decimal("en", 61.44, 1)` is "61.4"."""
    pattern = "0" + ("." + "0" * places if places else "")
    return format_decimal(value, format=pattern, locale=lang, decimal_quantization=True)


def day_text(lang: Language, day: date | str) -> str:
    """A calendar day (a date or `YYYY-MM-DD`) as `lang` writes it in a sentence: "2026-12-01" in
    English (as the bot always has), "1.12.2026" in German."""
    when = date.fromisoformat(day) if isinstance(day, str) else day
    return when.isoformat() if lang == "en" else format_date(when, "d.M.yyyy", locale=lang)
