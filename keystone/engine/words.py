"""The words for secret-objective goals, in one place: the pictures, the messages, the score
sheet and the command line all name and explain a goal with these, as the rulebook does.

Names and sentences follow the rulebook's "Secret Objective Goals Guide"; a diagonal is two
cards diagonally adjacent, and every pattern may be rotated (ruling 19).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from keystone.cards import Pattern, Symbol

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
