"""The words players read, in one place: habitats, seasons, icons, goals, plurals and the way
each action is asked for. The pictures, the messages, the score sheet and the command line all
take their words from here, so a name is spelt the same everywhere and as the rulebook spells it.
The words themselves live in the catalogues of `keystone.i18n` (English, and German as the German
edition says them); the module-level names are the English words, and each accessor takes a
language.

Goal names and sentences follow the rulebook's "Secret Objective Goals Guide"; a diagonal is two
cards diagonally adjacent, and every pattern may be rotated (ruling 19).

Actions have two forms: on Discord a player uses slash commands, buttons and menus; in the
terminal a player types notation. `DISCORD_ACTIONS` and `TERMINAL_ACTIONS` hold each form, and
anything that tells a player how to act takes one of them.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Literal

from keystone.cards import Habitat, Pattern, Season, Symbol
from keystone.i18n import DEFAULT, Language, tr, trn


def plural(count: int, word: str, many: str | None = None) -> str:
    """Say "1 card" or "3 cards" ("1 synergy", "2 synergy" with `many` = word for uncountable ones)."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {word + 's' if many is None else many}"


def counted(key: str, count: int, lang: Language = DEFAULT) -> str:
    """A counted game word in `lang`, e.g. `counted("token.synergy", 3, "de")` is "3 Eicheln";
    `key` names a word with `.count` forms in the catalogue."""
    return trn(lang, f"{key}.count", count)


def habitat_name(habitat: Habitat, lang: Language = DEFAULT) -> str:
    """Forest, Desert, Wetland, Arctic (Wald, Wüste, Feuchtgebiet, Arktis)."""
    return tr(lang, f"habitat.{habitat.value}")


def season_name(season: Season, lang: Language = DEFAULT) -> str:
    """Spring, Summer, Fall, Winter (Frühling, Sommer, Herbst, Winter)."""
    return tr(lang, f"season.{season.value}")


def icon_label(name: str, lang: Language = DEFAULT) -> str:
    """Each icon's short label, by icon name (a habitat, a season, keystone, endangered, tag,
    research, synergy): what a legend writes beside it, and the word a message shows where it
    cannot show the icon."""
    if name in {h.value for h in Habitat}:
        return habitat_name(Habitat(name), lang)
    if name in {s.value for s in Season}:
        return season_name(Season(name), lang)
    return tr(lang, f"icon.{name}")


def symbol_name(symbol: Symbol, lang: Language = DEFAULT) -> str:
    """What a goal counts: a season, Endangered or Tag."""
    return icon_label(symbol.value, lang)


def pattern_name(pattern: Pattern, lang: Language = DEFAULT) -> str:
    """A pattern's name in the rulebook's goals guide (L Shaped, 2 in a Line, ...)."""
    return tr(lang, f"pattern.{pattern.value}")


HABITAT_NAMES: Mapping[Habitat, str] = MappingProxyType({h: habitat_name(h) for h in Habitat})
"""Forest, Desert, Wetland, Arctic: the four habitats as the rulebook names them."""

SEASON_NAMES: Mapping[Season, str] = MappingProxyType({s: season_name(s) for s in Season})
"""Spring, Summer, Fall, Winter: a card's season, which never counts for synergy."""

KEYSTONE = icon_label("keystone")
ENDANGERED = icon_label("endangered")
TAG = icon_label("tag")
RESEARCH = tr(DEFAULT, "token.research")
SYNERGY = tr(DEFAULT, "token.synergy")
WILD = tr(DEFAULT, "word.wild")

ICON_FILES: Mapping[str, str] = MappingProxyType({
    **{h.value: f"habitat-{h.value}" for h in Habitat},
    **{s.value: f"season-{s.value}" for s in Season},
    "keystone": "keystone", "endangered": "endangered", "tag": "tag",
    "research": "research", "synergy": "synergy",
})
"""Each icon a message may show, by name (forest, spring, keystone, ...), and its drawing's file
name under assets/icons/ without ".png"; the names are also the bot's emoji names on Discord."""

ICON_LABELS: Mapping[str, str] = MappingProxyType({name: icon_label(name) for name in ICON_FILES})
"""Each icon's English label, by icon name (`icon_label` for another language)."""


@dataclass(frozen=True)
class ActionWords:
    """How a player asks for each action, in one of the two places the game is played."""

    take: str
    skill: str
    resolve_all: str
    wild: str
    endturn: str
    resolve: str
    draw: str
    skip: str
    place: str
    pile: str
    move: str
    research: str
    discard: str
    lang: Language = DEFAULT

    def choices(self) -> str:
        """The actions of a turn, e.g. "/take, /skill or /wild"."""
        return tr(self.lang, "action.choices", take=self.take, skill=self.skill, wild=self.wild)


Place = Literal["discord", "terminal"]
"""Where the game is played: Discord (slash commands, buttons, menus) or the terminal (notation)."""


@functools.cache
def action_words(place: Place, lang: Language = DEFAULT) -> ActionWords:
    """The way each action is asked for on Discord or in the terminal, in `lang`."""
    names = [f.name for f in fields(ActionWords) if f.name != "lang"]
    return ActionWords(**{name: tr(lang, f"action.{place}.{name}") for name in names}, lang=lang)


DISCORD_ACTIONS = action_words("discord")
"""The Discord forms: slash commands, and the buttons and menus the bot posts during a skill."""

TERMINAL_ACTIONS = action_words("terminal")
"""The terminal forms: the notation a player types."""

GOAL_LETTERS = "ABCD"
"""The four goals of a secret objective card, lettered as printed."""

PATTERN_NAMES: Mapping[Pattern, str] = MappingProxyType({p: pattern_name(p) for p in Pattern})
"""Each pattern's English name in the rulebook's goals guide (`pattern_name` for another language)."""

SYMBOL_NAMES: Mapping[Symbol, str] = MappingProxyType({s: symbol_name(s) for s in Symbol})


def goal_name(pattern: Pattern, symbol: Symbol, lang: Language = DEFAULT) -> str:
    """A short label, e.g. "L Shaped, Summer" ("L-Form, Sommer")."""
    return tr(lang, "goal.name", pattern=pattern_name(pattern, lang), symbol=symbol_name(symbol, lang))


def goal_sentence(pattern: Pattern, symbol: Symbol, lang: Language = DEFAULT) -> str:
    """What the goal asks for at the end of the game, in the goals guide's words (every pattern may
    be rotated), e.g. "3 cards with the Tag icon in a line"."""
    return tr(lang, f"goal.{pattern.value}", symbol=symbol_name(symbol, lang))
