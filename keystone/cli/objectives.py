"""`python -m keystone objectives [--json] [--lang de]`: list the ten secret objective cards."""

from __future__ import annotations

import json
from collections.abc import Mapping

from keystone.cards import ObjectiveCard
from keystone.cli.options import listing_parser, parse
from keystone.data import load_catalog
from keystone.engine.words import GOAL_LETTERS, goal_sentence, pattern_name
from keystone.i18n import DEFAULT, Language, tr


def as_json(objectives: Mapping[int, ObjectiveCard]) -> dict[str, list[dict[str, str]]]:
    """The `--json` contract: card number (as text) -> its four goals."""
    return {
        str(n): [{"pattern": g.pattern.value, "symbol": g.symbol.value} for g in card.goals]
        for n, card in sorted(objectives.items())
    }


def listing(objectives: Mapping[int, ObjectiveCard], lang: Language = DEFAULT) -> str:
    """One block per card, goals lettered A to D as on the printed cards, in `lang`."""
    blocks = []
    for n, card in sorted(objectives.items()):
        lines = [tr(lang, "cli.objectives.card", number=n)]
        for letter, goal in zip(GOAL_LETTERS, card.goals, strict=True):
            sentence = goal_sentence(goal.pattern, goal.symbol, lang)
            lines.append(f"  {letter}. {pattern_name(goal.pattern, lang)}: {sentence}.")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def main(argv: list[str]) -> int:
    args = parse(listing_parser("objectives", argv), argv)
    if isinstance(args, int):
        return args
    objectives = load_catalog().objectives
    print(json.dumps(as_json(objectives), indent=2) if args.json else listing(objectives, args.lang))
    return 0
