"""Card faces, card backs and empty board cells, each drawn once and cached.

A face is drawn at twice its size and scaled down, so its rounded frame and landscape are smooth.
The landscape strip shows one small scene per habitat of the card (pines, dunes, waves, peaks):
our own art, and a second way to read the habitats at a glance.
"""

from __future__ import annotations

import functools
import math

from PIL import Image, ImageDraw

from keystone.cards import Card, Habitat
from keystone.data import load_catalog
from keystone.engine.words import HABITAT_NAMES
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
    RGB,
    SIDE_STRIP,
    SLOT,
    SLOT_TEXT,
    WHITE,
)

S = 2
"""Supersampling factor for card faces."""
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


def _name_lines(name: str) -> tuple[list[str], int]:
    """The name wrapped into the name band: two lines at 15 px, or three at 14 px."""
    room = CARD_W - 12
    lines = fonts.wrap(name, 15, room, max_lines=9)
    if len(lines) <= 2:
        return lines, 15
    return fonts.wrap(name, 14, room, max_lines=3), 14


def _frame(big: Image.Image, edge: RGB, edge_width: int) -> None:
    d = ImageDraw.Draw(big)
    d.rounded_rectangle(_box(0, 0, CARD_W - 1, CARD_H - 1), radius=RADIUS * S, fill=CARD, outline=edge,
                        width=edge_width * S)


def _rounded_mask() -> Image.Image:
    mask = Image.new("L", (CARD_W * S, CARD_H * S), 0)
    ImageDraw.Draw(mask).rounded_rectangle(_box(0, 0, CARD_W - 1, CARD_H - 1), radius=RADIUS * S, fill=255)
    return mask


def _draw_species(big: Image.Image, card: Card) -> None:
    d = ImageDraw.Draw(big)
    art_x0 = STRIP + 1
    scene_top = 66
    big.paste(_landscape(card, (CARD_W - 2 - art_x0) * S, (NAME_TOP - scene_top) * S), (art_x0 * S, scene_top * S))
    d.rectangle(_box(2, 2, STRIP, NAME_TOP), fill=SIDE_STRIP)
    d.line(_box(STRIP, 2, STRIP, NAME_TOP), fill=CARD_EDGE, width=S)
    for i, habitat in enumerate(card.habitats):
        sprite = habitat_icon(habitat, 24 * S)
        paste(big, sprite, (5 * S, (7 + i * 30) * S))
    number = str(card.number)
    fonts.draw_text(big, ((art_x0 + 8) * S, 0), number, 52 * S, INK, anchor="la", bold=True)
    if card.keystone:
        num_w = fonts.width(number, 52 * S, bold=True) // S
        paste(big, icon("keystone", 26 * S), ((art_x0 + 14 + num_w) * S, 16 * S))
    if card.season is not None:
        paste(big, season_icon(card.season, 30 * S), ((CARD_W - 36) * S, 5 * S))
    if card.endangered or card.tag:
        paste(big, icon("endangered" if card.endangered else "tag", 28 * S), ((CARD_W - 35) * S, 38 * S))


def _draw_wild(big: Image.Image, card: Card) -> None:
    d = ImageDraw.Draw(big)
    habitat = card.habitats[0]
    colour = HABITAT_COLOUR[habitat]
    art = _scene(habitat, (CARD_W - 4) * S, (NAME_TOP - 4) * S, details=False)
    ad = ImageDraw.Draw(art)
    for k in range(-CARD_H, CARD_W, 18):  # bold diagonal stripes: a Wild card is never mistaken for a species
        ad.line([(k * S, (NAME_TOP - 4) * S), ((k + NAME_TOP) * S, 0)], fill=(*HABITAT_MOTIF[habitat],), width=3 * S)
    big.paste(art, (2 * S, 2 * S))
    paste(big, habitat_icon(habitat, 30 * S), (8 * S, 8 * S))
    if card.season is not None:
        paste(big, season_icon(card.season, 30 * S), ((CARD_W - 38) * S, 8 * S))
    d.rounded_rectangle(_box(22, 50, CARD_W - 22, 100), radius=10 * S, fill=WHITE, outline=colour, width=3 * S)
    fonts.draw_text(big, (CARD_W / 2 * S, 75 * S), "1-5", 34 * S, INK, anchor="mm")
    d.rounded_rectangle(_box(40, 104, CARD_W - 40, 124), radius=8 * S, fill=colour)
    light = sum(c * w for c, w in zip(colour, (0.299, 0.587, 0.114), strict=True)) > 150
    fonts.draw_text(big, (CARD_W / 2 * S, 114 * S), "WILD", 15 * S, INK if light else WHITE, anchor="mm", bold=True)


