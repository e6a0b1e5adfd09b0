"""The turn picture, posted once per turn (PIC_W x PIC_H, landscape, for Discord's inline box).

What a player needs at a glance is drawn large (round, who moved and what, who is next, the Field's
prices, the time marker, everyone's synergy); the full detail (card names) reads once clicked open.
`render_turn`: the mover's board on the left, the cards just placed framed; on the right the round,
who moved and what, who is next, the Field with its costs, the piles, the time track and the players.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from PIL import Image, ImageDraw

from keystone.engine.board import new_cards
from keystone.engine.views import GameView
from keystone.engine.words import ActionWords
from keystone.i18n import DEFAULT, Language, tr
from keystone.render import encode, fonts
from keystone.render.board import check_cells
from keystone.render.common import band, require_seat, require_view
from keystone.render.palette import ALERT, INK, MUTED
from keystone.render.tabletop import (
    FIELD_ROW_H,
    field_grid,
    field_width,
    players_list,
    round_line,
    slot_origin,
    stage_mark,
    time_track,
)
from keystone.render.tiles import (
    MARGIN,
    MAT_W,
    PIC_H,
    PIC_W,
    TILE_H,
    TILE_W,
    board_page,
    indexed_board_page,
    paste_board,
    shown_name,
    tile_origin,
)

SPLIT = MARGIN + MAT_W
"""Where the board ends: left of it, cached pieces only; right of it, what is drawn afresh each turn."""
RIGHT_X = SPLIT + 16
RIGHT_W = PIC_W - MARGIN - RIGHT_X
"""The column right of the board in the turn picture."""

Pointer = tuple[Literal["cell", "slot", "time"], int]
"""What a picture points at, framed in a colour of its own: a board cell (0 = A1), a Field slot (0 =
the first) or the time track (the number is unused): where a lesson's next move happens."""
POINTER_W = 6


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


def _paint_column(picture: Image.Image, view: GameView, mover: int, marked: Sequence[int], lang: Language,
                  pointers: Sequence[Pointer] = ()) -> None:
    """Everything right of the board onto `picture` (RGB, or indexed: then only the heading and the
    footer are drawn and mapped; the Field between them is copied in from kept pieces), and the
    pointers' frames that point at the Field or the time track."""
    x, width = RIGHT_X - SPLIT, RIGHT_W
    moved = fonts.wrap(_moved_text(view, mover, marked, lang), 26, width, max_lines=2)
    field_y = MARGIN + 46 + 31 * len(moved) + 6 + 36
    band(picture, (SPLIT, 0), (PIC_W - SPLIT, field_y), lambda image: _heading(image, x, width, moved, view, lang))
    pitch = (width - field_width(view, lang)) // 2
    track_y = field_y + field_grid(picture, (RIGHT_X, field_y), pitch, view, lang) + 12
    band(picture, (SPLIT, track_y), (PIC_W - SPLIT, PIC_H - track_y),
         lambda image: _footer(image, x, width, view, lang))
    for kind, at in pointers:
        if kind == "slot":
            left, top = slot_origin((RIGHT_X, field_y), pitch, at)
            _frame(picture, (left - 2, top - 4, left + field_width(view, lang) + 2, top + FIELD_ROW_H - 4))
        elif kind == "time":
            _frame(picture, (RIGHT_X - 6, track_y - 6, PIC_W - MARGIN + 4, track_y + 52))


def _frame(picture: Image.Image, box: tuple[int, int, int, int]) -> None:
    """The pointer's frame around `box`, in the alert colour (apart from the placed cards' frame)."""
    colour = encode.palette_index(ALERT) if picture.mode == "P" else ALERT
    ImageDraw.Draw(picture).rounded_rectangle(box, radius=12, outline=colour, width=POINTER_W)


def _point_at_cells(picture: Image.Image, pointers: Sequence[Pointer]) -> None:
    """Frame the board cells pointers point at (the board's top-left corner at MARGIN, MARGIN)."""
    for kind, at in pointers:
        if kind == "cell":
            x, y = tile_origin(at)
            _frame(picture, (MARGIN + x - 7, MARGIN + y - 7, MARGIN + x + TILE_W + 6, MARGIN + y + TILE_H + 6))


