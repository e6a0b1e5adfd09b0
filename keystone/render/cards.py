"""Card faces, card backs and empty board cells, each drawn once and cached.

A face is laid out in design units on a 150 x 190 card and drawn 2.4 times larger, then scaled down
to CARD_W x CARD_H (180 x 228 px), so its rounded frame and landscape are smooth and its name is
18 px: readable when Discord shows the picture 400 px wide on a phone.
The landscape strip shows one small scene per habitat of the card (pines, dunes, waves, peaks):
our own art, and a second way to read the habitats at a glance.
"""

from __future__ import annotations

import functools
import math

from PIL import Image, ImageDraw

from keystone.cards import Card, Habitat
from keystone.data import load_catalog
from keystone.engine.words import habitat_name
from keystone.i18n import DEFAULT, Language, tr
from keystone.render import fonts
from keystone.render.icons import habitat_icon, icon, paste, season_icon
from keystone.render.palette import (
    CARD,
    CARD_EDGE,
    CARD_H,
    CARD_W,
    GOLD,
    HABITAT_COLOUR,
    HABITAT_MOTIF,
    HABITAT_TINT,
    INK,
    MAT_EDGE,
    MUTED,
    PAGE,
    RGB,
    SIDE_STRIP,
    SLOT,
    SLOT_TEXT,
    WHITE,
)

W, H = 150, 190
"""The card in design units; every coordinate below is in these."""
S = 2 * CARD_W / W
"""Supersampling factor: design units to pixels of the large drawing (2.4)."""


SHRINK = S * W / CARD_W
"""How much the large drawing is scaled down (2): its text shows at its size divided by this."""


def _px(v: float) -> int:
    """A design length in pixels of the large drawing."""
    return round(v * S)

STRIP = 32
"""Width of the habitat strip down the card's left side."""
NAME_TOP = 128
"""Where the name band starts."""
RADIUS = 10


