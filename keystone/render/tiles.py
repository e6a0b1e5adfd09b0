"""Card tiles and the board mat that the turn and table pictures are built from.

Both pictures (turn.py, table.py) are PIC_W x PIC_H (1100 x 700): Discord shows a picture in a
channel scaled into a box of about 550 x 350 px (a phone: the column's width, about 400 px), so they
are wider than tall by more than 1.45 and shown inline at half their size; no text is under 18 px.
Their layout starts here: four rows of tiles on the mat fill the picture's height.

Cards are shown as tiles: the top of the card face (habitats, number, season, symbols, landscape)
shrunk, and the name lettered again at 18 px below it (`card_tile`). `paste_board` lays a seat's
board out as tiles on the mat. Tiles are kept flattened onto what lies under them (a cell of the
mat, the page), so a picture copies them in rather than blending each through its alpha.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from PIL import Image, ImageDraw

from keystone.data import load_catalog
from keystone.engine.board import CELL_NAMES
from keystone.engine.views import SeatView
from keystone.engine.words import habitat_name
from keystone.i18n import DEFAULT, Language, tr
from keystone.render import encode, fonts
from keystone.render.cards import NAME_TOP, card_back, card_face, flatten
from keystone.render.cards import W as FACE_W
from keystone.render.common import bare_mat
from keystone.render.icons import icon, paste
from keystone.render.palette import (
    CARD_EDGE,
    CARD_W,
    HABITAT_COLOUR,
    HIGHLIGHT,
    INK,
    MAT_EDGE,
    MUTED,
    PAGE,
    SLOT,
    SLOT_TEXT,
    WHITE,
)

PIC_W, PIC_H = 1100, 700
"""Both pictures: 1.57 times as wide as tall; Discord's 550 x 350 inline box shows them at half size."""
MARGIN = 12
INNER_H = PIC_H - 2 * MARGIN

NAME_SIZE = 18
"""Card names on tiles: the smallest text a picture draws (fonts.PHONE_MIN)."""
NAME_LINE = 19
NAME_BAND = 2 * NAME_LINE + 6
"""The white band under a tile's art: two lines of name (a third covers the foot of the art)."""
FACE_TOP = int(NAME_TOP * CARD_W / FACE_W)
"""Pixels of a card face above its name band: what a tile shows of the face."""

MAT_PAD, MAT_EDGE_PAD, GAP = 28, 6, 6
"""The board mat: room for the row letters and column numbers, the far edges, between cells."""
TILE_H = (INNER_H - MAT_PAD - MAT_EDGE_PAD - 3 * GAP) // 4
"""156 px: four rows of cells fill the picture's height."""
ART_H = TILE_H - NAME_BAND
TILE_W = round(CARD_W * ART_H / FACE_TOP)
"""132 px: the face's top shrunk to ART_H keeps its proportions."""
NAME_ROOM = TILE_W - 6
"""The width a line of a tile's name may take: the tile less its frame."""
MAT_W = MAT_PAD + 4 * TILE_W + 3 * GAP + MAT_EDGE_PAD
MAT_H = MAT_PAD + 4 * TILE_H + 3 * GAP + MAT_EDGE_PAD
MARK = 5
"""Width of the frame around a card placed this turn."""
TILE_CACHE = 256
"""Tiles kept (RGBA, about 80 KB each; and mapped onto the palette on a cell, 20 KB): every card in
both languages, and some with research tokens. The RGB tile on a cell is only a step to the latter."""


# --------------------------------------------------------------------------- tiles


def shown_name(card_id: str, lang: Language) -> str:
    """A card's name as the pictures letter it: a Wild's names its habitat."""
    card = load_catalog().card(card_id)
    if card.wild:
        return tr(lang, "picture.wild.name", habitat=habitat_name(card.habitats[0], lang))
    return card.name_in(lang)


