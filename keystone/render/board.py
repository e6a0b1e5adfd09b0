"""A player's board: the 4x4 grid with its row letters and column numbers, cards, name and synergy.

`render_board` (the private picture) is landscape, so Discord shows it inline at half size or more:
the board on the left as compact cards (a face without its name band), and on the right a panel
with the seat's name, synergy, the secret objective when the view shows it, and the icon key.
`board_panel` is the portrait board with full faces that the public turn picture holds."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from PIL import Image, ImageDraw

from keystone.cards import ObjectiveCard
from keystone.data import load_catalog
from keystone.engine.board import CELL_NAMES
from keystone.engine.views import GameView, SeatView
from keystone.i18n import DEFAULT, Language, tr, trn
from keystone.render import fonts
from keystone.render.cards import NAME_TOP, W, empty_cell, placed_face
from keystone.render.common import (
    GOAL_ROW,
    LEGEND_ROW,
    LEGEND_ROWS,
    bare_mat,
    canvas,
    icon_key,
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
    CARD_EDGE,
    CARD_H,
    CARD_W,
    HABITAT_COLOUR,
    HIGHLIGHT,
    INK,
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
"""Four 180 px cards across and the margins."""
MARK = 5
"""Width of the frame around a card placed this turn."""


def cell_origin(index: int) -> tuple[int, int]:
    """Top-left pixel of board cell `index` (0 = A1, row-major) inside the mat."""
    row, col = divmod(index, 4)
    return PAD_LEFT + col * (CARD_W + GAP), PAD_TOP + row * (CARD_H + GAP)


@functools.cache
def empty_mat() -> Image.Image:
    """The mat with its edge labels and sixteen empty, labelled cells."""
    mat = bare_mat((MAT_W, MAT_H), 16, (PAD_LEFT, PAD_TOP), (CARD_W, CARD_H), GAP)
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


# --------------------------------------------------------------------------- the private, landscape picture

TILE_H = round(NAME_TOP * CARD_W / W)
"""A compact card is a face cut above its name band (154 px): number, habitats, season, symbols,
the landscape and research tokens all lie above it."""
COMPACT_MAT_W = MAT_W
COMPACT_MAT_H = PAD_TOP + 4 * TILE_H + 3 * GAP + PAD_BOTTOM
SIDE_GAP = 16
PANEL_W = 284
"""The panel right of the board: name, synergy, objective and key."""
WIDE_W = MARGIN + COMPACT_MAT_W + SIDE_GAP + PANEL_W + MARGIN
"""1100 px: shown inline at half size in Discord's 550 x 350 box."""
WIDE_H = 2 * MARGIN + COMPACT_MAT_H


def compact_origin(index: int) -> tuple[int, int]:
    """Top-left pixel of board cell `index` (0 = A1, row-major) inside the compact mat."""
    row, col = divmod(index, 4)
    return PAD_LEFT + col * (CARD_W + GAP), PAD_TOP + row * (TILE_H + GAP)


@functools.cache
def _tile_mask() -> Image.Image:
    mask = Image.new("L", (CARD_W * 2, TILE_H * 2), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, CARD_W * 2 - 1, TILE_H * 2 - 1), radius=24, fill=255)
    return mask.resize((CARD_W, TILE_H), Image.Resampling.LANCZOS)


def _rounded(face: Image.Image, edge: tuple[int, int, int], width: int) -> Image.Image:
    """The top TILE_H px of `face`, its lower corners rounded and its frame closed again."""
    tile = face.crop((0, 0, CARD_W, TILE_H))
    alpha = Image.new("L", tile.size, 0)
    alpha.paste(tile.getchannel("A"), (0, 0), _tile_mask())
    tile.putalpha(alpha)
    ImageDraw.Draw(tile).rounded_rectangle((0, 0, CARD_W - 1, TILE_H - 1), radius=12, outline=edge, width=width)
    return tile


@functools.lru_cache(maxsize=1024)
def compact_face(card_id: str, research: int, lang: Language = DEFAULT) -> Image.Image:
    """A placed card without its name band (CARD_W x TILE_H): the board picture shows sixteen of
    them beside its panel; `text_board` and the hand picture name the cards."""
    card = load_catalog().card(card_id)
    edge = HABITAT_COLOUR[card.habitats[0]] if card.wild else CARD_EDGE
    return _rounded(placed_face(card_id, research, lang), edge, 3 if card.wild else 2)


@functools.cache
def empty_tile(label: str) -> Image.Image:
    """An empty cell of the compact mat, its coordinate in the middle (what `/take` asks for)."""
    cell = empty_cell(label)
    top = (CARD_H - TILE_H) // 2
    tile = cell.crop((0, top, CARD_W, top + TILE_H))
    return _rounded(Image.alpha_composite(Image.new("RGBA", tile.size, (0, 0, 0, 0)), tile), MAT_EDGE, 2)


