"""Text drawing with real typefaces (Noto, installed from PyPI by requirements.txt) and a fallback
chain per character, so a display name in any common script, or with emoji, is drawn as written.

Every string is split into runs, each drawn by the first face of `CHAIN` that has its characters
(`runs`, faces.py); measuring (`width`, `wrap`, `fit`) uses the same runs as drawing, so nothing is
cut or drawn over. A line's mask is composed from glyphs rendered once each where FreeType would
draw it glyph by glyph (glyphs.py), else rendered whole. The same input always draws the same pixels."""

from __future__ import annotations

import functools
import math
import re

from PIL import Image, ImageDraw, ImageFont, features

from keystone.i18n import Language
from keystone.render import glyphs, hyphens, records
from keystone.render.faces import (
    BOLD,
    CHAIN,
    CJK,
    EMOJI,
    JAPANESE,
    KOREAN,
    LATIN,
    REPLACEMENT,
    SCRIPTS,
    SIMPLIFIED,
    SYMBOLS,
    TRADITIONAL,
    Face,
    can_shape,
    clusters,
    coverage,
    runs,
)
from keystone.render.palette import RGB
from keystone.render.records import Drawn, Record, drawn_large, record_sizes, record_texts

__all__ = [
    "BOLD", "CHAIN", "CJK", "EMOJI", "JAPANESE", "KEEP_TOGETHER", "KOREAN", "LATIN", "MIN_SIZE", "PHONE_MIN",
    "REPLACEMENT", "SCRIPTS", "SIMPLIFIED", "SYMBOLS", "TRADITIONAL", "Drawn", "Face", "Record", "clusters",
    "coverage", "draw_text", "drawn_large", "fit", "font", "line_mask", "name_lines", "pieces", "record_sizes",
    "record_texts", "runs", "stroke", "width", "wrap",
]

MIN_SIZE = 14
"""No font is loaded smaller than this."""
PHONE_MIN = 18
"""The smallest text a picture posted in a channel may show at its drawn size: Discord shows a
picture inline at half its size or more (pictures are at most 1100 x 700), which leaves 9 px letters."""


@functools.cache
def font(size: int, bold: bool = False, face: Face = LATIN) -> ImageFont.FreeTypeFont:
    """`face` (the primary face unless told) at `size` px (never below MIN_SIZE) and weight, loaded
    once per process."""
    if not features.check_module("freetype2"):  # pragma: no cover - needs FreeType
        raise RuntimeError("Pillow was built without FreeType; the renderer needs its scalable font.")
    layout = ImageFont.Layout.RAQM if face.shaped and can_shape() else ImageFont.Layout.BASIC
    loaded = ImageFont.truetype(face.path(), max(size, MIN_SIZE), index=face.index, layout_engine=layout)
    if face.weighted:
        loaded.set_variation_by_axes([BOLD if bold else 400])
    return loaded


def _fake_bold(face: Face, size: int, bold: bool) -> tuple[int, tuple[float, ...]]:
    """A static face's bold: a stroke at display sizes, sub-pixel overprints below (`stroke`)."""
    if not bold or face.weighted:
        return 0, ()
    return stroke(size), (() if stroke(size) else _overprint(size))


@functools.lru_cache(maxsize=16384)
def _advance(face: Face, size: int, bold: bool, letter: str) -> float:
    return font(size, bold, face).getlength(letter)


def _length(face: Face, size: int, bold: bool, shown: str) -> float:
    """How far `face` moves the pen drawing `shown`. The basic layout puts each glyph after the one
    before (the faces have no kerning table it would read), so its length is the sum of each
    letter's, remembered per letter; a shaped run is measured whole."""
    if face.shaped and can_shape():
        return font(size, bold, face).getlength(shown)
    return sum(_advance(face, size, bold, letter) for letter in shown)


def _advances(text: str, size: int, bold: bool) -> list[float]:
    """Where each run of `text` starts, from the pen's start, and (last) where the pen ends."""
    pen = [0.0]
    for face, shown in runs(text):
        pen.append(pen[-1] + _length(face, size, bold, shown))
    return pen


@functools.lru_cache(maxsize=4096)
def width(text: str, size: int, bold: bool = False) -> int:
    """Advance width of `text` in pixels (rounded up), each run measured with the face that draws it."""
    return math.ceil(_advances(text, size, bold)[-1] - 1e-6)


def stroke(size: int) -> int:
    """Stroke that thickens a face without a bold weight (the CJK faces) at display sizes; smaller
    text is thickened by overprinting instead."""
    return 0 if size < 40 else size // 30


def _overprint(size: int) -> tuple[float, ...]:
    """Sub-pixel offsets that thicken small text a little: a semi-bold for a face without weights."""
    return (0.6,) if size < 20 else (0.5, 1.0)


