"""Which language the bot speaks in an answer: the one rule, in one place.

A private answer (only the asker sees it) is in the person's chosen language, else their Discord
client's locale, else English. A public message is in the server's chosen language, else the
server's Discord locale, else English. In a direct message there is no server, so public is private.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from keystone.engine import IllegalAction
from keystone.i18n import LANGUAGE_NAMES, Language, UnknownLanguage, checked, language, tr

LanguageChoice = Literal["en", "de", "auto"]
"""What `/keystone language` offers: a language, or `auto` to follow Discord's locale again."""
Whose = Literal["me", "server"]
"""Whose language `/keystone language` sets: the asker's own, or the server's (its managers only)."""
WHOSE: tuple[Whose, ...] = ("me", "server")


class Languages(NamedTuple):
    """The language of the answers only the asker sees, and of the messages everyone here sees."""

    private: Language
    public: Language


def resolve(chosen: Language | None, locale: str | None, server_chosen: Language | None,
            server_locale: str | None, *, in_dm: bool) -> Languages:
    """The languages of one interaction, from the stored choices and Discord's locales."""
    private = chosen or language(locale)
    return Languages(private, private if in_dm else server_chosen or language(server_locale))


def parse(choice: str, scope: str, speaking: Language) -> tuple[Language | None, Whose]:
    """`/keystone language`'s options checked: the language (None for `auto`) and for whom; a
    refusal in `speaking` (the asker's language now) for anything else."""
    if scope not in WHOSE:
        raise IllegalAction(tr(speaking, "language.scope.unknown"))
    found_scope: Whose = "me" if scope == "me" else "server"
    if choice == "auto":
        return None, found_scope
    try:
        return checked(choice), found_scope
    except UnknownLanguage:
        raise IllegalAction(tr(speaking, "language.unknown", languages=", ".join(LANGUAGE_NAMES.values()))) from None


def client_words(locale: str | None, key: str, /) -> str:
    """A sentence the Discord layer says on its own (no service call answers, or it failed), in
    the language of the person's Discord client: the one locale it has without asking the store."""
    return tr(language(locale), key)


def confirmation(lang: Language, scope: Whose, *, followed: bool) -> str:
    """The answer to a language choice, in the language now spoken there (`followed`: back to Discord's)."""
    key = f"language.{'auto' if followed else 'set'}.{'user' if scope == 'me' else 'server'}"
    return tr(lang, key, language=LANGUAGE_NAMES[lang])