@functools.cache
def compact_mat() -> Image.Image:
    """The compact mat with its edge labels and sixteen empty, labelled cells."""
    mat = bare_mat((COMPACT_MAT_W, COMPACT_MAT_H), 16, (PAD_LEFT, PAD_TOP), (CARD_W, TILE_H), GAP)
    for i in range(16):
        cell = empty_tile(CELL_NAMES[i])
        mat.paste(cell, compact_origin(i), cell)
    return mat


def _side_panel(image: Image.Image, draw: ImageDraw.ImageDraw, x: int, view: GameView, seat: SeatView,
                objective: ObjectiveCard | None, lang: Language) -> None:
    """Name, "to act", synergy and cells filled, the objective when shown, then the icon key."""
    y = MARGIN + 4
    acting = view.current == seat.index and not view.over
    to_act = tr(lang, "picture.to_act")
    pill_w = fonts.width(to_act, 20, bold=True) + 20
    name = fonts.fit(seat.name, 28, PANEL_W)
    beside = acting and fonts.width(name, 28, bold=True) + 10 + pill_w <= PANEL_W
    fonts.draw_text(image, (x, y + 16), name, 28, INK, anchor="lm", bold=True)
    if beside:
        pill(image, (x + fonts.width(name, 28, bold=True) + 10, y + 16), to_act, ACTIVE_DARK, size=20)
    y += 40
    if acting and not beside:
        pill(image, (x, y + 14), to_act, ACTIVE_DARK, size=20)
        y += 38
    used = token_count(image, draw, (x, y + 16), "synergy", seat.synergy, size=32, text_size=26)
    word = trn(lang, "picture.synergy", seat.synergy)
    fonts.draw_text(image, (x + used + 8, y + 17), fonts.fit(word, 20, PANEL_W - used - 8), 20, MUTED, anchor="lm")
    filled = sum(p is not None for p in seat.board)
    cells = tr(lang, "picture.cells", filled=filled)
    if used + 8 + fonts.width(word, 20) + 16 + fonts.width(cells, 20) <= PANEL_W:
        fonts.draw_text(image, (x + PANEL_W, y + 17), cells, 20, MUTED, anchor="rm")
        y += 44
    else:
        fonts.draw_text(image, (x, y + 50), cells, 20, MUTED, anchor="lm")
        y += 72
    if objective is not None:
        draw.line((x, y, x + PANEL_W, y), fill=MAT_EDGE, width=1)
        key = "picture.objective.title" if view.over else "picture.objective.private"
        for line in fonts.wrap(tr(lang, key, number=objective.number), 20, PANEL_W, max_lines=2):
            fonts.draw_text(image, (x, y + 18), line, 20, INK, anchor="lm", bold=True)
            y += 24
        y += 12 + objective_strip(image, draw, (x, y + 8), PANEL_W, objective, columns=1,
                                        lang=lang, line_h=23)
    bottom = WIDE_H - MARGIN - key_height(PANEL_W, lang)
    draw.line((x, bottom - 8, x + PANEL_W, bottom - 8), fill=MAT_EDGE, width=1)
    icon_key(image, draw, (x, bottom), PANEL_W, lang)


def key_height(width: int, lang: Language = DEFAULT) -> int:
    """The height `icon_key` takes at `width`."""
    probe = Image.new("RGB", (1, 1))
    return icon_key(probe, ImageDraw.Draw(probe), (0, 0), width, lang, measure=True)


def wide_board(view: GameView, seat: SeatView, marked: Sequence[int] = (), lang: Language = DEFAULT) -> Image.Image:
    """The landscape board picture (WIDE_W x WIDE_H): compact cards on the left, the panel on the right."""
    image, draw = canvas(WIDE_W, WIDE_H, PAGE)
    mat = compact_mat()
    image.paste(mat, (MARGIN, MARGIN), mat)
    for i, placed in enumerate(seat.board):
        if placed is not None:
            face = compact_face(placed.card, placed.research, lang)
            x, y = compact_origin(i)
            image.paste(face, (MARGIN + x, MARGIN + y), face)
    for i in sorted(set(marked)):
        x, y = compact_origin(i)
        left, top = MARGIN + x - 2, MARGIN + y - 2
        draw.rounded_rectangle((left, top, left + CARD_W + 3, top + TILE_H + 3), radius=12, outline=HIGHLIGHT,
                               width=MARK)
    _side_panel(image, draw, MARGIN + COMPACT_MAT_W + SIDE_GAP, view, seat, objective_card(seat.objective), lang)
    return image


def render_board_image(view: GameView, seat: int, marked: Sequence[int] = (), lang: Language = DEFAULT) -> Image.Image:
    view = require_view(view, "render_board")
    return wide_board(view, view.seats[require_seat(view, seat)], check_cells(marked), lang)


def render_board(view: GameView, seat: int, marked: Sequence[int] = (), lang: Language = DEFAULT) -> bytes:
    """PNG of one seat's board as `view` may see it (landscape, 1100 x 696: inline at half size),
    `marked` cells framed, its words in `lang`; the seat's secret objective only when the view shows it."""
    return png(render_board_image(view, seat, marked, lang))
