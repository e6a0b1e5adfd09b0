"""`python -m keystone objectives [--json]`: list the ten secret objective cards."""

from __future__ import annotations

import json
from collections.abc import Mapping

from keystone.cards import ObjectiveCard
from keystone.cli.options import listing_parser, parse
from keystone.data import load_catalog
from keystone.engine.words import GOAL_LETTERS, PATTERN_NAMES, goal_sentence


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
        for letter, goal in zip(GOAL_LETTERS, card.goals, strict=True):
            lines.append(f"  {letter}. {PATTERN_NAMES[goal.pattern]}: {goal_sentence(goal.pattern, goal.symbol)}.")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def main(argv: list[str]) -> int:
    args = parse(listing_parser("python -m keystone objectives", "Print the ten secret objective cards."), argv)
    if isinstance(args, int):
        return args
    objectives = load_catalog().objectives
    print(json.dumps(as_json(objectives), indent=2) if args.json else listing(objectives))
    return 0
