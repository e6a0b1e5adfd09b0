"""`python -m keystone cards [--json] [--lang de]`: list every card, species first, then the Wild cards."""

from __future__ import annotations

import json
from typing import Any

from keystone.cards import Card
from keystone.cli.options import listing_parser, parse
from keystone.data import load_catalog
from keystone.engine.words import habitat_name, icon_label, season_name
from keystone.i18n import DEFAULT, Language, tr


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


def _icons(card: Card, lang: Language) -> str:
    marks = [("keystone", card.keystone), ("endangered", card.endangered), ("tag", card.tag)]
    return ", ".join(icon_label(name, lang) for name, on in marks if on)


COLUMNS = ("number", "name", "habitats", "season", "icons")


def table(cards: tuple[Card, ...], lang: Language = DEFAULT) -> str:
    """An aligned, human-readable table of the cards, in `lang`."""
    rows = [tuple(tr(lang, f"cli.cards.{column}") for column in COLUMNS)]
    for c in cards:
        number = "W" if c.number is None else str(c.number)
        season = season_name(c.season, lang) if c.season is not None else "-"
        habitats = ", ".join(habitat_name(h, lang) for h in c.habitats)
        rows.append((number, c.name_in(lang), habitats, season, _icons(c, lang)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    args = parse(listing_parser("cards", argv), argv)
    if isinstance(args, int):
        return args
    cards = load_catalog().all_cards()
    if args.json:
        print(json.dumps([card_record(c) for c in cards], indent=2))
    else:
        print(table(cards, args.lang))
    return 0
