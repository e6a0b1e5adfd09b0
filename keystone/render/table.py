"""The table and the turn: landscape pictures sized for Discord's inline box.

Discord shows a picture in a channel scaled into a box of about 550 x 350 px (a phone: the column's
width, about 400 px); only a click opens it at its own size. So both pictures are PIC_W x PIC_H
(1100 x 700): wider than tall by more than 1.45 and shown inline at half their size. What a player
needs at a glance is drawn large (round, who moved and what, who is next, the Field's prices, the
time marker, everyone's synergy); the full detail (card names) reads once clicked open, and no text
is under 18 px where it is drawn.

Cards are shown as tiles: the top of the card face (habitats, number, season, symbols, landscape)
shrunk, and the name lettered again at 18 px below it (`card_tile`).

`render_turn`: the mover's board on the left, the cards just placed framed; on the right the round,
who moved and what, who is next, the Field with its costs, the piles, the time track and the players.
`render_table`: the Field with the piles, the time track and the Wild stacks on the left; the players,
any held cards and the skills on the right.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from PIL import Image, ImageDraw

from keystone.cards import Habitat, Season
from keystone.data import load_catalog
from keystone.engine.board import CELL_NAMES, ROWS
from keystone.engine.views import GameView, SeatView, SkillView
from keystone.engine.words import ActionWords, counted, habitat_name
from keystone.i18n import DEFAULT, Language, tr
from keystone.render import fonts
from keystone.render.board import check_cells
from keystone.render.cards import NAME_TOP, card_back, card_face
from keystone.render.cards import W as FACE_W
from keystone.render.common import canvas, pill, png, require_seat, require_view, token_count
from keystone.render.describe import actions, skill_flip_label, skill_label, skill_state, state_name, status_text
from keystone.render.icons import habitat_icon, icon, paste, season_icon
from keystone.render.palette import (
    ACTIVE_DARK,
    ALERT,
    CARD_EDGE,
    CARD_W,
    FAINT,
    HABITAT_COLOUR,
    HABITAT_TINT,
    HIGHLIGHT,
    INK,
    LABEL_ON_MAT,
    MAT,
    MAT_EDGE,
    MUTED,
    PAGE,
    PAGE_DARK,
    RGB,
    SLOT,
    SLOT_TEXT,
    STONE_DARK,
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
MAT_W = MAT_PAD + 4 * TILE_W + 3 * GAP + MAT_EDGE_PAD
MAT_H = MAT_PAD + 4 * TILE_H + 3 * GAP + MAT_EDGE_PAD
MARK = 5
"""Width of the frame around a card placed this turn."""

RIGHT_X = MARGIN + MAT_W + 16
RIGHT_W = PIC_W - MARGIN - RIGHT_X
"""The column right of the board (turn) or of the Field (table)."""
PRICE_H = 34
"""The line under a Field tile: slot number and price."""
PRICE_SIZE = 22
TABLE_LEFT_W = 624
WILD_PITCH, WILDS_H = 104, 76
"""The table picture's left part: three Field columns and the piles."""


# --------------------------------------------------------------------------- tiles


def _card_name(card_id: str, lang: Language) -> str:
    card = load_catalog().card(card_id)
    if card.wild:
        return tr(lang, "picture.wild.name", habitat=habitat_name(card.habitats[0], lang))
    return card.name_in(lang)


_VOWELS = frozenset("aeiouyäöüAEIOUYÄÖÜ")
_KEEP = ("ch", "ck", "sch", "ph", "th", "qu")
"""Letter groups a break never splits."""


