"""The slash commands' names in each language, for any text that names a command.

A German client shows `/keystone neu`, so help and messages for a German player should say that too:
`slash("de", "keystone new")` is "/keystone neu", `option("de", "keystone new", "mode")` is "modus".
The names come from the `commands` catalogue, the same one the bot registers its commands with, keyed
by the English path (`keystone.new.name`); the English catalogue holds the cogs' own names.
"""

from __future__ import annotations

from keystone.i18n import COMMANDS as DOMAIN
from keystone.i18n import Language, catalogue


def _name(lang: Language, words: list[str]) -> str:
    return catalogue(lang, DOMAIN)[".".join([*words, "name"])]


def slash(lang: Language, path: str) -> str:
    """The command as a client in `lang` shows it: "/keystone neu" for ("de", "keystone new")."""
    words = path.split()
    return "/" + " ".join(_name(lang, words[:n]) for n in range(1, len(words) + 1))


def option(lang: Language, path: str, name: str) -> str:
    """An option's name as a client in `lang` shows it: "modus" for ("de", "keystone new", "mode")."""
    return _name(lang, [*path.split(), name])
