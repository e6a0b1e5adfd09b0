"""What the turn and the table pictures both show of the table: the Field as tiles with their
prices, the time track, the players and their synergy, and the round line at the top."""

from __future__ import annotations

import functools

from PIL import Image, ImageDraw

from keystone.data import load_catalog
from keystone.engine.views import GameView
from keystone.i18n import DEFAULT, Language, tr
from keystone.render import fonts
from keystone.render.common import Sprite, on_page, pill, token_count
from keystone.render.icons import icon, paste
from keystone.render.palette import ACTIVE_DARK, ALERT, FAINT, HIGHLIGHT, INK, MUTED, PAGE_DARK, RGB, WHITE
from keystone.render.tiles import ART_H, TILE_H, TILE_W, blank_tile, card_tile

PRICE_H = 34
"""The line under a Field tile: slot number and price."""
PRICE_SIZE = 22
SPRITE_CACHE = 128
"""Price lines and time tracks kept, drawn once each: a game shows a handful of each."""
FIELD_CACHE = 256
"""Field tiles kept (about 100 KB each, RGB and indexed): every card in both languages, a few with synergy."""


# --------------------------------------------------------------------------- the Field


def bubble(image: Image.Image, draw: ImageDraw.ImageDraw, cx: int, cy: int, text: str, fill: RGB = INK) -> int:
    """A numbered disc centred on (cx, cy); returns its width."""
    draw.ellipse((cx - 14, cy - 14, cx + 14, cy + 14), fill=fill)
    fonts.draw_text(image, (cx, cy), text, 20, WHITE, anchor="mm", bold=True)
    return 28


def _price_text(cost: int, lang: Language) -> str:
    return tr(lang, "picture.free") if cost == 0 else tr(lang, "picture.cost", cost=cost)


def _price_width(cost: int, lang: Language) -> int:
    return 34 + fonts.width(_price_text(cost, lang), PRICE_SIZE, bold=True) + (0 if cost == 0 else 26)


def _price(image: Image.Image, xy: tuple[int, int], slot: int, cost: int, lang: Language) -> None:
    """The slot's number and what it costs to take, on one line from (x, centre y), onto bare page."""
    _price_sprite(slot, cost, lang).paste(image, xy)


