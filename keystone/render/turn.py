"""The turn picture, posted once per turn (PIC_W x PIC_H, landscape, for Discord's inline box).

What a player needs at a glance is drawn large (round, who moved and what, who is next, the Field's
prices, the time marker, everyone's synergy); the full detail (card names) reads once clicked open.
`render_turn`: the mover's board on the left, the cards just placed framed; on the right the round,
who moved and what, who is next, the Field with its costs, the piles, the time track and the players.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from keystone.engine.views import GameView
from keystone.engine.words import ActionWords
from keystone.i18n import DEFAULT, Language, tr
from keystone.render import fonts
from keystone.render.board import check_cells
from keystone.render.common import canvas, png, require_seat, require_view
from keystone.render.palette import INK, MUTED, PAGE
from keystone.render.tabletop import field_grid, field_width, players_list, round_line, stage_mark, time_track
from keystone.render.tiles import MARGIN, MAT_W, PIC_H, PIC_W, board_mat, shown_name

RIGHT_X = MARGIN + MAT_W + 16
RIGHT_W = PIC_W - MARGIN - RIGHT_X
"""The column right of the board in the turn picture."""


def _piles_line(view: GameView, lang: Language) -> str:
    return (f"{tr(lang, 'picture.deck')} {view.deck_count}  ·  "
            f"{tr(lang, 'picture.discard')} {len(view.discard)}")


def _moved_text(view: GameView, mover: int, marked: Sequence[int], lang: Language) -> str:
    who = view.seats[mover].name
    board = view.seats[mover].board
    names = [shown_name(p.card, lang) for i in sorted(set(marked)) if (p := board[i]) is not None]
    if not names:
        return tr(lang, "picture.turn.board", who=who)
    return tr(lang, "picture.turn.placed", who=who, cards=", ".join(names))


def render_turn_image(view: GameView, mover: int, marked: Sequence[int] = (),
                      words: ActionWords | None = None, lang: Language = DEFAULT) -> Image.Image:
    view = require_view(view, "render_turn")
    mover = require_seat(view, mover)
    marked = check_cells(marked)
    image, draw = canvas(PIC_W, PIC_H, PAGE)
    mat = board_mat(view.seats[mover], marked, lang)
    image.paste(mat, (MARGIN, MARGIN), mat)
    x, width = RIGHT_X, RIGHT_W
    round_line(image, (x, MARGIN + 20), width, view, True, lang)
    y = MARGIN + 46
    for line in fonts.wrap(_moved_text(view, mover, marked, lang), 26, width, max_lines=2):
        fonts.draw_text(image, (x, y + 15), line, 26, INK, anchor="lm")
        y += 31
    y += 6
    fonts.draw_text(image, (x, y + 15), tr(lang, "picture.field"), 24, INK, anchor="lm", bold=True)
    fonts.draw_text(image, (x + width, y + 15), _piles_line(view, lang), 22, MUTED, anchor="rm")
    y += 36
    pitch = (width - field_width(view, lang)) // 2
    y += field_grid(image, draw, (x, y), pitch, view, lang) + 12
    y += time_track(image, draw, (x, y), width, view, lang, stage=stage_mark(view, lang)) + 12
    columns = 1 if len(view.seats) <= 2 else 2
    row_h = min(36, (PIC_H - MARGIN - y) // -(-len(view.seats) // columns))
    players_list(image, draw, (x, y), width, view, lang, columns, row_h)
    return image


def render_turn(view: GameView, mover: int, marked: Sequence[int] = (), words: ActionWords | None = None,
                lang: Language = DEFAULT) -> bytes:
    """PNG posted once per turn (1100 x 700, landscape, for Discord's inline box): `mover`'s board
    with the cells in `marked` (board indexes 0 = A1 to 15 = D4, the cards just placed) framed, and
    beside it the round, who moved and what they placed, who is next, the Field with its prices,
    the piles, the time track and everyone's synergy."""
    return png(render_turn_image(view, mover, marked, words, lang))


def changed_cells(before: GameView, after: GameView, seat: int) -> tuple[int, ...]:
    """The cells of `seat`'s board that hold a different card in `after` than in `before`: the
    cards placed (or moved there) between two views, for `render_turn`'s `marked`."""
    old = require_view(before, "changed_cells").seats[require_seat(before, seat)].board
    new = require_view(after, "changed_cells").seats[require_seat(after, seat)].board
    return tuple(i for i, (a, b) in enumerate(zip(old, new, strict=True))
                 if b is not None and (a is None or a.card != b.card))