def _heading(image: Image.Image, x: int, width: int, moved: list[str], view: GameView, lang: Language) -> None:
    """The round and who is next, who moved and what, and the Field's title with the piles."""
    round_line(image, (x, MARGIN + 20), width, view, True, lang)
    y = MARGIN + 46
    for line in moved:
        fonts.draw_text(image, (x, y + 15), line, 26, INK, anchor="lm")
        y += 31
    y += 6
    fonts.draw_text(image, (x, y + 15), tr(lang, "picture.field"), 24, INK, anchor="lm", bold=True)
    fonts.draw_text(image, (x + width, y + 15), _piles_line(view, lang), 22, MUTED, anchor="rm")


def _footer(image: Image.Image, x: int, width: int, view: GameView, lang: Language) -> None:
    """The time track and, under it, the players (two columns of them for three or four)."""
    y = time_track(image, (x, 0), width, view, lang, stage=stage_mark(view, lang)) + 12
    columns = 1 if len(view.seats) <= 2 else 2
    row_h = min(36, (image.height - MARGIN - y) // -(-len(view.seats) // columns))
    players_list(image, ImageDraw.Draw(image), (x, y), width, view, lang, columns, row_h)


def _checked(view: GameView, mover: int, marked: Sequence[int]) -> tuple[GameView, int, Sequence[int]]:
    view = require_view(view, "render_turn")
    return view, require_seat(view, mover), check_cells(marked)


def render_turn_image(view: GameView, mover: int, marked: Sequence[int] = (),
                      words: ActionWords | None = None, lang: Language = DEFAULT,
                      pointers: Sequence[Pointer] = ()) -> Image.Image:
    """The turn picture in RGB (`render_turn` has its pixels, mapped onto the palette)."""
    view, mover, marked = _checked(view, mover, marked)
    image = board_page((PIC_W, PIC_H), (MARGIN, MARGIN)).copy()
    paste_board(image, (MARGIN, MARGIN), view.seats[mover], marked, lang)
    _paint_column(image, view, mover, marked, lang, pointers)
    _point_at_cells(image, pointers)
    return image


def render_turn(view: GameView, mover: int, marked: Sequence[int] = (), words: ActionWords | None = None,
                lang: Language = DEFAULT, pointers: Sequence[Pointer] = ()) -> bytes:
    """PNG posted once per turn (1100 x 700, landscape, for Discord's inline box): `mover`'s board
    with the cells in `marked` (board indexes 0 = A1 to 15 = D4, the cards just placed) framed, and
    beside it the round, who moved and what they placed, who is next, the Field with its prices,
    the piles, the time track and everyone's synergy. `pointers` frame, in a colour of their own,
    where a lesson's next move happens (a cell, a Field slot or the time track).

    Drawn straight onto the palette where it can be: the board and the Field are copied in from
    pieces kept mapped onto it, and only the words above and below the Field are drawn in RGB and
    mapped, so a turn maps a fifth of its pixels, not all."""
    view, mover, marked = _checked(view, mover, marked)
    picture = indexed_board_page((PIC_W, PIC_H), (MARGIN, MARGIN)).copy()
    paste_board(picture, (MARGIN, MARGIN), view.seats[mover], marked, lang)
    _paint_column(picture, view, mover, marked, lang, pointers)
    _point_at_cells(picture, pointers)
    return encode.png_framed(picture)


def changed_cells(before: GameView, after: GameView, seat: int) -> tuple[int, ...]:
    """The cells of `seat`'s board that hold a different card in `after` than in `before`: the
    cards placed (or moved there) between two views, for `render_turn`'s `marked`."""
    old = require_view(before, "changed_cells").seats[require_seat(before, seat)].board
    new = require_view(after, "changed_cells").seats[require_seat(after, seat)].board
    return new_cards(old, new)