def _draw_name(big: Image.Image, name: str) -> None:
    d = ImageDraw.Draw(big)
    d.rectangle(_box(2, NAME_TOP, CARD_W - 3, CARD_H - 10), fill=WHITE)
    d.line(_box(2, NAME_TOP, CARD_W - 3, NAME_TOP), fill=CARD_EDGE, width=S)
    lines, size = _name_lines(name)
    line_h = size + 3
    top = NAME_TOP + (CARD_H - NAME_TOP - line_h * len(lines)) / 2
    for i, line in enumerate(lines):
        fonts.draw_text(big, (CARD_W / 2 * S, (top + i * line_h + line_h / 2) * S), line, size * S, INK, anchor="mm")


@functools.cache
def card_face(card_id: str) -> Image.Image:
    """A card's face (RGBA, CARD_W x CARD_H, transparent corners); cached, treat as read-only."""
    card = load_catalog().card(card_id)
    big = Image.new("RGBA", (CARD_W * S, CARD_H * S), (0, 0, 0, 0))
    if card.wild:
        _frame(big, HABITAT_COLOUR[card.habitats[0]], 3)
        _draw_wild(big, card)
        name = f"{HABITAT_NAMES[card.habitats[0]]} Wild"
    else:
        _frame(big, CARD_EDGE, 2)
        _draw_species(big, card)
        name = card.name
    _draw_name(big, name)
    edge = HABITAT_COLOUR[card.habitats[0]] if card.wild else CARD_EDGE
    ImageDraw.Draw(big).rounded_rectangle(_box(0, 0, CARD_W - 1, CARD_H - 1), radius=RADIUS * S, outline=edge,
                                          width=(3 if card.wild else 2) * S)
    big.putalpha(_rounded_mask())
    return big.resize((CARD_W, CARD_H), Image.Resampling.LANCZOS)


@functools.lru_cache(maxsize=1024)
def placed_face(card_id: str, research: int) -> Image.Image:
    """A face with its research tokens lying on it (a number on the token when there are several)."""
    face = card_face(card_id)
    if research <= 0:
        return face
    out = face.copy()
    token = icon("research", 30)
    paste(out, token, (CARD_W - 36, NAME_TOP - 36))
    if research > 1:
        d = ImageDraw.Draw(out)
        d.ellipse((CARD_W - 50, NAME_TOP - 44, CARD_W - 30, NAME_TOP - 24), fill=WHITE, outline=INK, width=1)
        fonts.draw_text(out, (CARD_W - 40, NAME_TOP - 34), str(research), 14, INK, anchor="mm")
    return out


@functools.cache
def card_back(width: int = CARD_W, height: int = CARD_H) -> Image.Image:
    """The back of a Species card: for the deck."""
    big = Image.new("RGBA", (width * S, height * S), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, width * S - 1, height * S - 1), radius=RADIUS * S, fill=(44, 74, 56),
                        outline=MAT_EDGE, width=2 * S)
    d.rounded_rectangle((8 * S, 8 * S, (width - 8) * S, (height - 8) * S), radius=6 * S, outline=GOLD, width=2 * S)
    for k in range(-height, width, 14):
        d.line([(k * S, (height - 10) * S), ((k + height) * S, 10 * S)], fill=(52, 84, 64), width=2 * S)
    d.rounded_rectangle((8 * S, 8 * S, (width - 8) * S, (height - 8) * S), radius=6 * S, outline=GOLD, width=2 * S)
    size = min(width, height) // 3
    paste(big, icon("keystone", size * S), ((width - size) // 2 * S, (height - size) // 2 * S))
    return big.resize((width, height), Image.Resampling.LANCZOS)


@functools.cache
def empty_cell(label: str) -> Image.Image:
    """An empty board cell showing its coordinate, which is what `/take` asks for."""
    big = Image.new("RGBA", (CARD_W * S, CARD_H * S), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle(_box(0, 0, CARD_W - 1, CARD_H - 1), radius=RADIUS * S, fill=SLOT, outline=MAT_EDGE,
                        width=2 * S)
    d.rounded_rectangle(_box(6, 6, CARD_W - 7, CARD_H - 7), radius=(RADIUS - 3) * S, outline=(96, 128, 108),
                        width=S)
    fonts.draw_text(big, (CARD_W / 2 * S, CARD_H / 2 * S), label, 40 * S, SLOT_TEXT, anchor="mm")
    return big.resize((CARD_W, CARD_H), Image.Resampling.LANCZOS)


@functools.cache
def empty_slot(width: int = CARD_W, height: int = CARD_H) -> Image.Image:
    """A Field slot with no card (the deck ran dry)."""
    img = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, width - 1, height - 1), radius=RADIUS, outline=MUTED, width=2)
    fonts.draw_text(img, (width / 2, height / 2), "empty", 16, MUTED, anchor="mm")
    return img