def wrap(text: str, size: int, max_width: int, max_lines: int = 3, lang: Language | None = None) -> list[str]:
    """Greedy word wrap; a word wider than a line breaks after its hyphens, then at a syllable of
    `lang` (or, in a text of no known language, between two consonants: `pieces`); what does not fit
    in `max_lines` is cut with an ellipsis. A name is broken by `name_lines` instead."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        for k, piece in enumerate(pieces(word, size, max_width, lang)):
            candidate = current + piece if k else f"{current} {piece}".strip()
            if width(candidate, size) <= max_width or not current:
                current = candidate
            else:
                lines.append(current)
                current = piece
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        records.cut(text)
        lines = lines[:max_lines]
        lines[-1] = lines[-1] + "..."
    return [fit(line, size, max_width) for line in lines]


KEEP_TOGETHER = ("ch", "ck", "sch", "ph", "th", "qu")
"""Letter groups a break never splits."""


def _ideograph(letter: str) -> bool:
    """A Chinese character, kana or a hangul syllable: a line may end between two of them, with no hyphen."""
    code = ord(letter)
    return (0x2E80 <= code <= 0x9FFF or 0xAC00 <= code <= 0xD7AF or 0xF900 <= code <= 0xFAFF
            or 0x20000 <= code <= 0x3FFFF)


def _break_points(word: str) -> list[tuple[int, str]]:
    """Where a long word of no known language (a display name) may break, and what ends its first
    piece there: a hyphen between two consonants, never inside a letter group that spells one sound,
    at least three letters from either end; nothing between two Chinese, Japanese or Korean
    characters, which lines break between. A word in a known language breaks at its dictionary's
    syllables instead (`_points`)."""
    points = []
    for i in range(1, len(word)):
        a, b = word[i - 1], word[i]
        if _ideograph(a) and _ideograph(b):
            points.append((i, ""))
            continue
        if not (3 <= i < len(word) - 2) or not (a.isalpha() and b.isalpha()) or hyphens.vowel(a) or hyphens.vowel(b):
            continue
        if any(word.find(g, max(0, i - len(g) + 1), i + len(g) - 1) >= 0 for g in KEEP_TOGETHER):
            continue
        points.append((i, "-"))
    return points


def _points(part: str, lang: Language | None) -> list[tuple[int, str]]:
    """Where a piece of a word may break: the syllables of `lang`'s dictionary, else `_break_points`."""
    if lang is not None and part.isalpha():
        return [(i, "-") for i in hyphens.syllables(part, lang)]
    return _break_points(part)


def pieces(word: str, size: int, max_width: int, lang: Language | None = None) -> list[str]:
    """`word` as pieces a line may end after: the word itself when it fits a line, else split
    after each hyphen, and any piece still too wide split at the last break point that fits."""
    if width(word, size) <= max_width:
        return [word]
    out: list[str] = []
    for part in re.findall(r"[^-]+-*|-+", word):
        while width(part, size) > max_width:
            fitting = [(i, end) for i, end in _points(part.rstrip("-"), lang)
                       if width(part[:i] + end, size) <= max_width]
            if not fitting:
                break
            i, end = fitting[-1]
            out.append(part[:i] + end)
            part = part[i:]
        out.append(part)
    return out


@functools.lru_cache(maxsize=2048)
def name_lines(name: str, lang: Language, size: int, room: int, max_lines: int = 3) -> tuple[str, ...]:
    """A card's name in at most `max_lines` lines of `room` px at `size`, broken in its language
    (hyphens.py: spaces, then hyphens, then syllables, the best balanced); a name no break makes
    fit is left to `wrap`. Cached per (name, language, size, room): a picture pays for a name once."""
    lines = hyphens.arrange(name, lang, lambda line: width(line, size), (room,), max_lines)
    return tuple(lines if lines is not None else wrap(name, size, room, max_lines, lang))


def fit(text: str, size: int, max_width: int) -> str:
    """`text`, shortened with an ellipsis until it fits `max_width`; it loses whole characters
    (an emoji with its skin tone, a letter with its marks), never half of one."""
    if width(text, size) <= max_width:
        return text
    records.cut(text)
    kept = clusters(text)
    while kept and width("".join(kept) + "...", size) > max_width:
        kept.pop()
    return "".join(kept).rstrip() + "..."


WARM = ((20, False), (22, False), (24, False), (24, True), (26, False), (28, True), (32, True))
"""The sizes and weights the turn picture letters names and the move in."""


def warm_up() -> None:
    """Render the usual letters of the primary face at the usual sizes now (a tenth of a second), so
    the first names a picture worker draws cost no more than the rest."""
    for size, bold in WARM:
        glyphs.warm_up(font(size, bold))


