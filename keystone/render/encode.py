"""PNG encoding against one fixed 256-colour palette.

Every picture is drawn from the same colours (palette.py), their anti-aliased blends, and the card
faces. Mapping onto a palette built once from exactly those is about five times cheaper than
fitting a palette per picture, and an indexed PNG has a third of the bytes to compress. The palette
is built deterministically, so the same view still gives the same bytes on every run.

PNG stays the format (Discord shows it inline; the replay alone is a GIF, gif.py): WebP measured
three to four times slower at no fewer bytes (bench/bench_pictures.py --encoders).
"""

from __future__ import annotations

import functools
import importlib
import io
import struct
import zlib
from collections.abc import Callable
from typing import Any

from PIL import Image, ImageDraw

from keystone.data import load_catalog
from keystone.render import palette as colours
from keystone.render.cards import card_back, card_face, empty_cell
from keystone.render.icons import PAINTERS, icon

COLOURS = 256
PNG_LEVEL = 1
"""zlib level for the indexed image, chosen by measurement on the demo gallery (bench_pictures.py
--encoders): level 1 takes 10-25 % less time than 3 for 8 % more bytes (the turn picture about 80 KB,
far under Discord's limits), 6 twice and 9 ten times as long for 20-30 % fewer bytes. Zlib's RLE
strategy is no quicker and half as large again; WebP, lossless or lossy, three to four times slower."""
ISAL_LEVEL = 1
"""The level for `isal` (Intel's ISA-L deflate, in requirements.txt): it compresses the same pixels in
about half zlib level 1's time, a few per cent smaller. Pillow's zlib stays the fallback where isal
cannot be installed (a platform with no wheel)."""


def _optional_isal() -> Any:
    """`isal.isal_zlib` when the package is installed (requirements.txt has it), else None."""
    try:
        return importlib.import_module("isal.isal_zlib")
    except ImportError:  # pragma: no cover - depends on what is installed
        return None


_isal: Any = _optional_isal()

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


def indexed(image: Image.Image) -> Image.Image:
    """The picture mapped onto the shared palette, nearest colour, no dithering."""
    flat = image.convert("RGB") if image.mode != "RGB" else image
    return flat.quantize(palette=shared_palette(), dither=Image.Dither.NONE)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def write_png(picture: Image.Image, compress: Callable[[bytes], bytes]) -> bytes:
    """An 8-bit indexed ('P') image as a PNG whose pixel rows (filter 0: a palette index has no
    neighbour to predict it from) `compress` turns into a zlib stream: the format Pillow writes, with
    no time or text chunk, so equal images give equal bytes."""
    if picture.mode != "P":
        raise ValueError("write_png writes an indexed ('P') image; map it onto the palette first.")
    w, h = picture.size
    rows = Image.new("L", (w + 1, h), 0)  # a zero filter byte before each row
    rows.paste(Image.frombytes("L", (w, h), picture.tobytes()), (1, 0))
    colours_ = bytes((picture.getpalette() or [])[: 3 * COLOURS])
    return b"".join((
        b"\x89PNG\r\n\x1a\n",
        _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),
        _chunk(b"PLTE", colours_),
        _chunk(b"IDAT", compress(rows.tobytes())),
        _chunk(b"IEND", b""),
    ))


def png(image: Image.Image) -> bytes:
    """Encode as an indexed PNG on the shared palette, deterministic: the same image gives the same
    bytes (with `isal` installed, its own same bytes)."""
    picture = indexed(image)
    if _isal is not None:
        return write_png(picture, lambda raw: bytes(_isal.compress(raw, ISAL_LEVEL)))
    out = io.BytesIO()
    picture.save(out, "PNG", compress_level=PNG_LEVEL)
    return out.getvalue()
