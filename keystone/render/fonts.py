"""Text drawing with real typefaces (Noto, installed from PyPI by requirements.txt) and a fallback
chain per character, so a display name in any common script, or with emoji, is drawn as written.

Every string is split into runs, each drawn by the first face of `CHAIN` that has its characters
(`runs`); measuring (`width`, `wrap`, `fit`) uses the same runs as drawing, so nothing is cut or
drawn over. The same input always draws the same pixels."""

from __future__ import annotations

import functools
import math
import re
import struct
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import resources

from PIL import Image, ImageDraw, ImageFont, features

from keystone.render.palette import RGB

MIN_SIZE = 14
"""No font is loaded smaller than this."""
PHONE_MIN = 18
"""The smallest text a picture posted in a channel may show at its drawn size: Discord shows a
picture inline at half its size or more (pictures are at most 1100 x 700), which leaves 9 px letters."""

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


@dataclass(frozen=True)
class Face:
    """One typeface of the fallback chain: a font file shipped by an installed package (found through
    importlib.resources, never a path on this machine), and the face's index inside it."""

    package: str
    file: str
    index: int = 0
    weighted: bool = True
    """Whether the face is a variable font with a weight axis (bold is drawn with it); a static face
    is thickened for bold instead (`_fake_bold`)."""
    shaped: bool = False
    """Whether its text needs shaping (joined letters, ligatures of emoji sequences): laid out with
    Raqm where Pillow has it. The others use Pillow's basic layout, which needs no system library,
    so they draw the same pixels on every machine (and faster)."""

    def path(self) -> str:
        return str(resources.files(self.package).joinpath(self.file))


_NOTO = "manimgx_fonts"
LATIN = Face(_NOTO, "NotoSans[wght].ttf")
"""The primary face: Latin with every accent, Greek (polytonic too), Cyrillic, punctuation like ß
„ “ …, and U+FFFD. Every line's vertical metrics (its ascent, baseline and descent) are its."""
SCRIPTS = tuple(Face(_NOTO, f"NotoSans{script}[wght].ttf", shaped=True) for script in (
    "Arabic", "Armenian", "Bengali", "Devanagari", "Ethiopic", "Georgian", "Gujarati", "Gurmukhi", "Hebrew",
    "Kannada", "Khmer", "Lao", "Malayalam", "Myanmar", "Oriya", "Sinhala", "Tamil", "Telugu", "Thai"))
"""Noto Sans for the scripts the primary face lacks (same package, same design)."""
CJK = tuple(Face("noto_cjk_sans_otc", "NotoSansCJK-Regular.ttc", index, weighted=False) for index in range(4))
"""Noto Sans CJK: the Japanese, Korean, simplified and traditional Chinese faces of one collection.
All four hold the same characters, in their region's shapes; `_cjk_face` picks one per line."""
JAPANESE, KOREAN, SIMPLIFIED, TRADITIONAL = CJK
SYMBOLS = Face(_NOTO, "NotoSansSymbols[wght].ttf")
EMOJI = Face(_NOTO, "NotoEmoji[wght].ttf", shaped=True)
"""Monochrome emoji, with the ligatures that join ZWJ sequences, skin tones and keycaps."""
CHAIN = (LATIN, *SCRIPTS, JAPANESE, SYMBOLS, EMOJI)
"""Who draws a character: the first face that has it (the CJK place is taken by the line's CJK face)."""
REPLACEMENT = "\ufffd"
"""Drawn (by the primary face) for a character no face has, instead of an empty box."""
BOLD = 700
"""The weight of bold text on the variable faces (their regular is 400)."""

_JOINERS = frozenset({0x200C, 0x200D, 0x20E3})
"""ZWNJ, ZWJ and the keycap mark, which belong to the character before them."""


def _attached(code: int) -> bool:
    """A character drawn as part of the one before it: a joiner, a variation selector, a skin tone,
    a tag (the subdivision flags) or a combining mark."""
    return (code in _JOINERS or 0xFE00 <= code <= 0xFE0F or 0x1F3FB <= code <= 0x1F3FF
            or 0xE0020 <= code <= 0xE007F or 0xE0100 <= code <= 0xE01EF
            or unicodedata.category(chr(code)) in ("Mn", "Me", "Mc"))