def _word_pieces(word: str, room: int) -> list[str]:
    """`word` in pieces a line may end after (`fonts.pieces`); when a piece is still wider than a
    tile's line, the whole word breaks instead at the last point that fits: between two consonants
    or after a vowel before a consonant, two letters from either end (Nordamerika-nischer)."""
    pieces = fonts.pieces(word, NAME_SIZE, room)
    if all(fonts.width(p, NAME_SIZE) <= room for p in pieces):
        return pieces
    out: list[str] = []
    rest = word
    while fonts.width(rest, NAME_SIZE) > room:
        points = [i for i in range(2, len(rest) - 1)
                  if rest[i].isalpha() and rest[i - 1].isalpha() and rest[i] not in _VOWELS
                  and not any(rest.find(g, max(0, i - len(g) + 1), i + len(g) - 1) >= 0 for g in _KEEP)
                  and fonts.width(rest[:i] + "-", NAME_SIZE) <= room]
        if not points:
            break
        out.append(rest[:points[-1]] + "-")
        rest = rest[points[-1]:]
    return [*out, rest]


def name_lines(name: str, room: int) -> list[str]:
    """A card's name in lines of `room` px at 18 px: whole words where they fit, long words broken
    (`_word_pieces`), never shrunk; cut with an ellipsis only past three lines."""
    lines: list[str] = []
    current = ""
    for word in name.split():
        for k, piece in enumerate(_word_pieces(word, room)):
            candidate = current + piece if k else f"{current} {piece}".strip()
            if fonts.width(candidate, NAME_SIZE) <= room or not current:
                current = candidate
            else:
                lines.append(current)
                current = piece
    lines.append(current)
    if len(lines) > 3 or any(fonts.width(line, NAME_SIZE) > room for line in lines):
        return fonts.wrap(name, NAME_SIZE, room, max_lines=3)
    return lines


@functools.lru_cache(maxsize=1024)
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
    lines = name_lines(_card_name(card_id, lang), TILE_W - 6)
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
def _back_tile() -> Image.Image:
    return card_back(TILE_W, TILE_H)