def _box(x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
    return (round(x0 * S), round(y0 * S), round(x1 * S), round(y1 * S))


# --------------------------------------------------------------------------- landscapes


def _scene(habitat: Habitat, w: int, h: int, details: bool = True) -> Image.Image:
    """A small landscape for one habitat, `w` x `h` pixels at supersampled scale; `details` adds
    the small things (a reed) that would sit under a Wild card's corner badge."""
    img = Image.new("RGB", (w, h), HABITAT_TINT[habitat])
    d = ImageDraw.Draw(img)
    motif = HABITAT_MOTIF[habitat]
    if habitat is Habitat.FOREST:
        for i, (cx, top) in enumerate(((0.2, 0.25), (0.5, 0.1), (0.8, 0.3), (0.05, 0.5), (0.65, 0.45), (0.95, 0.55))):
            shade = motif if i < 3 else tuple(max(0, c - 22) for c in motif)
            d.polygon([(cx * w, top * h), ((cx + 0.17) * w, h), ((cx - 0.17) * w, h)], fill=shade)
    elif habitat is Habitat.DESERT:
        d.ellipse((w * 0.62, h * 0.08, w * 0.86, h * 0.08 + w * 0.24), fill=(246, 212, 150))
        d.ellipse((-w * 0.4, h * 0.55, w * 0.7, h * 1.6), fill=motif)
        d.ellipse((w * 0.3, h * 0.7, w * 1.5, h * 1.8), fill=tuple(max(0, c - 18) for c in motif))
    elif habitat is Habitat.WETLAND:
        for row in range(4):
            y0 = h * (0.3 + row * 0.2)
            points = [(x, y0 + math.sin(x / w * 4 * math.pi + row) * h * 0.05) for x in range(0, w + 4, 4)]
            d.line(points, fill=motif, width=max(3, h // 22))
        if not details:
            return img
        d.rectangle((w * 0.8, h * 0.12, w * 0.83, h * 0.55), fill=(150, 170, 120))
        d.ellipse((w * 0.785, h * 0.05, w * 0.845, h * 0.3), fill=(130, 100, 70))
    else:
        peaks = ((0.25, 0.15, 0.5), (0.7, 0.05, 0.6), (1.0, 0.35, 0.4))
        for cx, top, half in peaks:
            base = [(cx * w, top * h), ((cx + half) * w, h), ((cx - half) * w, h)]
            d.polygon(base, fill=motif)
            cap = 0.28
            d.polygon(
                [
                    (cx * w, top * h),
                    ((cx + half * cap) * w, (top + (1 - top) * cap) * h),
                    ((cx - half * cap) * w, (top + (1 - top) * cap) * h),
                ],
                fill=WHITE,
            )
    return img


def _landscape(card: Card, w: int, h: int) -> Image.Image:
    """The card's scenes side by side, one column per habitat."""
    img = Image.new("RGB", (w, h))
    count = len(card.habitats)
    for i, habitat in enumerate(card.habitats):
        x0 = w * i // count
        x1 = w * (i + 1) // count
        img.paste(_scene(habitat, x1 - x0, h), (x0, 0))
    return img


# --------------------------------------------------------------------------- faces


def _name_lines(name: str, lang: Language) -> tuple[list[str], int]:
    """The name wrapped into the name band: two lines, or three set closer, at 15 design units
    (18 px shown, the smallest a phone reads, so a long name breaks rather than shrinks: at a
    space, after a hyphen, or at a syllable of its language, as `fonts.name_lines` chooses)."""
    lines = list(fonts.name_lines(name, lang, 15, W - 12))
    return lines, (18 if len(lines) <= 2 else 16)


def _frame(big: Image.Image, edge: RGB, edge_width: int) -> None:
    d = ImageDraw.Draw(big)
    d.rounded_rectangle(_box(0, 0, W - 1, H - 1), radius=_px(RADIUS), fill=CARD, outline=edge,
                        width=_px(edge_width))


def _rounded_mask() -> Image.Image:
    mask = Image.new("L", (_px(W), _px(H)), 0)
    ImageDraw.Draw(mask).rounded_rectangle(_box(0, 0, W - 1, H - 1), radius=_px(RADIUS), fill=255)
    return mask


def _draw_species(big: Image.Image, card: Card) -> None:
    d = ImageDraw.Draw(big)
    art_x0 = STRIP + 1
    scene_top = 66
    big.paste(_landscape(card, _px(W - 2 - art_x0), _px(NAME_TOP - scene_top)), (_px(art_x0), _px(scene_top)))
    d.rectangle(_box(2, 2, STRIP, NAME_TOP), fill=SIDE_STRIP)
    d.line(_box(STRIP, 2, STRIP, NAME_TOP), fill=CARD_EDGE, width=_px(1))
    for i, habitat in enumerate(card.habitats):
        sprite = habitat_icon(habitat, _px(24))
        paste(big, sprite, (_px(5), _px(7 + i * 30)))
    number = str(card.number)
    fonts.draw_text(big, (_px(art_x0 + 8), 0), number, _px(52), INK, anchor="la", bold=True)
    if card.keystone:
        num_w = fonts.width(number, _px(52), bold=True) / S
        paste(big, icon("keystone", _px(26)), (_px(art_x0 + 14 + num_w), _px(16)))
    if card.season is not None:
        paste(big, season_icon(card.season, _px(30)), (_px(W - 36), _px(5)))
    if card.endangered or card.tag:
        paste(big, icon("endangered" if card.endangered else "tag", _px(28)), (_px(W - 35), _px(38)))


def _draw_wild(big: Image.Image, card: Card, lang: Language) -> None:
    d = ImageDraw.Draw(big)
    habitat = card.habitats[0]
    colour = HABITAT_COLOUR[habitat]
    art = _scene(habitat, _px(W - 4), _px(NAME_TOP - 4), details=False)
    ad = ImageDraw.Draw(art)
    for k in range(-H, W, 18):  # bold diagonal stripes: a Wild card is never mistaken for a species
        ad.line([(_px(k), _px(NAME_TOP - 4)), (_px(k + NAME_TOP), 0)], fill=(*HABITAT_MOTIF[habitat],), width=_px(3))
    big.paste(art, (_px(2), _px(2)))
    paste(big, habitat_icon(habitat, _px(30)), (_px(8), _px(8)))
    if card.season is not None:
        paste(big, season_icon(card.season, _px(30)), (_px(W - 38), _px(8)))
    d.rounded_rectangle(_box(22, 50, W - 22, 100), radius=_px(10), fill=WHITE, outline=colour, width=_px(3))
    fonts.draw_text(big, (W / 2 * S, 75 * S), "1-5", _px(34), INK, anchor="mm")
    d.rounded_rectangle(_box(40, 104, W - 40, 124), radius=_px(8), fill=colour)
    light = sum(c * w for c, w in zip(colour, (0.299, 0.587, 0.114), strict=True)) > 150
    badge = tr(lang, "picture.wild.badge")
    fonts.draw_text(big, (W / 2 * S, 114 * S), badge, _px(15), INK if light else WHITE, anchor="mm", bold=True)


def _draw_name(big: Image.Image, name: str, lang: Language) -> None:
    d = ImageDraw.Draw(big)
    d.rectangle(_box(2, NAME_TOP, W - 3, H - 10), fill=WHITE)
    d.line(_box(2, NAME_TOP, W - 3, NAME_TOP), fill=CARD_EDGE, width=_px(1))
    lines, line_h = _name_lines(name, lang)
    size = 15
    top = NAME_TOP + (H - NAME_TOP - line_h * len(lines)) / 2
    for i, line in enumerate(lines):
        fonts.draw_text(big, (W / 2 * S, (top + i * line_h + line_h / 2) * S), line, _px(size), INK, anchor="mm")


FACE_CACHE = 512
"""Faces kept drawn: the 95 cards in two languages at two or three sizes. A full-size face is
180 x 228 RGBA (164 KB), so the faces of one language at full size hold about 16 MB."""
PLACED_CACHE = 128
"""Faces with research tokens on them (a face with none is the plain face, not another copy); one
is redrawn in about a millisecond."""
FLAT_CACHE = 384
"""Opaque faces, flattened once onto the colour they are pasted on."""


def face_height(width: int) -> int:
    """The height of a face drawn `width` px wide (the card's 150 x 190 proportions)."""
    return round(width * CARD_H / CARD_W)


def draw_face(card_id: str, lang: Language = DEFAULT, width: int | None = None) -> Image.Image:
    """A card's face drawn afresh, never cached (`card_face` is the cached one): RGBA, `width` px wide
    (CARD_W by default) and `face_height(width)` high, scaled down once from the large drawing."""
    with fonts.drawn_large(SHRINK):
        big = _card_face(card_id, lang)
    size = (CARD_W, CARD_H) if width is None else (width, face_height(width))
    return big.resize(size, Image.Resampling.LANCZOS)


@functools.lru_cache(maxsize=FACE_CACHE)
def _face(card_id: str, lang: Language, width: int) -> Image.Image:
    return draw_face(card_id, lang, None if width == CARD_W else width)


def card_face(card_id: str, lang: Language = DEFAULT, width: int | None = None) -> Image.Image:
    """A card's face (RGBA, transparent corners), named in `lang`, `width` px wide (CARD_W x CARD_H
    by default; any other width keeps the card's proportions and is scaled once from the large
    drawing, so it is as sharp as the full-size one); cached per (card, language, width), treat as
    read-only."""
    return _face(card_id, lang, CARD_W if width is None else width)


def _card_face(card_id: str, lang: Language) -> Image.Image:
    """The face drawn large (2.4 x CARD_W), before it is scaled down."""
    card = load_catalog().card(card_id)
    big = Image.new("RGBA", (_px(W), _px(H)), (0, 0, 0, 0))
    if card.wild:
        _frame(big, HABITAT_COLOUR[card.habitats[0]], 3)
        _draw_wild(big, card, lang)
        name = tr(lang, "picture.wild.name", habitat=habitat_name(card.habitats[0], lang))
    else:
        _frame(big, CARD_EDGE, 2)
        _draw_species(big, card)
        name = card.name_in(lang)
    _draw_name(big, name, lang)
    edge = HABITAT_COLOUR[card.habitats[0]] if card.wild else CARD_EDGE
    ImageDraw.Draw(big).rounded_rectangle(_box(0, 0, W - 1, H - 1), radius=_px(RADIUS), outline=edge,
                                          width=_px(3 if card.wild else 2))
    big.putalpha(_rounded_mask())
    return big


def _with_research(card_id: str, research: int, lang: Language) -> Image.Image:
    """The full-size face with its research tokens lying on it."""
    out = card_face(card_id, lang).copy()
    name_top = round(NAME_TOP * CARD_W / W)
    token = icon("research", 40)
    paste(out, token, (CARD_W - 46, name_top - 46))
    if research > 1:
        d = ImageDraw.Draw(out)
        label = f"x{research}"
        w = fonts.width(label, 20, bold=True) + 12
        box = (CARD_W - 50 - w, name_top - 42, CARD_W - 46, name_top - 12)
        d.rounded_rectangle(box, radius=8, fill=WHITE, outline=INK, width=2)
        fonts.draw_text(out, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), label, 20, INK, anchor="mm", bold=True)
    return out


@functools.lru_cache(maxsize=PLACED_CACHE)
def _placed(card_id: str, research: int, lang: Language, width: int) -> Image.Image:
    full = _with_research(card_id, research, lang)
    return full if width == CARD_W else full.resize((width, face_height(width)), Image.Resampling.LANCZOS)


def placed_face(card_id: str, research: int, lang: Language = DEFAULT, width: int | None = None) -> Image.Image:
    """A face with its research tokens lying on it; several show their count in a white badge large
    enough to read on a phone (drawn at full size, then scaled to `width` if one is given). Cached
    per (card, research, language, width); with no research it is `card_face` itself."""
    if research <= 0:
        return card_face(card_id, lang, width)
    return _placed(card_id, research, lang, CARD_W if width is None else width)


def flatten(sprite: Image.Image, background: RGB) -> Image.Image:
    """`sprite` laid on a plain `background` once: an opaque RGB image that pastes without a mask
    (a plain copy, some twenty times quicker than an alpha paste) and gives the very pixels the alpha
    paste gives wherever the canvas under the sprite's transparent corners is `background`."""
    out = Image.new("RGB", sprite.size, background)
    out.paste(sprite, (0, 0), sprite)
    return out


@functools.lru_cache(maxsize=FLAT_CACHE)
def _flat(card_id: str, research: int, lang: Language, width: int, background: RGB) -> Image.Image:
    return flatten(placed_face(card_id, research, lang, width), background)


def flat_face(card_id: str, lang: Language = DEFAULT, research: int = 0, width: int | None = None,
              background: RGB = PAGE) -> Image.Image:
    """`placed_face` flattened onto `background` (the colour under the card: PAGE on the table, MAT
    on a board): RGB, opaque, cached per (card, research, language, width, background); paste it
    with no mask (`icons.paste` does so for an RGB sprite)."""
    return _flat(card_id, max(0, research), lang, CARD_W if width is None else width, background)


@functools.lru_cache(maxsize=16)
def card_back(width: int = CARD_W, height: int = CARD_H) -> Image.Image:
    """The back of a Species card: for the deck."""
    k = 2
    big = Image.new("RGBA", (width * k, height * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, width * k - 1, height * k - 1), radius=RADIUS * k, fill=(44, 74, 56),
                        outline=MAT_EDGE, width=2 * k)
    d.rounded_rectangle((8 * k, 8 * k, (width - 8) * k, (height - 8) * k), radius=6 * k, outline=GOLD, width=2 * k)
    for j in range(-height, width, 14):
        d.line([(j * k, (height - 10) * k), ((j + height) * k, 10 * k)], fill=(52, 84, 64), width=2 * k)
    d.rounded_rectangle((8 * k, 8 * k, (width - 8) * k, (height - 8) * k), radius=6 * k, outline=GOLD, width=2 * k)
    size = min(width, height) // 3
    paste(big, icon("keystone", size * k), ((width - size) // 2 * k, (height - size) // 2 * k))
    return big.resize((width, height), Image.Resampling.LANCZOS)


@functools.lru_cache(maxsize=32)
def empty_cell(label: str) -> Image.Image:
    """An empty board cell showing its coordinate, which is what `/take` asks for."""
    big = Image.new("RGBA", (_px(W), _px(H)), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle(_box(0, 0, W - 1, H - 1), radius=_px(RADIUS), fill=SLOT, outline=MAT_EDGE, width=_px(2))
    d.rounded_rectangle(_box(6, 6, W - 7, H - 7), radius=_px(RADIUS - 3), outline=(96, 128, 108), width=_px(1))
    with fonts.drawn_large(SHRINK):
        fonts.draw_text(big, (W / 2 * S, H / 2 * S), label, _px(40), SLOT_TEXT, anchor="mm")
    return big.resize((CARD_W, CARD_H), Image.Resampling.LANCZOS)


@functools.lru_cache(maxsize=32)
def empty_slot(width: int = CARD_W, height: int = CARD_H, label: str = tr(DEFAULT, "picture.empty")) -> Image.Image:
    """A Field slot with no card (the deck ran dry), or an empty pile."""
    img = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, width - 1, height - 1), radius=RADIUS, outline=MUTED, width=2)
    fonts.draw_text(img, (width / 2, height / 2), label, 20, MUTED, anchor="mm")
    return img
