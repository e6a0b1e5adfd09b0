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
from keystone.render import records
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


@functools.lru_cache(maxsize=64)
def palette_index(colour: colours.RGB) -> int:
    """The index `indexed` maps `colour` to: what to draw with on an indexed picture so it holds
    the very index the colour drawn on an RGB picture would be mapped to."""
    index = indexed(Image.new("RGB", (1, 1), colour)).getpixel((0, 0))
    assert isinstance(index, int)
    return index


def framed(size: tuple[int, int]) -> Image.Image:
    """A blank indexed picture of `size` (all index 0) with one more column on the right, held at 0:
    a zero byte, then the picture's bytes but the last, are its rows as a PNG stores them (each row's
    filter byte, 0, before it), so `png_framed` needs no copy to put those bytes in. Draw on it as
    on the picture itself; leave the last column alone."""
    image = Image.new("P", (size[0] + 1, size[1]), 0)
    image.putpalette(shared_palette().getpalette() or [])
    image.info[records.POSTED] = size
    return image


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _write(size: tuple[int, int], palette: Image.Image, rows: bytes, compress: Callable[[bytes], bytes]) -> bytes:
    """An 8-bit indexed PNG of `size` whose filtered rows (filter 0 each: a palette index has no
    neighbour to predict it from) are `rows`: the format Pillow writes, with no time or text chunk,
    so equal images give equal bytes."""
    w, h = size
    colours_ = bytes((palette.getpalette() or [])[: 3 * COLOURS])
    return b"".join((
        b"\x89PNG\r\n\x1a\n",
        _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),
        _chunk(b"PLTE", colours_),
        _chunk(b"IDAT", compress(rows)),
        _chunk(b"IEND", b""),
    ))


def write_png(picture: Image.Image, compress: Callable[[bytes], bytes]) -> bytes:
    """An 8-bit indexed ('P') image as a PNG whose pixel rows `compress` turns into a zlib stream."""
    if picture.mode != "P":
        raise ValueError("write_png writes an indexed ('P') image; map it onto the palette first.")
    w, h = picture.size
    rows = Image.new("L", (w + 1, h), 0)  # a zero filter byte before each row
    rows.paste(Image.frombytes("L", (w, h), picture.tobytes()), (1, 0))
    return _write((w, h), picture, rows.tobytes(), compress)


def _deflate(raw: bytes) -> bytes:
    if _isal is not None:
        return bytes(_isal.compress(raw, ISAL_LEVEL))
    return zlib.compress(raw, PNG_LEVEL)  # pragma: no cover - isal is in requirements.txt


def png_framed(picture: Image.Image) -> bytes:
    """A `framed` picture as a PNG of the picture without its frame column, deterministic."""
    if picture.mode != "P":
        raise ValueError(picture.mode)  # `framed` makes a 'P' picture
    w, h = picture.size
    picture.paste(0, (w - 1, 0, w, h))  # the filter bytes: 0, whatever was drawn past the edge
    rows = b"".join((b"\0", memoryview(picture.tobytes())[:-1]))
    return _write((w - 1, h), picture, rows, _deflate)


def png(image: Image.Image) -> bytes:
    """Encode as an indexed PNG on the shared palette, deterministic: the same image gives the same
    bytes (with `isal` installed, its own same bytes)."""
    picture = indexed(image)
    if _isal is not None:
        return write_png(picture, _deflate)
    out = io.BytesIO()
    picture.save(out, "PNG", compress_level=PNG_LEVEL)
    return out.getvalue()
