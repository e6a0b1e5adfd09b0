"""Pictures and text of a game, drawn from a view only (never the full state with hidden cards).

Images are PNG bytes, deterministic (the same view gives the same bytes), landscape and at most
1100 x 700 with no text under 18 px: Discord shows a picture inline scaled into a box of about
550 x 350, so each shows at half its size or more (tests/test_render_inline.py holds them to it).
Text is drawn with the Noto typefaces installed by requirements.txt, pinned so every machine draws
the same pixels, with a fallback per character (fonts.py) for any script a Discord name holds.
Every entry point takes `lang` (English by default): each word drawn comes from the `pictures`
catalogue or the game's words, and a German word too long for its line breaks rather than shrinks.
"""

from __future__ import annotations

from keystone.data import load_catalog
from keystone.i18n import DEFAULT, Language
from keystone.render import fonts, tabletop, tiles
from keystone.render.board import empty_mat, render_board
from keystone.render.cards import card_face
from keystone.render.common import png
from keystone.render.encode import shared_palette
from keystone.render.private import render_hand, render_objective
from keystone.render.replay import render_replay
from keystone.render.scoresheet import render_scoresheet
from keystone.render.table import render_table
from keystone.render.text import describe_card, text_board, text_scores, text_table
from keystone.render.turn import changed_cells, render_turn


def warm_up(lang: Language = DEFAULT) -> None:
    """Draw every card face, the board background and the shared palette now (about a second), so
    the first picture of a game is not slowed by them. Optional: all is also drawn on first use."""
    shared_palette()
    for card in load_catalog().all_cards():
        card_face(card.id, lang)
    empty_mat()


def warm_up_more(lang: Language = DEFAULT) -> None:
    """After `warm_up`, what the turn picture is made of (half a second): every card's tile on a
    cell and on the Field, mapped onto the palette, and the letters of names at their usual sizes,
    for a measurement of warm pictures (bench/). A bot draws them on first use instead: doing it
    up front saves no work, and would make a new picture worker ready later."""
    tiles.warm_up(lang)
    tabletop.warm_up(lang)
    fonts.warm_up()


def render_card(card_id: str, lang: Language = DEFAULT) -> bytes:
    """PNG of one card face, named in `lang` (KeyError for an unknown id)."""
    return png(card_face(card_id, lang))


__all__ = [
    "changed_cells",
    "describe_card",
    "render_board",
    "render_card",
    "render_hand",
    "render_objective",
    "render_replay",
    "render_scoresheet",
    "render_table",
    "render_turn",
    "text_board",
    "text_scores",
    "text_table",
    "warm_up",
    "warm_up_more",
]
