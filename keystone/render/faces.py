"""The typefaces text is drawn with, and which of them draws each character.

The faces are Noto (installed from PyPI by requirements.txt, found through importlib.resources).
A string is split into clusters (a character with its marks, joiners and selectors) and then into
runs, each drawn by the first face of `CHAIN` that has its characters, read from the faces'
character maps; fonts.py measures and draws those runs. Kept apart from fonts.py so that the
question "who draws this character" has one home, and fonts.py stays about measuring and drawing."""

from __future__ import annotations

import functools
import struct
import unicodedata
from dataclasses import dataclass
from importlib import resources

from PIL import features


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
def can_shape() -> bool:
    """Whether Pillow can shape text (with Raqm, HarfBuzz and FriBiDi)."""
    return bool(features.check_feature("raqm"))


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
