"""The words players read, in one place: habitats, seasons, icons, goals, plurals and the way
each action is asked for. The pictures, the messages, the score sheet and the command line all
take their words from here, so a name is spelt the same everywhere and as the rulebook spells it.

Goal names and sentences follow the rulebook's "Secret Objective Goals Guide"; a diagonal is two
cards diagonally adjacent, and every pattern may be rotated (ruling 19).

Actions have two forms: on Discord a player uses slash commands, buttons and menus; in the
terminal a player types notation. `DISCORD_ACTIONS` and `TERMINAL_ACTIONS` hold each form, and
anything that tells a player how to act takes one of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from keystone.cards import Habitat, Pattern, Season, Symbol


def plural(count: int, word: str, many: str | None = None) -> str:
    """Say "1 card" or "3 cards" ("1 synergy", "2 synergy" with `many` = word for uncountable ones)."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {word + 's' if many is None else many}"


HABITAT_NAMES: Mapping[Habitat, str] = MappingProxyType({h: h.value.title() for h in Habitat})
"""Forest, Desert, Wetland, Arctic: the four habitats as the rulebook names them."""

SEASON_NAMES: Mapping[Season, str] = MappingProxyType({s: s.value.title() for s in Season})
"""Spring, Summer, Fall, Winter: a card's season, which never counts for synergy."""

KEYSTONE = "Keystone"
ENDANGERED = "Endangered"
TAG = "Tag"
RESEARCH = "research token"
SYNERGY = "synergy token"
WILD = "Wild card"

ICON_LABELS: Mapping[str, str] = MappingProxyType({
    **{h.value: n for h, n in HABITAT_NAMES.items()},
    **{s.value: n for s, n in SEASON_NAMES.items()},
    "keystone": KEYSTONE, "endangered": ENDANGERED, "tag": TAG, "research": "Research", "synergy": "Synergy",
})
"""Each icon's short label, by icon name: what a legend writes beside it, and the word a message
shows where it cannot show the icon."""

ICON_FILES: Mapping[str, str] = MappingProxyType({
    **{h.value: f"habitat-{h.value}" for h in Habitat},
    **{s.value: f"season-{s.value}" for s in Season},
    "keystone": "keystone", "endangered": "endangered", "tag": "tag",
    "research": "research", "synergy": "synergy",
})
"""Each icon a message may show, by name (forest, spring, keystone, ...), and its drawing's file
name under assets/icons/ without ".png"; the names are also the bot's emoji names on Discord."""


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

    def choices(self) -> str:
        """The actions of a turn, e.g. "/take, /skill or /wild"."""
        return f"{self.take}, {self.skill} or {self.wild}"


DISCORD_ACTIONS = ActionWords(
    take="/take", skill="/skill", resolve_all="/skill 0", wild="/wild", endturn="/endturn",
    resolve="a Resolve button", draw="Draw", skip="Skip / stop", place="the Place a card menu",
    pile="the discard pile menu", move="the Move menu", research="the Research menu",
    discard="the Discard menu",
)
"""The Discord forms: slash commands, and the buttons and menus the bot posts during a skill."""

TERMINAL_ACTIONS = ActionWords(
    take="take SLOT CELL", skill="skill N", resolve_all="skill 0", wild="wild HABITAT CELL",
    endturn="endturn", resolve="resolve N", draw="draw", skip="skip", place="place I CELL",
    pile="pile I", move="move FROM TO", research="research CELL", discard="discard SLOT",
)
"""The terminal forms: the notation a player types."""

GOAL_LETTERS = "ABCD"
"""The four goals of a secret objective card, lettered as printed."""

PATTERN_NAMES: Mapping[Pattern, str] = MappingProxyType({
    Pattern.L_SHAPE: "L Shaped",
    Pattern.LINE2: "2 in a Line",
    Pattern.COUNT3: "3 of a Type",
    Pattern.DIAGONAL: "Diagonal",
    Pattern.LINE3: "3 in a Line",
    Pattern.COUNT4: "4 of a Type",
})
"""Each pattern's name in the rulebook's goals guide."""

SYMBOL_NAMES: Mapping[Symbol, str] = MappingProxyType({s: s.value.title() for s in Symbol})

_NEEDS: Mapping[Pattern, str] = MappingProxyType({
    Pattern.L_SHAPE: "3 cards with the {symbol} icon placed in an L",
    Pattern.LINE2: "2 cards with the {symbol} icon next to each other in a line",
    Pattern.COUNT3: "3 or more cards with the {symbol} icon anywhere on your board",
    Pattern.DIAGONAL: "2 cards with the {symbol} icon diagonally touching each other",
    Pattern.LINE3: "3 cards with the {symbol} icon in a line",
    Pattern.COUNT4: "4 or more cards with the {symbol} icon anywhere on your board",
})
"""What each pattern asks for, in the goals guide's words; every pattern may be rotated."""


def goal_name(pattern: Pattern, symbol: Symbol) -> str:
    """A short label, e.g. "L Shaped, Summer"."""
    return f"{PATTERN_NAMES[pattern]}, {SYMBOL_NAMES[symbol]}"


def goal_sentence(pattern: Pattern, symbol: Symbol) -> str:
    """What the goal asks for at the end of the game, e.g. "3 cards with the Tag icon in a line"."""
    return _NEEDS[pattern].format(symbol=SYMBOL_NAMES[symbol])