@functools.lru_cache(maxsize=SPRITE_CACHE)
def _price_sprite(slot: int, cost: int, lang: Language) -> Sprite:
    """A price line drawn once on bare page (a Field has six slots and few prices)."""
    def paint(image: Image.Image, xy: tuple[int, int]) -> None:
        x, cy = xy
        bubble(image, ImageDraw.Draw(image), x + 14, cy, str(slot + 1))
        text = _price_text(cost, lang)
        fonts.draw_text(image, (x + 34, cy), text, PRICE_SIZE, ACTIVE_DARK if cost == 0 else INK, anchor="lm",
                        bold=True)
        if cost:
            paste(image, icon("synergy", 24), (x + 36 + fonts.width(text, PRICE_SIZE, bold=True), cy - 12))

    return on_page((_price_width(cost, lang), PRICE_H), (0, PRICE_H // 2), paint)


def _synergy_on_tile(image: Image.Image, x: int, y: int, count: int) -> None:
    """Synergy tokens lying on a Field card: coins and the count, on the right of its art (clear of
    the habitats, the symbols and a third line of name)."""
    label = f"+{count}"
    w = fonts.width(label, 22, bold=True) + 12
    right = x + TILE_W - 6
    top = y + ART_H - 52
    ImageDraw.Draw(image).rounded_rectangle((right - w, top + 2, right, top + 30), radius=12, fill=WHITE, outline=INK,
                                           width=2)
    fonts.draw_text(image, (right - w / 2, top + 16), label, 22, INK, anchor="mm", bold=True)
    for k in range(min(count, 3)):
        paste(image, icon("synergy", 30), (right - w - 32 - k * 4, top + k * 3 - 2 * (min(count, 3) - 1)))


@functools.lru_cache(maxsize=FIELD_CACHE)
def _field_tile(card_id: str | None, synergy: int, lang: Language) -> Sprite:
    """A Field slot's tile (None: an empty slot) with the synergy lying on it, drawn once on bare page."""
    def paint(image: Image.Image, xy: tuple[int, int]) -> None:
        if card_id is None:
            paste(image, blank_tile(tr(lang, "picture.empty")), xy)
            return
        paste(image, card_tile(card_id, 0, lang), xy)
        if synergy:
            _synergy_on_tile(image, xy[0], xy[1], synergy)

    return on_page((TILE_W, TILE_H), (0, 0), paint)


def warm_up(lang: Language = DEFAULT) -> None:
    """Draw every card's Field tile now, mapped onto the palette too, so a worker's first Fields cost
    no more than the rest."""
    for card in load_catalog().all_cards():
        _ = _field_tile(card.id, 0, lang).indexed


def field_width(view: GameView, lang: Language) -> int:
    """The width a Field column needs: its tile or its price line, whichever is wider."""
    return max([TILE_W, *(_price_width(cost, lang) for cost in view.field_costs)])


FIELD_ROW_H = TILE_H + PRICE_H + 6
"""A row of the Field's grid: the tiles, their price lines and the gap under them."""


def slot_origin(xy: tuple[int, int], pitch: int, slot: int, columns: int = 3) -> tuple[int, int]:
    """Where Field slot `slot` (0-based) starts in a `field_grid` drawn at `xy`: its column's left
    edge (the tile is centred in the column) and its tile's top."""
    row, col = divmod(slot, columns)
    return xy[0] + col * pitch, xy[1] + row * FIELD_ROW_H


def field_grid(image: Image.Image, xy: tuple[int, int], pitch: int, view: GameView, lang: Language = DEFAULT,
               columns: int = 3) -> int:
    """The Field's slots as tiles, `columns` to a row `pitch` px apart, each with its number and price
    under it (the tile centred over a price line wider than it), onto bare page of an RGB or indexed
    picture: every piece is kept drawn (`Sprite`), so a Field is copied in, never drawn; returns the
    height used."""
    inset = (field_width(view, lang) - TILE_W) // 2
    for slot, entry in enumerate(view.field):
        x, y = slot_origin(xy, pitch, slot, columns)
        tile = _field_tile(None, 0, lang) if entry is None else _field_tile(entry.card, entry.synergy, lang)
        tile.paste(image, (x + inset, y))
        _price(image, (x, y + TILE_H + PRICE_H // 2 + 2), slot, view.field_costs[slot], lang)
    rows = -(-len(view.field) // columns)
    return rows * FIELD_ROW_H - 6


def time_track(image: Image.Image, xy: tuple[int, int], width: int, view: GameView, lang: Language = DEFAULT,
               box: int = 46, stage: tuple[str, RGB] | None = None) -> int:
    """"Time", then a box per space from the start down to the end, the marker's space highlighted,
    and how much is left, onto bare page; returns the height used (`box`)."""
    _track_sprite(width, max(view.time_start, view.time), view.time, lang, box, stage).paste(image, xy)
    return box


@functools.lru_cache(maxsize=SPRITE_CACHE)
def _track_sprite(width: int, start: int, now: int, lang: Language, box: int,
                  stage: tuple[str, RGB] | None) -> Sprite:
    """The time track drawn once on bare page: it changes once a round, not once a turn."""
    return on_page((width, box), (0, 0), lambda image, xy: _draw_track(image, xy, width, start, now, lang, box, stage))


def _draw_track(image: Image.Image, xy: tuple[int, int], width: int, start: int, now: int, lang: Language, box: int,
                stage: tuple[str, RGB] | None) -> None:
    """The track from space `start` down to the end, the marker on space `now` (`time_track`)."""
    draw = ImageDraw.Draw(image)
    x, y = xy
    title = tr(lang, "picture.time")
    fonts.draw_text(image, (x, y + box / 2), title, 24, INK, anchor="lm", bold=True)
    bx = x + fonts.width(title, 24, bold=True) + 14
    left = max(0, now)
    hint = tr(lang, "picture.time.left", left=left) if left else tr(lang, "picture.time.at_end")
    hint_w = fonts.width(hint, 20) + 12 if stage is None else fonts.width(stage[0], 20, bold=True) + 34
    spaces = list(range(start, -1, -1))
    end = tr(lang, "picture.time.end")
    end_w = max(box, fonts.width(end, 18) + 14)
    step = min(box + 6, (x + width - hint_w - bx - end_w) // max(1, len(spaces) - 1))
    size = min(box, step - 4)
    for value in spaces:
        w = end_w if value == 0 else size
        current = value == now
        passed = value > now
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
        name = fit_bold(seat.name, 24, room) if acting else fonts.fit(seat.name, 24, room)
        fonts.draw_text(image, (x + (28 if acting else 0), cy), name, 24, ACTIVE_DARK if acting else INK,
                        anchor="lm", bold=acting)
    rows = -(-len(view.seats) // columns)
    return rows * row_h


# --------------------------------------------------------------------------- the round


def round_line(image: Image.Image, xy: tuple[int, int], width: int, view: GameView, next_mark: bool,
                lang: Language) -> None:
    """"Round N", a final-round or game-over mark and, on the right, who is next."""
    x, cy = xy
    players = max(1, len(view.seats))
    heading = tr(lang, "picture.round", number=view.turn // players + 1)
    fonts.draw_text(image, (x, cy), heading, 32, INK, anchor="lm", bold=True)
    px = x + fonts.width(heading, 32, bold=True) + 14
    if next_mark and not view.over:
        name = view.seats[view.current].name
        mark = fit_bold(tr(lang, "picture.next", name=name), 28, x + width - px - 20)
        w = fonts.width(mark, 28, bold=True) + 20
        pill(image, (x + width - w, cy), mark, ACTIVE_DARK, size=28)
        return
    stage = stage_mark(view, lang)
    if stage is not None:
        pill(image, (px, cy), stage[0], stage[1], size=22)


def stage_mark(view: GameView, lang: Language) -> tuple[str, RGB] | None:
    """The game-over or final-round mark, if the game is at either."""
    if view.over:
        return tr(lang, "picture.game_over"), INK
    if view.final_round:
        return tr(lang, "picture.final_round"), ALERT
    return None


def fit_bold(text: str, size: int, room: int) -> str:
    """`text` shortened (and recorded as cut) until its bold weight fits `room`."""
    bold = fonts.width(text, size, bold=True)
    if bold <= room:
        return text
    return fonts.fit(text, size, room * fonts.width(text, size) // bold)
