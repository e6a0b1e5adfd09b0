"""What every picture shares: the view guard, PNG encoding, small drawing pieces and the legend."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw

from keystone.cards import Habitat, ObjectiveCard, Pattern, Season, Symbol
from keystone.data import load_catalog
from keystone.engine.board import ROWS
from keystone.engine.views import GameView
from keystone.engine.words import GOAL_LETTERS, goal_name, icon_label
from keystone.i18n import DEFAULT, Language, tr
from keystone.render import encode, fonts, records
from keystone.render.encode import png
from keystone.render.icons import habitat_icon, icon, paste, season_icon, symbol_icon
from keystone.render.palette import (
    ENDANGERED,
    FAINT,
    INK,
    LABEL_ON_MAT,
    MAT,
    MAT_EDGE,
    PAGE,
    RGB,
    SEASON_COLOUR,
    TAG,
    WHITE,
)

PATTERN_CELLS: dict[Pattern, tuple[tuple[int, int], ...]] = {
    Pattern.L_SHAPE: ((0, 0), (1, 0), (1, 1)),
    Pattern.LINE2: ((1, 0), (1, 1)),
    Pattern.DIAGONAL: ((0, 0), (1, 1)),
    Pattern.LINE3: ((1, 0), (1, 1), (1, 2)),
}


__all__ = ["png"]


def require_view(view: object, where: str) -> GameView:
    """Refuse anything but a GameView: a full GameState would leak hidden cards into a picture."""
    if not isinstance(view, GameView):
        raise TypeError(
            f"{where} draws a GameView from player_view() or public_view(), not {type(view).__name__}; "
            "a full game state holds hidden information."
        )
    return view


def require_seat(view: GameView, seat: int) -> int:
    if type(seat) is not int or not 0 <= seat < len(view.seats):
        raise ValueError(f"There is no seat {seat!r}; this game has seats 0 to {len(view.seats) - 1}.")
    return seat


def canvas(width: int, height: int, colour: RGB = PAGE) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), colour)
    return image, ImageDraw.Draw(image)


@dataclass(frozen=True)
class Sprite:
    """A piece drawn once on bare page and kept: the box of pixels it changed (RGB), that box's
    offset from the point it was drawn at, and the texts drawn on it (so tests still see them)."""

    image: Image.Image
    dx: int
    dy: int
    texts: records.Texts

    @functools.cached_property
    def indexed(self) -> Image.Image:
        """`image` mapped onto the palette once (a pixel is mapped alone: pasted, the same pixels)."""
        return encode.indexed(self.image)

    def paste(self, onto: Image.Image, xy: tuple[int, int]) -> None:
        """Onto bare page (RGB, or indexed), as drawing the piece at `xy` would: a plain copy."""
        at = (xy[0] + self.dx, xy[1] + self.dy)
        onto.paste(self.indexed if onto.mode == "P" else self.image, at)
        records.replay(self.texts, onto, at)


SPRITE_PAD = 32
"""Room around a sprite's nominal box for what it draws past it (an icon hanging below, a glyph's tail)."""
Painter = Callable[[Image.Image, tuple[int, int]], None]


def on_page(size: tuple[int, int], at: tuple[int, int], paint: Painter) -> Sprite:
    """What `paint(image, xy)` draws on bare page around a `size` box, with `xy` at `at` in that box,
    as a `Sprite`: pasted onto bare page at xy, it gives the very pixels painting there would (paint
    only on bare page: blends onto anything else would differ)."""
    width, height = size
    image = Image.new("RGB", (width + 2 * SPRITE_PAD, height + 2 * SPRITE_PAD), PAGE)
    origin = (SPRITE_PAD + at[0], SPRITE_PAD + at[1])
    with records.captured(image) as texts:
        paint(image, origin)
    box = ImageChops.difference(image, Image.new("RGB", image.size, PAGE)).getbbox() or (0, 0, 1, 1)
    return Sprite(image.crop(box), box[0] - origin[0], box[1] - origin[1], texts[0].moved(box[0], box[1]))


def band(picture: Image.Image, xy: tuple[int, int], size: tuple[int, int],
         paint: Callable[[Image.Image], None]) -> None:
    """Paint a `size` part of `picture` on bare page of its own, then put it in at `xy`: as painted
    onto an RGB picture, mapped onto the palette onto an indexed one (so only the parts drawn afresh
    are mapped, not the whole picture). Its texts count as drawn on the picture. The part's place on
    the picture must be bare page, as it is copied over it."""
    image = Image.new("RGB", size, PAGE)
    with records.captured(image) as texts:
        paint(image)
    picture.paste(encode.indexed(image) if picture.mode == "P" else image, xy)
    records.replay(texts[0], picture, xy)


def pill(image: Image.Image, xy: tuple[int, int], text: str, fill: RGB, colour: RGB = WHITE,
         size: int = 18) -> int:
    """A rounded label with its left edge at x and vertical centre at y; returns its width."""
    draw = ImageDraw.Draw(image)
    x, y = xy
    w = fonts.width(text, size, bold=True) + 20
    h = size + 10
    draw.rounded_rectangle((x, y - h // 2, x + w, y + h // 2), radius=h // 2, fill=fill)
    fonts.draw_text(image, (x + w / 2, y), text, size, colour, anchor="mm", bold=True)
    return w


def token_count(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], name: str, count: int,
                size: int = 26, text_size: int = 20) -> int:
    """An icon followed by a number (synergy, research...); returns the width used."""
    x, y = xy
    paste(image, icon(name, size), (x, y - size // 2))
    text = str(count)
    fonts.draw_text(image, (x + size + 5, y), text, text_size, INK, anchor="lm", bold=True)
    return size + 5 + fonts.width(text, text_size, bold=True)


# --------------------------------------------------------------------------- objectives


def pattern_glyph(image: Image.Image, xy: tuple[int, int], pattern: Pattern, colour: RGB, cell: int = 9) -> int:
    """The goal's shape on a 3x3 grid (or "3+"/"4+" for counts); returns its width."""
    draw = ImageDraw.Draw(image)
    x, y = xy
    if pattern in (Pattern.COUNT3, Pattern.COUNT4):
        text = "3+" if pattern is Pattern.COUNT3 else "4+"
        fonts.draw_text(image, (x + (cell * 3 + 4) / 2, y + (cell * 3 + 4) / 2), text, 18, INK, anchor="mm",
                        bold=True)
        return cell * 3 + 4
    filled = set(PATTERN_CELLS[pattern])
    for r in range(3):
        for c in range(3):
            box = (x + c * (cell + 2), y + r * (cell + 2), x + c * (cell + 2) + cell, y + r * (cell + 2) + cell)
            if (r, c) in filled:
                draw.rectangle(box, fill=colour, outline=INK)
            else:
                draw.rectangle(box, outline=FAINT)
    return cell * 3 + 4


