"""`python -m keystone objectives [--json]`: list the ten secret objective cards."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping

from keystone.cards import ObjectiveCard, Pattern
from keystone.data import load_catalog

USAGE = "usage: python -m keystone objectives [--json]"

PATTERN_NAMES: Mapping[Pattern, str] = {
    Pattern.L_SHAPE: "L shape of 3",
    Pattern.LINE2: "2 in a line",
    Pattern.DIAGONAL: "2 on a diagonal",
    Pattern.LINE3: "3 in a line",
    Pattern.COUNT3: "3 anywhere",
    Pattern.COUNT4: "4 anywhere",
}


def as_json(objectives: Mapping[int, ObjectiveCard]) -> dict[str, list[dict[str, str]]]:
    """The `--json` contract: card number (as text) -> its four goals."""
    return {
        str(n): [{"pattern": g.pattern.value, "symbol": g.symbol.value} for g in card.goals]
        for n, card in sorted(objectives.items())
    }


def listing(objectives: Mapping[int, ObjectiveCard]) -> str:
    """One block per card, goals lettered A to D as on the printed cards."""
    blocks = []
    for n, card in sorted(objectives.items()):
        lines = [f"Objective {n}"]
        for letter, goal in zip("ABCD", card.goals, strict=True):
            lines.append(f"  {letter}. {PATTERN_NAMES[goal.pattern]:<16} {goal.symbol.value.title()}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def main(argv: list[str]) -> int:
    if any(a in {"-h", "--help"} for a in argv):
        print(USAGE)
        return 0
    unknown = [a for a in argv if a != "--json"]
    if unknown:
        print(f"Unknown option {unknown[0]!r}. {USAGE}", file=sys.stderr)
        return 2
    objectives = load_catalog().objectives
    print(json.dumps(as_json(objectives), indent=2) if "--json" in argv else listing(objectives))
    return 0
