"""A line's coverage mask composed from glyphs rendered once each, the very mask FreeType draws.

Rendering the variable Noto faces is slow: Pillow renders every glyph of a line four times over
(layout, bounding box, then two drawing passes), so a line not seen before (a player's name, what
they just placed) cost 1 to 4 ms, most of a turn picture. Pillow's basic layout puts each glyph's
bitmap at a whole pixel from a pen that moves by whole pixels (the faces' advances are hinted to
whole pixels) and blends overlapping glyphs by one fixed rule; so a line stamped here from glyphs
rendered once per (face, size, weight, character), blended by that rule, has the same pixels as
Pillow's (tests/test_render_glyphs.py compares them), in a tenth of the time.

Only lines that Pillow draws that way are composed: a face shaped by Raqm (joined scripts, emoji
sequences) or thickened for bold (the CJK faces) is left to FreeType (`composable`).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

from PIL import Image, ImageChops, ImageDraw, ImageFont, ImageMath

from keystone.render.faces import Face, can_shape

GLYPH_CACHE = 8192
"""Glyphs kept (a few hundred bytes each): every letter of a few alphabets at every size and weight."""

_NONZERO = [0] + [255] * 255
"""A lookup table: any coverage at all becomes full, so a product shows where two glyphs both have ink."""

Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Glyph:
    """One character as its face draws it alone, on the pen's baseline at the origin."""

    ink: Image.Image | None
    """Its coverage, cropped to the pixels it covers (None for a space)."""
    dx: int
    dy: int
    """Where `ink`'s top-left pixel lies from the pen on the baseline."""
    box: Box
    """What Pillow's `getbbox(anchor="ls")` gives for it alone: its outline's box widened to take in
    the pen's line from 0 to its advance; a line's box is these boxes' union, each moved by its pen."""
    advance: int
    """How far it moves the pen, in whole pixels."""


@functools.lru_cache(maxsize=GLYPH_CACHE)
def glyph(loaded: ImageFont.FreeTypeFont, letter: str) -> Glyph | None:
    """`letter` rendered once by the `loaded` face, size and weight (cached; treat the image as
    read-only), or None when its advance is not whole pixels (a composed line would not be FreeType's)."""
    advance = loaded.getlength(letter)
    if advance != int(advance):
        return None
    box = loaded.getbbox(letter, anchor="ls")
    x0, y0, x1, y1 = (int(v) for v in box)
    canvas = Image.new("L", (x1 - x0 + 2, y1 - y0 + 2), 0)
    ImageDraw.Draw(canvas).text((1 - x0, 1 - y0), letter, font=loaded, fill=255, anchor="ls")
    inked = canvas.getbbox()
    if inked is None:
        return Glyph(None, 0, 0, (x0, y0, x1, y1), int(advance))
    return Glyph(canvas.crop(inked), inked[0] - 1 + x0, inked[1] - 1 + y0, (x0, y0, x1, y1), int(advance))


WARM_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 .,:-'()ÄÖÜäöüßéè"
"""The letters most names and words are made of."""


def warm_up(loaded: ImageFont.FreeTypeFont) -> None:
    """Render the usual letters with `loaded` now, so the first names drawn with it cost no more."""
    for letter in WARM_LETTERS:
        glyph(loaded, letter)


def composable(face: Face, bold: bool) -> bool:
    """Whether FreeType draws a run of `face` glyph by glyph (basic layout, no thickening)."""
    return not (face.shaped and can_shape()) and (face.weighted or not bold)


def _glyphs(loaded: ImageFont.FreeTypeFont, shown: str) -> list[Glyph] | None:
    found = [glyph(loaded, letter) for letter in shown]
    return None if any(g is None for g in found) else [g for g in found if g is not None]


