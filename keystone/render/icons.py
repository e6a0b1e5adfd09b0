"""Icons drawn in code: habitat shapes, season glyphs, card icons and tokens.

Each icon is drawn four times too large and scaled down, which gives smooth edges that Pillow's
shape drawing lacks; the result is cached, so a board only pastes finished sprites.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

from PIL import Image, ImageDraw

from keystone.cards import Habitat, Season, Symbol
from keystone.render.palette import (
    ACTIVE,
    ACTIVE_DARK,
    ALERT,
    ENDANGERED,
    GOLD,
    GOLD_DARK,
    GOOD,
    HABITAT_COLOUR,
    INK,
    RESEARCH,
    SEASON_COLOUR,
    STONE,
    STONE_DARK,
    SYNERGY,
    TAG,
    WHITE,
)

SS = 4
"""Supersampling factor for icons."""

Painter = Callable[[ImageDraw.ImageDraw, int], None]
Point = tuple[float, float]


def _pts(s: int, *points: Point) -> list[Point]:
    """Unit-square points scaled to an `s`-pixel canvas."""
    return [(x * s, y * s) for x, y in points]


def _line(s: int) -> int:
    """Outline width for a canvas of `s` pixels (about 1.5 px once scaled down)."""
    return max(2, round(s * 0.06))


# --------------------------------------------------------------------------- habitats


def _forest(d: ImageDraw.ImageDraw, s: int) -> None:
    w = _line(s)
    d.rectangle(_pts(s, (0.42, 0.72), (0.58, 0.96)), fill=(110, 72, 40), outline=INK, width=w)
    d.polygon(_pts(s, (0.5, 0.03), (0.93, 0.80), (0.07, 0.80)), fill=HABITAT_COLOUR[Habitat.FOREST], outline=INK,
              width=w)


def _desert(d: ImageDraw.ImageDraw, s: int) -> None:
    """A saguaro cactus: a trunk with two raised arms, so it is never taken for Summer's round sun."""
    w = _line(s)
    fill = HABITAT_COLOUR[Habitat.DESERT]
    arm = 0.16
    d.rounded_rectangle(_pts(s, (0.06, 0.28), (0.06 + arm, 0.64)), radius=s * arm / 2, fill=fill, outline=INK,
                        width=w)
    d.rounded_rectangle(_pts(s, (0.78, 0.18), (0.78 + arm, 0.56)), radius=s * arm / 2, fill=fill, outline=INK,
                        width=w)
    d.rectangle(_pts(s, (0.12, 0.5), (0.4, 0.64)), fill=fill, outline=INK, width=w)
    d.rectangle(_pts(s, (0.6, 0.42), (0.86, 0.56)), fill=fill, outline=INK, width=w)
    d.rounded_rectangle(_pts(s, (0.36, 0.03), (0.64, 0.97)), radius=s * 0.14, fill=fill, outline=INK, width=w)
    d.rectangle(_pts(s, (0.12 + 0.01, 0.5 + 0.03), (0.4 + 0.04, 0.64 - 0.03)), fill=fill)
    d.rectangle(_pts(s, (0.6 - 0.04, 0.42 + 0.03), (0.86 - 0.01, 0.56 - 0.03)), fill=fill)


def _wetland(d: ImageDraw.ImageDraw, s: int) -> None:
    steps = 64
    points = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        points.append((0.5 + 0.44 * math.sin(t) * math.sin(t / 2), 0.52 - 0.46 * math.cos(t)))
    d.polygon(_pts(s, *points), fill=HABITAT_COLOUR[Habitat.WETLAND], outline=INK, width=_line(s))


def _arctic(d: ImageDraw.ImageDraw, s: int) -> None:
    """Two snow-capped peaks: wide and low, unlike the tall single pine of the forest."""
    d.polygon(_pts(s, (0.02, 0.86), (0.34, 0.16), (0.52, 0.5), (0.68, 0.3), (0.98, 0.86)),
              fill=HABITAT_COLOUR[Habitat.ARCTIC], outline=INK, width=_line(s))
    d.polygon(_pts(s, (0.34, 0.22), (0.44, 0.44), (0.36, 0.38), (0.27, 0.44)), fill=WHITE)
    d.polygon(_pts(s, (0.68, 0.35), (0.75, 0.48), (0.68, 0.45), (0.62, 0.48)), fill=WHITE)


