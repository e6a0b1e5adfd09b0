"""The art the bot ships as files: its avatar and the icons the pictures use, drawn by this code.

`python -m keystone render --assets assets/` writes them; a test checks that the committed files
are what this code draws now, so the files and the pictures never drift apart.
"""

from __future__ import annotations

import io
import math
from pathlib import Path

from PIL import Image, ImageDraw

from keystone.cards import Habitat
from keystone.render.icons import PAINTERS, SS, icon
from keystone.render.palette import GOLD, HABITAT_COLOUR, INK, MAT, PAGE, RGB, STONE

AVATAR_SIZE = 512
"""Discord's recommended avatar size; it shows it as small as 32 px, cropped to a circle."""
ICON_SIZE = 128
KEYSTONE_LIGHT: RGB = (250, 226, 150)
"""The highlight on the keystone icon's stone."""

ARCH_STONES: tuple[Habitat, ...] = (Habitat.FOREST, Habitat.DESERT, Habitat.WETLAND, Habitat.ARCTIC)
"""The stones of each side of the arch, from the ground up; the keystone closes them at the top."""


def _ring_stone(centre: tuple[float, float], inner: float, outer: float, start: float, end: float,
                inset: float = 0.0, steps: int = 24) -> list[tuple[float, float]]:
    """One stone of an arch: the ring between two radii and two angles (radians, y up), drawn
    `inset` pixels inside its edges so the ink behind it shows as an even joint."""
    cx, cy = centre
    r_out, r_in = outer - inset, inner + inset
    points = []
    for radius, forward in ((r_out, True), (r_in, False)):
        turn = math.asin(min(1.0, inset / radius))  # keeps the side joints parallel, not wedge-shaped
        a0, a1 = (start - turn, end + turn) if forward else (end + turn, start - turn)
        for i in range(steps + 1):
            a = a0 + (a1 - a0) * i / steps
            points.append((cx + radius * math.cos(a), cy - radius * math.sin(a)))
    return points


def _block(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], fill: RGB, line: float) -> None:
    """A rectangle with an ink edge `line` wide (drawn as two fills: Pillow's wide outlines are ragged)."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=INK)
    draw.rectangle((x0 + line, y0 + line, x1 - line, y1 - line), fill=fill)


def _arch(draw: ImageDraw.ImageDraw, s: int, radius: float = 0.32) -> None:
    """A stone arch whose sides are the four habitats and whose top is the gold keystone, standing
    on two piers, all inside the circle a round avatar keeps."""
    line = s * 0.017
    r = radius * s
    centre = (0.5 * s, 0.5 * s + 0.285 * r)
    inner, top = 0.52 * r, 1.12 * r
    pier_w, pier_h = 0.48 * r, 0.45 * r
    for x0 in (centre[0] - r, centre[0] + r - pier_w):
        _block(draw, (x0, centre[1] - line, x0 + pier_w, centre[1] + pier_h), STONE, line)
    stones = len(ARCH_STONES) * 2 + 1
    step = math.pi / stones
    for i in range(stones):
        side = min(i, stones - 1 - i)
        start, end = math.pi - i * step, math.pi - (i + 1) * step
        keystone = side == len(ARCH_STONES)
        low, high = (inner * 0.9, top) if keystone else (inner, r)
        colour = GOLD if keystone else HABITAT_COLOUR[ARCH_STONES[side]]
        draw.polygon(_ring_stone(centre, low - line / 2, high + line / 2, start, end), fill=INK)
        draw.polygon(_ring_stone(centre, low - line / 2, high + line / 2, start, end, line), fill=colour)
        if keystone:  # the light band of the keystone icon
            band = _ring_stone(centre, top - 0.16 * r, top - 0.09 * r, start - step * 0.25, end + step * 0.25)
            draw.polygon(band, fill=KEYSTONE_LIGHT)
    ground = centre[1] + pier_h
    draw.rectangle((centre[0] - 1.04 * r, ground - line, centre[0] + 1.04 * r, ground + 0.1 * r), fill=INK)


def avatar(size: int = AVATAR_SIZE) -> Image.Image:
    """The bot's avatar: the keystone arch on the board's green, inside the circle Discord keeps."""
    s = size * SS
    image = Image.new("RGB", (s, s), MAT)
    draw = ImageDraw.Draw(image)
    draw.ellipse((0.03 * s, 0.03 * s, 0.97 * s, 0.97 * s), fill=PAGE)
    _arch(draw, s)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def icon_file(name: str) -> str:
    """The file an icon is kept in: `habitat:forest` -> `icons/habitat-forest.png`."""
    return f"icons/{name.replace(':', '-')}.png"


def images() -> dict[str, Image.Image]:
    """Every asset by its path under the assets folder."""
    found = {"avatar.png": avatar()}
    found.update({icon_file(name): icon(name, ICON_SIZE) for name in PAINTERS})
    return found


def encode(image: Image.Image) -> bytes:
    """Lossless PNG with no metadata: no time, no text, so the same drawing gives the same bytes."""
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def write_assets(directory: Path) -> list[Path]:
    """Draw every asset into `directory` (made if missing); returns the files written."""
    written = []
    for name, image in images().items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(encode(image))
        written.append(path)
    return written

