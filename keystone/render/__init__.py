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


def warm_up() -> None:
    """Draw every card face, the board background and the shared palette now (under a second), so
    the first picture of a game is as quick as the rest. Optional: all is also drawn on first use."""

    for card in load_catalog().all_cards():
        card_face(card.id)
    empty_mat()
    shared_palette()


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
]
