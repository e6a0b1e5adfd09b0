"""The picture of one costly turn in a game's review (PIC_W x PIC_H, landscape, like the turn picture).

Left, the player's board at that moment with the hard bot's better move on it, its cell framed as
the turn picture frames a card just placed; the cell the player chose instead is outlined in red.
Right, how much the turn cost, both moves in words (given, in the reader's language), and under
them the part of the table the better move uses: the Field as it was with the slot it takes framed,
or, for a skill, the skill tokens with the one it uses framed (every exhausted one for "all") and
the player's own token outlined in red. Drawn from views only (the game is over).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from keystone.engine.views import GameView, SeatView
from keystone.i18n import DEFAULT, Language
from keystone.render import fonts
from keystone.render.common import png, require_view
from keystone.render.palette import ALERT, HIGHLIGHT, INK, MUTED
from keystone.render.table import skill_block, skills_head_width
from keystone.render.tabletop import FIELD_ROW_H, field_grid, field_width, slot_origin
from keystone.render.tiles import (
    MARGIN,
    MARK,
    MAT_W,
    PIC_H,
    PIC_W,
    TILE_H,
    TILE_W,
    board_page,
    paste_board,
    tile_origin,
)

RIGHT_X = MARGIN + MAT_W + 16
RIGHT_W = PIC_W - MARGIN - RIGHT_X
HEADING = 30
WORDS = 24
LINE = 29
FIELD_ROWS_H = 2 * FIELD_ROW_H
"""The Field's six slots, three to a row, under the words."""
TWO_LINE_TOKEN = 10 + 2 * 23 + 4 + 6
"""The height of a skill token's line whose summary takes two lines, and the gap under it."""


def render_review_turn(view: GameView, board: SeatView, heading: str, moves: Sequence[tuple[str, str]],
                       better: int | None = None, chosen: int | None = None, slot: int | None = None,
                       lang: Language = DEFAULT, skill: int | None = None, chosen_skill: int | None = None) -> bytes:
    """PNG of a reviewed turn: `board` (the player's, with the better move on it) with cell `better`
    framed and cell `chosen` (where the player put their card) outlined; `heading` and each
    (label, words) of `moves` on the right, above `view`'s Field with `slot` (0-based) framed, or,
    when the better move uses skill token `skill` (0: every exhausted one), above the skill tokens
    with it framed and the player's `chosen_skill` outlined."""
    view = require_view(view, "render_review_turn")
    image = board_page((PIC_W, PIC_H), (MARGIN, MARGIN)).copy()
    paste_board(image, (MARGIN, MARGIN), board, () if better is None else (better,), lang)
    draw = ImageDraw.Draw(image)
    if chosen is not None and chosen != better:
        x, y = tile_origin(chosen)
        draw.rounded_rectangle((MARGIN + x - 2, MARGIN + y - 2, MARGIN + x + TILE_W + 1, MARGIN + y + TILE_H + 1),
                               radius=11, outline=ALERT, width=3)
    y = MARGIN + 4
    for line in fonts.wrap(heading, HEADING, RIGHT_W, max_lines=2):
        fonts.draw_text(image, (RIGHT_X, y + HEADING // 2), line, HEADING, INK, anchor="lm", bold=True)
        y += HEADING + 6
    room = PIC_H - MARGIN - FIELD_ROWS_H - 8 - y
    most = max(1, (room // LINE - len(moves)) // max(1, len(moves)))
    for label, words in moves:
        fonts.draw_text(image, (RIGHT_X, y + 14), label, WORDS - 2, MUTED, anchor="lm", bold=True)
        y += LINE - 2
        for line in fonts.wrap(words, WORDS, RIGHT_W, max_lines=most):
            fonts.draw_text(image, (RIGHT_X, y + 14), line, WORDS, INK, anchor="lm")
            y += LINE
        y += 4
    top = PIC_H - MARGIN - FIELD_ROWS_H
    if skill is not None:
        _skills(image, draw, top, view, skill, chosen_skill, lang)
        return png(image)
    pitch = (RIGHT_W - field_width(view, lang)) // 2
    field_grid(image, (RIGHT_X, top), pitch, view, lang)
    if slot is not None and 0 <= slot < len(view.field):
        left, y = slot_origin((RIGHT_X, top), pitch, slot)
        x = left + (field_width(view, lang) - TILE_W) // 2
        draw.rounded_rectangle((x - 3, y - 3, x + TILE_W + 2, y + TILE_H + 2), radius=11, outline=HIGHLIGHT,
                               width=MARK)
    return png(image)


def _skills(image: Image.Image, draw: ImageDraw.ImageDraw, top: int, view: GameView, better: int,
            chosen: int | None, lang: Language) -> None:
    """The skill tokens one to a line in the Field's place: the better move's framed (every
    exhausted one when it resolves them all), the player's own outlined in red."""
    y, head_w = top, skills_head_width(view, lang)
    lines = 2 if len(view.skills) * TWO_LINE_TOKEN <= FIELD_ROWS_H else 1  # a summary wraps rather than ends in "..."
    for token in view.skills:
        high = skill_block(image, draw, (RIGHT_X + 6, y), RIGHT_W - 12, token, text_lines=lines, lang=lang,
                           flip=False, head_w=head_w)
        box = (RIGHT_X, y - 4, RIGHT_X + RIGHT_W - 2, y + high)
        if token.number == better or (better == 0 and token.exhausted):
            draw.rounded_rectangle(box, radius=10, outline=HIGHLIGHT, width=MARK)
        elif chosen is not None and (token.number == chosen or (chosen == 0 and token.exhausted)):
            draw.rounded_rectangle(box, radius=10, outline=ALERT, width=3)
        y += high + 6
