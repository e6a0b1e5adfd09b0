"""Text drawing with Pillow's built-in scalable font only, so every machine draws the same pixels."""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from PIL import Image, ImageDraw, ImageFont

from keystone.render.palette import RGB

MIN_SIZE = 14
"""No font is loaded smaller than this."""
PHONE_MIN = 18
"""The smallest text a picture posted in a channel may show at its drawn width (at most 800 px):
Discord shows it about 400 px wide on a phone, which leaves 9 px letters."""

_shrink: list[float] = [1.0]
"""How much the image being drawn is scaled down afterwards (card faces are drawn large)."""
_logs: list[list[float]] = []


@dataclass(frozen=True)
class Drawn:
    """One line of text as drawn: its words, shown size, the box its pixels cover and the size of
    the image it was drawn on (both in that image's pixels)."""

    text: str
    size: float
    box: tuple[int, int, int, int]
    image: tuple[int, int]
    canvas: Image.Image = field(compare=False, repr=False)
    """The image it was drawn on (kept, so two lines on one image are told from others)."""

    def overlaps(self, other: Drawn) -> bool:
        """Both lines were drawn on the same image and their boxes share pixels."""
        a, b = self.box, other.box
        return self.canvas is other.canvas and a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    def inside(self) -> bool:
        """Every pixel of the text lies on its image."""
        x0, y0, x1, y1 = self.box
        return x0 >= 0 and y0 >= 0 and x1 <= self.image[0] and y1 <= self.image[1]


@dataclass
class Record:
    """What `record_texts` saw: every line drawn, and every text shortened to fit (with "...")."""

    drawn: list[Drawn] = field(default_factory=list)
    cut: list[str] = field(default_factory=list)


_records: list[Record] = []


@contextmanager
def drawn_large(factor: float) -> Iterator[None]:
    """Text drawn inside is on an image that will be shrunk by `factor`, so its shown size is
    its drawn size divided by `factor` (what `record_sizes` records)."""
    _shrink.append(factor)
    try:
        yield
    finally:
        _shrink.pop()


@contextmanager
def record_sizes() -> Iterator[list[float]]:
    """Collect the shown size of every line of text drawn inside, so a test can check the floor."""
    log: list[float] = []
    _logs.append(log)
    try:
        yield log
    finally:
        _logs.remove(log)


@contextmanager
def record_texts() -> Iterator[Record]:
    """Collect every line of text drawn inside, with its box, and every text cut to fit, so a
    test can check that no words are lost or drawn off the picture."""
    record = Record()
    _records.append(record)
    try:
        yield record
    finally:
        _records.remove(record)


def _cut(text: str) -> None:
    for record in _records:
        record.cut.append(text)


@functools.cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """The default font at `size` px (never below MIN_SIZE), loaded once per size."""
    loaded = ImageFont.load_default(max(size, MIN_SIZE))
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # pragma: no cover - needs FreeType
        raise RuntimeError("Pillow was built without FreeType; the renderer needs its scalable font.")
    return loaded


@functools.lru_cache(maxsize=4096)
def width(text: str, size: int, bold: bool = False) -> int:
    """Advance width of `text` in pixels, including what the fake bold adds."""
    extra = 0
    if bold:
        extra = 2 * stroke(size) if stroke(size) else 1
    return int(font(size).getlength(_spelt(text)[0])) + extra


def stroke(size: int) -> int:
    """Stroke for a bold weight at display sizes; smaller text is thickened by overprinting instead."""
    return 0 if size < 40 else size // 30


def _overprint(size: int) -> tuple[float, ...]:
    """Sub-pixel offsets that thicken small text a little: a semi-bold the built-in font lacks."""
    return (0.6,) if size < 20 else (0.5, 1.0)