def symbol_colour(symbol: Symbol) -> RGB:
    if symbol is Symbol.ENDANGERED:
        return ENDANGERED
    if symbol is Symbol.TAG:
        return TAG
    return SEASON_COLOUR[Season(symbol.value)]


GOAL_ROW = 46


def objective_strip(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int,
                    objective: ObjectiveCard, done: Sequence[bool] | None = None, columns: int = 2,
                    lang: Language = DEFAULT, line_h: int = 20) -> int:
    """The four goals of a secret objective, `columns` to a row, each with its name (`line_h` apart
    when it wraps; and a check or a cross when `done` is given); returns the height used."""
    x, y = xy
    column = width // columns
    for i, goal in enumerate(objective.goals):
        gx = x + (i % columns) * column
        gy = y + (i // columns) * GOAL_ROW
        fonts.draw_text(image, (gx, gy + 19), GOAL_LETTERS[i], 20, INK, anchor="lm", bold=True)
        glyph_w = pattern_glyph(image, (gx + 20, gy + 3), goal.pattern, symbol_colour(goal.symbol), cell=10)
        tx = gx + 26 + glyph_w
        paste(image, symbol_icon(goal.symbol, 30), (tx, gy + 4))
        tx += 36
        if done is not None:
            paste(image, icon("check" if done[i] else "cross", 26), (tx, gy + 6))
            tx += 32
        lines = fonts.wrap(goal_name(goal.pattern, goal.symbol, lang), 18, gx + column - 8 - tx, max_lines=2)
        top = gy + 19 - line_h * (len(lines) - 1) // 2
        for j, line in enumerate(lines):
            fonts.draw_text(image, (tx, top + j * line_h), line, 18, INK, anchor="lm")
    return GOAL_ROW * (-(-len(objective.goals) // columns))


def objective_card(number: int | None) -> ObjectiveCard | None:
    return None if number is None else load_catalog().objectives.get(number)


# --------------------------------------------------------------------------- legend

LEGEND_ROWS = 3
LEGEND_ROW = 30


def legend(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int,
           lang: Language = DEFAULT) -> int:
    """What every icon means, four to a row; returns the height used."""
    x, y = xy
    items: list[tuple[Image.Image, str]] = [(habitat_icon(h, 24), icon_label(h.value, lang)) for h in Habitat]
    items += [(season_icon(s, 24), icon_label(s.value, lang)) for s in Season]
    items += [(icon(name, 24), icon_label(name, lang)) for name in ("keystone", "endangered", "tag", "research")]
    column = width // 4
    for i, (sprite, label) in enumerate(items):
        cx = x + (i % 4) * column
        cy = y + (i // 4) * LEGEND_ROW
        paste(image, sprite, (cx, cy))
        fonts.draw_text(image, (cx + 30, cy + 12), label, 18, INK, anchor="lm")
    return LEGEND_ROWS * LEGEND_ROW


KEY_ICON = 26
KEY_ROW = 30
KEY_ICONS: tuple[str, ...] = (*(f"habitat:{h.value}" for h in Habitat), *(f"season:{s.value}" for s in Season),
                              "keystone", "endangered", "tag", "research", "synergy")
"""Every icon a board shows, in the key's order: habitats, seasons, symbols, research, synergy."""


def key_labels(lang: Language = DEFAULT) -> list[tuple[str, str]]:
    """(icon name, its word in `lang`) for every icon of the key: words, never initials."""
    return [(name, icon_label(name.split(":")[-1], lang)) for name in KEY_ICONS]


def icon_key(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int,
             lang: Language = DEFAULT, columns: int = 2, measure: bool = False) -> int:
    """The key under its title: each icon with its word, `columns` to a row, a word too long for its
    column wrapped onto a second line; returns the height used (and draws nothing when `measure`)."""
    x, y = xy
    title_h = 30
    if not measure:
        fonts.draw_text(image, (x, y + 12), tr(lang, "picture.key"), 20, INK, anchor="lm", bold=True)
    column = width // columns
    text_w = column - KEY_ICON - 10
    items = key_labels(lang)
    top = y + title_h
    for start in range(0, len(items), columns):
        row = items[start:start + columns]
        wrapped = [fonts.wrap(label, 18, text_w, max_lines=2) for _, label in row]
        height = max(KEY_ROW, max(len(lines) for lines in wrapped) * 20 + 10)
        if not measure:
            for k, ((name, _), lines) in enumerate(zip(row, wrapped, strict=True)):
                cx = x + k * column
                paste(image, icon(name, KEY_ICON), (cx, top + (height - KEY_ICON) // 2 - 2))
                first = top + height // 2 - 2 - 10 * (len(lines) - 1)
                for j, line in enumerate(lines):
                    fonts.draw_text(image, (cx + KEY_ICON + 8, first + 20 * j), line, 18, INK, anchor="lm")
        top += height
    return top - y


def bare_mat(size: tuple[int, int], radius: int, origin: tuple[int, int], cell: tuple[int, int],
             gap: int) -> Image.Image:
    """A board mat (transparent outside its rounded frame) with its column numbers above and row
    letters beside the cells: `origin` is cell A1's top-left corner, `cell` a cell's size."""
    mat = Image.new("RGBA", size, (0, 0, 0, 0))
    ImageDraw.Draw(mat).rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), radius=radius, fill=MAT,
                                          outline=MAT_EDGE, width=3)
    (left, top), (width, height) = origin, cell
    for c in range(4):
        x = left + c * (width + gap) + width // 2
        fonts.draw_text(mat, (x, top // 2 + 1), str(c + 1), 22, LABEL_ON_MAT, anchor="mm", bold=True)
    for r in range(4):
        y = top + r * (height + gap) + height // 2
        fonts.draw_text(mat, (left // 2 + 1, y), ROWS[r], 22, LABEL_ON_MAT, anchor="mm", bold=True)
    return mat