HABITAT_PAINTERS: dict[Habitat, Painter] = {
    Habitat.FOREST: _forest,
    Habitat.DESERT: _desert,
    Habitat.WETLAND: _wetland,
    Habitat.ARCTIC: _arctic,
}

# --------------------------------------------------------------------------- seasons


def _badge(d: ImageDraw.ImageDraw, s: int) -> None:
    d.ellipse(_pts(s, (0.03, 0.03), (0.97, 0.97)), fill=WHITE, outline=INK, width=_line(s))


def _spring(d: ImageDraw.ImageDraw, s: int) -> None:
    _badge(d, s)
    colour = SEASON_COLOUR[Season.SPRING]
    for i in range(5):
        a = -math.pi / 2 + 2 * math.pi * i / 5
        cx, cy = 0.5 + 0.2 * math.cos(a), 0.5 + 0.2 * math.sin(a)
        d.ellipse(_pts(s, (cx - 0.15, cy - 0.15), (cx + 0.15, cy + 0.15)), fill=colour)
    d.ellipse(_pts(s, (0.39, 0.39), (0.61, 0.61)), fill=(250, 210, 60))


def _summer(d: ImageDraw.ImageDraw, s: int) -> None:
    _badge(d, s)
    colour = SEASON_COLOUR[Season.SUMMER]
    for i in range(8):
        a = 2 * math.pi * i / 8
        tip = (0.5 + 0.40 * math.cos(a), 0.5 + 0.40 * math.sin(a))
        left = (0.5 + 0.22 * math.cos(a - 0.35), 0.5 + 0.22 * math.sin(a - 0.35))
        right = (0.5 + 0.22 * math.cos(a + 0.35), 0.5 + 0.22 * math.sin(a + 0.35))
        d.polygon(_pts(s, tip, left, right), fill=colour)
    d.ellipse(_pts(s, (0.3, 0.3), (0.7, 0.7)), fill=colour)