def wrap(text: str, size: int, max_width: int, max_lines: int = 3) -> list[str]:
    """Greedy word wrap; a word wider than a line breaks after its hyphens, then between two
    consonants (`pieces`); what does not fit in `max_lines` is cut with an ellipsis."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        for k, piece in enumerate(pieces(word, size, max_width)):
            candidate = current + piece if k else f"{current} {piece}".strip()
            if width(candidate, size) <= max_width or not current:
                current = candidate
            else:
                lines.append(current)
                current = piece
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        _cut(text)
        lines = lines[:max_lines]
        lines[-1] = lines[-1] + "..."
    return [fit(line, size, max_width) for line in lines]


_VOWELS = frozenset("aeiouyäöüAEIOUYÄÖÜ")
_KEEP = ("ch", "ck", "sch", "ph", "th", "qu")
"""Letter groups a break never splits."""


def _break_points(word: str) -> list[int]:
    """Where a long word may break with a hyphen: between two consonants, never inside a letter
    group that spells one sound, at least three letters from either end (German compounds mostly
    join there: Riesenmammut-baum, Baumwollschwanz-kaninchen)."""
    points = []
    for i in range(3, len(word) - 2):
        a, b = word[i - 1], word[i]
        if not (a.isalpha() and b.isalpha()) or a in _VOWELS or b in _VOWELS:
            continue
        if any(word.find(g, max(0, i - len(g) + 1), i + len(g) - 1) >= 0 for g in _KEEP):
            continue
        points.append(i)
    return points


def pieces(word: str, size: int, max_width: int) -> list[str]:
    """`word` as pieces a line may end after: the word itself when it fits a line, else split
    after each hyphen, and any piece still too wide split at the last break point that fits."""
    if width(word, size) <= max_width:
        return [word]
    out: list[str] = []
    for part in re.findall(r"[^-]+-*|-+", word):
        while width(part, size) > max_width:
            fitting = [i for i in _break_points(part.rstrip("-")) if width(part[:i] + "-", size) <= max_width]
            if not fitting:
                break
            out.append(part[:fitting[-1]] + "-")
            part = part[fitting[-1]:]
        out.append(part)
    return out


def fit(text: str, size: int, max_width: int) -> str:
    """`text`, shortened with an ellipsis until it fits `max_width`."""
    if width(text, size) <= max_width:
        return text
    _cut(text)
    while text and width(text + "...", size) > max_width:
        text = text[:-1]
    return text.rstrip() + "..."


_BASE = {"ä": "a", "ö": "o", "ü": "u", "Ä": "A", "Ö": "O", "Ü": "U", "é": "e"}
"""Letters the built-in font lacks, drawn as their base letter with the mark added (`_marks`)."""
_SPELT = str.maketrans({"ß": "ss", "„": ",,", **_BASE})
"""What the built-in font draws for each letter it lacks: ß as ss (as Swiss German writes it), the
low opening quote as two commas, and a marked letter as its base letter."""


def _spelt(text: str) -> tuple[str, tuple[tuple[int, str], ...]]:
    """The text as the built-in font can draw it, and where a mark goes: (index, letter)."""
    if text.isascii():
        return text, ()
    plain = text.replace("ß", "ss")
    marks = tuple((i, ch) for i, ch in enumerate(plain) if ch in _BASE)
    return plain.translate(_SPELT), marks


def _marks(draw: ImageDraw.ImageDraw, face: ImageFont.FreeTypeFont, shown: str, marks: tuple[tuple[int, str], ...],
           baseline: tuple[float, float], weight: int) -> None:
    """Umlaut dots (or an acute) above the base letters of `shown`, whose baseline starts at `baseline`."""
    dot = max(2.0, face.size * 0.1) + weight
    for i, letter in marks:
        x = baseline[0] + face.getlength(shown[:i])
        glyph = face.getbbox(shown[i], anchor="ls")
        top = baseline[1] + glyph[1] - dot * 0.6
        centre = x + (glyph[0] + glyph[2]) / 2
        if letter == "é":
            draw.line((centre - dot * 0.3, top - dot * 0.2, centre + dot * 0.7, top - dot * 1.4), fill=255,
                      width=max(1, round(dot * 0.6)))
            continue
        gap = (glyph[2] - glyph[0]) * 0.22
        for cx in (centre - gap - dot / 2, centre + gap - dot / 2):
            draw.ellipse((cx, top - dot, cx + dot, top), fill=255)


@functools.lru_cache(maxsize=8192)
def _mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """The text's coverage mask and its offset from the anchor point, rendered once per string."""
    face = font(size)
    shown, marks = _spelt(text)
    width_ = stroke(size) if bold else 0
    box = face.getbbox(shown, anchor=anchor, stroke_width=width_)
    left, top, right, bottom = math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]), math.ceil(box[3])
    if marks:
        line = face.getbbox(shown, anchor="ls")
        baseline = (box[0] - line[0], box[1] - line[1])
        top = min(top, math.floor(baseline[1] - face.size * 1.05))
    extra = 2 if bold and not width_ else 0
    mask = Image.new("L", (max(1, right - left + extra), max(1, bottom - top)), 0)
    draw = ImageDraw.Draw(mask)
    origin = (-left, -top)
    draw.text(origin, shown, font=face, fill=255, anchor=anchor, stroke_width=width_, stroke_fill=255)
    if bold and not width_:
        for dx in _overprint(size):
            draw.text((origin[0] + dx, origin[1]), shown, font=face, fill=255, anchor=anchor)
    if marks:
        start = (origin[0] + baseline[0], origin[1] + baseline[1])
        _marks(draw, face, shown, marks, start, width_ + (1 if bold else 0))
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

    Glyphs are rendered once per (text, size, weight) and then stamped in any colour, because
    FreeType rendering is most of the cost of a picture.
    """
    if not text:
        return
    for log in _logs:
        log.append(max(size, MIN_SIZE) / _shrink[-1])
    mask, left, top = _mask(text, size, bold, anchor)
    at = (round(xy[0]) + left, round(xy[1]) + top)
    for record in _records:
        box = (at[0], at[1], at[0] + mask.width, at[1] + mask.height)
        record.drawn.append(Drawn(text, max(size, MIN_SIZE) / _shrink[-1], box, image.size, image))
    image.paste(fill, at, mask)