def _ink(face: Face, size: int, bold: bool, shown: str, x: float,
         compose: bool = True) -> tuple[float, float, float, float]:
    """The box a run's pixels cover, drawn with its pen starting at `x` on the baseline (from the
    cached glyphs when `compose` and the run allows it, else from FreeType)."""
    line_stroke, offsets = _fake_bold(face, size, bold)
    composed = glyphs.ink_box(face, bold, font(size, bold, face), shown) if compose else None
    box = composed or font(size, bold, face).getbbox(shown, anchor="ls", stroke_width=line_stroke)
    return x + box[0], box[1], x + box[2] + (offsets[-1] if offsets else 0), box[3]


def _render(mask: Image.Image, pieces_: tuple[tuple[Face, str], ...], pen: list[float],
            origin: tuple[float, float], size: int, bold: bool) -> None:
    """Each run drawn onto `mask` by FreeType, the pen starting at `origin` (+ the run's advance)."""
    draw = ImageDraw.Draw(mask)
    for (face, shown), x in zip(pieces_, pen, strict=False):
        loaded = font(size, bold, face)
        line_stroke, offsets = _fake_bold(face, size, bold)
        at = (origin[0] + x, origin[1])
        draw.text(at, shown, font=loaded, fill=255, anchor="ls", stroke_width=line_stroke, stroke_fill=255)
        for dx in offsets:
            draw.text((at[0] + dx, at[1]), shown, font=loaded, fill=255, anchor="ls")


def _compose(mask: Image.Image, pieces_: tuple[tuple[Face, str], ...], pen: list[float],
             origin: tuple[float, float], size: int, bold: bool) -> bool:
    """Each run stamped onto `mask` from cached glyphs (glyphs.py), as `_render` would draw it;
    False, with nothing drawn, when a run must be left to FreeType."""
    if not all(glyphs.composable(face, bold) for face, _ in pieces_):
        return False
    inked = glyphs.Inked()
    for (face, shown), x in zip(pieces_, pen, strict=False):
        if not glyphs.stamp(mask, (origin[0] + x, origin[1]), face, bold, font(size, bold, face), shown, inked):
            mask.paste(0, (0, 0, *mask.size))
            return False
    return True


@functools.lru_cache(maxsize=8192)
def _mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """The text's coverage mask and its offset from the anchor point, made once per string
    (`line_mask`)."""
    return line_mask(text, size, bold, anchor)


def line_mask(text: str, size: int, bold: bool, anchor: str, compose: bool = True) -> tuple[Image.Image, int, int]:
    """The text's coverage mask and its offset from the anchor point, never cached: composed from
    cached glyphs where FreeType draws glyph by glyph, else (or when not `compose`) rendered whole,
    to the same pixels either way.

    Each run is drawn by its own face at the pen position `width` measures, on the primary face's
    baseline; the anchor's height comes from the primary face's ascent and descent (and, for "t" and
    "b", from the ink), so a line in several scripts sits where a line in one would."""
    pieces_ = runs(text)
    pen = _advances(text, size, bold)
    ascent, descent = font(size, bold).getmetrics()
    inks = [_ink(face, size, bold, shown, x, compose) for (face, shown), x in zip(pieces_, pen, strict=False)]
    ink = (min(b[0] for b in inks), min(b[1] for b in inks), max(b[2] for b in inks),
           max(b[3] for b in inks)) if inks else (0.0, 0.0, 0.0, 0.0)
    horizontal, vertical = anchor[0], anchor[1]
    ax = {"l": 0, "m": width(text, size, bold) / 2, "r": width(text, size, bold)}[horizontal]
    ay = {"a": -ascent, "t": ink[1], "m": (descent - ascent) / 2, "s": 0.0, "b": ink[3], "d": descent}[vertical]
    left, top = math.floor(ink[0] - ax), math.floor(ink[1] - ay)
    right, bottom = math.ceil(ink[2] - ax), math.ceil(ink[3] - ay)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    origin = (-ax - left, -ay - top)
    if not (compose and _compose(mask, pieces_, pen, origin, size, bold)):
        _render(mask, pieces_, pen, origin, size, bold)
    return mask, left, top


def draw_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    anchor: str = "la",
    bold: bool = False,
) -> None:
    """Draw one line; `anchor` is Pillow's two-letter anchor (e.g. "mm" centres it).

    A line's mask is made once per (text, size, weight, anchor) and then stamped in any colour,
    because FreeType rendering is most of the cost of a picture.
    """
    if not text:
        return
    mask, left, top = _mask(text, size, bold, anchor)
    at = (round(xy[0]) + left, round(xy[1]) + top)
    records.note(text, max(size, MIN_SIZE), (at[0], at[1], at[0] + mask.width, at[1] + mask.height), image)
    image.paste(fill, at, mask)
