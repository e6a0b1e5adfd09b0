"""A player's board: the 4x4 grid with its row letters and column numbers, cards, name and synergy."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from PIL import Image, ImageDraw

from keystone.engine.board import CELL_NAMES, ROWS
from keystone.engine.views import GameView, SeatView
from keystone.i18n import DEFAULT, Language, tr, trn
from keystone.render import fonts
from keystone.render.cards import empty_cell, placed_face
from keystone.render.common import (
    GOAL_ROW,
    LEGEND_ROW,
    LEGEND_ROWS,
    canvas,
    legend,
    objective_card,
    objective_strip,
    pill,
    png,
    require_seat,
    require_view,
    token_count,
)
from keystone.render.palette import (
    ACTIVE_DARK,
    CARD_H,
    CARD_W,
    HIGHLIGHT,
    INK,
    LABEL_ON_MAT,
    MAT,
    MAT_EDGE,
    MUTED,
    PAGE,
)

GAP = 6
PAD_LEFT, PAD_TOP, PAD_RIGHT, PAD_BOTTOM = 30, 30, 8, 8
MAT_W = PAD_LEFT + 4 * CARD_W + 3 * GAP + PAD_RIGHT
MAT_H = PAD_TOP + 4 * CARD_H + 3 * GAP + PAD_BOTTOM
MARGIN = 12
HEADER_H = 56
PAGE_W = MAT_W + 2 * MARGIN
"""800 px: four 180 px cards across, the most a picture posted in a channel is wide."""
MARK = 5
"""Width of the frame around a card placed this turn."""


def cell_origin(index: int) -> tuple[int, int]:
    """Top-left pixel of board cell `index` (0 = A1, row-major) inside the mat."""
    row, col = divmod(index, 4)
    return PAD_LEFT + col * (CARD_W + GAP), PAD_TOP + row * (CARD_H + GAP)


@functools.cache
def empty_mat() -> Image.Image:
    """The mat with its edge labels and sixteen empty, labelled cells."""
    mat = Image.new("RGBA", (MAT_W, MAT_H), (0, 0, 0, 0))
    d = ImageDraw.Draw(mat)
    d.rounded_rectangle((0, 0, MAT_W - 1, MAT_H - 1), radius=16, fill=MAT, outline=MAT_EDGE, width=3)
    for c in range(4):
        x = PAD_LEFT + c * (CARD_W + GAP) + CARD_W // 2
        fonts.draw_text(mat, (x, PAD_TOP // 2 + 1), str(c + 1), 22, LABEL_ON_MAT, anchor="mm", bold=True)
    for r in range(4):
        y = PAD_TOP + r * (CARD_H + GAP) + CARD_H // 2
        fonts.draw_text(mat, (PAD_LEFT // 2 + 1, y), ROWS[r], 22, LABEL_ON_MAT, anchor="mm", bold=True)
    for i in range(16):
        cell = empty_cell(CELL_NAMES[i])
        mat.paste(cell, cell_origin(i), cell)
    return mat


def header(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int, view: GameView,
           seat: SeatView, lang: Language = DEFAULT) -> None:
    """Name on the left, a "to act" mark, synergy and cells filled on the right."""
    x, y = xy
    name = fonts.fit(seat.name, 26, width - 400)
    fonts.draw_text(image, (x, y), name, 26, INK, anchor="lm", bold=True)
    if view.current == seat.index and not view.over:
        pill(image, (x + fonts.width(name, 26, bold=True) + 12, y), tr(lang, "picture.to_act"), ACTIVE_DARK)
    filled = sum(p is not None for p in seat.board)
    cells_text = tr(lang, "picture.cells", filled=filled)
    right = x + width
    fonts.draw_text(image, (right, y), cells_text, 20, MUTED, anchor="rm")
    syn_x = right - fonts.width(cells_text, 20) - 20 - 130
    used = token_count(image, draw, (syn_x, y), "synergy", seat.synergy, size=30, text_size=24)
    word = trn(lang, "picture.synergy", seat.synergy)
    fonts.draw_text(image, (syn_x + used + 6, y + 1), word, 20, MUTED, anchor="lm")


def _panel_height(has_objective: bool, with_legend: bool) -> int:
    height = MARGIN + HEADER_H + MAT_H + MARGIN
    if has_objective:
        height += 40 + 2 * GOAL_ROW
    if with_legend:
        height += 14 + LEGEND_ROWS * LEGEND_ROW
    return height


@functools.lru_cache(maxsize=64)
def _template(objective_number: int | None, over: bool, with_legend: bool, lang: Language) -> Image.Image:
    """Everything of a board picture that does not depend on the cards: page, mat, objective, legend."""
    objective = objective_card(objective_number)
    image, draw = canvas(PAGE_W, _panel_height(objective is not None, with_legend), PAGE)
    mat = empty_mat()
    y = MARGIN + HEADER_H
    image.paste(mat, (MARGIN, y), mat)
    y += MAT_H
    if objective is not None:
        title = tr(lang, "picture.objective.title" if over else "picture.objective.private", number=objective.number)
        fonts.draw_text(image, (MARGIN + 4, y + 22), title, 20, INK, anchor="lm", bold=True)
        y += 40 + objective_strip(image, draw, (MARGIN + 4, y + 40), PAGE_W - 2 * MARGIN, objective,
                                        lang=lang)
    if with_legend:
        legend(image, draw, (MARGIN + 8, y + 14), PAGE_W - 2 * MARGIN - 8, lang)
    return image


def board_panel(view: GameView, seat: SeatView, with_legend: bool = True, marked: Sequence[int] = (),
                with_objective: bool = True, lang: Language = DEFAULT) -> Image.Image:
    """Header, mat, and below it the owner's objective when this view may see it, then the legend.
    Cells in `marked` (placed this turn) get a bright frame."""
    objective = seat.objective if with_objective else None
    image = _template(objective, view.over, with_legend, lang).copy()
    draw = ImageDraw.Draw(image)
    header(image, draw, (MARGIN + 4, MARGIN + HEADER_H // 2 - 4), PAGE_W - 2 * MARGIN - 8, view, seat, lang)
    for i, placed in enumerate(seat.board):
        if placed is not None:
            face = placed_face(placed.card, placed.research, lang)
            x, y = cell_origin(i)
            image.paste(face, (MARGIN + x, MARGIN + HEADER_H + y), face)
    for i in sorted(set(marked)):
        x, y = cell_origin(i)
        left, top = MARGIN + x - 2, MARGIN + HEADER_H + y - 2
        draw.rounded_rectangle((left, top, left + CARD_W + 3, top + CARD_H + 3), radius=12, outline=HIGHLIGHT,
                               width=MARK)
    return image


def check_cells(cells: Sequence[int]) -> tuple[int, ...]:
    """Board cell indexes (0 = A1 to 15 = D4), refused with one sentence when one is not a cell."""
    for cell in cells:
        if type(cell) is not int or not 0 <= cell < 16:
            raise ValueError(f"There is no board cell {cell!r}; cells are numbered 0 (A1) to 15 (D4).")
    return tuple(cells)


def render_board_image(view: GameView, seat: int, marked: Sequence[int] = (), lang: Language = DEFAULT) -> Image.Image:
    view = require_view(view, "render_board")
    return board_panel(view, view.seats[require_seat(view, seat)], marked=check_cells(marked), lang=lang)


def render_board(view: GameView, seat: int, marked: Sequence[int] = (), lang: Language = DEFAULT) -> bytes:
    """PNG of one seat's board as `view` may see it (800 px wide), `marked` cells framed, its words
    in `lang`."""
    return png(render_board_image(view, seat, marked, lang))
