"""`python -m keystone cards [--json]`: list every card, species first, then the Wild cards."""

from __future__ import annotations

import json
from typing import Any

from keystone.cards import Card
from keystone.cli.options import listing_parser, parse
from keystone.data import load_catalog


def card_record(card: Card) -> dict[str, Any]:
    """The machine-readable shape of one card (the `--json` contract)."""
    return {
        "name": card.name,
        "number": card.number,
        "habitats": [h.value for h in card.habitats],
        "season": card.season.value if card.season is not None else None,
        "keystone": card.keystone,
        "endangered": card.endangered,
        "tag": card.tag,
        "wild": card.wild,
    }


def _icons(card: Card) -> str:
    marks = [("Keystone", card.keystone), ("Endangered", card.endangered), ("Tag", card.tag)]
    return ", ".join(name for name, on in marks if on)


def table(cards: tuple[Card, ...]) -> str:
    """An aligned, human-readable table of the cards."""
    rows = [("No", "Name", "Habitats", "Season", "Icons")]
    for c in cards:
        number = "W" if c.number is None else str(c.number)
        season = c.season.value.title() if c.season is not None else "-"
        habitats = ", ".join(h.value.title() for h in c.habitats)
        rows.append((number, c.name, habitats, season, _icons(c)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    args = parse(listing_parser("python -m keystone cards", "Print every card: species, then Wild cards."), argv)
    if isinstance(args, int):
        return args
    cards = load_catalog().all_cards()
    if args.json:
        print(json.dumps([card_record(c) for c in cards], indent=2))
    else:
        print(table(cards))
    return 0