def _fall(d: ImageDraw.ImageDraw, s: int) -> None:
    _badge(d, s)
    colour = SEASON_COLOUR[Season.FALL]
    points = []
    for i in range(48):
        t = 2 * math.pi * i / 48
        # A leaf: a lens shape along the diagonal.
        u, v = 0.34 * math.cos(t), 0.17 * math.sin(t) * (1 - 0.3 * math.cos(t))
        points.append((0.52 + (u - v) * 0.7071, 0.48 + (u + v) * -0.7071 * -1))
    points = [(x, 1 - y) for x, y in points]
    d.polygon(_pts(s, *points), fill=colour)
    d.line(_pts(s, (0.22, 0.78), (0.72, 0.28)), fill=WHITE, width=max(1, s // 30))
    d.line(_pts(s, (0.16, 0.84), (0.30, 0.70)), fill=colour, width=max(2, s // 18))


def _winter(d: ImageDraw.ImageDraw, s: int) -> None:
    _badge(d, s)
    colour = SEASON_COLOUR[Season.WINTER]
    w = max(2, s // 14)
    for i in range(3):
        a = math.pi / 2 + math.pi / 3 * i
        dx, dy = 0.36 * math.cos(a), 0.36 * math.sin(a)
        d.line(_pts(s, (0.5 - dx, 0.5 - dy), (0.5 + dx, 0.5 + dy)), fill=colour, width=w)
        for sign in (1, -1):
            bx, by = 0.5 + sign * dx * 0.62, 0.5 + sign * dy * 0.62
            for turn in (0.7, -0.7):
                ex = bx + sign * 0.12 * math.cos(a + turn)
                ey = by + sign * 0.12 * math.sin(a + turn)
                d.line(_pts(s, (bx, by), (ex, ey)), fill=colour, width=max(2, w * 2 // 3))


SEASON_PAINTERS: dict[Season, Painter] = {
    Season.SPRING: _spring,
    Season.SUMMER: _summer,
    Season.FALL: _fall,
    Season.WINTER: _winter,
}

# --------------------------------------------------------------------------- card icons and tokens


def _keystone(d: ImageDraw.ImageDraw, s: int) -> None:
    d.polygon(_pts(s, (0.12, 0.1), (0.88, 0.1), (0.68, 0.92), (0.32, 0.92)), fill=GOLD, outline=INK, width=_line(s))
    d.line(_pts(s, (0.26, 0.24), (0.74, 0.24)), fill=(250, 226, 150), width=max(2, s // 20))


def _endangered(d: ImageDraw.ImageDraw, s: int) -> None:
    d.polygon(_pts(s, (0.5, 0.05), (0.96, 0.9), (0.04, 0.9)), fill=ENDANGERED, outline=INK, width=_line(s))
    d.rounded_rectangle(_pts(s, (0.44, 0.32), (0.56, 0.64)), radius=s * 0.04, fill=WHITE)
    d.ellipse(_pts(s, (0.43, 0.7), (0.57, 0.83)), fill=WHITE)


def _tag(d: ImageDraw.ImageDraw, s: int) -> None:
    d.polygon(_pts(s, (0.04, 0.5), (0.34, 0.16), (0.95, 0.16), (0.95, 0.84), (0.34, 0.84)), fill=TAG, outline=INK,
              width=_line(s))
    d.ellipse(_pts(s, (0.24, 0.4), (0.44, 0.6)), fill=WHITE, outline=INK, width=max(1, s // 30))


def _synergy(d: ImageDraw.ImageDraw, s: int) -> None:
    d.ellipse(_pts(s, (0.04, 0.04), (0.96, 0.96)), fill=SYNERGY, outline=GOLD_DARK, width=_line(s))
    d.ellipse(_pts(s, (0.2, 0.2), (0.8, 0.8)), outline=GOLD_DARK, width=max(1, s // 24))
    # Two joined leaves: synergy between neighbours.
    d.ellipse(_pts(s, (0.3, 0.36), (0.52, 0.64)), fill=GOLD_DARK)
    d.ellipse(_pts(s, (0.48, 0.36), (0.7, 0.64)), fill=GOLD_DARK)


def _research(d: ImageDraw.ImageDraw, s: int) -> None:
    d.ellipse(_pts(s, (0.04, 0.04), (0.96, 0.96)), fill=RESEARCH, outline=INK, width=_line(s))
    d.ellipse(_pts(s, (0.24, 0.22), (0.6, 0.58)), outline=WHITE, width=max(2, s // 12))
    d.line(_pts(s, (0.55, 0.54), (0.76, 0.76)), fill=WHITE, width=max(3, s // 9))


def _hourglass(d: ImageDraw.ImageDraw, s: int) -> None:
    w = _line(s)
    d.polygon(_pts(s, (0.18, 0.08), (0.82, 0.08), (0.5, 0.5)), fill=(246, 224, 170), outline=INK, width=w)
    d.polygon(_pts(s, (0.5, 0.5), (0.82, 0.92), (0.18, 0.92)), fill=(214, 170, 80), outline=INK, width=w)
    d.line(_pts(s, (0.12, 0.06), (0.88, 0.06)), fill=INK, width=w * 2)
    d.line(_pts(s, (0.12, 0.94), (0.88, 0.94)), fill=INK, width=w * 2)


def _crown(d: ImageDraw.ImageDraw, s: int) -> None:
    d.polygon(
        _pts(s, (0.08, 0.82), (0.08, 0.3), (0.3, 0.55), (0.5, 0.18), (0.7, 0.55), (0.92, 0.3), (0.92, 0.82)),
        fill=GOLD,
        outline=INK,
        width=_line(s),
    )
    for x, y in ((0.08, 0.3), (0.5, 0.18), (0.92, 0.3)):
        d.ellipse(_pts(s, (x - 0.07, y - 0.07), (x + 0.07, y + 0.07)), fill=GOLD, outline=INK, width=max(1, s // 40))


def _check(d: ImageDraw.ImageDraw, s: int) -> None:
    d.ellipse(_pts(s, (0.04, 0.04), (0.96, 0.96)), fill=GOOD)
    d.line(_pts(s, (0.26, 0.52), (0.44, 0.7), (0.76, 0.32)), fill=WHITE, width=max(3, s // 8), joint="curve")


def _cross(d: ImageDraw.ImageDraw, s: int) -> None:
    d.ellipse(_pts(s, (0.04, 0.04), (0.96, 0.96)), fill=STONE)
    w = max(3, s // 9)
    d.line(_pts(s, (0.32, 0.32), (0.68, 0.68)), fill=WHITE, width=w)
    d.line(_pts(s, (0.68, 0.32), (0.32, 0.68)), fill=WHITE, width=w)


def _token(active: bool) -> Painter:
    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        face, edge = (ACTIVE, ACTIVE_DARK) if active else (STONE, STONE_DARK)
        d.ellipse(_pts(s, (0.03, 0.03), (0.97, 0.97)), fill=edge)
        d.ellipse(_pts(s, (0.08, 0.08), (0.92, 0.92)), fill=face)
        if active:  # grass blades along the bottom
            for i in range(7):
                x = 0.22 + i * 0.093
                d.polygon(_pts(s, (x - 0.035, 0.84), (x + 0.01, 0.66 - 0.05 * (i % 2)), (x + 0.035, 0.84)),
                          fill=ACTIVE_DARK)
        else:  # cracks in the stone
            d.line(_pts(s, (0.2, 0.7), (0.34, 0.76), (0.42, 0.86)), fill=STONE_DARK, width=max(2, s // 40))
            d.line(_pts(s, (0.7, 0.18), (0.76, 0.3), (0.86, 0.34)), fill=STONE_DARK, width=max(2, s // 40))

    return paint


def _alert(d: ImageDraw.ImageDraw, s: int) -> None:
    d.ellipse(_pts(s, (0.04, 0.04), (0.96, 0.96)), fill=ALERT)
    d.rounded_rectangle(_pts(s, (0.43, 0.2), (0.57, 0.6)), radius=s * 0.04, fill=WHITE)
    d.ellipse(_pts(s, (0.42, 0.67), (0.58, 0.83)), fill=WHITE)


PAINTERS: dict[str, Painter] = {
    **{f"habitat:{h.value}": p for h, p in HABITAT_PAINTERS.items()},
    **{f"season:{s.value}": p for s, p in SEASON_PAINTERS.items()},
    "keystone": _keystone,
    "endangered": _endangered,
    "tag": _tag,
    "synergy": _synergy,
    "research": _research,
    "hourglass": _hourglass,
    "crown": _crown,
    "check": _check,
    "cross": _cross,
    "token:active": _token(True),
    "token:exhausted": _token(False),
    "alert": _alert,
}


ICON_CACHE = 256
"""Sprites kept drawn: the pictures ask for some 60 (name, size) pairs, the card faces' large
drawing some 15 more; a 56 px sprite holds 12 KB."""


@functools.lru_cache(maxsize=ICON_CACHE)
def icon(name: str, size: int) -> Image.Image:
    """The named icon as a `size`-pixel RGBA sprite (cached per (name, size); treat it as read-only)."""
    painter = PAINTERS[name]
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    painter(ImageDraw.Draw(big), size * SS)
    return big.resize((size, size), Image.Resampling.LANCZOS)


def habitat_icon(habitat: Habitat, size: int) -> Image.Image:
    return icon(f"habitat:{habitat.value}", size)


def season_icon(season: Season, size: int) -> Image.Image:
    return icon(f"season:{season.value}", size)


def symbol_icon(symbol: Symbol, size: int) -> Image.Image:
    """The icon a secret-objective goal counts: a season badge, Endangered or Tag."""
    if symbol in (Symbol.ENDANGERED, Symbol.TAG):
        return icon(symbol.value, size)
    return season_icon(Season(symbol.value), size)


def paste(canvas: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    """Alpha-composite a sprite onto a canvas at integer `xy`; an opaque sprite (mode RGB, such as
    `cards.flat_face`) is copied, with no mask to blend through."""
    if sprite.mode in ("RGBA", "LA", "RGBa", "La"):
        canvas.paste(sprite, xy, sprite)
    else:
        canvas.paste(sprite, xy)