def _ignorable(code: int) -> bool:
    """An invisible character (a joiner, selector, tag or format character): left out when the face
    drawing its cluster lacks it, as it has nothing to show."""
    return (code in _JOINERS or 0xFE00 <= code <= 0xFE0F or 0xE0000 <= code <= 0xE0FFF
            or unicodedata.category(chr(code)) in ("Cf", "Cc"))


def _is_flag_letter(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def clusters(text: str) -> list[str]:
    """`text` as the units drawn and cut as one: a character with the marks, joiners, selectors,
    skin tones and tags after it (and a ZWJ's next character), and a pair of flag letters."""
    out: list[str] = []
    joined = False
    for ch in text:
        code = ord(ch)
        if out and (joined or _attached(code) or (_is_flag_letter(ch) and len(out[-1]) == 1
                                                    and _is_flag_letter(out[-1]))):
            out[-1] += ch
        else:
            out.append(ch)
        joined = code == 0x200D
    return out


def _table(data: bytes, offset: int, tag: bytes) -> tuple[int, int] | None:
    """Offset and length of table `tag` in the font whose table directory starts at `offset`."""
    count = struct.unpack_from(">H", data, offset + 4)[0]
    for i in range(count):
        name, _, start, length = struct.unpack_from(">4sLLL", data, offset + 12 + 16 * i)
        if name == tag:
            return start, length
    return None


def _cmap_codes(table: bytes) -> set[int]:
    """Every character a cmap table maps to a glyph, read from its Unicode subtable of format 12
    (all of Unicode) or else of format 4 (the Basic Multilingual Plane)."""
    subtables: dict[int, int] = {}
    for i in range(struct.unpack_from(">H", table, 2)[0]):
        platform, encoding, at = struct.unpack_from(">HHL", table, 4 + 8 * i)
        if platform == 0 or (platform == 3 and encoding in (1, 10)):
            subtables.setdefault(struct.unpack_from(">H", table, at)[0], at)
    codes: set[int] = set()
    if 12 in subtables:
        at = subtables[12]
        groups = struct.unpack_from(">L", table, at + 12)[0]
        for first, last, glyph in struct.iter_unpack(">LLL", table[at + 16:at + 16 + 12 * groups]):
            codes.update(range(first + (glyph == 0), last + 1))
    elif 4 in subtables:
        at = subtables[4]
        segments = struct.unpack_from(">H", table, at + 6)[0] // 2
        ends = struct.unpack_from(f">{segments}H", table, at + 14)
        starts = struct.unpack_from(f">{segments}H", table, at + 16 + 2 * segments)
        deltas = struct.unpack_from(f">{segments}h", table, at + 16 + 4 * segments)
        ranges_at = at + 16 + 6 * segments
        range_offsets = struct.unpack_from(f">{segments}H", table, ranges_at)
        for k, (first, last, delta, ro) in enumerate(zip(starts, ends, deltas, range_offsets, strict=True)):
            last = min(last, 0xFFFE)
            if last < first:
                continue
            if ro == 0:
                codes.update(code for code in range(first, last + 1) if (code + delta) & 0xFFFF)
            else:
                glyphs = struct.unpack_from(f">{last - first + 1}H", table, ranges_at + 2 * k + ro)
                codes.update(first + j for j, glyph in enumerate(glyphs) if glyph and (glyph + delta) & 0xFFFF)
    return codes


@functools.cache
def coverage(face: Face) -> frozenset[int]:
    """The characters `face` has a glyph for, read from its cmap table once per process."""
    with open(face.path(), "rb") as file:
        head = file.read(12)
        offset = 0
        if head[:4] == b"ttcf":
            file.seek(12 + 4 * face.index)
            offset = struct.unpack(">L", file.read(4))[0]
        file.seek(offset)
        directory = file.read(12)
        file.seek(offset)
        directory = file.read(12 + 16 * struct.unpack_from(">H", directory, 4)[0])
        found = _table(directory, 0, b"cmap")
        if found is None:
            return frozenset()
        file.seek(found[0])
        return frozenset(_cmap_codes(file.read(found[1])))


@functools.cache
def _raqm() -> bool:
    """Whether Pillow can shape text (with Raqm, HarfBuzz and FriBiDi)."""
    return bool(features.check_feature("raqm"))


@functools.cache
def font(size: int, bold: bool = False, face: Face = LATIN) -> ImageFont.FreeTypeFont:
    """`face` (the primary face unless told) at `size` px (never below MIN_SIZE) and weight, loaded
    once per process."""
    if not features.check_module("freetype2"):  # pragma: no cover - needs FreeType
        raise RuntimeError("Pillow was built without FreeType; the renderer needs its scalable font.")
    layout = ImageFont.Layout.RAQM if face.shaped and _raqm() else ImageFont.Layout.BASIC
    loaded = ImageFont.truetype(face.path(), max(size, MIN_SIZE), index=face.index, layout_engine=layout)
    if face.weighted:
        loaded.set_variation_by_axes([BOLD if bold else 400])
    return loaded


def _cjk_face(text: str) -> Face:
    """The CJK face for a line: Japanese when it has kana, Korean when it has hangul, else Chinese
    (simplified; traditional characters are in it too)."""
    for ch in text:
        code = ord(ch)
        if 0x3040 <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF or 0xFF66 <= code <= 0xFF9F:
            return JAPANESE
        if 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F or 0xAC00 <= code <= 0xD7AF:
            return KOREAN
    return SIMPLIFIED


def _emoji_style(cluster: str) -> bool:
    """The cluster asks for an emoji: it has the emoji selector, a skin tone, a joiner, a keycap or tags."""
    return any(ch == "\ufe0f" or ch == "\u200d" or ch == "\u20e3" or 0x1F3FB <= ord(ch) <= 0x1F3FF
               or 0xE0020 <= ord(ch) <= 0xE007F for ch in cluster[1:])


def _shown(cluster: str, cjk: Face) -> tuple[Face, str]:
    """The face that draws `cluster` and what it draws: the first face of the chain (an emoji
    sequence: the emoji face first) that has all its visible characters, else the first that has
    its first character (without what it lacks); a character no face has becomes U+FFFD, a space
    a space, and an invisible one nothing."""
    if cluster[0].isspace() and ord(cluster[0]) not in coverage(LATIN):
        return LATIN, " "
    chain = [cjk if f is JAPANESE else f for f in CHAIN]
    if _emoji_style(cluster):
        chain.insert(0, EMOJI)
    visible = [ord(ch) for ch in cluster if not _ignorable(ord(ch))]
    for face in chain:
        if all(code in coverage(face) for code in visible):
            return face, "".join(ch for ch in cluster if ord(ch) in coverage(face))
    for face in chain:
        if ord(cluster[0]) in coverage(face):
            return face, "".join(ch for ch in cluster if ord(ch) in coverage(face))
    return LATIN, "" if _ignorable(ord(cluster[0])) else REPLACEMENT


@functools.lru_cache(maxsize=8192)
def runs(text: str) -> tuple[tuple[Face, str], ...]:
    """`text` split into runs each drawn by one face of the fallback chain (see `_shown`); measured
    and drawn alike, on the primary face's baseline."""
    if text.isascii() and text.isprintable():
        return ((LATIN, text),) if text else ()
    text = unicodedata.normalize("NFC", text)
    cjk = _cjk_face(text)
    out: list[tuple[Face, str]] = []
    for cluster in clusters(text):
        face, shown = _shown(cluster, cjk)
        if not shown:
            continue
        if out and out[-1][0] == face:
            out[-1] = (face, out[-1][1] + shown)
        else:
            out.append((face, shown))
    return tuple(out)


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
    if face.shaped and _raqm():
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


_VOWELS = frozenset("aeiouyæøœAEIOUYÆØŒ" "αεηιουωΑΕΗΙΟΥΩ" "аеёиоуыэюяіїєАЕЁИОУЫЭЮЯІЇЄ")
"""Vowels (an accented letter counts as its base letter: `_vowel`)."""
KEEP_TOGETHER = ("ch", "ck", "sch", "ph", "th", "qu")
"""Letter groups a break never splits."""


def _vowel(letter: str) -> bool:
    return letter in _VOWELS or unicodedata.normalize("NFD", letter)[0] in _VOWELS


def _ideograph(letter: str) -> bool:
    """A Chinese character, kana or a hangul syllable: a line may end between two of them, with no hyphen."""
    code = ord(letter)
    return (0x2E80 <= code <= 0x9FFF or 0xAC00 <= code <= 0xD7AF or 0xF900 <= code <= 0xFAFF
            or 0x20000 <= code <= 0x3FFFF)


def _break_points(word: str) -> list[tuple[int, str]]:
    """Where a long word may break, and what ends its first piece there: a hyphen between two
    consonants, never inside a letter group that spells one sound, at least three letters from
    either end (German compounds mostly join there: Riesenmammut-baum, Baumwollschwanz-kaninchen);
    nothing between two Chinese, Japanese or Korean characters, which lines break between."""
    points = []
    for i in range(1, len(word)):
        a, b = word[i - 1], word[i]
        if _ideograph(a) and _ideograph(b):
            points.append((i, ""))
            continue
        if not (3 <= i < len(word) - 2) or not (a.isalpha() and b.isalpha()) or _vowel(a) or _vowel(b):
            continue
        if any(word.find(g, max(0, i - len(g) + 1), i + len(g) - 1) >= 0 for g in KEEP_TOGETHER):
            continue
        points.append((i, "-"))
    return points


def pieces(word: str, size: int, max_width: int) -> list[str]:
    """`word` as pieces a line may end after: the word itself when it fits a line, else split
    after each hyphen, and any piece still too wide split at the last break point that fits."""
    if width(word, size) <= max_width:
        return [word]
    out: list[str] = []
    for part in re.findall(r"[^-]+-*|-+", word):
        while width(part, size) > max_width:
            fitting = [(i, end) for i, end in _break_points(part.rstrip("-"))
                       if width(part[:i] + end, size) <= max_width]
            if not fitting:
                break
            i, end = fitting[-1]
            out.append(part[:i] + end)
            part = part[i:]
        out.append(part)
    return out


def fit(text: str, size: int, max_width: int) -> str:
    """`text`, shortened with an ellipsis until it fits `max_width`; it loses whole characters
    (an emoji with its skin tone, a letter with its marks), never half of one."""
    if width(text, size) <= max_width:
        return text
    _cut(text)
    kept = clusters(text)
    while kept and width("".join(kept) + "...", size) > max_width:
        kept.pop()
    return "".join(kept).rstrip() + "..."


@functools.lru_cache(maxsize=8192)
def _mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """The text's coverage mask and its offset from the anchor point, rendered once per string.

    Each run is drawn by its own face at the pen position `width` measures, on the primary face's
    baseline; the anchor's height comes from the primary face's ascent and descent (and, for "t" and
    "b", from the ink), so a line in several scripts sits where a line in one would."""
    pieces_ = runs(text)
    pen = _advances(text, size, bold)
    ascent, descent = font(size, bold).getmetrics()
    inks = []
    for (face, shown), x in zip(pieces_, pen, strict=False):
        line_stroke, offsets = _fake_bold(face, size, bold)
        box = font(size, bold, face).getbbox(shown, anchor="ls", stroke_width=line_stroke)
        inks.append((x + box[0], box[1], x + box[2] + (offsets[-1] if offsets else 0), box[3]))
    ink = (min(b[0] for b in inks), min(b[1] for b in inks), max(b[2] for b in inks),
           max(b[3] for b in inks)) if inks else (0.0, 0.0, 0.0, 0.0)
    horizontal, vertical = anchor[0], anchor[1]
    ax = {"l": 0, "m": width(text, size, bold) / 2, "r": width(text, size, bold)}[horizontal]
    ay = {"a": -ascent, "t": ink[1], "m": (descent - ascent) / 2, "s": 0.0, "b": ink[3], "d": descent}[vertical]
    left, top = math.floor(ink[0] - ax), math.floor(ink[1] - ay)
    right, bottom = math.ceil(ink[2] - ax), math.ceil(ink[3] - ay)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    draw = ImageDraw.Draw(mask)
    for (face, shown), x in zip(pieces_, pen, strict=False):
        loaded = font(size, bold, face)
        line_stroke, offsets = _fake_bold(face, size, bold)
        origin = (x - ax - left, -ay - top)
        draw.text(origin, shown, font=loaded, fill=255, anchor="ls", stroke_width=line_stroke, stroke_fill=255)
        for dx in offsets:
            draw.text((origin[0] + dx, origin[1]), shown, font=loaded, fill=255, anchor="ls")
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