def ink_box(face: Face, bold: bool, loaded: ImageFont.FreeTypeFont, shown: str) -> Box | None:
    """`loaded.getbbox(shown, anchor="ls")` from the cached glyphs (`loaded`: `face` at a size, in
    weight `bold`), or None when the run cannot be composed."""
    found = _glyphs(loaded, shown) if composable(face, bold) and shown else None
    if not found:
        return None
    pen, x0, y0, x1, y1 = 0, 0, 0, 0, 0
    for g in found:
        x0, y0 = min(x0, pen + g.box[0]), min(y0, g.box[1])
        x1, y1 = max(x1, pen + g.box[2]), max(y1, g.box[3])
        pen += g.advance
    return x0, y0, x1, y1


def _round(value: float) -> int:
    """C's round(): halves away from zero (Python's round() takes halves to even)."""
    return math.floor(value + 0.5) if value >= 0 else -math.floor(0.5 - value)


def _pixel(value: int) -> int:
    """Pillow's PIXEL(): a 26.6 fixed-point coordinate rounded to the nearest whole pixel."""
    return ((value + 32) & -64) >> 6


def _blend(under: Image.Image, ink: Image.Image) -> Image.Image:
    """FreeType-in-Pillow's rule where two glyphs overlap: ink + under * (255 - ink) / 255, rounded
    as its MULDIV255 rounds."""
    def rule(a: dict[str, object]) -> object:
        s, t = a["s"], a["t"]
        tmp = t * (255 - s) + 128  # type: ignore[operator]
        return s + (((tmp >> 8) + tmp) >> 8)  # type: ignore[operator]

    out = ImageMath.lambda_eval(rule, s=ink, t=under)
    assert isinstance(out, Image.Image)
    return out.convert("L")


@dataclass(slots=True)
class Inked:
    """Where a line's mask has ink so far: the boxes of the glyphs stamped, and the furthest right
    any reaches (a glyph left of none of them is copied in without a look)."""

    boxes: list[Box] = field(default_factory=list)
    right: int = -(1 << 30)

    def overlaps(self, box: Box) -> bool:
        return box[0] < self.right and any(
            b[0] < box[2] and box[0] < b[2] and b[1] < box[3] and box[1] < b[3] for b in self.boxes)

    def add(self, box: Box) -> None:
        self.boxes.append(box)
        self.right = max(self.right, box[2])


def _put(mask: Image.Image, ink: Image.Image, box: Box, inked: Inked) -> None:
    """`ink` into `mask` at `box`: a plain copy onto bare mask, the brighter of the two where no
    pixel has ink from both, else FreeType's blend."""
    if not inked.overlaps(box):
        mask.paste(ink, box[:2])
    else:
        under = mask.crop(box)
        if ImageChops.multiply(under.point(_NONZERO), ink.point(_NONZERO)).getbbox() is None:
            mask.paste(ImageChops.lighter(under, ink), box[:2])
        else:
            mask.paste(_blend(under, ink), box[:2])
    inked.add(box)


def stamp(mask: Image.Image, xy: tuple[float, float], face: Face, bold: bool, loaded: ImageFont.FreeTypeFont,
          shown: str, inked: Inked) -> bool:
    """Draw `shown` onto the 'L' `mask` as `ImageDraw.text(xy, shown, fill=255, anchor="ls")` would
    (the pen on the baseline at `xy`), from cached glyphs; `inked`, where ink already lies, grows.
    False (and nothing drawn) when the run cannot be composed."""
    found = _glyphs(loaded, shown) if composable(face, bold) else None
    if found is None:
        return False
    left, top = int(xy[0]), int(xy[1])
    start_x = _round(math.modf(xy[0])[0] * 64)
    drop = _pixel(_round(-math.modf(xy[1])[0] * 64))
    pen = 0
    for g in found:
        if g.ink is not None:
            x, y = left + _pixel(start_x + pen * 64) + g.dx, top - drop + g.dy
            _put(mask, g.ink, (x, y, x + g.ink.width, y + g.ink.height), inked)
        pen += g.advance
    return True