@functools.cache
def _empty_tile(label: str) -> Image.Image:
    """A Field slot with no card, or an empty pile."""
    img = Image.new("RGBA", (TILE_W, TILE_H), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle((0, 0, TILE_W - 1, TILE_H - 1), radius=9, outline=MUTED, width=2)
    fonts.draw_text(img, (TILE_W / 2, TILE_H / 2), label, 20, MUTED, anchor="mm")
    return img


def _count_badge(image: Image.Image, draw: ImageDraw.ImageDraw, centre: tuple[int, int], text: str,
                 size: int = 28) -> None:
    w = fonts.width(text, size, bold=True) + 20
    h = size + 16
    cx, cy = centre
    draw.rounded_rectangle((cx - w // 2, cy - h // 2, cx + w // 2, cy + h // 2), radius=10, fill=WHITE, outline=INK,
                           width=2)
    fonts.draw_text(image, (cx, cy), text, size, INK, anchor="mm", bold=True)


# --------------------------------------------------------------------------- the mover's board


def _cell_origin(index: int) -> tuple[int, int]:
    """Top-left pixel of board cell `index` (0 = A1, row-major) inside the mat."""
    row, col = divmod(index, 4)
    return MAT_PAD + col * (TILE_W + GAP), MAT_PAD + row * (TILE_H + GAP)


@functools.cache
def _empty_mat() -> Image.Image:
    """The mat with its edge labels and sixteen empty cells, each showing its coordinate."""
    mat = Image.new("RGBA", (MAT_W, MAT_H), (0, 0, 0, 0))
    d = ImageDraw.Draw(mat)
    d.rounded_rectangle((0, 0, MAT_W - 1, MAT_H - 1), radius=14, fill=MAT, outline=MAT_EDGE, width=3)
    for c in range(4):
        x = MAT_PAD + c * (TILE_W + GAP) + TILE_W // 2
        fonts.draw_text(mat, (x, MAT_PAD // 2 + 1), str(c + 1), 22, LABEL_ON_MAT, anchor="mm", bold=True)
    for r in range(4):
        y = MAT_PAD + r * (TILE_H + GAP) + TILE_H // 2
        fonts.draw_text(mat, (MAT_PAD // 2 + 1, y), ROWS[r], 22, LABEL_ON_MAT, anchor="mm", bold=True)
    for i in range(16):
        x, y = _cell_origin(i)
        d.rounded_rectangle((x, y, x + TILE_W - 1, y + TILE_H - 1), radius=9, fill=SLOT, outline=MAT_EDGE, width=2)
        fonts.draw_text(mat, (x + TILE_W / 2, y + TILE_H / 2), CELL_NAMES[i], 36, SLOT_TEXT, anchor="mm")
    return mat


def board_mat(seat: SeatView, marked: Sequence[int] = (), lang: Language = DEFAULT) -> Image.Image:
    """`seat`'s 4x4 board as tiles on the mat (MAT_W x MAT_H), the cells in `marked` framed."""
    mat = _empty_mat().copy()
    for i, placed in enumerate(seat.board):
        if placed is not None:
            tile = card_tile(placed.card, placed.research, lang)
            mat.paste(tile, _cell_origin(i), tile)
    draw = ImageDraw.Draw(mat)
    for i in sorted(set(marked)):
        x, y = _cell_origin(i)
        draw.rounded_rectangle((x - 3, y - 3, x + TILE_W + 2, y + TILE_H + 2), radius=11, outline=HIGHLIGHT,
                               width=MARK)
    return mat


# --------------------------------------------------------------------------- the Field


def _bubble(image: Image.Image, draw: ImageDraw.ImageDraw, cx: int, cy: int, text: str, fill: RGB = INK) -> int:
    """A numbered disc centred on (cx, cy); returns its width."""
    draw.ellipse((cx - 14, cy - 14, cx + 14, cy + 14), fill=fill)
    fonts.draw_text(image, (cx, cy), text, 20, WHITE, anchor="mm", bold=True)
    return 28


def _price_text(cost: int, lang: Language) -> str:
    return tr(lang, "picture.free") if cost == 0 else tr(lang, "picture.cost", cost=cost)


def _price_width(cost: int, lang: Language) -> int:
    return 34 + fonts.width(_price_text(cost, lang), PRICE_SIZE, bold=True) + (0 if cost == 0 else 26)


def _price(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], slot: int, cost: int,
           lang: Language) -> None:
    """The slot's number and what it costs to take, on one line from (x, centre y)."""
    x, cy = xy
    _bubble(image, draw, x + 14, cy, str(slot + 1))
    text = _price_text(cost, lang)
    fonts.draw_text(image, (x + 34, cy), text, PRICE_SIZE, ACTIVE_DARK if cost == 0 else INK, anchor="lm", bold=True)
    if cost:
        paste(image, icon("synergy", 24), (x + 36 + fonts.width(text, PRICE_SIZE, bold=True), cy - 12))


def _synergy_on_tile(image: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, count: int) -> None:
    """Synergy tokens lying on a Field card: coins and the count, on the right of its art (clear of
    the habitats, the symbols and a third line of name)."""
    label = f"+{count}"
    w = fonts.width(label, 22, bold=True) + 12
    right = x + TILE_W - 6
    top = y + ART_H - 52
    draw.rounded_rectangle((right - w, top + 2, right, top + 30), radius=12, fill=WHITE, outline=INK, width=2)
    fonts.draw_text(image, (right - w / 2, top + 16), label, 22, INK, anchor="mm", bold=True)
    for k in range(min(count, 3)):
        paste(image, icon("synergy", 30), (right - w - 32 - k * 4, top + k * 3 - 2 * (min(count, 3) - 1)))


def field_width(view: GameView, lang: Language) -> int:
    """The width a Field column needs: its tile or its price line, whichever is wider."""
    return max([TILE_W, *(_price_width(cost, lang) for cost in view.field_costs)])


def field_grid(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], pitch: int, view: GameView,
               lang: Language = DEFAULT, columns: int = 3) -> int:
    """The Field's slots as tiles, `columns` to a row `pitch` px apart, each with its number and price
    under it (the tile centred over a price line wider than it); returns the height used."""
    x0, y0 = xy
    row_h = TILE_H + PRICE_H + 6
    inset = (field_width(view, lang) - TILE_W) // 2
    for slot, entry in enumerate(view.field):
        row, col = divmod(slot, columns)
        x, y = x0 + col * pitch, y0 + row * row_h
        if entry is None:
            paste(image, _empty_tile(tr(lang, "picture.empty")), (x + inset, y))
        else:
            paste(image, card_tile(entry.card, 0, lang), (x + inset, y))
            if entry.synergy:
                _synergy_on_tile(image, draw, x + inset, y, entry.synergy)
        _price(image, draw, (x, y + TILE_H + PRICE_H // 2 + 2), slot, view.field_costs[slot], lang)
    rows = -(-len(view.field) // columns)
    return rows * row_h - 6


def _pile(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int, title: str,
          tile: Image.Image, count: int, badge: bool) -> None:
    """A pile as a tile with its name and size under it (the count on it, too, for the deck)."""
    x, y = xy
    paste(image, tile, (x, y))
    if badge:
        _count_badge(image, draw, (x + TILE_W // 2, y + TILE_H // 2), str(count))
    label = fonts.fit(f"{title} {count}", 22, width)
    fonts.draw_text(image, (x, y + TILE_H + PRICE_H // 2 + 2), label, 22, INK, anchor="lm", bold=True)


def _piles_line(view: GameView, lang: Language) -> str:
    return (f"{tr(lang, 'picture.deck')} {view.deck_count}  ·  "
            f"{tr(lang, 'picture.discard')} {len(view.discard)}")


# --------------------------------------------------------------------------- time, players, wilds


def time_track(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int, view: GameView,
               lang: Language = DEFAULT, box: int = 46, stage: tuple[str, RGB] | None = None) -> int:
    """"Time", then a box per space from the start down to the end, the marker's space highlighted,
    and how much is left; returns the height used (`box`)."""
    x, y = xy
    title = tr(lang, "picture.time")
    fonts.draw_text(image, (x, y + box / 2), title, 24, INK, anchor="lm", bold=True)
    bx = x + fonts.width(title, 24, bold=True) + 14
    left = max(0, view.time)
    hint = tr(lang, "picture.time.left", left=left) if left else tr(lang, "picture.time.at_end")
    hint_w = fonts.width(hint, 20) + 12 if stage is None else fonts.width(stage[0], 20, bold=True) + 34
    spaces = list(range(max(view.time_start, view.time), -1, -1))
    end = tr(lang, "picture.time.end")
    end_w = max(box, fonts.width(end, 18) + 14)
    step = min(box + 6, (x + width - hint_w - bx - end_w) // max(1, len(spaces) - 1))
    size = min(box, step - 4)
    for value in spaces:
        w = end_w if value == 0 else size
        current = value == view.time
        passed = value > view.time
        fill = HIGHLIGHT if current else (PAGE_DARK if passed else WHITE)
        top = y + (box - size) // 2
        draw.rounded_rectangle((bx, top, bx + w, top + size), radius=8, fill=fill,
                               outline=INK if current else FAINT, width=3 if current else 1)
        label = end if value == 0 else str(value)
        fonts.draw_text(image, (bx + w / 2, top + size / 2), label, 18 if value == 0 else 24,
                        FAINT if passed else INK, anchor="mm", bold=current)
        if current:
            paste(image, icon("hourglass", 20), (bx + w // 2 - 10, top + size - 4))
        bx += w + (step - size)
    if stage is None:
        fonts.draw_text(image, (bx + 6, y + box / 2), hint, 20, MUTED, anchor="lm")
    else:
        pill(image, (bx + 6, y + box // 2), stage[0], stage[1], size=20)
    return box


def players_list(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int, view: GameView,
                 lang: Language = DEFAULT, columns: int = 1, row_h: int = 34) -> int:
    """Each seat's name (the seat to act in bold, with a mark) and synergy, and in one column the
    cells filled too, `columns` to a row; returns the height used."""
    x0, y0 = xy
    column = width // columns
    for k, seat in enumerate(view.seats):
        row, col = divmod(k, columns)
        x, cy = x0 + col * column, y0 + row * row_h + row_h // 2
        acting = seat.index == view.current and not view.over
        right = x + column - (16 if col < columns - 1 else 0)
        syn_x = right - 70
        if columns == 1:
            cells = tr(lang, "picture.cells", filled=sum(p is not None for p in seat.board))
            fonts.draw_text(image, (right, cy), cells, 20, MUTED, anchor="rm")
            syn_x -= fonts.width(cells, 20) + 12
        token_count(image, draw, (syn_x, cy), "synergy", seat.synergy, size=26, text_size=24)
        room = syn_x - x - 10
        if acting:
            paste(image, icon("hourglass", 22), (x, cy - 11))
            room -= 28
        name = _fit_bold(seat.name, 24, room) if acting else fonts.fit(seat.name, 24, room)
        fonts.draw_text(image, (x + (28 if acting else 0), cy), name, 24, ACTIVE_DARK if acting else INK,
                        anchor="lm", bold=acting)
    rows = -(-len(view.seats) // columns)
    return rows * row_h


@functools.cache
def _wild_stack(habitat: Habitat, count: int, season: Season | None) -> Image.Image:
    """A small Wild stack: a card per remaining Wild (up to two drawn), top card's season showing."""
    img = Image.new("RGBA", (58, 76), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if count == 0:
        d.rounded_rectangle((2, 2, 50, 70), radius=7, outline=FAINT, width=2)
        paste(img, habitat_icon(habitat, 28), (12, 22))
        return img
    colour = HABITAT_COLOUR[habitat]
    for k in range(min(count, 2) - 1, -1, -1):
        box = (2 + 5 * k, 2 + 3 * (1 - k), 50 + 5 * k, 70 + 3 * (1 - k) - 3)
        d.rounded_rectangle(box, radius=7, fill=HABITAT_TINT[habitat], outline=colour, width=3)
    paste(img, habitat_icon(habitat, 28), (12, 8))
    if season is not None:
        paste(img, season_icon(season, 24), (14, 40))
    return img


def _title(image: Image.Image, xy: tuple[int, int], text: str, hint: str, width: int) -> int:
    """A bold title with a muted hint after it, or under it when it does not fit; returns the height
    used from the top `xy`."""
    x, y = xy
    fonts.draw_text(image, (x, y + 14), text, 24, INK, anchor="lm", bold=True)
    if not hint:
        return 30
    after = x + fonts.width(text, 24, bold=True) + 12
    if fonts.width(hint, 18) <= x + width - after:
        fonts.draw_text(image, (after, y + 15), hint, 18, MUTED, anchor="lm")
        return 30
    lines = fonts.wrap(hint, 18, width, max_lines=2)
    for i, line in enumerate(lines):
        fonts.draw_text(image, (x, y + 40 + 21 * i), line, 18, MUTED, anchor="lm")
    return 30 + 21 * len(lines)


def wild_stacks(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int, view: GameView,
                lang: Language = DEFAULT) -> int:
    """The four Wild stacks (habitat, cards left, season of the top card) right of their title and
    price; returns the height used (WILDS_H)."""
    x, y = xy
    title = tr(lang, "picture.wilds")
    fonts.draw_text(image, (x, y + 18), title, 24, INK, anchor="lm", bold=True)
    hint = tr(lang, "picture.wilds.cost", cost=view.wild_cost) if view.wilds_allowed else tr(lang, "picture.wilds.none")
    stacks_x = x + width - 4 * WILD_PITCH if view.wilds_allowed else x + width
    for i, line in enumerate(fonts.wrap(hint, 18, stacks_x - x - 12, max_lines=2)):
        fonts.draw_text(image, (x, y + 46 + 21 * i), line, 18, MUTED, anchor="lm")
    if not view.wilds_allowed:
        return WILDS_H
    catalog = load_catalog()
    for i, (habitat, stack) in enumerate(view.wild_stacks):
        sx = stacks_x + i * WILD_PITCH
        season = catalog.card(stack[-1]).season if stack else None
        paste(image, _wild_stack(habitat, len(stack), season), (sx, y))
        fonts.draw_text(image, (sx + 62, y + 38), f"x{len(stack)}", 22, INK if stack else FAINT, anchor="lm",
                        bold=True)
    return WILDS_H


# --------------------------------------------------------------------------- skills


def skill_block(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int,
                skill: SkillView, text_lines: int = 3, lang: Language = DEFAULT, flip: bool = True,
                head_w: int = 0) -> int:
    """One skill token and what it does now, with the other side's preview; without it (`flip`
    False) the label follows the state, `head_w` px from it. Returns the height."""
    x, y = xy
    state = skill_state(skill)
    token = icon("token:exhausted" if skill.exhausted or skill.disabled else "token:active", 48)
    paste(image, token, (x, y))
    fonts.draw_text(image, (x + 24, y + 22), str(skill.number), 24, WHITE, anchor="mm", bold=True)
    tx = x + 58
    room = width - 58
    colour = {"active": ACTIVE_DARK, "exhausted": STONE_DARK, "disabled": ALERT}[state]
    head = state_name(state, lang).upper()
    fonts.draw_text(image, (tx, y + 9), head, 18, colour, anchor="lm", bold=True)
    head_w = max(head_w, fonts.width(head, 18, bold=True) + 10)
    lines = _skill_lines(skill, room - (0 if flip else head_w), text_lines, lang)
    if not flip:
        lx = tx + head_w
        for i, line in enumerate(lines):
            fonts.draw_text(image, (lx, y + 10 + i * 23), line, 20, INK if state != "disabled" else FAINT,
                            anchor="lm")
        return max(50, 10 + len(lines) * 23 + 4)
    for i, line in enumerate(lines):
        fonts.draw_text(image, (tx, y + 33 + i * 23), line, 20, INK if state != "disabled" else FAINT, anchor="lm")
    ly = y + 33 + len(lines) * 23
    flips = _flip_lines(skill, room, lang)
    for i, line in enumerate(flips):
        fonts.draw_text(image, (tx, ly + i * 21), line, 18, MUTED, anchor="lm")
    return max(56, 22 + len(lines) * 23 + len(flips) * 21)


def _skill_lines(skill: SkillView, room: int, text_lines: int, lang: Language) -> list[str]:
    return fonts.wrap(skill_label(skill, lang), 20, room, max_lines=text_lines)


def _flip_lines(skill: SkillView, room: int, lang: Language) -> list[str]:
    return fonts.wrap(tr(lang, "picture.skill.flip", label=skill_flip_label(skill, lang)), 18, room, max_lines=2)


def _head_width(view: GameView, lang: Language) -> int:
    """The widest state word of the skills in play, and the gap after it."""
    return max((fonts.width(state_name(skill_state(s), lang).upper(), 18, bold=True) + 10 for s in view.skills),
               default=0)


def _skills_height(view: GameView, width: int, lang: Language, flip: bool) -> int:
    total = 0
    room = width - 58
    for skill in view.skills:
        if flip:
            lines, flips = len(_skill_lines(skill, room, 3, lang)), len(_flip_lines(skill, room, lang))
            total += max(56, 22 + lines * 23 + flips * 21) + 4
        else:
            total += max(50, 10 + len(_skill_lines(skill, room - _head_width(view, lang), 3, lang)) * 23 + 4) + 4
    return total


def _note_lines(words: ActionWords, width: int, lang: Language) -> list[str]:
    note = tr(lang, "picture.skill.note", skill=words.skill, resolve_all=words.resolve_all)
    return fonts.wrap(note, 18, width, max_lines=3)


# --------------------------------------------------------------------------- headers


def _round_line(image: Image.Image, xy: tuple[int, int], width: int, view: GameView, next_mark: bool,
                lang: Language) -> None:
    """"Round N", a final-round or game-over mark and, on the right, who is next."""
    x, cy = xy
    players = max(1, len(view.seats))
    heading = tr(lang, "picture.round", number=view.turn // players + 1)
    fonts.draw_text(image, (x, cy), heading, 32, INK, anchor="lm", bold=True)
    px = x + fonts.width(heading, 32, bold=True) + 14
    if next_mark and not view.over:
        name = view.seats[view.current].name
        mark = _fit_bold(tr(lang, "picture.next", name=name), 28, x + width - px - 20)
        w = fonts.width(mark, 28, bold=True) + 20
        pill(image, (x + width - w, cy), mark, ACTIVE_DARK, size=28)
        return
    stage = _stage(view, lang)
    if stage is not None:
        pill(image, (px, cy), stage[0], stage[1], size=22)


def _stage(view: GameView, lang: Language) -> tuple[str, RGB] | None:
    """The game-over or final-round mark, if the game is at either."""
    if view.over:
        return tr(lang, "picture.game_over"), INK
    if view.final_round:
        return tr(lang, "picture.final_round"), ALERT
    return None


def _fit_bold(text: str, size: int, room: int) -> str:
    """`text` shortened (and recorded as cut) until its bold weight fits `room`."""
    bold = fonts.width(text, size, bold=True)
    if bold <= room:
        return text
    return fonts.fit(text, size, room * fonts.width(text, size) // bold)


def _moved_text(view: GameView, mover: int, marked: Sequence[int], lang: Language) -> str:
    who = view.seats[mover].name
    board = view.seats[mover].board
    names = [_card_name(p.card, lang) for i in sorted(set(marked)) if (p := board[i]) is not None]
    if not names:
        return tr(lang, "picture.turn.board", who=who)
    return tr(lang, "picture.turn.placed", who=who, cards=", ".join(names))


# --------------------------------------------------------------------------- pictures


def render_turn_image(view: GameView, mover: int, marked: Sequence[int] = (),
                      words: ActionWords | None = None, lang: Language = DEFAULT) -> Image.Image:
    view = require_view(view, "render_turn")
    mover = require_seat(view, mover)
    marked = check_cells(marked)
    image, draw = canvas(PIC_W, PIC_H, PAGE)
    mat = board_mat(view.seats[mover], marked, lang)
    image.paste(mat, (MARGIN, MARGIN), mat)
    x, width = RIGHT_X, RIGHT_W
    _round_line(image, (x, MARGIN + 20), width, view, True, lang)
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
    y += time_track(image, draw, (x, y), width, view, lang, stage=_stage(view, lang)) + 12
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


def render_table_image(view: GameView, words: ActionWords | None = None, lang: Language = DEFAULT) -> Image.Image:
    view = require_view(view, "render_table")
    words = actions(words, lang)
    image, draw = canvas(PIC_W, PIC_H, PAGE)
    left_w = TABLE_LEFT_W
    x = MARGIN
    _round_line(image, (x, MARGIN + 20), left_w, view, False, lang)
    y = MARGIN + 42
    for line in fonts.wrap(status_text(view, words, lang), 20, left_w, max_lines=3):
        fonts.draw_text(image, (x, y + 12), line, 20, INK, anchor="lm")
        y += 24
    y += 4
    hint = tr(lang, "picture.field.hint", take=words.take)
    y += _title(image, (x, y), tr(lang, "picture.field"), hint, left_w) + 4
    pitch = (left_w - TILE_W) // 3
    field_h = field_grid(image, draw, (x, y), pitch, view, lang)
    px = x + 3 * pitch
    _pile(image, draw, (px, y), left_w - 3 * pitch, tr(lang, "picture.deck"), _back_tile(), view.deck_count, True)
    top = view.discard[-1] if view.discard else None
    discard = card_tile(top, 0, lang) if top is not None else _empty_tile(tr(lang, "picture.empty"))
    _pile(image, draw, (px, y + TILE_H + PRICE_H + 6), left_w - 3 * pitch, tr(lang, "picture.discard"), discard,
          len(view.discard), False)
    y += max(field_h, 2 * (TILE_H + PRICE_H + 6) - 6) + 8
    y = max(y, PIC_H - MARGIN - WILDS_H - 16 - 40)
    y += time_track(image, draw, (x, y), left_w, view, lang, box=40) + 16
    wild_stacks(image, draw, (x, y), left_w, view, lang)

    x = MARGIN + TABLE_LEFT_W + 16
    width = PIC_W - MARGIN - x
    y = MARGIN
    fonts.draw_text(image, (x, y + 14), tr(lang, "picture.players"), 24, INK, anchor="lm", bold=True)
    y += 30
    y += players_list(image, draw, (x, y), width, view, lang, 1, 32) + 8
    if view.held_count > 0 and not view.over:
        y += _held(image, draw, (x, y), width, view, words, lang) + 8
    _skills(image, draw, (x, y), width, view, words, lang)
    return image


def _held(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int, view: GameView,
          words: ActionWords, lang: Language) -> int:
    """Cards in the acting seat's hand during a skill: numbered faces when visible, else backs."""
    x, y = xy
    who = view.seats[view.current].name
    skill = view.pending.skill if view.pending is not None else None
    where = tr(lang, "picture.skill.where", skill=skill) if skill is not None else ""
    if view.held is None:
        hint = tr(lang, "picture.hand.hidden", cards=counted("card", view.held_count, lang), who=who)
    else:
        kind = view.pending.kind if view.pending is not None else ""
        key = kind if kind in ("place_held", "pile_held") else "numbered"
        hint = tr(lang, f"picture.hand.{key}", place=words.place, pile=words.pile)
    y += _title(image, (x, y), tr(lang, "picture.hand.title", who=who, where=where), hint, width) + 4
    shown = min(view.held_count, max(1, width // (TILE_W + 8)))
    for i in range(shown):
        tx = x + i * (TILE_W + 8)
        if view.held is None:
            paste(image, _back_tile(), (tx, y))
            continue
        paste(image, card_tile(view.held[i], 0, lang), (tx, y))
        _bubble(image, draw, tx + TILE_W - 18, y + ART_H - NAME_LINE - 18, str(i + 1), ACTIVE_DARK)
    return y - xy[1] + TILE_H


def _skills(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int, view: GameView,
            words: ActionWords, lang: Language) -> None:
    """Every skill token, one to a row: with the other side's preview and the note on resolving when
    there is room, else each on a line or two."""
    x, y = xy
    fonts.draw_text(image, (x, y + 14), tr(lang, "picture.skills"), 24, INK, anchor="lm", bold=True)
    y += 34
    room = PIC_H - MARGIN - y
    note = _note_lines(words, width, lang)
    flip = _skills_height(view, width, lang, True) + 22 * len(note) <= room
    for skill in view.skills:
        y += skill_block(image, draw, (x, y), width, skill, lang=lang, flip=flip, head_w=_head_width(view, lang)) + 4
    if flip:
        for line in note:
            fonts.draw_text(image, (x, y + 11), line, 18, MUTED, anchor="lm")
            y += 22


def render_table(view: GameView, words: ActionWords | None = None, lang: Language = DEFAULT) -> bytes:
    """PNG of everything on the table that `view` may see (1100 x 700, landscape, for Discord's
    inline box): the round and who acts, the Field with its prices, the deck and discard pile, the
    time track, the Wild stacks, the players, any held cards and the skills, in `lang`; hints name
    actions in `words` (Discord's by default)."""
    return png(render_table_image(view, words, lang))


def changed_cells(before: GameView, after: GameView, seat: int) -> tuple[int, ...]:
    """The cells of `seat`'s board that hold a different card in `after` than in `before`: the
    cards placed (or moved there) between two views, for `render_turn`'s `marked`."""
    old = require_view(before, "changed_cells").seats[require_seat(before, seat)].board
    new = require_view(after, "changed_cells").seats[require_seat(after, seat)].board
    return tuple(i for i, (a, b) in enumerate(zip(old, new, strict=True))
                 if b is not None and (a is None or a.card != b.card))
