"""PNG encoding against one fixed 256-colour palette.

Every picture is drawn from the same colours (palette.py), their anti-aliased blends, and the card
faces. Mapping onto a palette built once from exactly those is about five times cheaper than
fitting a palette per picture, and an indexed PNG has a third of the bytes to compress. The palette
is built deterministically, so the same view still gives the same bytes on every run.
"""

from __future__ import annotations

import functools
import io

from PIL import Image, ImageDraw

from keystone.data import load_catalog
from keystone.render import palette as colours
from keystone.render.cards import card_back, card_face, empty_cell
from keystone.render.icons import PAINTERS, icon

COLOURS = 256
PNG_LEVEL = 3
"""zlib level for the indexed image: 3 is as small as 6 within a few per cent, and twice as fast."""

_BACKGROUNDS = ("PAGE", "PAGE_DARK", "WHITE", "CARD", "MAT", "SLOT", "HIGHLIGHT", "ACTIVE", "STONE")
_INKS = ("INK", "MUTED", "FAINT", "WHITE", "LABEL_ON_MAT", "SLOT_TEXT", "ACTIVE_DARK", "ALERT", "STONE_DARK",
         "GOLD")


def _named_colours() -> list[colours.RGB]:
    """Every colour constant, each once, so flat areas keep their colour (Pillow's palette lookup
    is approximate: a colour may land on a neighbour a few levels away, which no eye can see)."""
    found: list[colours.RGB] = []
    for value in vars(colours).values():
        candidates = value.values() if isinstance(value, dict) else [value]
        for colour in candidates:
            if isinstance(colour, tuple) and len(colour) == 3 and colour not in found:
                found.append(colour)
    return found


def _ramps() -> Image.Image:
    """Anti-aliased text edges: every ink blended into every background in 16 steps."""
    pairs = [(getattr(colours, i), getattr(colours, b)) for i in _INKS for b in _BACKGROUNDS if i != b]
    image = Image.new("RGB", (16 * 4, len(pairs) * 4))
    draw = ImageDraw.Draw(image)
    for row, (ink, back) in enumerate(pairs):
        for step in range(16):
            t = step / 15
            mixed = tuple(round(b + (i - b) * t) for i, b in zip(ink, back, strict=True))
            draw.rectangle((step * 4, row * 4, step * 4 + 3, row * 4 + 3), fill=mixed)
    return image


def _sample() -> Image.Image:
    """Card faces and icons on the page colour, plus the text ramps: what the pictures are made of."""
    faces = [card_face(c.id) for c in load_catalog().all_cards()]
    faces += [card_back(), empty_cell("A1")]
    sprites = [icon(name, 48) for name in PAINTERS]
    columns = 12
    w, h = faces[0].size
    rows = -(-len(faces) // columns)
    ramps = _ramps()
    image = Image.new("RGB", (columns * w, rows * h + 60 + ramps.height), colours.PAGE)
    for i, face in enumerate(faces):
        image.paste(face, ((i % columns) * w, (i // columns) * h), face)
    for i, sprite in enumerate(sprites):
        image.paste(sprite, (i * 50 % image.width, rows * h + 4), sprite)
    image.paste(ramps, (0, rows * h + 60))
    return image


@functools.cache
def shared_palette() -> Image.Image:
    """A 'P' image carrying the fixed palette: named colours first, the rest fitted to the sample."""
    named = _named_colours()
    fitted = _sample().quantize(COLOURS - len(named), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    extra = fitted.getpalette() or []
    flat = [c for colour in named for c in colour] + extra[: 3 * (COLOURS - len(named))]
    flat += [0] * (3 * COLOURS - len(flat))
    holder = Image.new("P", (1, 1))
    holder.putpalette(flat)
    return holder


def png(image: Image.Image) -> bytes:
    """Encode as an indexed PNG on the shared palette; Pillow writes no timestamp, so equal images
    give equal bytes."""
    flat = image.convert("RGB") if image.mode != "RGB" else image
    indexed = flat.quantize(palette=shared_palette(), dither=Image.Dither.NONE)
    out = io.BytesIO()
    indexed.save(out, "PNG", compress_level=PNG_LEVEL)
    return out.getvalue()