@functools.lru_cache(maxsize=TILE_CACHE)
def card_tile(card_id: str, research: int = 0, lang: Language = DEFAULT) -> Image.Image:
    """A card as a TILE_W x TILE_H tile (RGBA, cached; treat as read-only): the top of its face
    shrunk, its research tokens, and its name at 18 px under it, broken rather than shrunk."""
    card = load_catalog().card(card_id)
    face = card_face(card_id, lang)
    art = face.crop((0, 0, CARD_W, FACE_TOP)).resize((TILE_W, ART_H), Image.Resampling.LANCZOS)
    tile = Image.new("RGBA", (TILE_W, TILE_H), (0, 0, 0, 0))
    d = ImageDraw.Draw(tile)
    edge = HABITAT_COLOUR[card.habitats[0]] if card.wild else CARD_EDGE
    d.rounded_rectangle((0, 0, TILE_W - 1, TILE_H - 1), radius=9, fill=WHITE)
    tile.paste(art, (0, 0), art)
    if card.wild:
        # The face's badge shrinks under 18 px with the art: letter it again at 18 px.
        badge = tr(lang, "picture.wild.badge")
        w = fonts.width(badge, NAME_SIZE, bold=True) + 16
        cy = round(114 * ART_H / NAME_TOP)
        d.rounded_rectangle((TILE_W // 2 - w // 2, cy - 12, TILE_W // 2 + w // 2, cy + 12), radius=10, fill=edge)
        light = sum(c * k for c, k in zip(edge, (0.299, 0.587, 0.114), strict=True)) > 150
        fonts.draw_text(tile, (TILE_W / 2, cy), badge, NAME_SIZE, INK if light else WHITE, anchor="mm", bold=True)
    if research > 0:
        top = ART_H - NAME_LINE - 34
        paste(tile, icon("research", 30), (TILE_W - 34, top))
        if research > 1:
            label = f"x{research}"
            w = fonts.width(label, NAME_SIZE, bold=True) + 10
            box = (TILE_W - 38 - w, top + 2, TILE_W - 36, top + 28)
            d.rounded_rectangle(box, radius=7, fill=WHITE, outline=INK, width=2)
            fonts.draw_text(tile, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), label, NAME_SIZE, INK,
                            anchor="mm", bold=True)
    lines = fonts.name_lines(shown_name(card_id, lang), lang, NAME_SIZE, NAME_ROOM)
    band = max(NAME_BAND, len(lines) * NAME_LINE + 6)
    top = TILE_H - band
    d.rectangle((2, top, TILE_W - 3, TILE_H - 8), fill=WHITE)
    d.line((2, top, TILE_W - 3, top), fill=CARD_EDGE, width=1)
    first = top + (band - len(lines) * NAME_LINE) / 2 + NAME_LINE / 2
    for i, line in enumerate(lines):
        fonts.draw_text(tile, (TILE_W / 2, first + i * NAME_LINE), line, NAME_SIZE, INK, anchor="mm")
    d.rounded_rectangle((0, 0, TILE_W - 1, TILE_H - 1), radius=9, outline=edge, width=3 if card.wild else 2)
    return tile


@functools.cache
def back_tile() -> Image.Image:
    return card_back(TILE_W, TILE_H)


@functools.cache
def blank_tile(label: str) -> Image.Image:
    """A Field slot with no card, or an empty pile."""
    img = Image.new("RGBA", (TILE_W, TILE_H), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle((0, 0, TILE_W - 1, TILE_H - 1), radius=9, outline=MUTED, width=2)
    fonts.draw_text(img, (TILE_W / 2, TILE_H / 2), label, 20, MUTED, anchor="mm")
    return img


def count_badge(image: Image.Image, draw: ImageDraw.ImageDraw, centre: tuple[int, int], text: str,
                 size: int = 28) -> None:
    w = fonts.width(text, size, bold=True) + 20
    h = size + 16
    cx, cy = centre
    draw.rounded_rectangle((cx - w // 2, cy - h // 2, cx + w // 2, cy + h // 2), radius=10, fill=WHITE, outline=INK,
                           width=2)
    fonts.draw_text(image, (cx, cy), text, size, INK, anchor="mm", bold=True)


# --------------------------------------------------------------------------- the mover's board


def tile_origin(index: int) -> tuple[int, int]:
    """Top-left pixel of board cell `index` (0 = A1, row-major) inside the mat."""
    row, col = divmod(index, 4)
    return MAT_PAD + col * (TILE_W + GAP), MAT_PAD + row * (TILE_H + GAP)


@functools.cache
def _bare_cells() -> Image.Image:
    """The mat (RGBA, transparent outside its frame) with its edge labels and sixteen empty cells,
    before each cell's coordinate is lettered: what a card's tile is laid on."""
    mat = bare_mat((MAT_W, MAT_H), 14, (MAT_PAD, MAT_PAD), (TILE_W, TILE_H), GAP)
    d = ImageDraw.Draw(mat)
    for i in range(16):
        x, y = tile_origin(i)
        d.rounded_rectangle((x, y, x + TILE_W - 1, y + TILE_H - 1), radius=9, fill=SLOT, outline=MAT_EDGE, width=2)
    return mat


@functools.cache
def _empty_mat() -> Image.Image:
    """The mat with its edge labels and sixteen empty cells, each showing its coordinate."""
    mat = _bare_cells().copy()
    for i in range(16):
        x, y = tile_origin(i)
        fonts.draw_text(mat, (x + TILE_W / 2, y + TILE_H / 2), CELL_NAMES[i], 36, SLOT_TEXT, anchor="mm")
    return mat


@functools.lru_cache(maxsize=4)
def board_page(size: tuple[int, int], xy: tuple[int, int]) -> Image.Image:
    """A `size` page (RGB) with the empty mat laid on it at `xy`: what a picture with a board starts
    from (copy it), so the mat is blended onto the page once, not once a picture."""
    page = Image.new("RGB", size, PAGE)
    mat = _empty_mat()
    page.paste(mat, xy, mat)
    return page


@functools.lru_cache(maxsize=32)
def cell_tile(card_id: str, research: int = 0, lang: Language = DEFAULT) -> Image.Image:
    """`card_tile` as it shows in a board's cell (RGB; cached, treat as read-only): laid on an empty
    cell, the mat laid on the page, just as the alpha pastes of both give it, so it pastes as a plain
    copy. A tile covers its cell's coordinate wholly (tests/test_render_cache.py), so one cell's ground
    serves all sixteen."""
    x, y = tile_origin(0)
    ground = _bare_cells().crop((x, y, x + TILE_W, y + TILE_H))
    tile = card_tile(card_id, research, lang)
    ground.paste(tile, (0, 0), tile)
    return flatten(ground, PAGE)


@functools.lru_cache(maxsize=4)
def indexed_board_page(size: tuple[int, int], xy: tuple[int, int]) -> Image.Image:
    """`board_page` mapped onto the shared palette, on an `encode.framed` picture (copy it)."""
    page = encode.framed(size)
    page.paste(encode.indexed(board_page(size, xy)), (0, 0))
    return page


@functools.lru_cache(maxsize=TILE_CACHE)
def indexed_cell_tile(card_id: str, research: int = 0, lang: Language = DEFAULT) -> Image.Image:
    """`cell_tile` mapped onto the shared palette (cached, a quarter of its size): a pixel is mapped
    alone, so a board of these is the board of `cell_tile`s mapped whole, for none of the work."""
    return encode.indexed(cell_tile(card_id, research, lang))


def paste_board(image: Image.Image, xy: tuple[int, int], seat: SeatView, marked: Sequence[int] = (),
                lang: Language = DEFAULT) -> None:
    """`seat`'s 4x4 board as tiles on the mat, the cells in `marked` framed, onto `image` (a copy of
    `board_page(image.size, xy)`, or of `indexed_board_page` for an indexed 'P' picture: the empty
    mat is already there) with its top-left corner at `xy`."""
    left, top = xy
    indexed = image.mode == "P"
    for i, placed in enumerate(seat.board):
        if placed is not None:
            x, y = tile_origin(i)
            tile = (indexed_cell_tile if indexed else cell_tile)(placed.card, placed.research, lang)
            image.paste(tile, (left + x, top + y))
    draw = ImageDraw.Draw(image)
    colour = encode.palette_index(HIGHLIGHT) if indexed else HIGHLIGHT
    for i in sorted(set(marked)):
        x, y = tile_origin(i)
        draw.rounded_rectangle((left + x - 3, top + y - 3, left + x + TILE_W + 2, top + y + TILE_H + 2), radius=11,
                               outline=colour, width=MARK)


def warm_up(lang: Language = DEFAULT) -> None:
    """Lay every card's tile on a cell now, mapped onto the palette, and the empty turn picture, so a
    worker's first boards cost no more than the rest."""
    indexed_board_page((PIC_W, PIC_H), (MARGIN, MARGIN))
    for card in load_catalog().all_cards():
        indexed_cell_tile(card.id, 0, lang)
